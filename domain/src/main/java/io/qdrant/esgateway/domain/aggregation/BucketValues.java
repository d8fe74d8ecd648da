package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.FieldRef.ValueKind;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.time.DateFormat;
import io.qdrant.esgateway.domain.time.DateMath;
import java.time.ZoneId;
import java.util.function.LongSupplier;

/** Helpers the numeric and date bucket aggregations share: field checks and reading values and bounds. */
final class BucketValues {
    /** Elasticsearch's {@code search.max_buckets} default. */
    static final int MAX_BUCKETS = 65_536;

    private static final double[] NONE = new double[0];

    private BucketValues() {
    }

    /** Refuses a field that is not numeric (or date) for {@code type}, as Elasticsearch does. */
    static void requireNumeric(FieldRef field, String type) {
        if (field.kind() == ValueKind.KEYWORD) {
            throw GatewayException.illegalArgument("Field [" + field.name() + "] of type [keyword] is not supported"
                    + " for aggregation [" + type + "]");
        }
    }

    /** The document's values of a numeric field as doubles, ascending (longs read exactly as longs first). */
    static double[] doubles(AggregationDoc doc, FieldRef field) {
        return switch (field.kind()) {
            case LONG, DATE, BOOLEAN -> {
                long[] longs = doc.longs(field.name());
                double[] out = new double[longs.length];
                for (int i = 0; i < longs.length; i++) {
                    out[i] = longs[i];
                }
                yield out;
            }
            case DOUBLE, FLOAT -> doc.doubles(field.name());
            case KEYWORD, UNMAPPED -> NONE;
        };
    }

    /** A bound or {@code missing} of a date aggregation: epoch millis, or a date (with date math) in the format. */
    static long dateMillis(JsonValue value, DateFormat format, ZoneId zone, LongSupplier now) {
        if (value instanceof JsonNumber n) {
            return n.value().longValue();
        }
        String text = JsonReads.text(value).orElseThrow(() -> GatewayException.parse("[" + value.tokenName()
                + "] is not a date"));
        return DateMath.parse(text, format, zone, false, now);
    }

    /** A numeric bound or {@code missing}: a number or a numeric string. */
    static double number(JsonValue value, String what) {
        if (value instanceof JsonNumber n) {
            return n.value().doubleValue();
        }
        String text = JsonReads.text(value).orElseThrow(() -> GatewayException.parse("[" + what
                + "] must be a number"));
        try {
            return Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw GatewayException.illegalArgument("For input string: \"" + text + "\"");
        }
    }

    /**
     * A numeric {@code format}: a {@link java.text.DecimalFormat} pattern with ROOT symbols, rounding half-even as in
     * Elasticsearch 8.15 (not thread-safe).
     */
    static java.text.DecimalFormat decimal(String pattern) {
        try {
            return new java.text.DecimalFormat(pattern,
                    java.text.DecimalFormatSymbols.getInstance(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw GatewayException.illegalArgument("Invalid numeric format [" + pattern + "]: " + e.getMessage());
        }
    }

    /** Elasticsearch's error for an answer of more than {@link #MAX_BUCKETS} buckets (raised in the final reduce). */
    static GatewayException tooManyBuckets() {
        return GatewayException.reduceFailed(new GatewayException(ErrorKind.TOO_MANY_BUCKETS, "Trying to create too"
                + " many buckets. Must be less than or equal to: [" + MAX_BUCKETS + "] but this number of buckets was"
                + " exceeded. This limit can be set by changing the [search.max_buckets] cluster level setting.",
                java.util.Map.of("max_buckets", Integer.toString(MAX_BUCKETS)), null));
    }
}
