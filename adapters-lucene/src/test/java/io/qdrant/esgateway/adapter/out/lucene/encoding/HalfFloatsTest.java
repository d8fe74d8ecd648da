package io.qdrant.esgateway.adapter.out.lucene.encoding;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.index.FieldMapping.NumberType;
import org.junit.jupiter.api.Test;

class HalfFloatsTest {

    @Test
    void exactValuesRoundToHalfPrecisionOnlyForHalfFloat() {
        assertThat(HalfFloats.valueOf(NumberType.HALF_FLOAT, 0.1f)).isEqualTo(0.0999755859375f);
        assertThat(HalfFloats.valueOf(NumberType.FLOAT, 0.1f)).isEqualTo(0.1f);
    }

    @Test
    void boundsKeepTheHalfValuesInside() {
        float below = 0.0999755859375f;
        float above = HalfFloats.nextUp(below);
        assertThat(above).isGreaterThan(below);
        assertThat(HalfFloats.lowest(0.1f, true)).as("smallest half >= 0.1").isEqualTo(above);
        assertThat(HalfFloats.lowest(below, true)).isEqualTo(below);
        assertThat(HalfFloats.lowest(below, false)).isEqualTo(above);
        assertThat(HalfFloats.highest(0.1f, true)).as("largest half <= 0.1").isEqualTo(below);
        assertThat(HalfFloats.highest(1.0f, false)).isLessThan(1.0f);
        assertThat(HalfFloats.highest(-0.3f, true)).isLessThanOrEqualTo(-0.3f);
        assertThat(HalfFloats.nextUp(0f)).isPositive();
        assertThat(HalfFloats.nextUp(-1f)).isGreaterThan(-1f);
    }
}
