package io.qdrant.esgateway.domain.analysis;

import java.util.Set;

/**
 * The names of the analysis components the gateway implements, as Elasticsearch 8.15 names them: the types a
 * definition in {@code index.analysis} may have, and the built-ins a custom analyzer may name without defining them.
 */
public final class AnalysisComponents {
    /** The language analyzers (Lucene's common analysis module, as Elasticsearch exposes them). */
    public static final Set<String> LANGUAGE_ANALYZERS = Set.of("arabic", "armenian", "basque", "bengali",
            "brazilian", "bulgarian", "catalan", "cjk", "czech", "danish", "dutch", "english", "estonian", "finnish",
            "french", "galician", "german", "greek", "hindi", "hungarian", "indonesian", "irish", "italian", "latvian",
            "lithuanian", "norwegian", "persian", "portuguese", "romanian", "russian", "serbian", "sorani", "spanish",
            "swedish", "turkish", "thai");

    /** Analyzer types (and the built-in analyzers of the same names). */
    public static final Set<String> ANALYZERS = union(Set.of("standard", "simple", "whitespace", "stop", "keyword",
            "pattern", "fingerprint", "snowball"), LANGUAGE_ANALYZERS);

    /** Tokenizer types (each also a built-in tokenizer with its defaults). */
    public static final Set<String> TOKENIZERS = Set.of("standard", "whitespace", "keyword", "letter", "lowercase",
            "classic", "uax_url_email", "pattern", "simple_pattern", "simple_pattern_split", "char_group", "ngram",
            "edge_ngram", "path_hierarchy", "thai");

    /** Token filter types (each also a built-in filter with its defaults, except those that need parameters). */
    public static final Set<String> FILTERS = Set.of("lowercase", "uppercase", "asciifolding", "stop", "stemmer",
            "porter_stem", "kstem", "snowball", "synonym", "synonym_graph", "word_delimiter_graph", "word_delimiter",
            "edge_ngram", "ngram", "shingle", "unique", "trim", "truncate", "length", "elision", "reverse",
            "pattern_replace", "keyword_marker", "decimal_digit", "cjk_width", "cjk_bigram", "apostrophe",
            "classic", "remove_duplicates", "flatten_graph", "german_normalization", "arabic_normalization",
            "persian_normalization", "scandinavian_folding", "scandinavian_normalization", "serbian_normalization",
            "sorani_normalization", "hindi_normalization", "indic_normalization", "bengali_normalization");

    /** Filters a normalizer may use: they work on each character or the whole value, never split or drop it. */
    public static final Set<String> NORMALIZING_FILTERS = Set.of("lowercase", "uppercase", "asciifolding",
            "trim", "decimal_digit", "cjk_width", "elision", "german_normalization", "arabic_normalization",
            "persian_normalization", "scandinavian_folding", "scandinavian_normalization", "serbian_normalization",
            "sorani_normalization", "hindi_normalization", "indic_normalization", "bengali_normalization",
            "pattern_replace");

    /** Character filter types. */
    public static final Set<String> CHAR_FILTERS = Set.of("html_strip", "mapping", "pattern_replace");

    /** The built-in normalizers. */
    public static final Set<String> NORMALIZERS = Set.of("lowercase");

    private AnalysisComponents() {
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        java.util.Set<String> out = new java.util.HashSet<>(a);
        out.addAll(b);
        return Set.copyOf(out);
    }
}
