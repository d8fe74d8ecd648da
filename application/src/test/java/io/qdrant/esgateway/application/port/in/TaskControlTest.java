package io.qdrant.esgateway.application.port.in;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Elasticsearch's throttle between batches: no wait unthrottled or for the first batch, {@code n / rate} seconds after
 * a batch of {@code n}, a wait cut short by a cancellation (not counted, its remainder reported) or by a rethrottle.
 */
class TaskControlTest {

    @Test
    void unthrottledAndFirstBatchesNeverWait() {
        TaskControl none = TaskControl.unwatched();
        long t0 = System.nanoTime();
        assertThat(none.pace(1000, System.nanoTime())).isTrue();
        assertThat(new TaskControl(0.001f).pace(0, 0)).isTrue();
        assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(1));
        assertThat(none.throttledMillis()).isLessThan(1000);
    }

    @Test
    void aBatchOfNWaitsNOverTheRateAfterItsStart() {
        TaskControl control = new TaskControl(20f);
        long start = System.nanoTime();
        assertThat(control.pace(4, start)).isTrue();
        long waited = System.nanoTime() - start;
        // 4 documents at 20 per second: 200 ms after the batch started
        assertThat(waited).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(195));
        assertThat(control.throttledMillis()).isBetween(150L, 5000L);
        assertThat(control.throttledUntilMillis()).isZero();
    }

    @Test
    void aCancelEndsTheWaitAtOnce() throws Exception {
        TaskControl control = new TaskControl(0.01f);
        CompletableFuture<Boolean> paced = CompletableFuture.supplyAsync(() -> control.pace(1, System.nanoTime()));
        while (control.throttledUntilMillis() == 0) {
            Thread.sleep(1);
        }
        control.cancel(TaskControl.BY_USER_REQUEST);
        assertThat(paced.get(5, TimeUnit.SECONDS)).isFalse();
        assertThat(control.cancelled()).contains("by user request");
        assertThat(control.requestsPerSecond()).isEqualTo(-1f);
        assertThat(control.throttledMillis()).isZero();
        assertThat(control.throttledUntilMillis()).isBetween(90_000L, 100_000L);
        assertThat(control.pace(1, System.nanoTime())).isFalse();
    }

    @Test
    void aFasterRateEndsTheWaitEarly() throws Exception {
        TaskControl control = new TaskControl(0.01f);
        CompletableFuture<Boolean> paced = CompletableFuture.supplyAsync(() -> control.pace(1, System.nanoTime()));
        while (control.throttledUntilMillis() == 0) {
            Thread.sleep(1);
        }
        control.rethrottle(-1f);
        assertThat(paced.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(control.cancelled()).isEmpty();
        assertThat(control.throttledUntilMillis()).isZero();
    }
}
