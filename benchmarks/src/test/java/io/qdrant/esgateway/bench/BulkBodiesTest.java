package io.qdrant.esgateway.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BulkBodiesTest {

    @Test
    void prebuiltBodiesAreTheCorpusBulkBodiesEncoded() {
        Corpus corpus = Corpus.generate(42, 2_500);
        for (boolean vectors : new boolean[] {false, true}) {
            BulkBodies bodies = new BulkBodies(corpus, 1_000, vectors);
            assertThat(bodies.prebuilt()).isTrue();
            assertThat(bodies.count()).isEqualTo(3);
            for (int n = 0; n < bodies.count(); n++) {
                assertThat(new String(bodies.body(n), StandardCharsets.UTF_8))
                        .isEqualTo(corpus.bulkBody(n, 1_000, vectors));
            }
        }
    }

    @Test
    void theErrorsFlagIsReadWhereverItIsAndItsAbsenceCountsAsErrors() {
        assertThat(errors("{\"errors\":false,\"took\":3,\"items\":[{\"index\":{\"status\":201}}]}")).isFalse();
        assertThat(errors("{\"took\":3,\"errors\":false,\"items\":[{\"index\":{\"errors\":true}}]}")).isFalse();
        assertThat(errors("{\"took\":3,\"items\":[{\"index\":{\"errors\":false}}],\"errors\":false}")).isFalse();
        assertThat(errors("{\"took\":3,\"errors\":true,\"items\":[]}")).isTrue();
        assertThat(errors("{\"took\":3,\"items\":[{\"index\":{\"errors\":false}}]}")).isTrue();
        assertThat(errors("{\"errors\":\"false\"}")).isTrue();
        assertThat(errors("[]")).isTrue();
        assertThat(errors("not json")).isTrue();
    }

    private static boolean errors(String answer) {
        return BulkBodies.reportsErrors(answer.getBytes(StandardCharsets.UTF_8));
    }
}
