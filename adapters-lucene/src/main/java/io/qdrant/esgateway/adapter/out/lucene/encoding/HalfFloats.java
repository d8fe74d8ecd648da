package io.qdrant.esgateway.adapter.out.lucene.encoding;

import io.qdrant.esgateway.domain.index.FieldMapping.NumberType;
import io.qdrant.esgateway.domain.index.HalfFloat;

/** Query values on {@code half_float} fields for Lucene queries: the rounding and bounds of {@link HalfFloat}. */
public final class HalfFloats {
    private HalfFloats() {
    }

    /** {@code value} as the field stores it: rounded to half precision for {@code half_float}, else unchanged. */
    public static float valueOf(NumberType type, float value) {
        return type == NumberType.HALF_FLOAT ? round(value) : value;
    }

    static float round(float value) {
        return HalfFloat.round(value);
    }

    /** The smallest half-precision value above {@code bound} (or equal to it when inclusive). */
    public static float lowest(float bound, boolean inclusive) {
        return HalfFloat.lowest(bound, inclusive);
    }

    /** The largest half-precision value below {@code bound} (or equal to it when inclusive). */
    public static float highest(float bound, boolean inclusive) {
        return HalfFloat.highest(bound, inclusive);
    }

    /** The next half-precision value after {@code half} (itself a half-precision value). */
    static float nextUp(float half) {
        return HalfFloat.nextUp(half);
    }
}
