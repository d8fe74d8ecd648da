package io.qdrant.esgateway.application.port.out;

import io.qdrant.esgateway.domain.aggregation.AggregationPlan;
import io.qdrant.esgateway.domain.aggregation.NamedCollectors;
import io.qdrant.esgateway.domain.aggregation.NamedPartials;
import io.qdrant.esgateway.domain.aggregation.ValuesDoc;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.document.SourceFilter;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.plan.BackendCapabilities;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.search.GatewaySort;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.IndexHits;
import io.qdrant.esgateway.domain.search.SearchRequest;
import java.util.Optional;
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
 * caller at that moment). Its read half is real and plain: every read evaluates the query over each live
 * document's indexed values ({@link InMemoryMatcher}), in index order; every match scores 1 (it does not rank).
 */
public class InMemoryDocumentStore implements DocumentStore {

    public enum Operation { CREATE, DROP, UPDATE_MAPPINGS, STATS, PING, WRITE, GET, SEARCH }

    private final Set<String> storages = new TreeSet<>();
    private final List<String> calls = new ArrayList<>();
    private final Map<Operation, RuntimeException> failures = new EnumMap<>(Operation.class);
    private final Map<Operation, Consumer<IndexMetadata>> hooks = new EnumMap<>(Operation.class);
    private final Map<String, StoreStats> stats = new HashMap<>();
    private final Map<String, Map<String, Entry>> documents = new HashMap<>();
    private long positions;

