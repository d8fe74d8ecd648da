package io.qdrant.esgateway.adapter.out.lucene;

import io.qdrant.esgateway.domain.index.FieldMapping.NumberType;

/**
 * Query values on {@code half_float} fields, as Elasticsearch treats them: indexed values are rounded to half
 * precision, so an exact value is rounded the same way, and a range keeps the half-precision values inside its bounds
 * (inclusive: the smallest half ≥ the lower bound; exclusive: the smallest half &gt; it; the same downwards).
 */
final class HalfFloats {
    private HalfFloats() {
    }

    /** {@code value} as the field stores it: rounded to half precision for {@code half_float}, else unchanged. */
    static float valueOf(NumberType type, float value) {
        return type == NumberType.HALF_FLOAT ? round(value) : value;
    }

    static float round(float value) {
        return Float.float16ToFloat(Float.floatToFloat16(value));
    }

    /** The smallest half-precision value above {@code bound} (or equal to it when inclusive). */
    static float lowest(float bound, boolean inclusive) {
        float r = round(bound);
        if (r > bound || (inclusive && r == bound)) {
            return r;
        }
        return nextUp(r);
    }

    /** The largest half-precision value below {@code bound} (or equal to it when inclusive). */
    static float highest(float bound, boolean inclusive) {
        float r = round(bound);
        if (r < bound || (inclusive && r == bound)) {
            return r;
        }
        return -nextUp(-r);
    }

    /** The next half-precision value after {@code half} (itself a half-precision value). */
    static float nextUp(float half) {
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
