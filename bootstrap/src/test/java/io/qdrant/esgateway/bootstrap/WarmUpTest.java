package io.qdrant.esgateway.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-up JIT warm-up: it runs its whole workload against a private gateway (every answer 2xx, or it fails),
 * shares nothing with the real gateway, and leaves nothing behind — also when it is stopped half-way.
 */
class WarmUpTest {

    @Test
    void runsItsWholeWorkloadOnAPrivateGatewayAndLeavesNothingBehind(@TempDir Path dir) throws IOException {
        Path parent = Files.createDirectories(dir.resolve("tmp"));
        try (RunningGateway real = RunningGateway.start(dir.resolve("data"))) {
            assertThat(real.client.put("/mine").status()).isEqualTo(200);

            WarmUp.Report report = new WarmUp(2, 2 * WarmUp.BATCH, parent).run();

            // per round: delete + create the index, 2 bulks, refresh, count, then 20 x (6 searches, a get, a write)
            assertThat(report.requests()).isEqualTo(2 * (2 + 2 + 2 + 20 * 8));
            assertThat(report.documents()).isEqualTo(4 * WarmUp.BATCH);
            assertThat(entries(parent)).as("the warm-up's directory is deleted").isEmpty();
            assertThat(real.client.get("/_cat/indices?format=json&h=index").json().findValuesAsText("index"))
                    .as("the real gateway never sees the warm-up's index").containsExactly("mine");
            assertThat(real.client.get("/warm-up").status()).isEqualTo(404);
        }
    }

    @Test
    void aStoppedWarmUpClosesItsGatewayAndDeletesItsDirectory(@TempDir Path parent) throws Exception {
        WarmUp warmUp = new WarmUp(1_000, 10 * WarmUp.BATCH, parent).startInBackground();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (entries(parent).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(entries(parent)).as("the warm-up started").hasSize(1);

        warmUp.stop(30_000);

        assertThat(entries(parent)).as("stopped half-way, its gateway closed and its directory deleted").isEmpty();
    }

    @Test
    void itsSizeIsWholeBatches(@TempDir Path parent) {
        assertThatThrownBy(() -> new WarmUp(0, WarmUp.BATCH, parent)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new WarmUp(1, WarmUp.BATCH + 1, parent))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static java.util.List<Path> entries(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }
}
