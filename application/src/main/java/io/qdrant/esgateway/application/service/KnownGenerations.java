package io.qdrant.esgateway.application.service;

import io.qdrant.esgateway.application.port.out.SharedResponseCache;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The data generation of each index as this replica's lookups last read it from the shared cache, with the cache's
 * epoch. Every value here was read on the server before it was recorded, so a ticket made of them was read before
 * any work that starts after it is made: an early ticket for a computation that runs while its lookup is still on
 * the way. Two lookups may record out of order; an older generation only makes a ticket stale sooner.
 */
final class KnownGenerations {
    /** Indices remembered at most; past it the record starts over (a forgotten index only waits for its lookup). */
    private static final int LIMIT = 100_000;

    private record Known(String epoch, long generation) {
    }

    private final ConcurrentHashMap<String, Known> byIndex = new ConcurrentHashMap<>();

    void remember(SharedResponseCache.Ticket ticket) {
        remember(ticket.indices(), ticket.generations(), ticket.epoch());
    }

    /** Records the generation of each of {@code indices}, at the same position of {@code generations}. */
    void remember(List<String> indices, List<Long> generations, String epoch) {
        if (byIndex.size() > LIMIT) {
            byIndex.clear();
        }
        for (int i = 0; i < indices.size(); i++) {
            long generation = generations.get(i);
            Known known = byIndex.get(indices.get(i));
            if (known == null || known.generation() != generation || !known.epoch().equals(epoch)) {
                // a warm hit usually reads what is known already: nothing to write then
                byIndex.put(indices.get(i), new Known(epoch, generation));
            }
        }
    }

    /** A ticket for {@code key} of the generations known for every one of {@code indices}, in one epoch; else null. */
    SharedResponseCache.Ticket ticket(String key, List<String> indices) {
        List<Long> generations = new ArrayList<>(indices.size());
        String epoch = null;
        for (String index : indices) {
            Known known = byIndex.get(index);
            if (known == null || (epoch != null && !epoch.equals(known.epoch()))) {
                return null;
            }
            epoch = known.epoch();
            generations.add(known.generation());
        }
        return epoch == null ? null : new SharedResponseCache.Ticket(key, indices, generations, epoch);
    }
}
