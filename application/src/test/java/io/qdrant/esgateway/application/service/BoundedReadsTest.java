package io.qdrant.esgateway.application.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BoundedReadsTest {

    @Test
    void readsRunConcurrentlyButNeverMoreThanTheBound() {
        BoundedReads reads = new BoundedReads(3);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        CountDownLatch threeStarted = new CountDownLatch(3);
        List<Callable<Object>> tasks = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            int n = i;
            tasks.add(() -> {
                peak.accumulateAndGet(running.incrementAndGet(), Math::max);
                threeStarted.countDown();
                // the first three wait for each other: they can only all arrive if they run at the same time
                threeStarted.await(5, TimeUnit.SECONDS);
                Thread.sleep(5);
                running.decrementAndGet();
                return n;
            });
        }
        List<Object> values = reads.run(tasks);
        assertThat(values).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
        assertThat(peak.get()).isEqualTo(3);
    }

    @Test
    void aTaskOfSeveralReadsHoldsAsManyPermits() {
        // a bound of 2: a task of two reads and a task of one never run at once (each waits a while for the other:
        // had the pair held one permit, both would start and see each other)
        BoundedReads reads = new BoundedReads(2);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        CountDownLatch both = new CountDownLatch(2);
        Callable<Object> meet = () -> {
            both.countDown();
            both.await(300, TimeUnit.MILLISECONDS);
            return null;
        };
        List<Callable<Object>> tasks = List.of(new BoundedReads.Several(2, () -> {
            peak.accumulateAndGet(running.addAndGet(2), Math::max);
            meet.call();
            running.addAndGet(-2);
            return "pair";
        }), () -> {
            peak.accumulateAndGet(running.incrementAndGet(), Math::max);
            meet.call();
            running.decrementAndGet();
            return "single";
        });
        assertThat(reads.run(tasks)).containsExactly("pair", "single");
        assertThat(peak.get()).isEqualTo(2);
        // more reads than the bound hold the whole bound, and still run
        assertThat(new BoundedReads(1).run(List.of(new BoundedReads.Several(3, () -> "three"), () -> "one")))
                .containsExactly("three", "one");
    }

    @Test
    void theFirstFailureInTaskOrderIsRethrownAfterAllFinished() {
        BoundedReads reads = new BoundedReads(2);
        AtomicInteger finished = new AtomicInteger();
        List<Callable<Object>> tasks = List.of(
                () -> {
                    finished.incrementAndGet();
                    return 1;
                },
                () -> {
                    finished.incrementAndGet();
                    throw new IllegalArgumentException("second");
                },
                () -> {
                    Thread.sleep(20);
                    finished.incrementAndGet();
                    throw new IllegalStateException("third");
                });
        assertThatThrownBy(() -> reads.run(tasks)).isInstanceOf(IllegalArgumentException.class).hasMessage("second");
        assertThat(finished.get()).isEqualTo(3);
    }

    @Test
    void theFirstOfSeveralReadsRunsOnTheCallingThreadAndTheOthersBesideIt() {
        Thread caller = Thread.currentThread();
        List<Callable<Object>> tasks = List.of(() -> Thread.currentThread() == caller,
                () -> Thread.currentThread() == caller, () -> Thread.currentThread() == caller);
        assertThat(new BoundedReads(4).run(tasks)).containsExactly(true, false, false);
        List<Callable<Boolean>> coordinators = List.of(() -> Thread.currentThread() == caller,
                () -> Thread.currentThread() == caller);
        assertThat(BoundedReads.all(coordinators)).extracting(BoundedReads.Outcome::value).containsExactly(true, false);
        assertThat(new BoundedReads(4).run(List.of())).isEmpty();
        assertThat(BoundedReads.<Object>all(List.of())).isEmpty();
    }

    @Test
    void outcomesOfCoordinatorsAreReportedPerTask() {
        List<Callable<String>> tasks = List.of(() -> "a", () -> {
            throw new IllegalArgumentException("b");
        });
        List<BoundedReads.Outcome<String>> outcomes = BoundedReads.all(tasks);
        assertThat(outcomes.get(0).value()).isEqualTo("a");
        assertThat(outcomes.get(1).failure()).hasMessage("b");
    }
}
