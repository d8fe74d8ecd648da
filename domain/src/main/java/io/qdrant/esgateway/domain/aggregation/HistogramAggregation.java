package io.qdrant.esgateway.domain.aggregation;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code histogram}: buckets of width {@code interval} (shifted by {@code offset}) over a numeric field; with
 * {@code min_doc_count} 0 the empty buckets between the first and the last (or the {@code extended_bounds}) are added
 * in the final reduce. {@code hard_bounds} drop values outside them. {@code format}: a decimal pattern for
 * {@code key_as_string} (a date format over a date field).
 */
public record HistogramAggregation(String field, double interval, double offset, long minDocCount,
                                   Optional<Double> extendedMin, Optional<Double> extendedMax,
                                   Optional<Double> hardMin, Optional<Double> hardMax, boolean keyed,
                                   Aggregation.TermsOrder order, Optional<Double> missing, Optional<String> format,
                                   Map<String, Aggregation> subs) implements Aggregation {
    public static final Aggregation.TermsOrder KEY_ASC = new Aggregation.TermsOrder("_key", true);

    public HistogramAggregation {
        subs = Collections.unmodifiableMap(new LinkedHashMap<>(subs));
    }

    @Override
    public String type() {
        return "histogram";
    }
}
