package io.qdrant.esgateway.application.service;

import io.qdrant.esgateway.application.port.in.SearchOperations;
import io.qdrant.esgateway.application.port.out.Catalog;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.PlanObserver;
import io.qdrant.esgateway.domain.aggregation.Aggregation;
import io.qdrant.esgateway.domain.aggregation.AggregationPlan;
import io.qdrant.esgateway.domain.aggregation.NamedPartials;
import io.qdrant.esgateway.domain.aggregation.Partial;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.IndexBlocks;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.plan.BackendCapabilities;
import io.qdrant.esgateway.domain.plan.CoverageRules;
import io.qdrant.esgateway.domain.plan.ExecutionPath;
import io.qdrant.esgateway.domain.plan.ExecutionPlan;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.search.AliasFilters;
import io.qdrant.esgateway.domain.search.QueryAnalyzers;
import io.qdrant.esgateway.domain.search.SearchableFields;
import io.qdrant.esgateway.domain.search.StoredScriptRefs;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.HitOrder;
import io.qdrant.esgateway.domain.search.IndexHits;
import io.qdrant.esgateway.domain.search.Rrf;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.TrackTotalHits;
import io.qdrant.esgateway.domain.time.Now;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;

/**
 * Searches every index a target names and merges their answers: each index returns its best {@code from + size}
 * hits; the merge orders them with the request's order (ties: index name, then each index's own order), applies
 * {@code from}, sums the totals, keeps the best score and merges the aggregation partials with the domain's
 * reducers. Elasticsearch's {@code index.max_result_window} bounds {@code from + size}.
 *
 * <p>Per index, the {@link CoverageRules} decide for the page, the total and each top-level aggregation whether the
 * backend's native answer is exact ({@link BackendCapabilities}) or the gateway computes it over a complete scan
 * ({@link CompleteScan}); the {@link PlanObserver} is told. The reads of one request run concurrently, at most
 * {@code maxInFlight} at a time; an index's native page and native aggregations go to the store as one
 * {@link DocumentStore#readTogether} when it sends reads side by side on one thread.
 */
public final class SearchService implements SearchOperations {
    private static final System.Logger LOG = System.getLogger(SearchService.class.getName());

    private final Catalog catalog;
    private final DocumentStore store;
    private final BackendCapabilities capabilities;
    private final PlanObserver observer;
    private final CompleteScan scan;
    private final int maxInFlight;
    private final RequestCache<IndexAnswer> cache;
    private final InstantSource clock;

    public SearchService(Catalog catalog, DocumentStore store) {
        this(catalog, store, store.capabilities(), PlanObserver.NONE, 4);
    }

    /**
     * @param capabilities what the backend is trusted to compute natively (its own declaration, or less by
     *                     configuration)
     * @param maxInFlight  the most backend reads of one request running at once
     */
    public SearchService(Catalog catalog, DocumentStore store, BackendCapabilities capabilities,
                         PlanObserver observer, int maxInFlight) {
        this(catalog, store, capabilities, observer, maxInFlight, 0);
    }

    /**
     * @param cacheEntries how many {@code size: 0} per-index answers the request cache keeps ({@link RequestCache});
     *                     0 turns it off
     */
    public SearchService(Catalog catalog, DocumentStore store, BackendCapabilities capabilities,
                         PlanObserver observer, int maxInFlight, int cacheEntries) {
        this(catalog, store, capabilities, observer, maxInFlight, cacheEntries, InstantSource.system());
    }

    /** @param clock the clock date math ({@code now}) reads, once per request */
    public SearchService(Catalog catalog, DocumentStore store, BackendCapabilities capabilities,
                         PlanObserver observer, int maxInFlight, int cacheEntries, InstantSource clock) {
        this.clock = clock;
        this.cache = new RequestCache<>(cacheEntries);
        this.catalog = catalog;
        this.store = store;
        this.capabilities = capabilities;
        this.observer = observer;
        this.scan = new CompleteScan(store);
        this.maxInFlight = maxInFlight;
    }

