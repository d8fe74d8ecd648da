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
}
