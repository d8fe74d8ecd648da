package io.qdrant.esgateway.application.service;

import io.qdrant.esgateway.application.port.in.PointInTimeOperations;
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
import io.qdrant.esgateway.domain.search.TrackTotalHits;
import io.qdrant.esgateway.domain.sort.SortSpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Points in time. Opening one resolves the target once and, where the store holds snapshots ({@link ReadSnapshots}:
 * the embedded store's reader), takes one per index, so every search of it reads the documents as they were then;
 * elsewhere each index is read live.
 *
 * <p>Each search runs on every index of the point in time and merges their hits as Elasticsearch merges shards.
 * With a sort, Elasticsearch's tiebreaker {@code _shard_doc} (the index's number in the point in time in the high 32
 * bits, the document's position in it in the low ones) orders equal hits and carries {@code search_after} across
 * indices: each index continues after the same values, its own position where the tiebreaker names it, before or
 * after every position elsewhere. On a backend whose positions may need more than 32 bits (Qdrant's _seq_no) the
 * tiebreaker of a point in time over several indices is the text {@code "<index number>:<position>"}.
 *
 * <p>A point in time expires {@code keepAlive} after its last use (time from the {@link InstantSource}); expired
 * ones are closed whenever points in time are opened, searched or counted. At most {@code maxOpen} are open.
 */
public final class PointInTimeService implements PointInTimeOperations {
    private static final String ID_PREFIX = "qeg-pit;";

    private final Catalog catalog;
    private final DocumentStore store;
    private final Optional<ReadSnapshots> snapshots;
    private final BackendCapabilities capabilities;
    private final InstantSource clock;
    private final IdGenerator ids;
    private final int maxOpen;
    private final Map<String, Context> contexts = new ConcurrentHashMap<>();
    private final AtomicLong sequence = new AtomicLong();

    public PointInTimeService(Catalog catalog, DocumentStore store, Optional<ReadSnapshots> snapshots,
                              BackendCapabilities capabilities, InstantSource clock, IdGenerator ids, int maxOpen) {
        this.catalog = catalog;
        this.store = store;
        this.snapshots = snapshots;
        this.capabilities = capabilities;
        this.clock = clock;
        this.ids = ids;
        this.maxOpen = maxOpen;
    }

    /** One index of a point in time and where it is read. */
    /** {@code aliasFilter}: the filter of the filtered aliases the point in time reads the index through, if any. */
    private record Part(IndexMetadata index, SearchService reads, ReadSnapshots.Snapshot snapshot,
                        Optional<io.qdrant.esgateway.domain.query.Query> aliasFilter) {
    }

    private static final class Context implements ExpiringContext {
        final List<Part> parts;
        volatile Instant expires;

        Context(List<Part> parts, Instant expires) {
            this.parts = parts;
            this.expires = expires;
        }

        @Override
        public Instant expires() {
            return expires;
        }

        @Override
        public void close() {
            parts.forEach(p -> {
                if (p.snapshot() != null) {
                    p.snapshot().close();
                }
            });
        }
    }

    @Override
    public String open(String target, Duration keepAlive, CatalogView.Options options) {
        closeExpired();
        CatalogView view = catalog.view();
        List<IndexMetadata> indices = view.resolveOpen(target, options);
        io.qdrant.esgateway.domain.index.IndexBlocks.check(indices,
                io.qdrant.esgateway.domain.index.IndexBlocks.Level.READ);
        Map<String, io.qdrant.esgateway.domain.query.Query> aliasFilters = AliasFilters.of(view, target);
        if (contexts.size() >= maxOpen) {
            throw new GatewayException(ErrorKind.TOO_MANY_SEARCH_CONTEXTS,
                    "Trying to create too many point in time contexts. Must be less than or equal to: [" + maxOpen
                            + "]. This limit can be set by changing the [search.max_open_pit_context] setting.");
        }
        List<Part> parts = new ArrayList<>();
        try {
            for (IndexMetadata index : indices) {
                ReadSnapshots.Snapshot snapshot = snapshots.map(s -> s.open(index)).orElse(null);
                DocumentStore reads = snapshot != null ? snapshot.reads() : store;
                parts.add(new Part(index, new SearchService(catalog, reads, capabilities, PlanObserver.NONE, 4, 0),
                        snapshot, Optional.ofNullable(aliasFilters.get(index.name()))));
            }
        } catch (RuntimeException e) {
            parts.forEach(p -> {
                if (p.snapshot() != null) {
                    p.snapshot().close();
                }
            });
            throw e;
        }
        String id = encode(sequence.incrementAndGet(), ids.newId(), indices.stream().map(IndexMetadata::name)
                .toList());
        contexts.put(id, new Context(parts, clock.instant().plus(keepAlive)));
        return id;
    }

    @Override
    public SearchResult search(String id, Optional<Duration> keepAlive, SearchRequest request) {
        Decoded decoded = decode(id);
        closeExpired();
        Context context = contexts.get(id);
        if (context == null) {
            throw missing(decoded);
        }
        for (Part part : context.parts) {
            boolean same = catalog.view().index(part.index().name())
                    .map(i -> i.uuid().equals(part.index().uuid())).orElse(false);
            if (!same) {
                // the index was deleted: Elasticsearch frees its contexts with it
                throw missing(decoded);
            }
        }
        keepAlive.ifPresent(k -> context.expires = clock.instant().plus(k));

        // the tiebreaker: the named _shard_doc, or the one Elasticsearch adds; read per index as _doc
        List<SortSpec> userSort = PointInTimeOperations.withTiebreaker(request).sort();
        int tiebreak = -1;
        List<SortSpec> pageSort = new ArrayList<>(userSort.size());
        for (int i = 0; i < userSort.size(); i++) {
            SortSpec s = userSort.get(i);
            if (isShardDoc(s) && tiebreak < 0) {
                tiebreak = i;
            }
            pageSort.add(isShardDoc(s) ? new SortSpec.Doc(s.order()) : s);
        }
        SortSpec.Order tieOrder = tiebreak < 0 ? SortSpec.Order.ASC : pageSort.get(tiebreak).order();
        int window = request.from() + request.size();
        boolean wide = context.parts.size() > 1;

        List<List<Hit>> perIndex = new ArrayList<>();
        List<NamedPartials> aggregations = new ArrayList<>();
        List<GatewayException.ShardFailure> failures = new ArrayList<>();
        Map<String, Mappings> mappings = new HashMap<>();
        long total = 0;
        boolean exact = true;
        boolean counted = false;
        float maxScore = Float.NaN;
        for (int k = 0; k < context.parts.size(); k++) {
            Part part = context.parts.get(k);
            Optional<List<JsonValue>> after = request.searchAfter();
            if (after.isPresent() && tiebreak >= 0 && tiebreak < after.get().size()) {
                List<JsonValue> values = new ArrayList<>(after.get());
                ShardDoc at = ShardDoc.parse(values.get(tiebreak), wide);
                long position = at.index() == k ? at.position() : k < at.index() ? Long.MAX_VALUE : -1;
                values.set(tiebreak, new JsonValue.JsonNumber(position));
                after = Optional.of(values);
            }
            SearchRequest page = new SearchRequest(request.query(), request.knn(), 0, window, pageSort, after,
                    request.source(), request.trackTotalHits(), request.trackScores(), request.minScore(),
                    request.postFilter(), request.highlight(), request.fields(), request.docvalueFields(),
                    request.storedFields(), request.aggregations(), request.rrf());
            if (part.aliasFilter().isPresent()) {
                page = AliasFilters.restrict(page, part.aliasFilter().get());
            }
            SearchResult result;
            try {
                result = part.reads().search(part.index().name(), page, CatalogView.Options.STRICT_EXPAND_OPEN);
            } catch (GatewayException e) {
                if (!e.shardFailures().isEmpty()) {
                    failures.addAll(e.shardFailures());
                    perIndex.add(List.of());
                    continue;
                }
                throw e;
            }
            failures.addAll(result.failures());
            List<Hit> hits = new ArrayList<>(result.hits().size());
            for (Hit h : result.hits()) {
                List<JsonValue> sort = h.sort();
                if (tiebreak >= 0 && tiebreak < sort.size()) {
                    sort = new ArrayList<>(sort);
                    long position = Long.parseLong(io.qdrant.esgateway.domain.search.SortValues.text(
                            sort.get(tiebreak)));
                    sort.set(tiebreak, new ShardDoc(k, position).render(wide));
                }
                hits.add(h.with(h.score(), sort, h.highlight()));
            }
            perIndex.add(hits);
            if (result.total().isPresent()) {
                counted = true;
                total += result.total().get().value();
                exact &= result.total().get().exact();
            }
            result.aggregations().ifPresent(aggregations::add);
            if (!Float.isNaN(result.maxScore()) && (Float.isNaN(maxScore) || result.maxScore() > maxScore)) {
                maxScore = result.maxScore();
            }
            mappings.putAll(result.mappings());
        }
        if (!context.parts.isEmpty() && failures.size() >= context.parts.size()) {
            throw GatewayException.allShardsFailed(failures);
        }
        Optional<IndexHits.Total> totals = Optional.empty();
        if (counted) {
            if (request.trackTotalHits() instanceof TrackTotalHits.UpTo upTo && total > upTo.threshold()) {
                totals = Optional.of(new IndexHits.Total(upTo.threshold(), false));
            } else {
                totals = Optional.of(new IndexHits.Total(total, exact));
            }
        }
        List<Hit> merged = merge(perIndex, new SearchRequest(request.query(), request.knn(), 0, window,
                tiebreak >= 0 ? pageSort.subList(0, tiebreak) : pageSort, Optional.empty(), request.source(),
                request.trackTotalHits(), request.trackScores(), request.minScore(), request.postFilter(),
                request.highlight(), request.fields(), request.docvalueFields(), request.storedFields(), Map.of(),
                request.rrf()), tieOrder, window);
        List<Hit> hits = merged.size() <= request.from() ? List.of() : merged.subList(request.from(), merged.size());
        Optional<NamedPartials> aggs = request.aggregations().isEmpty() || context.parts.isEmpty() ? Optional.empty()
                : Optional.of(NamedPartials.mergeAll(aggregations));
        return new SearchResult(totals, maxScore, hits, context.parts.size(), mappings, aggs, failures);
    }

    /**
     * The indices' hits (each in its own order) merged by the sort before the tiebreaker, equal hits by index number
     * in the tiebreaker's order, the first {@code window}.
     */
    private static List<Hit> merge(List<List<Hit>> perIndex, SearchRequest prefix, SortSpec.Order tieOrder,
                                   int window) {
        Comparator<Hit> order = HitOrder.of(prefix);
        int[] next = new int[perIndex.size()];
        List<Hit> out = new ArrayList<>();
        while (out.size() < window) {
            int best = -1;
            for (int k = 0; k < perIndex.size(); k++) {
                if (next[k] >= perIndex.get(k).size()) {
                    continue;
                }
                if (best < 0) {
                    best = k;
                    continue;
                }
                int c = order.compare(perIndex.get(k).get(next[k]), perIndex.get(best).get(next[best]));
                if (c < 0 || (c == 0 && tieOrder == SortSpec.Order.DESC)) {
                    best = k;
                }
            }
            if (best < 0) {
                break;
            }
            out.add(perIndex.get(best).get(next[best]++));
        }
        return out;
    }

    private static boolean isShardDoc(SortSpec spec) {
        return spec instanceof SortSpec.Field f && f.field().equals(SHARD_DOC);
    }

    /** The tiebreaker's value: the index's number in the point in time and the document's position in it. */
    record ShardDoc(int index, long position) {
        JsonValue render(boolean severalIndices) {
            if (!severalIndices) {
                return new JsonValue.JsonNumber(position);
            }
            if (position >= 0 && position <= 0xFFFF_FFFFL) {
                return new JsonValue.JsonNumber(((long) index << 32) | position);
            }
            return new JsonValue.JsonString(index + ":" + position);
        }

        static ShardDoc parse(JsonValue value, boolean severalIndices) {
            String text = io.qdrant.esgateway.domain.search.SortValues.text(value);
            try {
                int colon = text.indexOf(':');
                if (colon > 0) {
                    return new ShardDoc(Integer.parseInt(text.substring(0, colon)),
                            Long.parseLong(text.substring(colon + 1)));
                }
                long v = Long.parseLong(text);
                return severalIndices ? new ShardDoc((int) (v >>> 32), v & 0xFFFF_FFFFL) : new ShardDoc(0, v);
            } catch (NumberFormatException e) {
                throw GatewayException.illegalArgument("Failed to parse search_after value [" + text
                        + "] for sort field [" + SHARD_DOC + "]");
            }
        }
    }

    @Override
    public int close(String id) {
        decode(id);
        Context c = contexts.remove(id);
        if (c == null) {
            return 0;
        }
        boolean live = c.expires.isAfter(clock.instant());
        c.close();
        return live ? c.parts.size() : 0;
    }

    @Override
    public int openContexts() {
        closeExpired();
        return contexts.size();
    }

    private void closeExpired() {
        ExpiringContext.closeExpired(contexts, clock.instant());
    }

    /** What an id says: the context's number and the indices it was opened on. */
    private record Decoded(long number, List<String> indices) {
    }

    private static String encode(long number, String random, List<String> indices) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((ID_PREFIX + number + ";" + random + ";"
                + String.join(",", indices)).getBytes(StandardCharsets.UTF_8));
    }

    /** The id's parts; Elasticsearch's 400 when it is not one of ours in shape. */
    private static Decoded decode(String id) {
        try {
            String text = new String(Base64.getUrlDecoder().decode(id), StandardCharsets.UTF_8);
            if (text.startsWith(ID_PREFIX)) {
                String[] parts = text.substring(ID_PREFIX.length()).split(";", -1);
                if (parts.length == 3) {
                    return new Decoded(Long.parseLong(parts[0]), parts[2].isEmpty() ? List.of()
                            : Arrays.asList(parts[2].split(",")));
                }
            }
        } catch (IllegalArgumentException e) {
            // not base64 or no number: the same answer
        }
        // Elasticsearch's reason when the id's bytes run out before it is read
        throw GatewayException.illegalArgument("java.io.EOFException");
    }

    @Override
    public GatewayException missing(String id) {
        return missing(decode(id));
    }

    private static GatewayException missing(Decoded id) {
        GatewayException e = new GatewayException(ErrorKind.SEARCH_CONTEXT_MISSING,
                "No search context found for id [" + id.number() + "]");
        List<GatewayException.ShardFailure> failures = new ArrayList<>();
        for (String index : id.indices()) {
            failures.add(new GatewayException.ShardFailure(index, e));
        }
        if (failures.isEmpty()) {
            failures.add(new GatewayException.ShardFailure(null, e));
        }
        return GatewayException.allShardsFailed(failures);
    }
}