    /** One index's answer. */
    private record IndexAnswer(IndexHits hits, Optional<NamedPartials> aggregations) {
    }

    @Override
    public SearchResult search(String target, SearchRequest request, CatalogView.Options options) {
        if (request.query().map(StoredScriptRefs::any).orElse(false)) {
            request = request.withQueries(request.query().map(q -> StoredScriptRefs.resolve(q, this::storedSource)),
                    request.postFilter());
        }
        if (StoredScriptRefs.anyOutsideQuery(request)) {
            request = StoredScriptRefs.resolveOutsideQuery(request, this::storedSource);
        }
        if (request.rrf().isPresent()) {
            return fuse(target, request, request.rrf().get(), options);
        }
        CatalogView view = catalog.view();
        List<IndexMetadata> indices = view.resolveOpen(target, options);
        IndexBlocks.check(indices, IndexBlocks.Level.READ);
        Map<String, Query> aliasFilters = AliasFilters.of(view, target);
        LongSupplier now = Now.once(clock::millis);
        int window = request.from() + request.size();
        List<GatewayException.ShardFailure> failures = new ArrayList<>();
        List<IndexMetadata> runnable = new ArrayList<>();
        Map<String, SearchRequest> onIndex = new HashMap<>();
        for (IndexMetadata index : indices) {
            if (request.searchAfterProblem().isPresent()) {
                failures.add(new GatewayException.ShardFailure(index.name(),
                        GatewayException.illegalArgument(request.searchAfterProblem().get())));
                continue;
            }
            try {
                // ES reads the sort before it checks the window: a sort the index cannot do is its failure
                io.qdrant.esgateway.domain.search.GatewaySort.of(index.name(), request.sort(), index.mappings(), now);
            } catch (GatewayException e) {
                // a sort script that does not compile fails the index too
                if (e.kind() != ErrorKind.ILLEGAL_ARGUMENT && e.kind() != ErrorKind.SCRIPT) {
                    throw e;
                }
                failures.add(new GatewayException.ShardFailure(index.name(), e));
                continue;
            }
            if (request.storedFields().isPresent()) {
                SearchableFields.storedField(index.mappings(), request.storedFields().get()).ifPresent(f -> {
                    throw GatewayException.unsupported("[stored_fields] with the field [" + f + "] mapped with"
                            + " [store: true] (its values are in [_source] and [fields])");
                });
            }
            if (index.mappings().root().filtersSource() && hasTopHits(request.aggregations())) {
                throw GatewayException.unsupported("[top_hits] on index [" + index.name() + "], whose mapping filters"
                        + " [_source]");
            }
            Query aliasFilter = aliasFilters.get(index.name());
            SearchRequest filtered = aliasFilter == null ? request : AliasFilters.restrict(request, aliasFilter);
            if (aliasFilter != null) {
                onIndex.put(index.uuid(), filtered);
            }
            try {
                filtered.query().ifPresent(q -> QueryAnalyzers.check(q, index));
                filtered.postFilter().ifPresent(q -> QueryAnalyzers.check(q, index));
            } catch (GatewayException e) {
                failures.add(new GatewayException.ShardFailure(index.name(), e));
                continue;
            }
            if (SearchableFields.applies(index.mappings())
                    || filtered.query().map(SearchableFields::checksFunctions).orElse(false)) {
                try {
                    onIndex.put(index.uuid(), filtered.withQueries(
                            filtered.query().map(q -> SearchableFields.rewrite(q, index.mappings(), index.name(),
                                    index.uuid())),
                            filtered.postFilter().map(q -> SearchableFields.rewrite(q, index.mappings(), index.name(),
                                    index.uuid()))));
                } catch (GatewayException e) {
                    if (e.kind() != ErrorKind.QUERY_SHARD) {
                        throw e;
                    }
                    failures.add(new GatewayException.ShardFailure(index.name(), e));
                    continue;
                }
            }
            int max = index.settings().maxResultWindow();
            if (window > max) {
                failures.add(new GatewayException.ShardFailure(index.name(), GatewayException.illegalArgument(
                        "Result window is too large, from + size must be less than or equal to: [" + max
                                + "] but was [" + window + "]. See the scroll api for a more efficient way to request"
                                + " large data sets. This limit can be set by changing the [index.max_result_window]"
                                + " index level setting.")));
                continue;
            }
            runnable.add(index);
        }
        if (runnable.isEmpty() && !failures.isEmpty()) {
            throw GatewayException.allShardsFailed(failures);
        }
        BoundedReads reads = new BoundedReads(maxInFlight);
        List<Callable<IndexAnswer>> perIndex = new ArrayList<>();
        for (IndexMetadata index : runnable) {
            SearchRequest own = onIndex.getOrDefault(index.uuid(), request);
            perIndex.add(() -> answer(index, own, window, reads, now));
        }
        List<BoundedReads.Outcome<IndexAnswer>> outcomes = BoundedReads.all(perIndex);
        List<IndexAnswer> answers = new ArrayList<>();
        for (int i = 0; i < outcomes.size(); i++) {
            BoundedReads.Outcome<IndexAnswer> outcome = outcomes.get(i);
            if (outcome.failure() != null) {
                RuntimeException e = outcome.failure();
                if (!(e instanceof GatewayException g)
                        || g.kind() != ErrorKind.ILLEGAL_ARGUMENT && g.kind() != ErrorKind.SCRIPT
                        && g.kind() != ErrorKind.SCRIPT_CAUSE) {
                    throw e;
                }
                // a query that cannot run on an index (sorting on text, a bad value for the field's type, a script
                // that fails) fails that index, as a shard failure in Elasticsearch
                failures.add(new GatewayException.ShardFailure(runnable.get(i).name(), g));
            } else {
                answers.add(outcome.value());
            }
        }
        // as Elasticsearch (allow_partial_search_results defaults to true): an error only when every index failed;
        // otherwise the answer of the others, with the failures under _shards
        if (answers.isEmpty() && !failures.isEmpty()) {
            throw GatewayException.allShardsFailed(failures);
        }
        List<Hit> all = new ArrayList<>();
        long total = 0;
        boolean exact = true;
        boolean counted = !(request.trackTotalHits() instanceof TrackTotalHits.Disabled);
        float maxScore = Float.NaN;
        List<NamedPartials> aggregations = new ArrayList<>();
        for (IndexAnswer answer : answers) {
            IndexHits hits = answer.hits();
            all.addAll(hits.hits());
            if (hits.total().isPresent()) {
                total += hits.total().get().value();
                exact &= hits.total().get().exact();
            }
            if (!Float.isNaN(hits.maxScore()) && (Float.isNaN(maxScore) || hits.maxScore() > maxScore)) {
                maxScore = hits.maxScore();
            }
            answer.aggregations().ifPresent(aggregations::add);
        }
        if (indices.size() > 1) {
            Comparator<Hit> order = HitOrder.of(request);
            // a stable sort keeps each index's own order for ties, and indices come sorted by name
            all.sort(order);
        }
        Optional<IndexHits.Total> merged = Optional.empty();
        if (counted) {
            if (request.trackTotalHits() instanceof TrackTotalHits.UpTo upTo && total > upTo.threshold()) {
                merged = Optional.of(new IndexHits.Total(upTo.threshold(), false));
            } else {
                merged = Optional.of(new IndexHits.Total(total, exact));
            }
        }
        List<Hit> page = request.from() >= all.size() ? List.of()
                : all.subList(request.from(), Math.min(all.size(), window));
        page = scriptFields(page, request, indices);
        Map<String, Mappings> mappings = new HashMap<>();
        indices.forEach(i -> mappings.put(i.name(), i.mappings()));
        Optional<NamedPartials> aggs = request.aggregations().isEmpty() || indices.isEmpty() ? Optional.empty()
                : Optional.of(NamedPartials.mergeAll(aggregations));
        return new SearchResult(merged, maxScore, page, indices.size(), mappings, aggs, failures);
    }

