package io.qdrant.esgateway.adapter.in.http;

import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * The wall time one request spends inside calls to a remote document backend, so that the request's own time (what
 * the gateway itself costs) is its whole time minus this.
 *
 * <p>A request opens one with {@link #open()} on its handler thread; it is found through an
 * {@link InheritableThreadLocal}, so the threads a request starts for concurrent work (virtual threads inherit
 * inheritable thread-locals) report their calls to it too. {@link #CALL_ENDED} feeds it (the composition root
 * connects it to the backend's observer): each call is the interval [end − nanos, end], end being when it is told
 * (backends tell it as soon as the call ended). Overlapping calls of one request count once: {@link #wallNanos} is the length of the union
 * of the intervals, clipped to the request's own span, so it never exceeds the request's time.
 *
 * <p>Thread-safe. A call reported after the request closed its scope is ignored.
 */
final class RequestBackendTime implements AutoCloseable {
    private static final InheritableThreadLocal<RequestBackendTime> CURRENT = new InheritableThreadLocal<>();

    /** Attributes a backend call that just ended, after {@code nanos}, to the request of its thread (none: ignored). */
    static final LongConsumer CALL_ENDED = nanos -> {
        RequestBackendTime current = CURRENT.get();
        if (current != null) {
            long end = System.nanoTime();
            current.add(end - nanos, end);
        }
    };

    private final long start;
    private long[] intervals = new long[8];
    private int size;
    private boolean closed;

    RequestBackendTime(long start) {
        this.start = start;
    }

    /** Starts attributing this thread's (and its future children's) backend calls to a new request. */
    static RequestBackendTime open() {
        RequestBackendTime scope = new RequestBackendTime(System.nanoTime());
        CURRENT.set(scope);
        return scope;
    }

    /** When the request started ({@link System#nanoTime()}). */
    long start() {
        return start;
    }

    /** Records one call from {@code from} to {@code to} ({@link System#nanoTime()} values). */
    synchronized void add(long from, long to) {
        if (closed || to <= from) {
            return;
        }
        if (size + 2 > intervals.length) {
            intervals = Arrays.copyOf(intervals, intervals.length * 2);
        }
        intervals[size++] = from;
        intervals[size++] = to;
    }

    /** The length of the union of the recorded calls within [start, {@code until}]. */
    synchronized long wallNanos(long until) {
        int n = size / 2;
        if (n == 0) {
            return 0;
        }
        long[][] pairs = new long[n][];
        for (int i = 0; i < n; i++) {
            pairs[i] = new long[] {Math.max(start, intervals[2 * i]), Math.min(until, intervals[2 * i + 1])};
        }
        Arrays.sort(pairs, (a, b) -> Long.compare(a[0], b[0]));
        long total = 0;
        long from = Long.MIN_VALUE;
        long to = Long.MIN_VALUE;
        for (long[] p : pairs) {
            if (p[1] <= p[0]) {
                continue;
            }
            if (p[0] > to) {
                total += to - from;
                from = p[0];
                to = p[1];
            } else {
                to = Math.max(to, p[1]);
            }
        }
        return total + (to - from);
    }

    /** Stops attributing calls to this request, and detaches it from the thread. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        if (CURRENT.get() == this) {
            CURRENT.remove();
        }
    }
}
