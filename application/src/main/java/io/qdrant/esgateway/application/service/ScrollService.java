package io.qdrant.esgateway.application.service;

import io.qdrant.esgateway.application.port.in.ScrollOperations;
import io.qdrant.esgateway.application.port.in.SearchOperations.SearchResult;
import io.qdrant.esgateway.application.port.out.Catalog;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.IdGenerator;
import io.qdrant.esgateway.application.port.out.PlanObserver;
import io.qdrant.esgateway.application.port.out.ReadSnapshots;
import io.qdrant.esgateway.domain.aggregation.NamedPartials;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.plan.BackendCapabilities;
import io.qdrant.esgateway.domain.search.AliasFilters;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.HitOrder;
import io.qdrant.esgateway.domain.search.IndexHits;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.sort.SortSpec;
import io.qdrant.esgateway.domain.search.TrackTotalHits;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Scroll contexts. Each context pages every index of its target on its own: the request's sort with {@code _doc}
 * as the last key (the default order, by score, becomes {@code _score} then {@code _doc}), continuing after the last
 * hit it returned ({@code search_after}), and merges the indices' pages in the request's order. Where the store can
 * hold a snapshot ({@link ReadSnapshots}: the embedded store's reader) each index is read from the one taken at
 * open, so writes after it do not shift the scroll; elsewhere the index is read live, in the same stable order
 * ({@code _doc} is then the position in the backend's index order).
 *
 * <p>A context expires {@code keepAlive} after its last page (time from the {@link InstantSource}); expired contexts
 * are closed whenever contexts are opened, paged or counted. At most {@code maxOpen} are open at once.
 */
public final class ScrollService implements ScrollOperations {
    private static final String ID_PREFIX = "qeg-scroll;";

    private final Catalog catalog;
    private final DocumentStore store;
    private final Optional<ReadSnapshots> snapshots;
    private final BackendCapabilities capabilities;
    private final InstantSource clock;
    private final IdGenerator ids;
    private final int maxOpen;
    private final Map<String, Context> contexts = new ConcurrentHashMap<>();
    /** Numbers the contexts, as Elasticsearch numbers its search contexts (its errors name that number). */
    private final java.util.concurrent.atomic.AtomicLong sequence = new java.util.concurrent.atomic.AtomicLong();

    public ScrollService(Catalog catalog, DocumentStore store, Optional<ReadSnapshots> snapshots,
                         BackendCapabilities capabilities, InstantSource clock, IdGenerator ids, int maxOpen) {
        this.catalog = catalog;
        this.store = store;
        this.snapshots = snapshots;
        this.capabilities = capabilities;
        this.clock = clock;
        this.ids = ids;
        this.maxOpen = maxOpen;
    }

    /** One index of a scroll: where it reads, what it has read ahead, and where it continues. */
    private static final class Cursor {
        final IndexMetadata index;
        final SearchService reads;
        final ReadSnapshots.Snapshot snapshot;
        final Deque<Hit> buffer = new ArrayDeque<>();
        /** The filter of the filtered aliases the scroll reads this index through, if any. */
        Optional<io.qdrant.esgateway.domain.query.Query> aliasFilter = Optional.empty();
        Optional<List<JsonValue>> after = Optional.empty();
        boolean exhausted;

        Cursor(IndexMetadata index, SearchService reads, ReadSnapshots.Snapshot snapshot) {
            this.index = index;
            this.reads = reads;
            this.snapshot = snapshot;
        }
    }

    private static final class Context implements ExpiringContext {
        final SearchRequest request;
        final List<SortSpec> pageSort;
        final List<Cursor> cursors;
        final Comparator<Hit> order;
        final Optional<IndexHits.Total> total;
        final Map<String, Mappings> mappings;
        /** The best score of all matches (the first page's): Elasticsearch reports it on every page. */
        float maxScore = Float.NaN;
        /** The version metadata every page's hits carry. */
        io.qdrant.esgateway.domain.search.HitMetadata metadata = io.qdrant.esgateway.domain.search.HitMetadata.NONE;
        Duration keepAlive;
        volatile Instant expires;

        Context(SearchRequest request, List<SortSpec> pageSort, List<Cursor> cursors, Optional<IndexHits.Total> total,
                Map<String, Mappings> mappings, Duration keepAlive, Instant expires) {
            this.request = request;
            this.pageSort = pageSort;
            this.cursors = cursors;
            // indices merge as Elasticsearch merges shards: by the request's own order, ties to the earlier index
            this.order = HitOrder.of(request);
            this.total = total;
            this.mappings = mappings;
            this.keepAlive = keepAlive;
            this.expires = expires;
        }

        @Override
        public Instant expires() {
            return expires;
        }

        @Override
        public void close() {
            cursors.forEach(c -> {
                if (c.snapshot != null) {
                    c.snapshot.close();
                }
            });
        }
    }

    @Override
    public Page open(String target, SearchRequest request, Duration keepAlive, CatalogView.Options options,
                     io.qdrant.esgateway.domain.search.HitMetadata metadata) {
        List<String> problems = new ArrayList<>();
        if (!(request.trackTotalHits() instanceof TrackTotalHits.Exact)
                && !(request.trackTotalHits() instanceof TrackTotalHits.UpTo)) {
            problems.add("disabling [track_total_hits] is not allowed in a scroll context");
        }
        if (request.from() > 0) {
            problems.add("using [from] is not allowed in a scroll context");
        }
        if (request.size() == 0) {
            problems.add("[size] cannot be [0] in a scroll context");
        }
        if (request.searchAfter().isPresent()) {
            problems.add("[search_after] cannot be used in a scroll context");
        }
        if (!problems.isEmpty()) {
            throw GatewayException.validationFailed(problems);
        }
        if (request.rrf().isPresent()) {
            throw GatewayException.unsupported("[rank] / [retriever] with [scroll]");
        }
        closeExpired();
        CatalogView view = catalog.view();
        List<IndexMetadata> indices = view.resolveOpen(target, options);
        io.qdrant.esgateway.domain.index.IndexBlocks.check(indices,
                io.qdrant.esgateway.domain.index.IndexBlocks.Level.READ);
        Map<String, io.qdrant.esgateway.domain.query.Query> aliasFilters = AliasFilters.of(view, target);
        if (contexts.size() >= maxOpen) {
            GatewayException limit = new GatewayException(ErrorKind.TOO_MANY_SEARCH_CONTEXTS,
                    "Trying to create too many scroll contexts. Must be less than or equal to: [" + maxOpen + "]. "
                            + "This limit can be set by changing the [search.max_open_scroll_context] setting.");
            throw GatewayException.allShardsFailed((indices.isEmpty() ? List.of(target)
                    : indices.stream().map(IndexMetadata::name).toList()).stream()
                    .map(name -> new GatewayException.ShardFailure(name, limit)).toList());
        }
        List<SortSpec> pageSort = new ArrayList<>(request.sort().isEmpty()
                ? List.of(new SortSpec.Score(SortSpec.Order.DESC)) : request.sort());
        if (!(pageSort.get(pageSort.size() - 1) instanceof SortSpec.Doc)) {
            pageSort.add(new SortSpec.Doc(SortSpec.Order.ASC));
        }
        List<Cursor> cursors = new ArrayList<>();
        long total = 0;
        boolean exact = true;
        List<NamedPartials> aggregations = new ArrayList<>();
        Map<String, Mappings> mappings = new HashMap<>();
        float maxScore = Float.NaN;
        try {
            for (IndexMetadata index : indices) {
                ReadSnapshots.Snapshot snapshot = snapshots.map(s -> s.open(index)).orElse(null);
                DocumentStore reads = snapshot != null ? snapshot.reads() : store;
                Cursor cursor = new Cursor(index, new SearchService(catalog, reads, capabilities, PlanObserver.NONE,
                        4, 0), snapshot);
                cursor.aliasFilter = Optional.ofNullable(aliasFilters.get(index.name()));
                cursors.add(cursor);
                SearchResult first = fill(cursor, request, pageSort, request.size(), true);
                if (first.total().isPresent()) {
                    total += first.total().get().value();
                    exact &= first.total().get().exact();
                }
                first.aggregations().ifPresent(aggregations::add);
                if (!Float.isNaN(first.maxScore()) && (Float.isNaN(maxScore) || first.maxScore() > maxScore)) {
                    maxScore = first.maxScore();
                }
                mappings.putAll(first.mappings());
            }
        } catch (RuntimeException e) {
            cursors.forEach(c -> {
                if (c.snapshot != null) {
                    c.snapshot.close();
                }
            });
            throw e;
        }
        String id = encode(sequence.incrementAndGet(), ids.newId());
        Context context = new Context(request, pageSort, cursors, Optional.of(new IndexHits.Total(total, exact)),
                mappings, keepAlive, clock.instant().plus(keepAlive));
        context.maxScore = maxScore;
        context.metadata = metadata;
        contexts.put(id, context);
        Optional<NamedPartials> aggs = request.aggregations().isEmpty() || indices.isEmpty() ? Optional.empty()
                : Optional.of(NamedPartials.mergeAll(aggregations));
        return new Page(Optional.of(id), request, metadata, page(context, indices.size(), aggs));
    }

    @Override
    public Page next(String scrollId, Optional<Duration> keepAlive) {
        long number = decode(scrollId);
        closeExpired();
        Context context = contexts.get(scrollId);
        if (context == null) {
            throw missing(number);
        }
        synchronized (context) {
            if (keepAlive.isEmpty()) {
                // as Elasticsearch: a page asked for without a keep-alive is the last one; the context is freed
                contexts.remove(scrollId);
                try {
                    return new Page(Optional.empty(), context.request, context.metadata, nextPage(context));
                } finally {
                    context.close();
                }
            }
            context.keepAlive = keepAlive.get();
            context.expires = clock.instant().plus(context.keepAlive);
            return new Page(Optional.of(scrollId), context.request, context.metadata, nextPage(context));
        }
    }

    /** Tops up every index's read-ahead to a page, then takes the page. */
    private SearchResult nextPage(Context context) {
        for (Cursor cursor : context.cursors) {
            if (cursor.buffer.size() < context.request.size() && !cursor.exhausted) {
                fill(cursor, context.request, context.pageSort, context.request.size(), false);
            }
        }
        return page(context, context.cursors.size(), Optional.empty());
    }

    /** Reads the index's next hits after its cursor into its buffer; the result of that read. */
    private SearchResult fill(Cursor cursor, SearchRequest request, List<SortSpec> pageSort, int size,
                              boolean first) {
        SearchRequest page = request.forPage(pageSort, cursor.after, size, first);
        if (cursor.aliasFilter.isPresent()) {
            page = AliasFilters.restrict(page, cursor.aliasFilter.get());
        }
        SearchResult result = cursor.reads.search(cursor.index.name(), page, CatalogView.Options.STRICT_EXPAND_OPEN);
        if (!result.failures().isEmpty()) {
            throw GatewayException.allShardsFailed(result.failures());
        }
        cursor.buffer.addAll(result.hits());
        if (!result.hits().isEmpty()) {
            cursor.after = Optional.of(result.hits().get(result.hits().size() - 1).sort());
        }
        cursor.exhausted = result.hits().size() < size;
        return result;
    }

    /** The next {@code size} hits of the merged indices, with the sort values of the request's own sort. */
    private static SearchResult page(Context context, int indices, Optional<NamedPartials> aggregations) {
        List<Hit> hits = new ArrayList<>();
        int userKeys = context.request.sort().size();
        while (hits.size() < context.request.size()) {
            Cursor best = null;
            for (Cursor c : context.cursors) {
                if (!c.buffer.isEmpty() && (best == null
                        || context.order.compare(c.buffer.peekFirst(), best.buffer.peekFirst()) < 0)) {
                    best = c;
                }
            }
            if (best == null) {
                break;
            }
            Hit h = best.buffer.pollFirst();
            hits.add(h.with(h.score(), h.sort().subList(0, Math.min(userKeys, h.sort().size())), h.highlight()));
        }
        float maxScore = context.maxScore;
        return new SearchResult(context.total, maxScore, hits, indices, context.mappings, aggregations, List.of());
    }

    @Override
    public int clear(Collection<String> scrollIds) {
        scrollIds.forEach(ScrollService::decode);
        int freed = 0;
        for (String id : scrollIds) {
            Context c = contexts.remove(id);
            if (c != null) {
                boolean live = c.expires.isAfter(clock.instant());
                c.close();
                if (live) {
                    freed += c.cursors.size(); // as ES, one context per index (shard) read
                }
            }
        }
        return freed;
    }

    @Override
    public int clearAll() {
        closeExpired();
        int freed = 0;
        for (String id : List.copyOf(contexts.keySet())) {
            Context c = contexts.remove(id);
            if (c != null) {
                c.close();
                freed++;
            }
        }
        return freed;
    }

    @Override
    public int openContexts() {
        closeExpired();
        return contexts.size();
    }

    private void closeExpired() {
        ExpiringContext.closeExpired(contexts, clock.instant());
    }

    private static String encode(long number, String random) {
        return Base64.getUrlEncoder().encodeToString((ID_PREFIX + number + ";" + random)
                .getBytes(StandardCharsets.UTF_8));
    }

    /** The context number in {@code scrollId}; ES's 400 when it is not one of ours in shape. */
    private static long decode(String scrollId) {
        try {
            String text = new String(Base64.getUrlDecoder().decode(scrollId), StandardCharsets.UTF_8);
            if (text.startsWith(ID_PREFIX)) {
                String rest = text.substring(ID_PREFIX.length());
                int end = rest.indexOf(';');
                if (end > 0) {
                    return Long.parseLong(rest.substring(0, end));
                }
            }
        } catch (IllegalArgumentException e) {
            // not base64 or no number: the same answer
        }
        throw GatewayException.illegalArgument("Cannot parse scroll id");
    }

    @Override
    public GatewayException missing(String scrollId) {
        return missing(decode(scrollId));
    }

    private static GatewayException missing(long number) {
        GatewayException e = new GatewayException(ErrorKind.SEARCH_CONTEXT_MISSING,
                "No search context found for id [" + number + "]");
        return GatewayException.allShardsFailed(List.of(new GatewayException.ShardFailure(null, e)));
    }
}
