package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.analysis.AnalysisSettings;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.util.SortedMap;
import java.util.TreeMap;

/** The {@code normalizer}s of keyword fields: bound to their index's analysis settings, and checked against them. */
final class Normalizers {
    private Normalizers() {
    }

    /** {@code mappings} with every keyword normalizer bound to {@code analysis} (the same object when none). */
    static Mappings bind(Mappings mappings, AnalysisSettings analysis) {
        if (mappings == null || !has(mappings.properties())) {
            return mappings;
        }
        return mappings.withProperties(bind(mappings.properties(), analysis));
    }

    private static boolean has(SortedMap<String, FieldMapping> fields) {
        for (FieldMapping f : fields.values()) {
            boolean found = switch (f) {
                case FieldMapping.KeywordField k -> k.normalizer().isPresent() || has(k.fields());
                case FieldMapping.TextField t -> has(t.fields());
                case FieldMapping.ObjectField o -> has(o.properties());
                default -> false;
            };
            if (found) {
                return true;
            }
        }
        return false;
    }

    private static SortedMap<String, FieldMapping> bind(SortedMap<String, FieldMapping> fields,
                                                        AnalysisSettings analysis) {
        SortedMap<String, FieldMapping> out = new TreeMap<>();
        fields.forEach((name, f) -> out.put(name, switch (f) {
            case FieldMapping.KeywordField k -> new FieldMapping.KeywordField(k.ignoreAbove(),
                    bind(k.fields(), analysis), k.options(), k.normalizer().map(n -> n.bind(analysis)),
                    k.similarity());
            case FieldMapping.TextField t -> new FieldMapping.TextField(t.analyzer(), bind(t.fields(), analysis),
                    t.searchAnalyzer(), t.searchQuoteAnalyzer(), t.options(), t.similarity(), t.text());
            case FieldMapping.ObjectField o -> new FieldMapping.ObjectField(o.dynamic(), bind(o.properties(), analysis));
            default -> f;
        }));
        return out;
    }

    /** Elasticsearch's error for a normalizer the index does not define. */
    static void check(String path, FieldMapping.KeywordField keyword, AnalysisSettings analysis) {
        keyword.normalizer().filter(n -> !analysis.hasNormalizer(n.name())).ifPresent(n -> {
            String detail = "normalizer [" + n.name() + "] not found for field [" + path + "]";
            throw new GatewayException(ErrorKind.MAPPER_PARSING, "Failed to parse mapping: " + detail,
                    java.util.Map.of(), GatewayException.mapperParsing(detail));
        });
    }
}
