package io.qdrant.esgateway.bench;

import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * After an engine's timed ingest, waits until the engine's process is quiet before its search cells start, so that a
 * cell measures searches and not what the ingest left running (after 1,000,000 documents: merges, collections of the
 * ingest's garbage, a concurrent marking cycle, compilations). Quiet: over one {@link #WINDOW_MILLIS} window the
 * process used at most {@link #QUIET_SHARE} of one core. Every engine the runner started is treated alike; an engine
 * whose CPU time cannot be read (one given by URL) is not waited for.
 */
final class Settle {
    /** The window over which the engine's CPU use is read. */
    static final long WINDOW_MILLIS = 500;
    /** The share of one core an engine may use over a window and count as quiet. */
    static final double QUIET_SHARE = 0.10;
    /** The longest wait; an engine still busy then is measured as it is (the outcome says so). */
    static final long MAX_MILLIS = 30_000;

    /** How long the wait took, and whether the engine was quiet at its end ({@code false}: unknown, or still busy). */
    record Outcome(long waitedMillis, boolean quiet) {
    }

    private Settle() {
    }

    /**
     * Reads {@code cpuNanos} (the engine's CPU time in ns, negative when unknown) every window, sleeping through
     * {@code sleep}, until a window's use is at most {@link #QUIET_SHARE} of a core or {@link #MAX_MILLIS} passed.
     */
    static Outcome await(LongSupplier cpuNanos, LongConsumer sleep) {
        long before = cpuNanos.getAsLong();
        if (before < 0) {
            return new Outcome(0, false);
        }
        long waited = 0;
        while (waited < MAX_MILLIS) {
            sleep.accept(WINDOW_MILLIS);
            waited += WINDOW_MILLIS;
            long after = cpuNanos.getAsLong();
            if (after < 0) {
                return new Outcome(waited, false);
            }
            if (after - before <= QUIET_SHARE * WINDOW_MILLIS * 1_000_000) {
                return new Outcome(waited, true);
            }
            before = after;
        }
        return new Outcome(waited, false);
    }
}