    /**
     * Reciprocal rank fusion: each retriever is an ordinary search for its top {@code rank_window_size} hits (over
     * every index of the target, as ES fuses on the coordinating node); hits are ordered by their fused score (ties:
     * the order in which the lists first returned them), then paged. The total and the aggregations are those of
     * the union of the retrievers' matches (their queries as {@code should} clauses, their kNN sections).
     */
    private SearchResult fuse(String target, SearchRequest request, Rrf rrf, CatalogView.Options options) {
        int window = rrf.rankWindowSize();
        List<Query> shoulds = new ArrayList<>();
        List<Query.Knn> knns = new ArrayList<>();
        Map<String, Fused> fused = new LinkedHashMap<>();
        for (Rrf.Retriever retriever : rrf.retrievers()) {
            SearchRequest list = switch (retriever) {
                case Rrf.Retriever.Standard s -> {
                    List<Query> filters = new ArrayList<>(s.filter());
                    filters.addAll(rrf.filter());
                    Query q = filtered(s.query(), filters);
                    shoulds.add(q);
                    yield request.forRetriever(Optional.of(q), List.of(), window);
                }
                case Rrf.Retriever.Knn k -> {
                    List<Query> filters = new ArrayList<>(k.knn().filter());
                    filters.addAll(rrf.filter());
                    Query.Knn knn = new Query.Knn(k.knn().field(), k.knn().queryVector(), k.knn().k(),
                            k.knn().numCandidates(), filters, k.knn().similarity(), k.knn().boost());
                    knns.add(knn);
                    yield request.forRetriever(Optional.empty(), List.of(knn), window);
                }
            };
            List<Hit> hits = search(target, list, options).hits();
            for (int i = 0; i < hits.size(); i++) {
                Hit hit = hits.get(i);
                fused.computeIfAbsent(hit.index() + '\u0000' + hit.id(), key -> new Fused(hit, new ArrayList<>()))
                        .ranks().add(i + 1);
            }
        }
        List<Hit> ordered = new ArrayList<>();
        for (Fused f : fused.values()) {
            Hit h = f.hit();
            ordered.add(h.with(rrf.score(f.ranks()), List.of(), Map.of()));
        }
        // a stable sort: equal scores keep the order in which the lists first returned them
        ordered.sort(Comparator.comparingDouble((Hit h) -> h.score()).reversed());
        List<Hit> page = request.from() >= ordered.size() ? List.of()
                : ordered.subList(request.from(), Math.min(ordered.size(), request.from() + request.size()));
        Optional<Query> union = shoulds.isEmpty() ? Optional.empty() : Optional.of(new Query.Bool(List.of(),
                List.of(), shoulds, List.of(), new io.qdrant.esgateway.domain.query.MinimumShouldMatch.Unspecified(),
                1f));
        SearchResult matching = search(target, request.withMatching(union, knns, 0), options);
        return new SearchResult(matching.total(), Float.NaN, page, matching.indices(), matching.mappings(),
                matching.aggregations(), matching.failures());
    }

