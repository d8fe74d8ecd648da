package io.qdrant.esgateway.application.service;

import io.qdrant.esgateway.application.port.out.Scans;
import io.qdrant.esgateway.application.port.out.DocumentStore.FetchRef;
import io.qdrant.esgateway.application.port.out.DocumentStore.ScanRequest;
import io.qdrant.esgateway.domain.aggregation.AggregationPlan;
import io.qdrant.esgateway.domain.aggregation.NamedCollectors;
import io.qdrant.esgateway.domain.aggregation.NamedPartials;
import io.qdrant.esgateway.domain.aggregation.ValuesDoc;
import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.search.GatewaySort;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.IndexHits;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.TrackTotalHits;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The complete-scan path: the gateway computes a part of the answer itself from every matching document's needed
 * fields, read through {@link Scans#scan} (sources reduced to those fields) and turned into values by the
 * domain's document parser — the values a backend indexes — so that the result is the native one by construction:
 * the same sort semantics ({@link GatewaySort}) and the same reducers ({@link AggregationPlan}).
 */
final class CompleteScan {
    private final Scans store;

    CompleteScan(Scans store) {
        this.store = store;
    }

    /** A scanned match: its values, index order and score. */
    private record Match(ValuesDoc doc, long position) {
    }

    /** The best {@code topN} hits in the request's order, the total, and the best score — as a native search. */
    IndexHits hits(IndexMetadata index, SearchRequest request, int topN, LongSupplier now) {
        GatewaySort sort = GatewaySort.of(index.name(), request.sort(), index.mappings(), now);
        Object[] after = request.searchAfter().map(sort::parseAfter).orElse(null);
        boolean scores = request.needsScores();
        // a script key reads the whole source and may read the score
        boolean scriptKeys = sort.runsScripts();
        java.util.Set<String> read = scriptKeys ? Set.of("*") : index.mappings().sourcePaths(sort.fields());
        List<GatewaySort.Key> keys = new ArrayList<>();
        List<Match> matches = new ArrayList<>();
        long[] total = {0};
        float[] best = {Float.NaN};
        Mappings mappings = index.mappings();
        store.scan(index, new ScanRequest(request, true, Optional.empty(), read, scores || scriptKeys),
                scanned -> {
                    total[0]++;
                    if (scores && (Float.isNaN(best[0]) || scanned.score() > best[0])) {
                        best[0] = scanned.score();
                    }
                    ValuesDoc doc = values(mappings, scanned.id(), scanned.score(), scanned.source(), i -> false);
                    GatewaySort.Key key = sort.key(doc, scanned.position(), scanned.source());
                    if (after == null || sort.isAfter(key, after)) {
                        keys.add(key);
                        matches.add(new Match(doc, scanned.position()));
                    }
                });
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            order.add(i);
        }
        order.sort((a, b) -> sort.order().compare(keys.get(a), keys.get(b)));
        List<FetchRef> refs = new ArrayList<>();
        float pageBest = Float.NaN;
        for (int i = 0; i < Math.min(topN, order.size()); i++) {
            int at = order.get(i);
            float score = scores ? matches.get(at).doc().score() : Float.NaN;
            if (scores && (Float.isNaN(pageBest) || score > pageBest)) {
                pageBest = score;
            }
            refs.add(new FetchRef(matches.get(at).doc().id(), score,
                    request.sort().isEmpty() ? List.of() : sort.render(keys.get(at))));
        }
        List<Hit> hits = refs.isEmpty() ? List.of() : store.fetch(index, request, refs);
        // ES's max_score: the best of all matches under a field sort with track_scores, else the best of the page
        float maxScore = !request.sort().isEmpty() && request.trackScores() ? best[0] : pageBest;
        return new IndexHits(total(request, total[0]), hits, maxScore);
    }

    /** The total alone, counted over a scan. */
    Optional<IndexHits.Total> total(IndexMetadata index, SearchRequest request) {
        if (request.trackTotalHits() instanceof TrackTotalHits.Disabled) {
            return Optional.empty();
        }
        long[] count = {0};
        store.scan(index, new ScanRequest(request, true, Optional.empty(), Set.of(), false), d -> count[0]++);
        return total(request, count[0]);
    }

    private static Optional<IndexHits.Total> total(SearchRequest request, long count) {
        return IndexHits.Total.of(request.trackTotalHits(), count);
    }

    /** The partials of the plan's aggregations, collected in the gateway over a scan of the query's matches. */
    NamedPartials aggregate(IndexMetadata index, SearchRequest request, AggregationPlan plan) {
        List<Set<String>> filterMatches = new ArrayList<>();
        for (Query filter : plan.filters()) {
            Set<String> ids = new HashSet<>();
            store.scan(index, new ScanRequest(request, false, Optional.of(filter), Set.of(), false),
                    d -> ids.add(d.id()));
            filterMatches.add(ids);
        }
        Set<String> fields = new LinkedHashSet<>();
        plan.fields().forEach(f -> fields.add(f.name()));
        Mappings mappings = index.mappings();
        NamedCollectors collectors = plan.newCollectors();
        // an aggregation's script reads the whole source
        Set<String> read = plan.runsScripts() ? Set.of("*") : mappings.sourcePaths(fields);
        store.scan(index, new ScanRequest(request, false, Optional.empty(), read, plan.needsScores()), scanned -> {
                    List<IndexedValue> values = DocumentParser.parse(mappings, scanned.source(), scanned.id()).values();
                    // top_hits loads the full source of the documents it keeps, and only theirs, by id
                    collectors.collect(plan.scripted(new ValuesDoc(scanned.id(), scanned.score(), values,
                            i -> filterMatches.get(i).contains(scanned.id()), scanned.position(),
                            () -> stored(index, request, scanned.id())), scanned.source()));
                });
        return collectors.partial();
    }

    private io.qdrant.esgateway.domain.document.StoredDocument stored(IndexMetadata index, SearchRequest request,
                                                                       String id) {
        Hit hit = store.fetch(index, request, List.of(new FetchRef(id, Float.NaN, List.of()))).get(0);
        return new io.qdrant.esgateway.domain.document.StoredDocument(hit.id(), hit.version(), hit.source());
    }

    private static ValuesDoc values(Mappings mappings, String id, float score, JsonObject source,
                                    java.util.function.IntPredicate filters) {
        List<IndexedValue> values = DocumentParser.parse(mappings, source, id).values();
        return new ValuesDoc(id, score, values, filters);
    }

}
