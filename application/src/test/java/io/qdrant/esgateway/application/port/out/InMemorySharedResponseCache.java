package io.qdrant.esgateway.application.port.out;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The shared response cache in one process's memory: one lock makes lookup, publish and bump atomic. */
public class InMemorySharedResponseCache implements SharedResponseCache {
    private record Entry(List<Long> generations, byte[] answer) {
    }

    private final int maxEntryBytes;
    private final Map<String, Long> generations = new HashMap<>();
    private final Map<String, Entry> entries = new HashMap<>();

    public InMemorySharedResponseCache(int maxEntryBytes) {
        this.maxEntryBytes = maxEntryBytes;
    }

    @Override
    public synchronized Lookup lookup(String key, List<String> indices) {
        List<Long> current = current(indices);
        Entry entry = entries.get(key);
        Optional<byte[]> answer = entry != null && entry.generations().equals(current)
                ? Optional.of(entry.answer().clone()) : Optional.empty();
        return new Lookup(new Ticket(key, indices, current), answer);
    }

    @Override
    public synchronized Published publish(Ticket ticket, byte[] answer) {
        if (answer.length > maxEntryBytes) {
            return Published.TOO_LARGE;
        }
        if (!current(ticket.indices()).equals(ticket.generations())) {
            return Published.STALE_TICKET;
        }
        entries.put(ticket.key(), new Entry(ticket.generations(), answer.clone()));
        return Published.PUBLISHED;
    }

    @Override
    public synchronized void bump(Collection<String> indices) {
        indices.forEach(i -> generations.merge(i, 1L, Long::sum));
    }

    @Override
    public void ping() {
    }

    private List<Long> current(List<String> indices) {
        List<Long> out = new ArrayList<>(indices.size());
        indices.forEach(i -> out.add(generations.getOrDefault(i, 0L)));
        return out;
    }
}
