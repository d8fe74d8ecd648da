package io.qdrant.esgateway.adapter.out.lucene.analysis;

import java.io.Reader;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;

/**
 * An analyzer made of parts, as Elasticsearch's {@code custom} analyzers and normalizers are: char filters, one
 * tokenizer, token filters in order. {@link #normalize} (used for the terms of wildcard, prefix and other
 * term-level queries on text) runs only the filters that work per character.
 */
final class ComposedAnalyzer extends Analyzer {
    private final List<UnaryOperator<Reader>> charFilters;
    private final Supplier<Tokenizer> tokenizer;
    private final List<UnaryOperator<TokenStream>> filters;
    private final List<UnaryOperator<TokenStream>> normalizingFilters;
    private final int positionIncrementGap;
    /** The names of the parts, for an analyzer Elasticsearch reports as custom; null for a built-in. */
    private final Parts parts;

    /** The names of a custom analyzer's char filters, tokenizer and token filters, as {@code explain} shows them. */
    record Parts(List<String> charFilters, String tokenizer, List<String> filters) {
    }

    ComposedAnalyzer(List<UnaryOperator<Reader>> charFilters, Supplier<Tokenizer> tokenizer,
                     List<UnaryOperator<TokenStream>> filters, List<UnaryOperator<TokenStream>> normalizingFilters,
                     int positionIncrementGap) {
        this(charFilters, tokenizer, filters, normalizingFilters, positionIncrementGap, null);
    }

    private ComposedAnalyzer(List<UnaryOperator<Reader>> charFilters, Supplier<Tokenizer> tokenizer,
                     List<UnaryOperator<TokenStream>> filters, List<UnaryOperator<TokenStream>> normalizingFilters,
                     int positionIncrementGap, Parts parts) {
        super(PER_FIELD_REUSE_STRATEGY);
        this.parts = parts;
        this.charFilters = List.copyOf(charFilters);
        this.tokenizer = tokenizer;
        this.filters = List.copyOf(filters);
        this.normalizingFilters = List.copyOf(normalizingFilters);
        this.positionIncrementGap = positionIncrementGap;
    }

    /** This analyzer, reported as custom with these names. */
    ComposedAnalyzer withParts(Parts names) {
        return new ComposedAnalyzer(charFilters, tokenizer, filters, normalizingFilters, positionIncrementGap, names);
    }

    java.util.Optional<Parts> parts() {
        return java.util.Optional.ofNullable(parts);
    }

    List<UnaryOperator<Reader>> charFilters() {
        return charFilters;
    }

    Supplier<Tokenizer> tokenizer() {
        return tokenizer;
    }

    List<UnaryOperator<TokenStream>> filters() {
        return filters;
    }

    @Override
    protected Reader initReader(String fieldName, Reader reader) {
        Reader out = reader;
        for (UnaryOperator<Reader> c : charFilters) {
            out = c.apply(out);
        }
        return out;
    }

    @Override
    protected Reader initReaderForNormalization(String fieldName, Reader reader) {
        return initReader(fieldName, reader);
    }

    @Override
    protected TokenStreamComponents createComponents(String fieldName) {
        Tokenizer source = tokenizer.get();
        TokenStream out = source;
        for (UnaryOperator<TokenStream> f : filters) {
            out = f.apply(out);
        }
        return new TokenStreamComponents(source, out);
    }

    @Override
    protected TokenStream normalize(String fieldName, TokenStream in) {
        TokenStream out = in;
        for (UnaryOperator<TokenStream> f : normalizingFilters) {
            out = f.apply(out);
        }
        return out;
    }

    @Override
    public int getPositionIncrementGap(String fieldName) {
        return positionIncrementGap;
    }
}
