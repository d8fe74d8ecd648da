package io.qdrant.esgateway.application.port.out;

import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import java.util.Collection;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * A {@link DocumentStore} fake for service tests: it keeps the set of storages ({@code name/uuid}), records every
 * call in order, and can be told to fail an operation or to run a hook before it (to observe or disturb the
 * caller at that moment).
 */
public class InMemoryDocumentStore implements DocumentStore {

    public enum Operation { CREATE, DROP, UPDATE_MAPPINGS, STATS, PING, WRITE, GET }

    private final Set<String> storages = new TreeSet<>();
    private final List<String> calls = new ArrayList<>();
    private final Map<Operation, RuntimeException> failures = new EnumMap<>(Operation.class);
    private final Map<Operation, Consumer<IndexMetadata>> hooks = new EnumMap<>(Operation.class);
    private final Map<String, StoreStats> stats = new HashMap<>();
    private final Map<String, Map<String, StoredDocument>> documents = new HashMap<>();
    private final Map<String, Long> maxSeqNos = new HashMap<>();
    private final List<String> upserts = new ArrayList<>();

    /** Every later call of {@code operation} throws {@code failure} (after its hook, before any change). */
    public synchronized InMemoryDocumentStore failOn(Operation operation, RuntimeException failure) {
        failures.put(operation, failure);
        return this;
    }

    public synchronized InMemoryDocumentStore heal(Operation operation) {
        failures.remove(operation);
        return this;
    }

    /** Runs {@code hook} at the start of every later call of {@code operation} (with {@code null} for a ping). */
    public synchronized InMemoryDocumentStore onCall(Operation operation, Consumer<IndexMetadata> hook) {
        hooks.put(operation, hook);
        return this;
    }

    /** Makes {@link #stats} answer {@code indexStats} for the index of that name instead of counting its documents. */
    public synchronized InMemoryDocumentStore withStats(String index, StoreStats indexStats) {
        stats.put(index, indexStats);
        return this;
    }

    /** The storages that exist, as {@code name/uuid}, sorted. */
    public synchronized Set<String> storages() {
        return new TreeSet<>(storages);
    }

    public synchronized boolean holds(IndexMetadata index) {
        return storages.contains(key(index));
    }

    /** Every upsert written so far, in order, as {@code "id absent"} or {@code "id may replace"}. */
    public synchronized List<String> upserts() {
        return List.copyOf(upserts);
    }

    /** Every call so far, as {@code "CREATE name/uuid"} (a ping is just {@code "PING"}). */
    public synchronized List<String> calls() {
        return List.copyOf(calls);
    }

    @Override
    public void createIndex(IndexMetadata index) {
        enter(Operation.CREATE, index);
        synchronized (this) {
            storages.add(key(index));
        }
    }

    @Override
    public void dropIndex(IndexMetadata index) {
        enter(Operation.DROP, index);
        synchronized (this) {
            storages.remove(key(index));
            documents.remove(key(index));
            maxSeqNos.remove(key(index));
        }
    }

    @Override
    public void write(IndexMetadata index, List<DocumentWrite> writes, long maxSeqNo) {
        enter(Operation.WRITE, index);
        synchronized (this) {
            Map<String, StoredDocument> docs = documents.computeIfAbsent(key(index), k -> new HashMap<>());
            // the batch's claims of absence must hold at each write's place in the batch: checked before any change
            Set<String> live = new java.util.HashSet<>(docs.keySet());
            for (DocumentWrite w : writes) {
                switch (w) {
                    case DocumentWrite.Upsert u -> {
                        if (u.absent() && live.contains(u.id())) {
                            throw new IllegalStateException("upsert of [" + u.id() + "] claims it is absent, but it"
                                    + " exists");
                        }
                        live.add(u.id());
                    }
                    case DocumentWrite.Delete d -> live.remove(d.id());
                }
            }
            for (DocumentWrite w : writes) {
                switch (w) {
                    case DocumentWrite.Upsert u -> {
                        docs.put(u.id(), u.document().stored());
                        upserts.add(u.id() + (u.absent() ? " absent" : " may replace"));
                    }
                    case DocumentWrite.Delete d -> docs.remove(d.id());
                }
            }
            maxSeqNos.merge(key(index), maxSeqNo, Math::max);
        }
    }

