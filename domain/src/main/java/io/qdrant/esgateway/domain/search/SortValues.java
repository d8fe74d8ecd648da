package io.qdrant.esgateway.domain.search;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import io.qdrant.esgateway.domain.time.DateFormat;
import io.qdrant.esgateway.domain.time.DateMath;
import java.math.BigDecimal;
import java.util.function.LongSupplier;

/**
 * How sort values are read from and written to JSON, as Elasticsearch does, for every sort implementation (the
 * gateway's {@link GatewaySort} and a backend's native sort): the {@code search_after} and {@code missing} inputs and
 * the rendering of {@code hits.hits[].sort}.
 */
public final class SortValues {
    /** The long-valued field kinds, whose {@code missing} values are read differently. */
    public enum IntegralKind { LONG, DATE, BOOLEAN }

    private SortValues() {
    }

    /** A value's text; a {@link NumberFormatException} for an object, array or null (callers report it). */
    public static String text(JsonValue value) {
        return JsonReads.text(value).orElseThrow(() -> new NumberFormatException(value.tokenName()));
    }

    /** A long from a JSON number (a fraction truncated) or its text (exact). */
    public static long longOf(JsonValue value) {
        if (value instanceof JsonNumber n && !n.isIntegral()) {
            return new BigDecimal(n.value().toString()).longValue();
        }
        return new BigDecimal(text(value).trim()).longValueExact();
    }

    /** A float sort value as ES renders it: the shortest float form, non-finite values as strings. */
    public static JsonValue floatNumber(float f) {
        if (!Float.isFinite(f)) {
            return new JsonString(Float.toString(f));
        }
        return new JsonNumber(Double.valueOf(Float.toString(f)));
    }

    /** A double sort value as ES renders it: non-finite values as strings. */
    public static JsonValue doubleNumber(double d) {
        return Double.isFinite(d) ? new JsonNumber(d) : new JsonString(Double.toString(d));
    }

    /**
     * The {@code missing} value of an integral, date or boolean sort: a date in {@code input} (with date math) or
     * epoch millis, a boolean or 0/1, a number (ES's error for one that does not parse).
     */
    public static long missingLong(JsonValue value, IntegralKind kind, DateFormat input, String field,
                                   LongSupplier now) {
        return switch (kind) {
            case DATE -> value instanceof JsonNumber ? longOf(value)
                    : DateMath.parse(text(value), input, null, false, now);
            case BOOLEAN -> JsonReads.bool(value).map(b -> b ? 1L : 0L).orElseGet(() -> longOf(value));
            case LONG -> {
                try {
                    yield longOf(value);
                } catch (NumberFormatException | ArithmeticException e) {
                    throw GatewayException.illegalArgument("failed to parse sort [missing] value ["
                            + JsonReads.text(value).orElse("") + "] for [" + field + "]");
                }
            }
        };
    }
}
