package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code date_histogram}: buckets of a calendar or fixed interval in a time zone over a date field; keys are the
 * epoch milliseconds of each bucket's start, {@code key_as_string} formatted in the zone.
 *
 * @param interval the {@code calendar_interval} or {@code fixed_interval}, with {@code time_zone} and {@code offset}
 * @param format the {@code format} of {@code key_as_string} and of string {@code extended_bounds} (else the field's)
 */
public record DateHistogramAggregation(String field, DateRounding interval, Optional<String> format,
                                       long minDocCount, Optional<JsonValue> extendedMin,
                                       Optional<JsonValue> extendedMax, Optional<JsonValue> hardMin,
                                       Optional<JsonValue> hardMax, boolean keyed, Aggregation.TermsOrder order,
                                       Optional<JsonValue> missing, Map<String, Aggregation> subs)
        implements Aggregation {
    public DateHistogramAggregation {
        subs = Collections.unmodifiableMap(new LinkedHashMap<>(subs));
    }

    @Override
    public String type() {
        return "date_histogram";
    }
}
