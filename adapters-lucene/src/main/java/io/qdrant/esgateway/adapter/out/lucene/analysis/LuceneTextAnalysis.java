package io.qdrant.esgateway.adapter.out.lucene.analysis;

import io.qdrant.esgateway.application.port.out.TextAnalysis;
import io.qdrant.esgateway.domain.analysis.AnalysisComponents;
import io.qdrant.esgateway.domain.analysis.AnalysisSettings;
import io.qdrant.esgateway.domain.analysis.AnalyzeDetail;
import io.qdrant.esgateway.domain.analysis.AnalyzeRequest;
import io.qdrant.esgateway.domain.analysis.AnalyzeRequest.Component;
import io.qdrant.esgateway.domain.analysis.AnalyzedToken;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.Mappings;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.core.KeywordTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionLengthAttribute;
import org.apache.lucene.analysis.tokenattributes.TypeAttribute;

/** {@link TextAnalysis} on Lucene's analysis components ({@link AnalysisBuilder}, {@link IndexAnalyzers}). */
public final class LuceneTextAnalysis implements TextAnalysis {

    @Override
    public void validate(AnalysisSettings analysis) {
        IndexAnalyzers.of(analysis);
    }

    @Override
    public List<AnalyzedToken> analyze(Optional<IndexMetadata> index, AnalyzeRequest request) {
        IndexAnalyzers analyzers = index.map(IndexAnalyzers::of).orElse(IndexAnalyzers.DEFAULT);
        boolean global = index.isEmpty();
        Analyzer analyzer = analyzer(index, analyzers, request, global);
        int gap = gap(index, request, analyzer);
        List<AnalyzedToken> out = new ArrayList<>();
        int lastPosition = -1;
        int lastOffset = 0;
        for (String text : request.text()) {
            String field = request.field().orElse("_analyze");
            try (TokenStream stream = analyzer.tokenStream(field, text)) {
                CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
                PositionIncrementAttribute inc = stream.addAttribute(PositionIncrementAttribute.class);
                PositionLengthAttribute length = stream.addAttribute(PositionLengthAttribute.class);
                OffsetAttribute offset = stream.addAttribute(OffsetAttribute.class);
                TypeAttribute type = stream.addAttribute(TypeAttribute.class);
                stream.reset();
                int position = lastPosition;
                while (stream.incrementToken()) {
                    position += inc.getPositionIncrement();
                    out.add(new AnalyzedToken(term.toString(), lastOffset + offset.startOffset(),
                            lastOffset + offset.endOffset(), type.type(), position, length.getPositionLength()));
                }
                stream.end();
                // Elasticsearch's multi-valued text: the next value starts after the gaps
                lastPosition = position + inc.getPositionIncrement() + gap;
                lastOffset += offset.endOffset() + analyzer.getOffsetGap(field);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    @Override
    public AnalyzeDetail explain(Optional<IndexMetadata> index, AnalyzeRequest request) {
        IndexAnalyzers analyzers = index.map(IndexAnalyzers::of).orElse(IndexAnalyzers.DEFAULT);
        Analyzer analyzer = analyzer(index, analyzers, request, index.isEmpty());
        return AnalyzeExplanation.explain(analyzer, name(index, request), request, gap(index, request, analyzer));
    }

    /**
     * The gap between the values of a multi-valued text: an index's analyzers have Elasticsearch's 100 (a custom
     * analyzer its own), the global built-ins and ad-hoc chains none.
     */
    private static int gap(Optional<IndexMetadata> index, AnalyzeRequest request, Analyzer analyzer) {
        boolean indexAnalyzer = index.isPresent() && (request.analyzer().isPresent() || request.field().isPresent()
                || (request.tokenizer().isEmpty() && request.filters().isEmpty() && request.charFilters().isEmpty()
                && request.normalizer().isEmpty()));
        return indexAnalyzer ? analyzer.getPositionIncrementGap(request.field().orElse("_analyze")) : 0;
    }

    /** The name Elasticsearch gives the analyzer of a request in {@code explain} (when it is not made of parts). */
    private static String name(Optional<IndexMetadata> index, AnalyzeRequest request) {
        if (request.analyzer().isPresent()) {
            return request.analyzer().get();
        }
        if (request.normalizer().isPresent()) {
            return request.normalizer().get();
        }
        if (request.field().isPresent() && index.isPresent()) {
            FieldMapping mapping = index.get().mappings().field(request.field().get()).orElse(null);
            if (mapping instanceof FieldMapping.KeywordField k) {
                // a keyword field without a normalizer analyses with Elasticsearch's "_keyword"
                return k.normalizer().map(n -> n.name()).orElse("_keyword");
            }
            if (mapping instanceof FieldMapping.TextField t && t.analyzer().isPresent()) {
                return t.analyzer().get();
            }
        }
        return index.isPresent() ? "default" : "standard";
    }

    private static Analyzer analyzer(Optional<IndexMetadata> index, IndexAnalyzers analyzers, AnalyzeRequest request,
                                     boolean global) {
        if (request.analyzer().isPresent()) {
            String name = request.analyzer().get();
            return analyzers.find(name).orElseThrow(() -> GatewayException.illegalArgument(global
                    ? "failed to find global analyzer [" + name + "]" : "failed to find analyzer [" + name + "]"));
        }
        if (request.normalizer().isPresent()) {
            String name = request.normalizer().get();
            if (global) {
                throw GatewayException.illegalArgument("analysis based on a normalizer requires an index");
            }
            return analyzers.normalizer(name).orElseThrow(() -> GatewayException.illegalArgument(
                    "failed to find normalizer under [" + name + "]"));
        }
        if (request.tokenizer().isPresent()) {
            return chain(analyzers, request, global);
        }
        if (!request.filters().isEmpty() || !request.charFilters().isEmpty()) {
            // a normalizer made of the filters (Elasticsearch: filters without a tokenizer)
            return chain(analyzers, request, global);
        }
        if (request.field().isPresent() && index.isPresent()) {
            Mappings mappings = index.get().mappings();
            FieldMapping mapping = mappings.field(request.field().get()).orElse(null);
            if (mapping instanceof FieldMapping.KeywordField k) {
                // a keyword field analyses with its normalizer, else as one token
                return k.normalizer().flatMap(n -> analyzers.normalizer(n.name()))
                        .orElseGet(() -> analyzers.named("keyword"));
            }
            return analyzers.indexAnalyzer(mappings, request.field().get());
        }
        return analyzers.indexAnalyzer(Mappings.EMPTY, "_analyze");
    }

    private static Analyzer chain(IndexAnalyzers analyzers, AnalyzeRequest request, boolean global) {
        AnalysisBuilder builder = analyzers.builder();
        String prefix = global ? "failed to find global " : "failed to find ";
        List<UnaryOperator<Reader>> chars = new ArrayList<>();
        for (Component c : request.charFilters()) {
            chars.add(switch (c) {
                case Component.Named n -> {
                    requireKnown(n.name(), global, AnalysisComponents.CHAR_FILTERS, prefix + "char_filter under [");
                    yield builder.charFilter(n.name());
                }
                case Component.Inline i -> builder.charFilter("_anonymous_charfilter", i.definition());
            });
        }
        Supplier<Tokenizer> tokenizer = request.tokenizer().map(c -> switch (c) {
            case Component.Named n -> {
                requireKnown(n.name(), global, AnalysisComponents.TOKENIZERS, prefix + "tokenizer under [");
                yield builder.tokenizer(n.name());
            }
            case Component.Inline i -> builder.tokenizer("_anonymous_tokenizer", i.definition());
        }).orElse(KeywordTokenizer::new);
        List<UnaryOperator<TokenStream>> filters = new ArrayList<>();
        for (Component c : request.filters()) {
            UnaryOperator<TokenStream> built = switch (c) {
                case Component.Named n -> {
                    requireKnown(n.name(), global, AnalysisComponents.FILTERS, prefix + "filter under [");
                    yield builder.filter(n.name(), chars, tokenizer, List.copyOf(filters));
                }
                case Component.Inline i -> builder.filter("_anonymous_tokenfilter", i.definition(), chars, tokenizer,
                        List.copyOf(filters));
            };
            filters.add(built);
        }
        return new ComposedAnalyzer(chars, tokenizer, filters, List.of(), 0).withParts(new ComposedAnalyzer.Parts(
                request.charFilters().stream().map(LuceneTextAnalysis::name).toList(),
                request.tokenizer().map(LuceneTextAnalysis::name).orElse("keyword"),
                request.filters().stream().map(LuceneTextAnalysis::name).toList()));
    }

    /** A component's name in {@code explain}: its own, or Elasticsearch's {@code __anonymous__<type>} inline. */
    private static String name(Component c) {
        return switch (c) {
            case Component.Named n -> n.name();
            case Component.Inline i -> "__anonymous__" + i.definition().type();
        };
    }

    private static void requireKnown(String name, boolean global, java.util.Set<String> builtIns, String message) {
        if (global && !builtIns.contains(name)) {
            throw GatewayException.illegalArgument(message + name + "]");
        }
    }
}
