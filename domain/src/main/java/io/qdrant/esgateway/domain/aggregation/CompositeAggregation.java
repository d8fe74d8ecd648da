package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code composite}: one bucket per combination of its sources' values, in the sources' order, paged by
 * {@code size} and {@code after}.
 */
public record CompositeAggregation(List<Source> sources, int size, Optional<Map<String, JsonValue>> after,
                                   Map<String, Aggregation> subs) implements Aggregation {
    public CompositeAggregation {
        sources = List.copyOf(sources);
        subs = Collections.unmodifiableMap(new LinkedHashMap<>(subs));
    }

    /** The kind of a value source. */
    public enum SourceKind {
        TERMS, HISTOGRAM, DATE_HISTOGRAM;

        public String esName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One value source.
     *
     * @param interval the {@code histogram} interval (unused otherwise)
     * @param rounding the {@code date_histogram} interval (null otherwise)
     * @param format the {@code date_histogram} key format; when absent keys are epoch milliseconds
     * @param missingOrder {@code missing_order}: {@code first}, {@code last} or {@code default} (first in ascending,
     *     last in descending order)
     */
    public record Source(String name, SourceKind kind, String field, boolean ascending, boolean missingBucket,
                         double interval, DateRounding rounding, Optional<String> format, String missingOrder) {
        /** Whether the missing bucket sorts before every value (whatever the direction). */
        public boolean missingFirst() {
            return missingOrder.equals("default") ? ascending : missingOrder.equals("first");
        }
    }

    @Override
    public String type() {
        return "composite";
    }
}
