package io.qdrant.esgateway.adapter.out.lucene.analysis;

import io.qdrant.esgateway.domain.analysis.AnalyzeDetail;
import io.qdrant.esgateway.domain.analysis.AnalyzeDetail.CharFiltered;
import io.qdrant.esgateway.domain.analysis.AnalyzeDetail.DetailedToken;
import io.qdrant.esgateway.domain.analysis.AnalyzeDetail.TokenList;
import io.qdrant.esgateway.domain.analysis.AnalyzeRequest;
import io.qdrant.esgateway.domain.analysis.AnalyzedToken;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionLengthAttribute;
import org.apache.lucene.analysis.tokenattributes.TypeAttribute;
import org.apache.lucene.util.BytesRef;

/**
 * {@code _analyze} with {@code explain: true} as Elasticsearch computes it: for an analyzer made of parts, the text
 * after each char filter (each applied to the previous one's output), the tokenizer's tokens over the char-filtered
 * text, and the tokens after each token filter (the chain up to it run again from the text); for any other analyzer,
 * its tokens. Each token carries its other Lucene attributes (all, or those {@code attributes} names).
 */
final class AnalyzeExplanation {
    private AnalyzeExplanation() {
    }

    static AnalyzeDetail explain(Analyzer analyzer, String name, AnalyzeRequest request, int gap) {
        Set<String> include = Set.copyOf(request.attributes());
        if (!(analyzer instanceof ComposedAnalyzer composed) || composed.parts().isEmpty()) {
            Stage stage = new Stage(include, gap, analyzer.getOffsetGap(""));
            for (String text : request.text()) {
                stage.analyze(analyzer.tokenStream("", text));
            }
            return new AnalyzeDetail(false, Optional.of(new TokenList(name, stage.tokens)), List.of(),
                    Optional.empty(), List.of());
        }
        ComposedAnalyzer.Parts parts = composed.parts().get();
        List<UnaryOperator<Reader>> chars = composed.charFilters();
        List<UnaryOperator<TokenStream>> filters = composed.filters();
        int offsetGap = analyzer.getOffsetGap("");
        List<List<String>> filtered = new ArrayList<>();
        for (int i = 0; i < chars.size(); i++) {
            filtered.add(new ArrayList<>());
        }
        Stage tokenizerStage = new Stage(include, gap, offsetGap);
        List<Stage> filterStages = new ArrayList<>();
        for (int i = 0; i < filters.size(); i++) {
            filterStages.add(new Stage(include, gap, offsetGap));
        }
        for (String text : request.text()) {
            String source = text;
            for (int i = 0; i < chars.size(); i++) {
                source = read(chars.get(i).apply(new StringReader(source)));
                filtered.get(i).add(source);
            }
            tokenizerStage.analyze(chain(composed, text, 0));
            for (int i = 0; i < filters.size(); i++) {
                filterStages.get(i).analyze(chain(composed, text, i + 1));
            }
        }
        List<CharFiltered> charOut = new ArrayList<>();
        for (int i = 0; i < chars.size(); i++) {
            charOut.add(new CharFiltered(parts.charFilters().get(i), List.copyOf(filtered.get(i))));
        }
        List<TokenList> filterOut = new ArrayList<>();
        for (int i = 0; i < filters.size(); i++) {
            filterOut.add(new TokenList(parts.filters().get(i), filterStages.get(i).tokens));
        }
        return new AnalyzeDetail(true, Optional.empty(), charOut,
                Optional.of(new TokenList(parts.tokenizer(), tokenizerStage.tokens)), filterOut);
    }

    /** The tokenizer over the char-filtered text, then the first {@code filterCount} token filters. */
    private static TokenStream chain(ComposedAnalyzer analyzer, String text, int filterCount) {
        Reader reader = new StringReader(text);
        for (UnaryOperator<Reader> c : analyzer.charFilters()) {
            reader = c.apply(reader);
        }
        Tokenizer tokenizer = analyzer.tokenizer().get();
        tokenizer.setReader(reader);
        TokenStream out = tokenizer;
        for (int i = 0; i < filterCount; i++) {
            out = analyzer.filters().get(i).apply(out);
        }
        return out;
    }

    private static String read(Reader reader) {
        StringBuilder out = new StringBuilder();
        char[] buffer = new char[1024];
        try (reader) {
            int n;
            while ((n = reader.read(buffer)) > 0) {
                out.append(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** One stage's tokens over every text, positions and offsets continuing across the texts. */
    private static final class Stage {
        private final Set<String> include;
        private final int positionGap;
        private final int offsetGap;
        private final List<DetailedToken> tokens = new ArrayList<>();
        private int lastPosition = -1;
        private int lastOffset;

        Stage(Set<String> include, int positionGap, int offsetGap) {
            this.include = include;
            this.positionGap = positionGap;
            this.offsetGap = offsetGap;
        }

        void analyze(TokenStream stream) {
            try (stream) {
                CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
                PositionIncrementAttribute increment = stream.addAttribute(PositionIncrementAttribute.class);
                OffsetAttribute offset = stream.addAttribute(OffsetAttribute.class);
                TypeAttribute type = stream.addAttribute(TypeAttribute.class);
                PositionLengthAttribute length = stream.addAttribute(PositionLengthAttribute.class);
                stream.reset();
                while (stream.incrementToken()) {
                    if (increment.getPositionIncrement() > 0) {
                        lastPosition += increment.getPositionIncrement();
                    }
                    tokens.add(new DetailedToken(new AnalyzedToken(term.toString(), lastOffset + offset.startOffset(),
                            lastOffset + offset.endOffset(), type.type(), lastPosition, length.getPositionLength()),
                            attributes(stream)));
                }
                stream.end();
                lastOffset += offset.endOffset();
                lastPosition += increment.getPositionIncrement();
                lastPosition += positionGap;
                lastOffset += offsetGap;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The attributes other than the term, position increment, offsets and type, by Lucene's names. */
        private SortedMap<String, JsonValue> attributes(TokenStream stream) {
            SortedMap<String, JsonValue> out = new TreeMap<>();
            stream.reflectWith((attribute, key, value) -> {
                if (CharTermAttribute.class.isAssignableFrom(attribute)
                        || PositionIncrementAttribute.class.isAssignableFrom(attribute)
                        || OffsetAttribute.class.isAssignableFrom(attribute)
                        || TypeAttribute.class.isAssignableFrom(attribute)) {
                    return;
                }
                if (!include.isEmpty() && !include.contains(key.toLowerCase(java.util.Locale.ROOT))) {
                    return;
                }
                out.put(key, switch (value) {
                    case null -> JsonValue.JsonNull.INSTANCE;
                    case Boolean b -> new JsonValue.JsonBool(b);
                    case Number n -> new JsonValue.JsonNumber(n);
                    case BytesRef bytes -> new JsonValue.JsonString(bytes.toString());
                    default -> new JsonValue.JsonString(value.toString());
                });
            });
            return out;
        }
    }
}