    @Override
    public Map<String, StoredDocument> get(IndexMetadata index, Collection<String> ids) {
        enter(Operation.GET, index);
        synchronized (this) {
            Map<String, StoredDocument> docs = documents.getOrDefault(key(index), Map.of());
            Map<String, StoredDocument> out = new LinkedHashMap<>();
            for (String id : ids) {
                if (docs.containsKey(id)) {
                    out.put(id, docs.get(id));
                }
            }
            return out;
        }
    }

    @Override
    public synchronized long maxSeqNo(IndexMetadata index) {
        return maxSeqNos.getOrDefault(key(index), -1L);
    }

    /** The fake does not search: service tests that need search use a real store or a lambda. */
    @Override
    public io.qdrant.esgateway.domain.search.IndexHits search(IndexMetadata index,
            io.qdrant.esgateway.domain.search.SearchRequest request, int topN) {
        throw new UnsupportedOperationException("the in-memory fake does not search");
    }

    @Override
    public io.qdrant.esgateway.domain.aggregation.NamedPartials aggregate(IndexMetadata index,
            io.qdrant.esgateway.domain.search.SearchRequest request,
            io.qdrant.esgateway.domain.aggregation.AggregationPlan plan) {
        throw new UnsupportedOperationException("the in-memory fake does not aggregate");
    }

    @Override
    public io.qdrant.esgateway.domain.plan.BackendCapabilities capabilities() {
        return io.qdrant.esgateway.domain.plan.BackendCapabilities.everything();
    }

    /** Scans everything (a request without a query, or {@code match_all}), in id order; nothing else. */
    @Override
    public void scan(IndexMetadata index, ScanRequest scan, java.util.function.Consumer<ScannedDocument> sink) {
        if (scan.search().query().isPresent()
                && !(scan.search().query().get() instanceof io.qdrant.esgateway.domain.query.Query.MatchAll)
                || scan.filter().isPresent()) {
            throw new UnsupportedOperationException("the in-memory fake scans only everything");
        }
        List<StoredDocument> all;
        synchronized (this) {
            all = new ArrayList<>(new java.util.TreeMap<>(documents.getOrDefault(key(index), Map.of())).values());
        }
        long position = 0;
        for (StoredDocument doc : all) {
            sink.accept(new ScannedDocument(doc.id(), position++, Float.NaN,
                    io.qdrant.esgateway.domain.json.JsonValue.JsonObject.of()));
        }
    }

    @Override
    public List<io.qdrant.esgateway.domain.search.Hit> fetch(IndexMetadata index,
            io.qdrant.esgateway.domain.search.SearchRequest request, List<FetchRef> refs) {
        throw new UnsupportedOperationException("the in-memory fake does not fetch");
    }

    @Override
    public long count(IndexMetadata index, java.util.Optional<io.qdrant.esgateway.domain.query.Query> query) {
        if (query.isPresent()) {
            throw new UnsupportedOperationException("the in-memory fake counts only everything");
        }
        return stats(index).docCount();
    }

    @Override
    public void updateMappings(IndexMetadata index) {
        enter(Operation.UPDATE_MAPPINGS, index);
    }

    @Override
    public StoreStats stats(IndexMetadata index) {
        enter(Operation.STATS, index);
        synchronized (this) {
            StoreStats given = stats.get(index.name());
            if (given != null) {
                return given;
            }
            return new StoreStats(documents.getOrDefault(key(index), Map.of()).size(), 0, 0);
        }
    }

    @Override
    public void ping() {
        enter(Operation.PING, null);
    }

    @Override
    public String name() {
        return "memory";
    }

    /** Hooks run outside the monitor, so they may call back into the code under test. */
    private void enter(Operation operation, IndexMetadata index) {
        Consumer<IndexMetadata> hook;
        RuntimeException failure;
        synchronized (this) {
            calls.add(index == null ? operation.name() : operation.name() + " " + key(index));
            hook = hooks.get(operation);
            failure = failures.get(operation);
        }
        if (hook != null) {
            hook.accept(index);
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static String key(IndexMetadata index) {
        return index.name() + "/" + index.uuid();
    }
}
