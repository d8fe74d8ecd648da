package io.qdrant.esgateway.bootstrap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.qdrant.esgateway.application.port.out.BackendObserver;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The remote backend's calls as metrics on {@code /metrics}: {@code qeg_backend_requests_total} and the timer
 * {@code qeg_backend_request_seconds} (count, sum, max) by {@code backend}, {@code operation} and {@code status}, and
 * {@code qeg_backend_bytes_received_total} / {@code qeg_backend_bytes_sent_total} (body bytes) by {@code backend} and
 * {@code operation}. Labels are bounded: operations are path templates, statuses HTTP codes or
 * {@code timeout}/{@code error}.
 */
final class BackendMetrics implements BackendObserver {
    private final MeterRegistry registry;
    /** The meters of each label set, registered once (a lookup in the registry per call cost more than the count). */
    private final Map<Labels, Meters> meters = new ConcurrentHashMap<>();

    private record Labels(String backend, String operation, String outcome) {
    }

    private record Meters(Counter requests, Timer time, Counter received, Counter sent) {
    }

    BackendMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void called(Call call) {
        Meters m = meters.computeIfAbsent(new Labels(call.backend(), call.operation(), call.outcome()), this::register);
        m.requests().increment();
        m.time().record(call.nanos(), TimeUnit.NANOSECONDS);
        m.received().increment(call.bytesReceived());
        m.sent().increment(call.bytesSent());
    }

    private Meters register(Labels l) {
        return new Meters(
                registry.counter("qeg_backend_requests", "backend", l.backend(), "operation", l.operation(), "status",
                        l.outcome()),
                Timer.builder("qeg_backend_request").description("time of one call to the document backend")
                        .tags("backend", l.backend(), "operation", l.operation(), "status", l.outcome())
                        .register(registry),
                Counter.builder("qeg_backend_bytes_received")
                        .description("response body bytes read from the document backend")
                        .tags("backend", l.backend(), "operation", l.operation()).register(registry),
                Counter.builder("qeg_backend_bytes_sent")
                        .description("request body bytes sent to the document backend")
                        .tags("backend", l.backend(), "operation", l.operation()).register(registry));
    }
}
