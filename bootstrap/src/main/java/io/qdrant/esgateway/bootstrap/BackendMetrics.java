package io.qdrant.esgateway.bootstrap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.qdrant.esgateway.application.port.out.BackendObserver;
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

    BackendMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void called(Call call) {
        registry.counter("qeg_backend_requests", "backend", call.backend(), "operation", call.operation(), "status",
                call.outcome()).increment();
        Timer.builder("qeg_backend_request").description("time of one call to the document backend")
                .tags("backend", call.backend(), "operation", call.operation(), "status", call.outcome())
                .register(registry).record(call.nanos(), TimeUnit.NANOSECONDS);
        Counter.builder("qeg_backend_bytes_received")
                .description("response body bytes read from the document backend")
                .tags("backend", call.backend(), "operation", call.operation()).register(registry)
                .increment(call.bytesReceived());
        Counter.builder("qeg_backend_bytes_sent")
                .description("request body bytes sent to the document backend")
                .tags("backend", call.backend(), "operation", call.operation()).register(registry)
                .increment(call.bytesSent());
    }
}
