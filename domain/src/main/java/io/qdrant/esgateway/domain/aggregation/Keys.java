package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.FieldRef.ValueKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.time.DateMath;
import java.util.function.LongSupplier;

/**
 * Bucket keys: Strings (keyword values, compared by code point as Lucene compares their UTF-8 bytes), Longs
 * (integral, date and boolean values) and Doubles (floating-point values), rendered as Elasticsearch renders
 * {@code key} and {@code key_as_string}.
 */
final class Keys {
    private Keys() {
    }

    static int compare(Object a, Object b) {
        if (a instanceof String x && b instanceof String y) {
            return compareCodePoints(x, y);
        }
        if (a instanceof Long x && b instanceof Long y) {
            return Long.compare(x, y);
        }
        if (a instanceof Number x && b instanceof Number y) {
            return Double.compare(x.doubleValue(), y.doubleValue());
        }
        // a string key sorts after numbers: only when one field is mapped differently in two indices
        return a instanceof String ? 1 : -1;
    }

    static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    /** Writes {@code key} (and {@code key_as_string} for dates and booleans) into a bucket. */
    static void put(JsonObjectBuilder bucket, Object key, FieldRef field) {
        if (key instanceof String s) {
            bucket.put("key", s);
            return;
        }
        bucket.put("key", new JsonNumber((Number) key));
        if (field.kind() == ValueKind.DATE && key instanceof Long millis) {
            bucket.put("key_as_string", field.format().format(millis));
        } else if (field.kind() == ValueKind.BOOLEAN && key instanceof Long bit) {
            bucket.put("key_as_string", bit != 0 ? "true" : "false");
        }
    }

    /** The key documents without a value are counted under ({@code missing}), in the field's key type. */
    static Object missingKey(JsonValue missing, FieldRef field, LongSupplier now) {
        String text = JsonReads.text(missing).orElseThrow(() -> GatewayException.parse(
                "[missing] must be a value, not " + missing.tokenName()));
        try {
            return switch (field.kind()) {
                case KEYWORD -> text;
                case LONG -> missing instanceof JsonNumber n && !n.isIntegral() ? (long) n.value().doubleValue()
                        : Long.parseLong(text.trim());
                case DOUBLE, FLOAT -> Double.parseDouble(text.trim());
                case BOOLEAN -> JsonReads.bool(missing).map(b -> b ? 1L : 0L).orElseThrow(
                        () -> new NumberFormatException(text));
                case DATE -> missing instanceof JsonNumber n ? n.value().longValue()
                        : DateMath.parse(text, field.format(), null, false, now);
                // ES reads the missing value of an unmapped field as a string: its key is "3", not 3
                case UNMAPPED -> text;
            };
        } catch (NumberFormatException e) {
            throw GatewayException.illegalArgument("failed to parse [missing] value [" + text + "] for field ["
                    + field.name() + "]");
        }
    }
}
