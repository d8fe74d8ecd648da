package io.qdrant.esgateway.bootstrap;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Whether the gateway is serving: requests in flight and when the last one began or ended (a filter in front of every
 * route keeps it). {@link IdleHeap} parks the heap only when this says the gateway is quiet.
 */
final class RequestActivity {
    private final AtomicInteger inFlight = new AtomicInteger();
    private final LongSupplier clock;
    private volatile long lastNanos;

    RequestActivity(LongSupplier clock) {
        this.clock = clock;
        this.lastNanos = clock.getAsLong();
    }

    void begin() {
        inFlight.incrementAndGet();
        lastNanos = clock.getAsLong();
    }

    void end() {
        lastNanos = clock.getAsLong();
        inFlight.decrementAndGet();
    }

    /** No request in flight, and none began or ended in the last {@code nanos} (by {@code now}). */
    boolean quietFor(long nanos, long now) {
        return inFlight.get() == 0 && now - lastNanos >= nanos;
    }
}
