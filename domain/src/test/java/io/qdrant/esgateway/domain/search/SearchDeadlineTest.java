package io.qdrant.esgateway.domain.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SearchDeadlineTest {

    @Test
    void aDeadlineIsReachedOnlyOnceItsBudgetHasPassedAndStaysReached() {
        AtomicLong now = new AtomicLong(1_000);
        SearchDeadline deadline = SearchDeadline.of(Duration.ofNanos(50), now::get);
        now.set(1_050);
        assertThat(deadline.reached()).isFalse(); // Elasticsearch: past the budget, not at it
        assertThat(deadline.timedOut()).isFalse();
        now.set(1_051);
        assertThat(deadline.reached()).isTrue();
        now.set(1_000);
        assertThat(deadline.reached()).isTrue();
        assertThat(deadline.timedOut()).isTrue();
    }

    @Test
    void aHugeBudgetNeverOverflowsIntoAPassedDeadline() {
        AtomicLong now = new AtomicLong(Long.MAX_VALUE - 10);
        SearchDeadline deadline = SearchDeadline.of(Duration.ofDays(365L * 1_000_000_000L), now::get);
        now.set(Long.MIN_VALUE + 10); // the monotonic clock wrapped
        assertThat(deadline.reached()).isFalse();
    }

    @Test
    void theDeadlineIsBoundForTheSearchOnlyAndCarriedToItsOtherThreads() throws Exception {
        AtomicLong now = new AtomicLong();
        assertThat(SearchDeadline.passed()).isFalse();
        try (AutoCloseable clock = SearchDeadline.clock(now::get);
             ExecutorService threads = Executors.newSingleThreadExecutor()) {
            boolean answer = SearchDeadline.within(Optional.of(Duration.ofMillis(5)), () -> -1L, () -> {
                assertThat(SearchDeadline.passed()).isFalse();
                now.set(Duration.ofMillis(6).toNanos());
                Callable<Boolean> beside = SearchDeadline.carried(SearchDeadline::passed);
                try {
                    assertThat(threads.submit(beside).get()).isTrue();
                    assertThat(threads.submit(SearchDeadline::passed).get()).isFalse(); // not carried
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
                return SearchDeadline.timedOutHere();
            });
            assertThat(answer).isTrue();
            assertThat(SearchDeadline.current()).isEmpty();
            assertThat(SearchDeadline.timedOutHere()).isFalse();
            assertThat(SearchDeadline.within(Optional.empty(), () -> -1L, SearchDeadline::passed)).isFalse();
        }
    }
}