    /** A stored document with the values it was indexed with, and its place in index order (a replace moves it last). */
    private record Entry(StoredDocument stored, List<IndexedValue> values, long position) {
    }
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
            Map<String, Entry> docs = documents.computeIfAbsent(key(index), k -> new HashMap<>());
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
                        docs.put(u.id(), new Entry(u.document().stored(), u.document().values(), positions++));
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
            Map<String, Entry> docs = documents.getOrDefault(key(index), Map.of());
            Map<String, StoredDocument> out = new LinkedHashMap<>();
            for (String id : ids) {
                if (docs.containsKey(id)) {
                    out.put(id, docs.get(id).stored());
                }
            }
            return out;
        }
    }

    @Override
    public synchronized long maxSeqNo(IndexMetadata index) {
        return maxSeqNos.getOrDefault(key(index), -1L);
    }

    /**
     * The best {@code topN} matches in the request's order: every match scores 1 (the fake does not rank), so score
     * order is index order; field sorts as the domain's {@link GatewaySort} orders them.
     */
    @Override
    public IndexHits search(IndexMetadata index, SearchRequest request, int topN) {
        enter(Operation.SEARCH, index);
        GatewaySort sort = GatewaySort.of(index.name(), request.sort(), index.mappings(), System::currentTimeMillis);
        Object[] after = request.searchAfter().map(sort::parseAfter).orElse(null);
        float score = request.needsScores() ? 1f : Float.NaN;
        List<Entry> matches = matches(index, request, true, Optional.empty());
        record Keyed(GatewaySort.Key key, Entry entry) {
        }
        List<Keyed> keyed = new ArrayList<>();
        for (Entry e : matches) {
            GatewaySort.Key key = sort.key(new ValuesDoc(e.stored.id(), score, e.values, i -> false), e.position);
            if (after == null || sort.isAfter(key, after)) {
                keyed.add(new Keyed(key, e));
            }
        }
        keyed.sort((a, b) -> sort.order().compare(a.key(), b.key()));
        List<Hit> hits = new ArrayList<>();
        for (Keyed k : keyed.subList(0, Math.min(topN, keyed.size()))) {
            hits.add(new Hit(index.name(), k.entry().stored.id(), score, request.sort().isEmpty() ? List.of()
                    : sort.render(k.key()), k.entry().stored.source(), k.entry().stored.version()));
        }
        return new IndexHits(IndexHits.Total.of(request.trackTotalHits(), matches.size()), hits,
                hits.isEmpty() ? Float.NaN : score);
    }

    /** The plan's collectors over the query's matches (no {@code post_filter}), fed each document's values. */
    @Override
    public NamedPartials aggregate(IndexMetadata index, SearchRequest request, AggregationPlan plan) {
        enter(Operation.SEARCH, index);
        float score = plan.needsScores() ? 1f : Float.NaN;
        List<Set<String>> filters = new ArrayList<>();
        for (Query filter : plan.filters()) {
            filters.add(matches(index, request, false, Optional.of(filter)).stream().map(e -> e.stored.id())
                    .collect(java.util.stream.Collectors.toSet()));
        }
        NamedCollectors collectors = plan.newCollectors();
        for (Entry e : matches(index, request, false, Optional.empty())) {
            collectors.collect(new ValuesDoc(e.stored.id(), score, e.values,
                    i -> filters.get(i).contains(e.stored.id()), e.position, () -> e.stored));
        }
        return collectors.partial();
    }

    @Override
    public BackendCapabilities capabilities() {
        return BackendCapabilities.everything();
    }

    @Override
    public void scan(IndexMetadata index, ScanRequest scan, Consumer<ScannedDocument> sink) {
        enter(Operation.SEARCH, index);
        float score = scan.scores() ? 1f : Float.NaN;
        for (Entry e : matches(index, scan.search(), scan.postFilter(), scan.filter())) {
            sink.accept(new ScannedDocument(e.stored.id(), e.position, score,
                    scan.fields().isEmpty() ? JsonObject.of() : new SourceFilter(true, List.copyOf(scan.fields()), List.of())
                            .apply(e.stored.source())));
        }
    }

    @Override
    public List<Hit> fetch(IndexMetadata index, SearchRequest request, List<FetchRef> refs) {
        enter(Operation.SEARCH, index);
        List<Hit> hits = new ArrayList<>();
        synchronized (this) {
            Map<String, Entry> docs = documents.getOrDefault(key(index), Map.of());
            for (FetchRef ref : refs) {
                Entry e = docs.get(ref.id());
                if (e != null) {
                    hits.add(new Hit(index.name(), ref.id(), ref.score(), ref.sort(), e.stored.source(),
                            e.stored.version()));
                }
            }
        }
        return hits;
    }

    /** Every document when {@code query} is empty (the stats' count, which {@link #withStats} may set). */
    @Override
    public long count(IndexMetadata index, Optional<Query> query) {
        if (query.isEmpty()) {
            return stats(index).docCount();
        }
        enter(Operation.SEARCH, index);
        SearchRequest request = new SearchRequest(query, List.of(), 0, 0, List.of(), Optional.empty(),
                SourceFilter.NONE, new io.qdrant.esgateway.domain.search.TrackTotalHits.Exact(), false,
                Optional.empty(), Optional.empty(), Optional.empty(), List.of(), List.of(), Optional.empty(), Map.of(),
                Optional.empty());
        return matches(index, request, false, Optional.empty()).size();
    }

    /** The live documents the request's query (and post filter, and {@code filter}) matches, in index order. */
    private List<Entry> matches(IndexMetadata index, SearchRequest request, boolean postFilter,
                                Optional<Query> filter) {
        if (!request.knn().isEmpty() || request.rrf().isPresent()) {
            throw new GatewayException(ErrorKind.UNSUPPORTED, "[knn] is not supported by the in-memory store");
        }
        if (request.minScore().isPresent() && request.minScore().get() > 1f) {
            return List.of();
        }
        InMemoryMatcher matcher = new InMemoryMatcher(index.mappings());
        List<Entry> all;
        synchronized (this) {
            all = new ArrayList<>(documents.getOrDefault(key(index), Map.of()).values());
        }
        all.sort(java.util.Comparator.comparingLong(e -> e.position));
        List<Entry> out = new ArrayList<>();
        for (Entry e : all) {
            InMemoryMatcher.Doc doc = new InMemoryMatcher.Doc(e.stored.id(), e.values);
            if (request.query().map(q -> matcher.matches(q, doc)).orElse(true)
                    && (!postFilter || request.postFilter().map(q -> matcher.matches(q, doc)).orElse(true))
                    && filter.map(q -> matcher.matches(q, doc)).orElse(true)) {
                out.add(e);
            }
        }
        return out;
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
