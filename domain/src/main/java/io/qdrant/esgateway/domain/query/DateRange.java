package io.qdrant.esgateway.domain.query;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.time.DateFormat;
import io.qdrant.esgateway.domain.time.DateMath;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The inclusive epoch-millisecond bounds of a {@code range} query on a date field, as Elasticsearch builds them:
 * {@code gte} parses rounding down, {@code gt} rounding up plus one millisecond, {@code lte} rounding up, {@code lt}
 * rounding down minus one millisecond (date math such as {@code now-1d/d}, the query's {@code format} or the field's,
 * and {@code time_zone}). An absent bound is open. Every backend translates these, never the bounds themselves.
 */
public record DateRange(Optional<Long> from, Optional<Long> to) {

    /** The bounds, or empty when no date can match (an exclusive bound past the end of time). */
    public static Optional<DateRange> of(String field, FieldMapping.DateField mapping, Optional<Query.Bound> lo,
                                         Optional<Query.Bound> hi, Optional<String> format,
                                         Optional<String> timeZone, LongSupplier now) {
        DateFormat dateFormat = DateFormat.of(format.orElse(mapping.format().orElse(DateFormat.DEFAULT_PATTERN)));
        ZoneId zone = null;
        if (timeZone.isPresent()) {
            try {
                zone = ZoneId.of(timeZone.get());
            } catch (DateTimeException e) {
                throw GatewayException.illegalArgument("Invalid time zone [" + timeZone.get() + "]: "
                        + e.getMessage());
            }
        }
        Optional<Long> from = Optional.empty();
        Optional<Long> to = Optional.empty();
        if (lo.isPresent()) {
            String v = text(lo.get().value(), field);
            if (lo.get().inclusive()) {
                from = Optional.of(DateMath.parse(v, dateFormat, zone, false, now));
            } else {
                long l = DateMath.parse(v, dateFormat, zone, true, now);
                if (l == Long.MAX_VALUE) {
                    return Optional.empty();
                }
                from = Optional.of(l + 1);
            }
        }
        if (hi.isPresent()) {
            String v = text(hi.get().value(), field);
            if (hi.get().inclusive()) {
                to = Optional.of(DateMath.parse(v, dateFormat, zone, true, now));
            } else {
                long h = DateMath.parse(v, dateFormat, zone, false, now);
                if (h == Long.MIN_VALUE) {
                    return Optional.empty();
                }
                to = Optional.of(h - 1);
            }
        }
        return Optional.of(new DateRange(from, to));
    }

    /** A query value's text, or ES's parse error naming the field. */
    public static String text(JsonValue value, String field) {
        return JsonReads.text(value).orElseThrow(() -> GatewayException.parse("[" + field
                + "] value must be a string, number or boolean, got [" + value.tokenName() + "]"));
    }
}
