package io.qdrant.esgateway.domain.search;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The search {@code timeout} of the request the current thread serves: stores check {@link #reached} between units
 * of work (Lucene's collection intervals, segments, Qdrant's scroll pages) and stop there, returning what they have
 * (Elasticsearch's partial results); the answer then says {@code timed_out: true}. A deadline is bound to a thread
 * for the duration of one search ({@link #within}) and carried to the threads that search beside it
 * ({@link #carried}).
 */
public final class SearchDeadline {
    private static final ThreadLocal<SearchDeadline> CURRENT = new ThreadLocal<>();
    /** A test's clock, replacing the caller's while set ({@link #clock}). */
    private static volatile LongSupplier clock;

    private final LongSupplier nanos;
    private final long start;
    private final long budget;
    private volatile boolean timedOut;

    private SearchDeadline(LongSupplier nanos, Duration budget) {
        this.nanos = nanos;
        this.start = nanos.getAsLong();
        this.budget = budget.compareTo(Duration.ofNanos(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : budget.toNanos();
    }

    /** A deadline {@code budget} from now on {@code nanos} (a monotonic clock in nanoseconds). */
    public static SearchDeadline of(Duration budget, LongSupplier nanos) {
        return new SearchDeadline(nanos, budget);
    }

    /**
     * Runs {@code work} with the deadline {@code timeout} from now on {@code nanos} (the caller's monotonic clock)
     * bound to this thread (none when empty); whether it was reached is {@link #timedOutHere} while {@code work} runs.
     */
    public static <T> T within(Optional<Duration> timeout, LongSupplier nanos, Supplier<T> work) {
        if (timeout.isEmpty()) {
            return work.get();
        }
        LongSupplier replaced = clock;
        return bound(new SearchDeadline(replaced != null ? replaced : nanos, timeout.get()), work);
    }

    /** Runs {@code work} with {@code deadline} bound to this thread (restoring what was bound before). */
    public static <T> T bound(SearchDeadline deadline, Supplier<T> work) {
        SearchDeadline previous = CURRENT.get();
        CURRENT.set(deadline);
        try {
            return work.get();
        } finally {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        }
    }

    /** The deadline bound to this thread, if any. */
    public static Optional<SearchDeadline> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    /** Whether this thread's search has a deadline and it has passed (recording that the search timed out). */
    public static boolean passed() {
        SearchDeadline deadline = CURRENT.get();
        return deadline != null && deadline.reached();
    }

    /** Whether the search bound to this thread stopped short at its deadline. */
    public static boolean timedOutHere() {
        SearchDeadline deadline = CURRENT.get();
        return deadline != null && deadline.timedOut();
    }

    /** {@code task} run with this thread's deadline (if any) bound to whichever thread runs it. */
    public static <T> Callable<T> carried(Callable<T> task) {
        SearchDeadline deadline = CURRENT.get();
        if (deadline == null) {
            return task;
        }
        return () -> {
            SearchDeadline previous = CURRENT.get();
            CURRENT.set(deadline);
            try {
                return task.call();
            } finally {
                if (previous == null) {
                    CURRENT.remove();
                } else {
                    CURRENT.set(previous);
                }
            }
        };
    }

    /** Whether the deadline has passed; once it has, the search counts as timed out. */
    public boolean reached() {
        if (timedOut) {
            return true;
        }
        if (nanos.getAsLong() - start > budget) {
            timedOut = true;
        }
        return timedOut;
    }

    /** Whether a check found the deadline passed (some work was cut short). */
    public boolean timedOut() {
        return timedOut;
    }

    /**
     * Replaces the clock deadlines read (a monotonic nanosecond clock) until the returned handle is closed: a test
     * drives time with it instead of racing a real clock.
     */
    public static AutoCloseable clock(LongSupplier nanos) {
        LongSupplier before = clock;
        clock = nanos;
        return () -> clock = before;
    }
}
