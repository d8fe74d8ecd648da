package io.qdrant.esgateway.application.service;

import io.qdrant.esgateway.application.port.in.ResponseCaching;
import io.qdrant.esgateway.application.port.out.SharedResponseCache;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Shared-cache answers this replica holds decoded: ones it published, and ones the shared cache served it, each with
 * the ticket it is current under (the generations it was published under). While those generations are current the
 * answer is the shared entry's, so a request for its key asks the server only for the generations
 * ({@link SharedResponseCache#ticketIf}) and is answered without the entry being sent or decoded. Bounded by count and
 * by the entries' encoded size; the least recently used go first.
 */
final class LocalAnswers {
    /** An answer, the codec it was encoded with, the ticket it is current under, its encoded size. */
    record Held(SharedResponseCache.Ticket ticket, Object answer, ResponseCaching.Codec<?> codec, int bytes) {
    }

    private final int maxEntries;
    private final long maxBytes;
    private final LinkedHashMap<String, Held> byKey = new LinkedHashMap<>(64, 0.75f, true);
    private long bytes;

    LocalAnswers(int maxEntries, long maxBytes) {
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
    }

    synchronized Held get(String key) {
        return byKey.get(key);
    }

    synchronized void put(Held held) {
        if (held.bytes() > maxBytes) {
            return;
        }
        Held old = byKey.put(held.ticket().key(), held);
        bytes += held.bytes() - (old == null ? 0 : old.bytes());
        Iterator<Map.Entry<String, Held>> eldest = byKey.entrySet().iterator();
        while ((byKey.size() > maxEntries || bytes > maxBytes) && eldest.hasNext()) {
            bytes -= eldest.next().getValue().bytes();
            eldest.remove();
        }
    }

    synchronized void remove(Held held) {
        if (byKey.remove(held.ticket().key(), held)) {
            bytes -= held.bytes();
        }
    }

    synchronized int size() {
        return byKey.size();
    }
}