    private record Fused(Hit hit, List<Integer> ranks) {
    }

    private static Query filtered(Optional<Query> query, List<Query> filters) {
        if (filters.isEmpty()) {
            return query.orElse(new Query.MatchAll(1f));
        }
        return new Query.Bool(query.map(List::of).orElse(List.of()), filters, List.of(), List.of(),
                new io.qdrant.esgateway.domain.query.MinimumShouldMatch.Unspecified(), 1f);
    }

    /** One index: plan each part, run its reads (bounded, concurrently), assemble. */
    private IndexAnswer answer(IndexMetadata index, SearchRequest request, int window, BoundedReads reads,
                               LongSupplier now) {
        return cache.get(index, request, () -> catalog.generation(index.name()),
                () -> compute(index, request, window, reads, now));
    }

    private IndexAnswer compute(IndexMetadata index, SearchRequest request, int window, BoundedReads reads,
                                LongSupplier now) {
        ExecutionPlan plan = CoverageRules.decide(index.name(), request, index.mappings(), capabilities);
        observer.planned(index.name(), plan);
        if (plan.scans()) {
            LOG.log(System.Logger.Level.DEBUG, () -> "search on [" + index.name() + "]: " + describe(plan));
        }
        Map<String, Aggregation> nativeAggs = new LinkedHashMap<>();
        Map<String, Aggregation> scannedAggs = new LinkedHashMap<>();
        request.aggregations().forEach((name, agg) -> (plan.aggregations().get(name) instanceof ExecutionPath.Scan
                ? scannedAggs : nativeAggs).put(name, agg));
        // the plans resolve fields against the mapping first: an aggregation on a text field fails the index
        AggregationPlan nativePlan = nativeAggs.isEmpty() ? null
                : AggregationPlan.of(index.name(), nativeAggs, index.mappings(), now);
        AggregationPlan scanPlan = scannedAggs.isEmpty() ? null
                : AggregationPlan.of(index.name(), scannedAggs, index.mappings(), now, this::storedSource);

        List<Callable<Object>> tasks = new ArrayList<>();
        boolean hitsNative = plan.hits() instanceof ExecutionPath.Native;
        boolean totalNative = plan.total() instanceof ExecutionPath.Native;
        // the native page and the native aggregations (one port call each) as one task of two reads, when the store
        // sends reads side by side on one thread: no thread for the second (it holds two of the request's permits)
        boolean together = hitsNative && nativePlan != null && nativePlan.allDocuments().isEmpty()
                && reads.bound() >= 2 && store.readsTogetherOnOneThread();
        SearchRequest pageRequest = totalNative ? request : request.withTrackTotalHits(new TrackTotalHits.Disabled());
        if (together) {
            tasks.add(new BoundedReads.Several(2, () -> store.readTogether(List.of(
                    new DocumentStore.Read.Search(index, pageRequest, window),
                    new DocumentStore.Read.Aggregate(index, request, nativePlan)))));
        } else {
            tasks.add(() -> hitsNative ? store.search(index, pageRequest, window) : scan.hits(index, request, window, now));
        }
        boolean separateTotal = hitsNative && !totalNative;
        if (separateTotal) {
            tasks.add(() -> scan.total(index, request));
        }
        if (nativePlan != null && !together) {
            tasks.add(() -> AggregationRunner.aggregate(store::aggregate, index, request, nativePlan));
        }
        if (scanPlan != null) {
            tasks.add(() -> AggregationRunner.aggregate(scan::aggregate, index, request, scanPlan));
        }
        List<Object> results = reads.run(tasks);
        int at = 0;
        @SuppressWarnings("unchecked")
        List<DocumentStore.ReadValue> pair = together ? (List<DocumentStore.ReadValue>) results.get(0) : null;
        IndexHits hits = together ? ((DocumentStore.ReadValue.Hits) pair.get(0)).hits() : (IndexHits) results.get(0);
        at++;
        if (separateTotal) {
            @SuppressWarnings("unchecked")
            Optional<IndexHits.Total> total = (Optional<IndexHits.Total>) results.get(at++);
            hits = new IndexHits(total, hits.hits(), hits.maxScore());
        }
        if (request.aggregations().isEmpty()) {
            return new IndexAnswer(hits, Optional.empty());
        }
        NamedPartials nativeParts = nativePlan == null ? NamedPartials.EMPTY
                : together ? ((DocumentStore.ReadValue.Partials) pair.get(1)).partials()
                : (NamedPartials) results.get(at++);
        NamedPartials scannedParts = scanPlan == null ? NamedPartials.EMPTY : (NamedPartials) results.get(at);
        Map<String, Partial> ordered = new LinkedHashMap<>();
        for (String name : request.aggregations().keySet()) {
            Partial p = nativeParts.byName().get(name);
            ordered.put(name, p != null ? p : scannedParts.byName().get(name));
        }
        return new IndexAnswer(hits, Optional.of(new NamedPartials(ordered)));
    }

