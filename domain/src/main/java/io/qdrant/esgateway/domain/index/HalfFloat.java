package io.qdrant.esgateway.domain.index;

/**
 * Values of {@code half_float} fields, as Elasticsearch treats them: indexed values are rounded to half precision, so a
 * query value is rounded the same way, and a range keeps the half-precision values inside its bounds (inclusive: the
 * smallest half ≥ the lower bound; exclusive: the smallest half &gt; it; the same downwards). Every backend uses these.
 */
public final class HalfFloat {
    private HalfFloat() {
    }

    /** {@code value} rounded to half precision (to nearest, ties to even). */
    public static float round(float value) {
        return Float.float16ToFloat(Float.floatToFloat16(value));
    }

    /** The smallest half-precision value above {@code bound} (or equal to it when inclusive). */
    public static float lowest(float bound, boolean inclusive) {
        float r = round(bound);
        if (r > bound || (inclusive && r == bound)) {
            return r;
        }
        return nextUp(r);
    }

    /** The largest half-precision value below {@code bound} (or equal to it when inclusive). */
    public static float highest(float bound, boolean inclusive) {
        float r = round(bound);
        if (r < bound || (inclusive && r == bound)) {
            return r;
        }
        return -nextUp(-r);
    }

    /** The next half-precision value after {@code half} (itself a half-precision value). */
    public static float nextUp(float half) {
        if (Float.isNaN(half) || half == Float.POSITIVE_INFINITY) {
            return half;
        }
        short bits = Float.floatToFloat16(half);
        if (half == 0f) {
            bits = 0x0001;
        } else if (bits >= 0) {
            bits++;
        } else {
            bits--;
        }
        return Float.float16ToFloat(bits);
    }
}
