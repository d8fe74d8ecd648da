package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.analysis.AnalysisSettings;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.util.Optional;
import java.util.SortedMap;

/**
 * The analysis parameters of text field mappings ({@code analyzer}, {@code search_analyzer},
 * {@code search_quote_analyzer}) and their check against the index's analysis settings, with
 * Elasticsearch's messages.
 */
public final class AnalysisReferences {
    private AnalysisReferences() {
    }

    static FieldMapping.TextField textField(String name, Optional<String> analyzer, Optional<String> searchAnalyzer,
                                            Optional<String> searchQuoteAnalyzer,
                                            SortedMap<String, FieldMapping> fields) {
        return new FieldMapping.TextField(analyzer, fields, searchAnalyzer, searchQuoteAnalyzer);
    }

    /**
     * Every analyzer and similarity the mapping names exists in the index's settings (or is built in).
     */
    public static void check(Mappings mappings, IndexSettings settings) {
        check(mappings, settings.analysis());
        Similarities.check("", mappings.properties(), settings.similarities());
    }

    /** Every analyzer the mapping names exists in {@code analysis} (or is built in). */
    public static void check(Mappings mappings, AnalysisSettings analysis) {
        check("", mappings.properties(), analysis);
    }

    private static void check(String prefix, SortedMap<String, FieldMapping> fields, AnalysisSettings analysis) {
        fields.forEach((name, mapping) -> {
            String path = prefix + name;
            switch (mapping) {
                case FieldMapping.TextField t -> {
                    for (Optional<String> a : java.util.List.of(t.analyzer(), t.searchAnalyzer(),
                            t.searchQuoteAnalyzer())) {
                        a.filter(n -> !analysis.hasAnalyzer(n)).ifPresent(n -> {
                            String detail = "analyzer [" + n + "] has not been configured in mappings";
                            throw new GatewayException(ErrorKind.MAPPER_PARSING, "Failed to parse mapping: " + detail,
                                    java.util.Map.of(), GatewayException.illegalArgument(detail));
                        });
                    }
                    check(path + ".", t.fields(), analysis);
                }
                case FieldMapping.KeywordField k -> {
                    Normalizers.check(path, k, analysis);
                    check(path + ".", k.fields(), analysis);
                }
                case FieldMapping.ObjectField o -> check(path + ".", o.properties(), analysis);
                default -> {
                }
            }
        });
    }

    /**
     * The text fields (and text multi-fields, by full path) whose index analyzer is built differently under
     * {@code after} than under {@code before}: the analyzer the field names (or the index's {@code default}, else
     * {@code standard}), and the tokenizer, token filters and char filters a custom one names, compared definition by
     * definition. Documents already indexed keep the tokens the old analyzer made for these fields.
     */
    public static java.util.List<String> indexAnalyzerChanged(Mappings mappings, AnalysisSettings before,
                                                               AnalysisSettings after) {
        java.util.List<String> out = new java.util.ArrayList<>();
        indexAnalyzerChanged("", mappings.properties(), before, after, out);
        return out;
    }

    private static void indexAnalyzerChanged(String prefix, SortedMap<String, FieldMapping> fields,
                                             AnalysisSettings before, AnalysisSettings after,
                                             java.util.List<String> out) {
        fields.forEach((name, mapping) -> {
            String path = prefix + name;
            switch (mapping) {
                case FieldMapping.TextField t -> {
                    if (!built(before, indexAnalyzer(t, before)).equals(built(after, indexAnalyzer(t, after)))) {
                        out.add(path);
                    }
                    indexAnalyzerChanged(path + ".", t.fields(), before, after, out);
                }
                case FieldMapping.KeywordField k -> indexAnalyzerChanged(path + ".", k.fields(), before, after, out);
                case FieldMapping.ObjectField o -> indexAnalyzerChanged(path + ".", o.properties(), before, after, out);
                default -> {
                }
            }
        });
    }

    private static String indexAnalyzer(FieldMapping.TextField field, AnalysisSettings analysis) {
        return field.analyzer().orElse(analysis.analyzers().containsKey("default") ? "default" : "standard");
    }

    /** The name of an analyzer and every definition it is built from ({@code null} for a built-in one). */
    private static java.util.List<Object> built(AnalysisSettings analysis, String analyzer) {
        java.util.List<Object> out = new java.util.ArrayList<>();
        out.add(analyzer);
        AnalysisSettings.Definition definition = analysis.analyzers().get(analyzer);
        out.add(definition);
        if (definition != null) {
            definition.list("tokenizer").forEach(n -> out.add(java.util.Arrays.asList(n, analysis.tokenizers().get(n))));
            definition.list("char_filter").forEach(n -> out.add(java.util.Arrays.asList(n,
                    analysis.charFilters().get(n))));
            definition.list("filter").forEach(n -> out.add(java.util.Arrays.asList(n, analysis.filters().get(n))));
        }
        return out;
    }
}
