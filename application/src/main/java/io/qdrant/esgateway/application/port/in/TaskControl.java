package io.qdrant.esgateway.application.port.in;

import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The link between a running {@code _delete_by_query}, {@code _update_by_query} or {@code _reindex} and whoever
 * watches it: the operation publishes its counters after every batch ({@link #report}) and, before each batch after
 * the first, waits as {@code requests_per_second} asks ({@link #pace}) and stops once cancelled. Cancelling and
 * rethrottling come from other threads; a wait ends early for either.
 *
 * <p>Throttling is Elasticsearch's: after a batch of {@code n} documents that started at {@code t}, the next batch
 * starts no earlier than {@code t + n / requests_per_second} seconds. Unthrottled ({@code requests_per_second} -1,
 * the default) never waits.
 */
public final class TaskControl {
    /** Elasticsearch's reason for a task cancelled through {@code _tasks/{id}/_cancel}. */
    public static final String BY_USER_REQUEST = "by user request";

    private final LongSupplier nanoTime;
    private volatile float requestsPerSecond;
    private volatile String cancelled;
    private volatile Object progress;
    private volatile long throttledNanos;
    private volatile long waitingUntilNanos;
    private volatile boolean waiting;
    private volatile long cancelledUntilMillis;

    /** A control that throttles to {@code requestsPerSecond} (-1 or infinity: unthrottled), on the system clock. */
    public TaskControl(float requestsPerSecond) {
        this(requestsPerSecond, System::nanoTime);
    }

    /** As {@link #TaskControl(float)}, on the clock {@code nanoTime}. */
    public TaskControl(float requestsPerSecond, LongSupplier nanoTime) {
        this.requestsPerSecond = requestsPerSecond;
        this.nanoTime = nanoTime;
    }

    /** A control nobody watches: unthrottled, never cancelled. */
    public static TaskControl unwatched() {
        return new TaskControl(-1f);
    }

    /**
     * Asks the operation to stop before its next batch; the first reason given is kept. As in Elasticsearch, a
     * cancelled operation is unthrottled (its status reports {@code requests_per_second} -1).
     */
    public void cancel(String reason) {
        synchronized (this) {
            if (cancelled == null) {
                cancelled = reason;
                // as Elasticsearch: the wait cut short is not throttled time, and its end stays reported
                cancelledUntilMillis = throttledUntilMillis();
            }
            requestsPerSecond = -1f;
            notifyAll();
        }
    }

    /** Why the operation was asked to stop, if it was. */
    public Optional<String> cancelled() {
        return Optional.ofNullable(cancelled);
    }

    /** Changes the throttle; a wait in progress is measured again against the new rate. */
    public void rethrottle(float rate) {
        synchronized (this) {
            requestsPerSecond = rate;
            notifyAll();
        }
    }

    /** The throttle: -1 (or infinity) when unthrottled. */
    public float requestsPerSecond() {
        return requestsPerSecond;
    }

    /** The operation's counters so far (its own result type). */
    public void report(Object counters) {
        progress = counters;
    }

    /** The counters last reported, if any. */
    public Optional<Object> progress() {
        return Optional.ofNullable(progress);
    }

    /** The time spent waiting for the throttle so far, in milliseconds. */
    public long throttledMillis() {
        return throttledNanos / 1_000_000;
    }

    /**
     * How long until the current throttle wait ends, in milliseconds: 0 when not waiting; once cancelled, what was
     * left of the wait the cancellation cut short.
     */
    public long throttledUntilMillis() {
        if (waiting) {
            return Math.max(0, (waitingUntilNanos - nanoTime.getAsLong()) / 1_000_000);
        }
        return cancelled == null ? 0 : cancelledUntilMillis;
    }

    /**
     * Waits until the next batch may start: {@code lastBatchSize} documents after {@code lastBatchStartNanos} at the
     * throttle's rate (measured again when it changes). Returns at once when unthrottled or cancelled; whether the
     * operation may go on (false once cancelled).
     */
    public boolean pace(int lastBatchSize, long lastBatchStartNanos) {
        synchronized (this) {
            long began = nanoTime.getAsLong();
            try {
                while (cancelled == null) {
                    float rate = requestsPerSecond;
                    if (!(rate > 0) || Float.isInfinite(rate)) {
                        break;
                    }
                    long until = lastBatchStartNanos + (long) (lastBatchSize * 1_000_000_000d / rate);
                    long left = until - nanoTime.getAsLong();
                    if (left <= 0) {
                        break;
                    }
                    waitingUntilNanos = until;
                    waiting = true;
                    try {
                        wait(Math.max(1, left / 1_000_000));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        cancel("interrupted");
                    }
                }
            } finally {
                waiting = false;
                if (cancelled == null) {
                    throttledNanos += nanoTime.getAsLong() - began;
                }
            }
            return cancelled == null;
        }
    }
}