    private static String describe(ExecutionPlan plan) {
        StringBuilder out = new StringBuilder("hits ").append(describe(plan.hits())).append(", total ")
                .append(describe(plan.total()));
        plan.aggregations().forEach((name, path) -> out.append(", aggs.").append(name).append(' ')
                .append(describe(path)));
        return out.toString();
    }

    private static String describe(ExecutionPath path) {
        return switch (path) {
            case ExecutionPath.Native n -> "native";
            case ExecutionPath.Scan s -> "complete scan, because " + s.detail();
        };
    }

    private static boolean hasTopHits(Map<String, Aggregation> aggregations) {
        for (Aggregation a : aggregations.values()) {
            if (a instanceof Aggregation.TopHits || hasTopHits(a.subs())) {
                return true;
            }
        }
        return false;
    }

    /**
     * The page's hits with the values of the request's {@code script_fields}; a script that fails (without
     * {@code ignore_failure}) fails its index's search, as it fails the shard's in Elasticsearch.
     */
    private static List<Hit> scriptFields(List<Hit> page, SearchRequest request, List<IndexMetadata> indices) {
        if (request.scriptFields().isEmpty() || page.isEmpty()) {
            return page;
        }
        Map<String, IndexMetadata> byName = new HashMap<>();
        indices.forEach(i -> byName.put(i.name(), i));
        List<Hit> out = new ArrayList<>(page.size());
        for (Hit hit : page) {
            IndexMetadata index = byName.get(hit.index());
            if (index == null) {
                out.add(hit);
                continue;
            }
            try {
                io.qdrant.esgateway.domain.json.JsonValue.JsonObject stored = io.qdrant.esgateway.domain.document.SourceFilter.stored(index.mappings(),
                        hit.source());
                out.add(hit.withScriptFields(io.qdrant.esgateway.domain.search.ScriptField.values(index.name(),
                        hit.id(), stored, index.mappings(), request.scriptFields())));
            } catch (GatewayException e) {
                throw GatewayException.allShardsFailed(List.of(new GatewayException.ShardFailure(index.name(), e)));
            }
        }
        return out;
    }

