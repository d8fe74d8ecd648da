package io.qdrant.esgateway.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SettleTest {

    /** A process that uses {@code busyMillis} of CPU per window for {@code busyWindows} windows, then nearly none. */
    private static final class FakeEngine {
        final AtomicLong cpu = new AtomicLong();
        final List<Long> sleeps = new ArrayList<>();
        final int busyWindows;
        final long busyMillis;

        FakeEngine(int busyWindows, long busyMillis) {
            this.busyWindows = busyWindows;
            this.busyMillis = busyMillis;
        }

        void sleep(long millis) {
            sleeps.add(millis);
            cpu.addAndGet((sleeps.size() <= busyWindows ? busyMillis : 10) * 1_000_000);
        }
    }

    @Test
    void waitsThroughTheBusyWindowsAndStopsAtTheFirstQuietOne() {
        FakeEngine engine = new FakeEngine(3, 400);
        Settle.Outcome outcome = Settle.await(engine.cpu::get, engine::sleep);
        assertThat(outcome).isEqualTo(new Settle.Outcome(4 * Settle.WINDOW_MILLIS, true));
        assertThat(engine.sleeps).hasSize(4).containsOnly(Settle.WINDOW_MILLIS);
    }

    @Test
    void aQuietEngineCostsOneWindow() {
        FakeEngine engine = new FakeEngine(0, 0);
        assertThat(Settle.await(engine.cpu::get, engine::sleep)).isEqualTo(new Settle.Outcome(Settle.WINDOW_MILLIS, true));
    }

    @Test
    void justAboveTheQuietShareIsBusy() {
        long busy = (long) (Settle.QUIET_SHARE * Settle.WINDOW_MILLIS) + 1; // 51 ms of a 500 ms window
        FakeEngine engine = new FakeEngine(2, busy);
        assertThat(Settle.await(engine.cpu::get, engine::sleep).waitedMillis()).isEqualTo(3 * Settle.WINDOW_MILLIS);
    }

    @Test
    void anEngineThatStaysBusyIsMeasuredAfterTheLongestWait() {
        FakeEngine engine = new FakeEngine(Integer.MAX_VALUE, 900);
        Settle.Outcome outcome = Settle.await(engine.cpu::get, engine::sleep);
        assertThat(outcome).isEqualTo(new Settle.Outcome(Settle.MAX_MILLIS, false));
        assertThat(engine.sleeps).hasSize((int) (Settle.MAX_MILLIS / Settle.WINDOW_MILLIS));
    }

    @Test
    void anEngineWhoseCpuCannotBeReadIsNotWaitedFor() {
        List<Long> sleeps = new ArrayList<>();
        assertThat(Settle.await(() -> -1, sleeps::add)).isEqualTo(new Settle.Outcome(0, false));
        assertThat(sleeps).isEmpty();
    }
}
