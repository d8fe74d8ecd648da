package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code range} and {@code date_range}: one bucket per requested range ({@code from} inclusive, {@code to} exclusive)
 * of a numeric or date field; a document with several values in one range counts once there.
 *
 * @param name the aggregation's name (in the error for a missing {@code ranges})
 * @param date whether this is {@code date_range} (bounds may be dates and date math, {@code format} and
 *     {@code time_zone} apply)
 * @param format the {@code format} of bounds and rendered keys ({@code date_range} only)
 * @param timeZone the {@code time_zone} of bounds without one and of rendered keys ({@code date_range} only)
 */
public record RangeAggregation(String name, boolean date, String field, List<Bound> ranges, boolean keyed,
                               Optional<JsonValue> missing, Optional<String> format, Optional<String> timeZone,
                               Map<String, Aggregation> subs) implements Aggregation {
    public RangeAggregation {
        ranges = List.copyOf(ranges);
        subs = Collections.unmodifiableMap(new LinkedHashMap<>(subs));
    }

    /** One requested range: its bounds as given (number or string, absent when open) and its custom key. */
    public record Bound(Optional<String> key, Optional<JsonValue> from, Optional<JsonValue> to) {
    }

    @Override
    public String type() {
        return date ? "date_range" : "range";
    }
}
