package io.qdrant.esgateway.adapter.in.http;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What keeps one client from exhausting the gateway for the others, as Elasticsearch's thread pools and indexing
 * pressure do: at most {@code maxConcurrent} requests run at once and at most {@code maxQueued} more wait for a
 * turn; the next one is refused at once with 429 {@code es_rejected_execution_exception}. Write requests also hold
 * their body's bytes until they are answered, and one that would take the bytes in flight past
 * {@code maxWriteBytes} is refused the same way ({@code indexing_pressure.memory.limit}).
 */
final class Admission {
    /** The APIs whose bodies count as indexing pressure (Elasticsearch's bulk and single-document writes). */
    static final Set<String> WRITE_APIS = Set.of("bulk", "index", "create", "update");

    private final int maxConcurrent;
    private final int maxQueued;
    private final long maxWriteBytes;
    private final Semaphore running;
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicLong writeBytes = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();

    Admission(EsRestApi.Limits limits) {
        this.maxConcurrent = limits.maxConcurrentRequests();
        this.maxQueued = limits.maxQueuedRequests();
        this.maxWriteBytes = limits.indexingPressureBytes();
        this.running = new Semaphore(maxConcurrent, true);
    }

    /** A turn to run, waited for in the queue when every turn is taken; refused when the queue is full too. */
    Ticket enter(String method, String rawPath) {
        if (running.tryAcquire()) {
            return running::release;
        }
        if (queued.incrementAndGet() > maxQueued) {
            queued.decrementAndGet();
            rejected.incrementAndGet();
            throw new GatewayException(ErrorKind.REJECTED_EXECUTION, "rejected execution of request [" + method + " "
                    + rawPath + "] on gateway request admission [running = " + maxConcurrent
                    + ", max_concurrent_requests = " + maxConcurrent + ", queued = " + maxQueued
                    + ", queue capacity = " + maxQueued + "]");
        }
        try {
            running.acquireUninterruptibly();
        } finally {
            queued.decrementAndGet();
        }
        return running::release;
    }

    /** Holds {@code bytes} of a write's body until the returned ticket is closed; refused past the limit. */
    Ticket holdWriteBytes(long bytes) {
        long before;
        do {
            before = writeBytes.get();
            if (before + bytes > maxWriteBytes) {
                rejected.incrementAndGet();
                throw new GatewayException(ErrorKind.REJECTED_EXECUTION, "rejected execution of coordinating"
                        + " operation [coordinating_and_primary_bytes=" + before + ", replica_bytes=0, all_bytes="
                        + before + ", coordinating_operation_bytes=" + bytes + ", max_coordinating_and_primary_bytes="
                        + maxWriteBytes + "]");
            }
        } while (!writeBytes.compareAndSet(before, before + bytes));
        return () -> writeBytes.addAndGet(-bytes);
    }

    /** Requests refused so far (both bounds). */
    long rejected() {
        return rejected.get();
    }

    /** Write bytes in flight now. */
    long writeBytesInFlight() {
        return writeBytes.get();
    }

    /** A held turn or held bytes, given back once. */
    @FunctionalInterface
    interface Ticket extends AutoCloseable {
        @Override
        void close();
    }
}
