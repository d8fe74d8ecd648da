package io.qdrant.esgateway.adapter.in.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The timer {@code qeg_request_own_seconds} by {@code api}: per request, the time the gateway itself spent serving it
 * (from reading the request to having written the answer) minus the wall time inside calls to a remote backend
 * ({@link RequestBackendTime}). On the embedded backend it is the request's whole time.
 *
 * <p>Published as a histogram with fixed buckets ({@link #BUCKETS}), fine where the gateway's overhead lies (5 µs steps
 * up to 200 µs, then 10 µs to 500 µs, 25 µs to 1 ms, coarser beyond), so that a reader taking the bucket counts
 * before and after a run can compute the run's p50 and p95 (the benchmark runner's gateway-overhead mode does).
 */
final class GatewayOverheadTimer {
    static final String NAME = "qeg.request.own";
    static final Duration[] BUCKETS = buckets();

    private final MeterRegistry registry;
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    GatewayOverheadTimer(MeterRegistry registry) {
        this.registry = registry;
    }

    /** The timer of {@code api} (registered once, then reused). */
    Timer timer(String api) {
        return timers.computeIfAbsent(api,
                a -> Timer.builder(NAME).description("the gateway's own time per request: its time serving the"
                                + " request minus the wall time inside calls to a remote backend")
                        .tag("api", a).serviceLevelObjectives(BUCKETS).register(registry));
    }

    private static Duration[] buckets() {
        List<Duration> out = new ArrayList<>();
        step(out, 5_000, 200_000, 5_000);
        step(out, 210_000, 500_000, 10_000);
        step(out, 525_000, 1_000_000, 25_000);
        step(out, 1_250_000, 5_000_000, 250_000);
        step(out, 6_000_000, 20_000_000, 1_000_000);
        for (long ms : new long[] {25, 30, 40, 50, 75, 100, 150, 200, 300, 500, 1000, 2000, 5000, 10000}) {
            out.add(Duration.ofMillis(ms));
        }
        return out.toArray(Duration[]::new);
    }

    private static void step(List<Duration> out, long fromNanos, long toNanos, long stepNanos) {
        for (long n = fromNanos; n <= toNanos; n += stepNanos) {
            out.add(Duration.ofNanos(n));
        }
    }
}