    /** A stored script's source, for the score scripts of a query. */
    private String storedSource(String id) {
        return catalog.storedScript(id).map(io.qdrant.esgateway.domain.script.StoredScript::source).orElseThrow(
                () -> new GatewayException(ErrorKind.RESOURCE_NOT_FOUND, "unable to find script [" + id
                        + "] in cluster state"));
    }

    @Override
    public CountResult count(String target, Optional<Query> query, CatalogView.Options options) {
        CatalogView view = catalog.view();
        List<IndexMetadata> indices = view.resolveOpen(target, options);
        IndexBlocks.check(indices, IndexBlocks.Level.READ);
        Map<String, Query> aliasFilters = AliasFilters.of(view, target);
        long count = 0;
        List<GatewayException.ShardFailure> failures = new ArrayList<>();
        for (IndexMetadata index : indices) {
            Query aliasFilter = aliasFilters.get(index.name());
            Optional<Query> own = aliasFilter == null ? query : AliasFilters.restrict(query, aliasFilter);
            try {
                own.ifPresent(q -> QueryAnalyzers.check(q, index));
            } catch (GatewayException e) {
                failures.add(new GatewayException.ShardFailure(index.name(), e));
                continue;
            }
            if (SearchableFields.applies(index.mappings()) || own.map(SearchableFields::checksFunctions).orElse(false)) {
                try {
                    own = own.map(q -> SearchableFields.rewrite(q, index.mappings(), index.name(), index.uuid()));
                } catch (GatewayException e) {
                    if (e.kind() != ErrorKind.QUERY_SHARD) {
                        throw e;
                    }
                    failures.add(new GatewayException.ShardFailure(index.name(), e));
                    continue;
                }
            }
            count += store.count(index, own);
        }
        if (!failures.isEmpty()) {
            throw GatewayException.allShardsFailed(failures);
        }
        return new CountResult(count, indices.size());
    }
}
