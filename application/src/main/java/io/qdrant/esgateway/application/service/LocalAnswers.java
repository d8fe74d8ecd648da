package io.qdrant.esgateway.application.service;

import io.qdrant.esgateway.application.port.in.ResponseCaching;
import io.qdrant.esgateway.application.port.out.SharedResponseCache;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Shared-cache answers this replica holds decoded: ones the shared cache served it, each with the ticket it is current
 * under (the generations it was published under). While the cache knows those generations current
 * ({@link SharedResponseCache#knownGenerations}), the answer is the shared entry's. Bounded by count and by the
 * entries' encoded size; the oldest held go first. Reads take no lock (every request of a warm replica reads here).
 */
final class LocalAnswers {
    /**
     * An answer, the codec it was encoded with, the ticket it is current under, its encoded size; held by
     * {@code bits}, 64 bits of the ticket's key (two keys may share them: the ticket's key says whose answer it is).
     */
    record Held(long bits, SharedResponseCache.Ticket ticket, Object answer, ResponseCaching.Codec<?> codec,
                int bytes) {
    }

    private final int maxEntries;
    private final long maxBytes;
    private final Map<Long, Held> byKey = new ConcurrentHashMap<>();
    /** Every answer put, oldest first; one whose key now holds another (or none) is skipped when evicting. */
    private final Queue<Held> order = new ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicInteger queued = new java.util.concurrent.atomic.AtomicInteger();
    private final AtomicLong bytes = new AtomicLong();

    LocalAnswers(int maxEntries, long maxBytes) {
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
    }

    /** The answer held by {@code bits}, whatever its key; null when none is. */
    Held get(long bits) {
        return byKey.isEmpty() ? null : byKey.get(bits);
    }

    void put(Held held) {
        if (held.bytes() > maxBytes) {
            return;
        }
        Held old = byKey.put(held.bits(), held);
        bytes.addAndGet(held.bytes() - (old == null ? 0 : old.bytes()));
        order.add(held);
        queued.incrementAndGet();
        // the queue is bounded too: an answer replaced under its key stays queued until it is polled
        while (byKey.size() > maxEntries || bytes.get() > maxBytes || queued.get() > 2 * maxEntries) {
            Held eldest = order.poll();
            if (eldest == null) {
                break;
            }
            queued.decrementAndGet();
            remove(eldest);
        }
    }

    void remove(Held held) {
        if (byKey.remove(held.bits(), held)) {
            bytes.addAndGet(-held.bytes());
        }
    }

    int size() {
        return byKey.size();
    }
}
