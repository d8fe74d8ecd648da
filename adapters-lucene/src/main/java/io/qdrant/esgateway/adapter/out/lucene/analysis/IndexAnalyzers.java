package io.qdrant.esgateway.adapter.out.lucene.analysis;

import io.qdrant.esgateway.domain.analysis.AnalysisSettings;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.index.TextOptions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.analysis.Analyzer;

/**
 * One index's analyzers, built once per distinct {@code index.analysis} settings (not per document or query) and
 * shared by the writer, the query translation, the gateway's scoring and {@code _analyze}: the named analyzers and
 * normalizers, and each text field's index, search and search-quote analyzer as Elasticsearch resolves them (the
 * field's own, else the index's {@code default_search}/{@code default}, else {@code standard}).
 */
public final class IndexAnalyzers {
    /** The analyzers of an index without analysis settings. */
    public static final IndexAnalyzers DEFAULT = new IndexAnalyzers(AnalysisSettings.NONE);
    private static final int CACHED = 256;
    private static final Map<AnalysisSettings, IndexAnalyzers> BUILT = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<AnalysisSettings, IndexAnalyzers> eldest) {
            return size() > CACHED;
        }
    };

    /** The last answer of {@link #of}: an index's writes and searches ask with the same settings object again. */
    private static volatile IndexAnalyzers last = DEFAULT;

    private final AnalysisSettings settings;
    private final AnalysisBuilder builder;
    private final Map<String, Analyzer> analyzers = new ConcurrentHashMap<>();
    private final Map<String, Analyzer> normalizers = new ConcurrentHashMap<>();
    private final Map<List<Object>, Analyzer> wrapped = new ConcurrentHashMap<>();
    private final Analyzer standard;

    private IndexAnalyzers(AnalysisSettings settings) {
        this.settings = settings;
        this.builder = new AnalysisBuilder(settings);
        builder.buildAll();
        this.standard = builder.analyzer("standard").orElseThrow();
    }

    /** The analyzers of {@code settings} (built and checked now if they were not yet). */
    public static IndexAnalyzers of(AnalysisSettings settings) {
        if (settings.isEmpty()) {
            return DEFAULT;
        }
        IndexAnalyzers recent = last;
        if (recent.settings == settings) {
            return recent;
        }
        synchronized (BUILT) {
            IndexAnalyzers found = BUILT.get(settings);
            if (found == null) {
                found = new IndexAnalyzers(settings);
                BUILT.put(settings, found);
            }
            last = found;
            return found;
        }
    }

    public static IndexAnalyzers of(IndexMetadata index) {
        return of(index.settings().analysis());
    }

    /** The analyzer named {@code name}, or Elasticsearch's error. */
    public Analyzer named(String name) {
        return find(name).orElseThrow(() -> GatewayException.illegalArgument("failed to find analyzer [" + name
                + "]"));
    }

    public Optional<Analyzer> find(String name) {
        Analyzer found = analyzers.get(name);
        if (found != null) {
            return Optional.of(found);
        }
        Optional<Analyzer> built;
        synchronized (builder) {
            built = builder.analyzer(name);
        }
        built.ifPresent(a -> analyzers.put(name, a));
        return built;
    }

    public Optional<Analyzer> normalizer(String name) {
        Analyzer found = normalizers.get(name);
        if (found != null) {
            return Optional.of(found);
        }
        Optional<Analyzer> built;
        synchronized (builder) {
            built = builder.normalizer(name);
        }
        built.ifPresent(a -> normalizers.put(name, a));
        return built;
    }

    /**
     * The function a keyword field's {@code normalizer} applies to a value: the normalizer's one token (the value
     * through its char filters and per-character filters, as Elasticsearch indexes and searches it).
     */
    public static java.util.function.UnaryOperator<String> normalizing(AnalysisSettings settings, String name) {
        Analyzer normalizer = of(settings).normalizer(name).orElseThrow(() -> GatewayException.illegalArgument(
                "normalizer [" + name + "] not found"));
        return value -> {
            StringBuilder out = new StringBuilder();
            try (org.apache.lucene.analysis.TokenStream stream = normalizer.tokenStream("", value)) {
                org.apache.lucene.analysis.tokenattributes.CharTermAttribute term = stream.addAttribute(
                        org.apache.lucene.analysis.tokenattributes.CharTermAttribute.class);
                stream.reset();
                while (stream.incrementToken()) {
                    out.append(term);
                }
                stream.end();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return out.toString();
        };
    }

    AnalysisBuilder builder() {
        return builder;
    }

    /**
     * The analyzer a text field is indexed with; for a hidden field ({@code <text>._index_phrase},
     * {@code <text>._index_prefix}) its parent's, wrapped as Elasticsearch wraps it (two-term shingles; edge n-grams of
     * {@code min_chars}..{@code max_chars}).
     */
    public Analyzer indexAnalyzer(Mappings mappings, String field) {
        Optional<TextOptions.Hidden> hidden = TextOptions.hidden(mappings, field);
        if (hidden.isPresent()) {
            return hiddenAnalyzer(hidden.get(), indexAnalyzer(mappings, hidden.get().parent()));
        }
        Optional<String> own = mappings.field(field).orElse(null) instanceof FieldMapping.TextField t
                ? t.analyzer() : Optional.empty();
        return own.map(this::named).orElseGet(this::defaultAnalyzer);
    }

    /** {@code parent} wrapped for the hidden field (cached per parent analyzer and parameters). */
    public Analyzer hiddenAnalyzer(TextOptions.Hidden hidden, Analyzer parent) {
        TextOptions.IndexPrefixes prefixes = hidden.mapping().text().indexPrefixes().orElse(null);
        List<Object> key = prefixes == null ? List.of(hidden.kind(), parent)
                : List.of(hidden.kind(), parent, prefixes.minChars(), prefixes.maxChars());
        return wrapped.computeIfAbsent(key, k -> hidden.kind() == TextOptions.HiddenKind.PHRASES
                ? new HiddenFieldAnalyzer(parent, 0, 0) : new HiddenFieldAnalyzer(parent, prefixes.minChars(),
                prefixes.maxChars()));
    }

    /**
     * A text field's analyzer followed by Elasticsearch's filter for one of its hidden fields: two-term shingles
     * ({@code min == 0}) or the edge n-grams of each term, without the term itself when it is longer.
     */
    private static final class HiddenFieldAnalyzer extends org.apache.lucene.analysis.AnalyzerWrapper {
        private final Analyzer delegate;
        private final int min;
        private final int max;

        HiddenFieldAnalyzer(Analyzer delegate, int min, int max) {
            super(PER_FIELD_REUSE_STRATEGY);
            this.delegate = delegate;
            this.min = min;
            this.max = max;
        }

        @Override
        protected Analyzer getWrappedAnalyzer(String fieldName) {
            return delegate;
        }

        @Override
        protected TokenStreamComponents wrapComponents(String fieldName, TokenStreamComponents components) {
            org.apache.lucene.analysis.TokenStream filtered = min == 0
                    ? new org.apache.lucene.analysis.shingle.FixedShingleFilter(components.getTokenStream(), 2)
                    : new org.apache.lucene.analysis.ngram.EdgeNGramTokenFilter(components.getTokenStream(), min, max,
                    false);
            return new TokenStreamComponents(components.getSource(), filtered);
        }
    }

    /** The analyzer a full-text query on a text field analyses its text with. */
    public Analyzer searchAnalyzer(Mappings mappings, String field) {
        if (mappings.field(field).orElse(null) instanceof FieldMapping.TextField t) {
            if (t.searchAnalyzer().isPresent()) {
                return named(t.searchAnalyzer().get());
            }
            if (t.analyzer().isPresent()) {
                return named(t.analyzer().get());
            }
        }
        return defaultSearchAnalyzer();
    }

    /** The analyzer a phrase query on a text field analyses its text with. */
    public Analyzer searchQuoteAnalyzer(Mappings mappings, String field) {
        if (mappings.field(field).orElse(null) instanceof FieldMapping.TextField t) {
            if (t.searchQuoteAnalyzer().isPresent()) {
                return named(t.searchQuoteAnalyzer().get());
            }
            if (t.searchAnalyzer().isPresent() || t.analyzer().isPresent()) {
                return searchAnalyzer(mappings, field);
            }
        }
        return settings.analyzers().containsKey("default_search_quote") ? named("default_search_quote")
                : defaultSearchAnalyzer();
    }

    private Analyzer defaultAnalyzer() {
        return settings.analyzers().containsKey("default") ? named("default") : standard;
    }

    private Analyzer defaultSearchAnalyzer() {
        return settings.analyzers().containsKey("default_search") ? named("default_search") : defaultAnalyzer();
    }
}
