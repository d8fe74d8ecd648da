package io.qdrant.esgateway.adapter.out.qdrant.scoring;

import com.fasterxml.jackson.databind.JsonNode;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator.Translated;
import io.qdrant.esgateway.application.port.out.DocumentStore.FetchRef;
import io.qdrant.esgateway.application.port.out.DocumentStore.ScanRequest;
import io.qdrant.esgateway.application.port.out.DocumentStore.ScannedDocument;
import io.qdrant.esgateway.application.port.out.RelevanceScorer;
import io.qdrant.esgateway.application.port.out.RelevanceScorer.Candidate;
import io.qdrant.esgateway.application.port.out.RelevanceScorer.Scored;
import io.qdrant.esgateway.domain.aggregation.ValuesDoc;
import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.document.SourceFilter;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.query.QueryStringParser;
import io.qdrant.esgateway.domain.search.GatewaySort;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.IndexHits;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.TrackTotalHits;
import io.qdrant.esgateway.domain.sort.SortSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import io.qdrant.esgateway.adapter.out.qdrant.read.CollectionReads;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.payload.QdrantJson;
import io.qdrant.esgateway.adapter.out.qdrant.filter.SupersetFilter;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator;

/**
 * Matching and relevance computed by the gateway on the Qdrant backend, for what Qdrant cannot answer with
 * Elasticsearch's semantics: full-text queries, term-level queries on text fields, per-document scores (BM25 of
 * {@code term} and full-text queries, {@code bool} with {@code should}, {@code dis_max}, {@code boosting}) and
 * {@code min_score}. Qdrant selects the candidates ({@link SupersetFilter}, a superset of the matches), returned in
 * index order with only the source fields the queries read; the {@link RelevanceScorer} keeps the real matches
 * and scores them with the whole index's statistics ({@link QdrantStatistics}); the gateway then orders (score
 * descending, ties in index order, or the request's sort), windows and counts. The cost is proportional to the
 * candidate set, not to the page.
 */
public final class GatewayScoring {
    /**
     * Candidates scored together (one in-memory index each): 1024 costs ~40 µs per 50-token candidate against ~70 µs
     * for 256 (index set-up dominates small batches), while memory stays bounded.
     */
    public static final int SCORE_BATCH = 1024;
    private final CollectionReads store;
    private final RelevanceScorer scorer;
    private final int batch;

    public GatewayScoring(CollectionReads store, RelevanceScorer scorer, int batch) {
        this.store = store;
        this.scorer = scorer;
        this.batch = batch;
    }

    /** True when a search must go through the gateway's scoring rather than Qdrant's filters alone. */
    public static boolean needed(IndexMetadata index, SearchRequest request, boolean scores, Optional<Query> extra,
                          boolean postFilter) {
        if (request.minScore().isPresent()) {
            return true;
        }
        if (request.query().map(q -> SupersetFilter.textual(index, q)).orElse(false)
                || postFilter && request.postFilter().map(q -> SupersetFilter.textual(index, q)).orElse(false)
                || extra.map(q -> SupersetFilter.textual(index, q)).orElse(false)) {
            return true;
        }
        if (!scores) {
            return false;
        }
        try {
            ConstantScores.of(request.query());
            return false;
        } catch (GatewayException e) {
            return true;
        }
    }

    /** A candidate waiting for its batch to be scored. */
    private record Pending(Candidate candidate, long position, JsonObject source) {
    }

    /** A verified match: id, index position, score and (for a field sort) its values. */
    private record Match(String id, long position, float score, JsonObject source) {
    }

    /**
     * Every match of the request's query (and {@code filters}), in index order, scored when {@code scores}; the
     * source of each reduced to {@code fields} (plus what the queries read).
     */
    private void matches(IndexMetadata index, SearchRequest request, List<Query> filters, Set<String> fields,
                         boolean scores, Consumer<Match> sink) {
        long now = System.currentTimeMillis();
        FilterTranslator exact = new FilterTranslator(index, () -> now);
        SupersetFilter superset = new SupersetFilter(index, exact, scorer);
        Query query = request.query().orElse(new Query.MatchAll(1f));
        if (!request.knn().isEmpty()) {
            throw FilterTranslator.unsupported("[knn] search");
        }
        List<Translated> parts = new ArrayList<>();
        parts.add(superset.superset(query));
        filters.forEach(f -> parts.add(superset.superset(f)));
        // the errors a native search gives (bad values, unsupported shapes), even when nothing is a candidate
        scorer.validate(index, query);
        filters.forEach(f -> scorer.validate(index, f));
        Translated candidates = FilterTranslator.and(parts);
        if (candidates instanceof FilterTranslator.Never) {
            return;
        }
        Mappings mappings = index.mappings();
        Optional<Set<String>> read = readFields(index, query, filters);
        Set<String> sourcePaths = new LinkedHashSet<>(fields);
        read.ifPresent(r -> sourcePaths.addAll(mappings.sourcePaths(r)));
        List<String> include = new ArrayList<>();
        include.add(QdrantLayout.ID);
        include.add(QdrantLayout.ROUTING); // the _routing metadata field is matched as the keyword it is
        if (read.isEmpty()) {
            include.add(QdrantLayout.SOURCE);
        } else {
            include.addAll(QdrantJson.sourceIncludes(sourcePaths));
        }
        SourceFilter projection = fields.isEmpty() ? SourceFilter.NONE
                : new SourceFilter(true, List.copyOf(fields), List.of());
        boolean scoring = scores || request.minScore().isPresent();
        QdrantStatistics statistics = new QdrantStatistics(index, (rest, body, what) -> store.read(index, rest, body,
                what));
        Map<String, Pending> page = new java.util.LinkedHashMap<>();
        boolean[] prefetched = {!scoring};
        Runnable flush = () -> {
            if (page.isEmpty()) {
                return;
            }
            if (!prefetched[0]) {
                // once there is a candidate to score: every statistic the scores need, in one concurrent round
                statistics.prefetch(scorer.statisticsOf(index, query));
                prefetched[0] = true;
            }
            List<Candidate> candidatesOfPage = page.values().stream().map(Pending::candidate).toList();
            for (Scored s : scorer.score(index, query, filters, candidatesOfPage, statistics, scoring, now)) {
                if (request.minScore().isPresent() && !(s.score() >= request.minScore().get())) {
                    continue;
                }
                Pending p = page.get(s.id());
                sink.accept(new Match(s.id(), p.position(), scores ? s.score() : Float.NaN,
                        projection.fetch() ? projection.apply(p.source()) : JsonObject.of()));
            }
            page.clear();
        };
        store.scroll(index, candidates, include, Integer.MAX_VALUE, record -> {
            JsonNode payload = record.path("payload");
            String id = payload.path(QdrantLayout.ID).asText();
            JsonObject source = payload.has(QdrantLayout.SOURCE)
                    ? QdrantJson.toObject(payload.path(QdrantLayout.SOURCE)) : JsonObject.of();
            List<IndexedValue> values = DocumentParser.parse(mappings, source, id, QdrantLayout.routing(payload))
                    .values();
            page.put(id, new Pending(new Candidate(id, values), QdrantLayout.position(record),
                    source));
            if (page.size() >= batch) {
                flush.run();
            }
            return true;
        });
        flush.run();
    }

    /**
     * The fields the queries read (their source values become the candidates' indexed values), or empty when they
     * name patterns or default fields (then the whole source is read).
     */
    static Optional<Set<String>> readFields(IndexMetadata index, Query query, List<Query> filters) {
        Set<String> out = new LinkedHashSet<>();
        boolean[] whole = {false};
        collect(query, out, whole);
        filters.forEach(f -> collect(f, out, whole));
        out.remove(QdrantLayout.ID);
        if (whole[0] || out.stream().anyMatch(f -> f.contains("*"))) {
            return Optional.empty();
        }
        return Optional.of(out);
    }

    private static void collect(Query q, Set<String> out, boolean[] whole) {
        switch (q) {
            case Query.Match m -> out.add(m.field());
            case Query.MatchPhrase m -> out.add(m.field());
            case Query.MatchPhrasePrefix m -> out.add(m.field());
            case Query.MultiMatch m -> {
                if (m.fields().isEmpty()) {
                    whole[0] = true;
                }
                m.fields().forEach(f -> out.add(f.field()));
            }
            case Query.QueryString s -> {
                if (s.fields().isEmpty()) {
                    whole[0] = true;
                }
                collect(QueryStringParser.parse(s), out, whole);
            }
            case Query.Term t -> out.add(t.field());
            case Query.Terms t -> out.add(t.field());
            case Query.Range r -> out.add(r.field());
            case Query.Exists e -> out.add(e.field());
            case Query.Prefix p -> out.add(p.field());
            case Query.Wildcard w -> out.add(w.field());
            case Query.Regexp r -> out.add(r.field());
            case Query.Fuzzy f -> out.add(f.field());
            case Query.Knn k -> out.add(k.field());
            case Query.Bool b -> {
                b.must().forEach(x -> collect(x, out, whole));
                b.filter().forEach(x -> collect(x, out, whole));
                b.should().forEach(x -> collect(x, out, whole));
                b.mustNot().forEach(x -> collect(x, out, whole));
            }
            case Query.ConstantScore c -> collect(c.filter(), out, whole);
            case Query.Boosting b -> {
                collect(b.positive(), out, whole);
                collect(b.negative(), out, whole);
            }
            case Query.DisMax d -> d.queries().forEach(x -> collect(x, out, whole));
            // a script reads the fields it names at run time: the whole source
            case Query.ScriptScore s -> {
                whole[0] = true;
                collect(s.query(), out, whole);
            }
            case Query.FunctionScore f -> {
                whole[0] = true;
                collect(f.query(), out, whole);
                f.functions().forEach(fn -> fn.filter().ifPresent(x -> collect(x, out, whole)));
            }
            case Query.MatchAll m -> {
            }
            case Query.MatchNone m -> {
            }
            case Query.Ids i -> {
            }
        }
    }

    // ---------------------------------------------------------------- the port's reads

    public IndexHits search(IndexMetadata index, SearchRequest request, int topN) {
        return search(index, request, topN, List.of());
    }

    /**
     * {@link #search(IndexMetadata, SearchRequest, int)} over the matches that also match every query of
     * {@code restrict} (filters: they do not score); the total counts those matches only.
     */
    public IndexHits search(IndexMetadata index, SearchRequest request, int topN, List<Query> restrict) {
        GatewaySort sort = GatewaySort.of(index.name(), request.sort(), index.mappings(), CollectionReads.now());
        boolean relevance = request.sort().isEmpty() && request.searchAfter().isEmpty();
        boolean scores = request.needsScores();
        Mappings mappings = index.mappings();
        Set<String> sortFields = relevance ? Set.of() : mappings.sourcePaths(sort.fields());
        Object[] after = request.searchAfter().map(sort::parseAfter).orElse(null);
        List<Match> all = new ArrayList<>();
        // relevance: the best topN so far, worst first (score descending, ties in index order)
        java.util.Comparator<Match> best = (a, b) -> a.score() != b.score() ? Float.compare(b.score(), a.score())
                : Long.compare(a.position(), b.position());
        java.util.PriorityQueue<Match> top = new java.util.PriorityQueue<>(best.reversed());
        List<GatewaySort.Key> keys = new ArrayList<>();
        long[] total = {0};
        float[] bestScore = {Float.NaN};
        List<Query> filters = new ArrayList<>(request.postFilter().map(List::of).orElse(List.of()));
        filters.addAll(restrict);
        matches(index, request, filters, sortFields, scores, m -> {
            total[0]++;
            if (!Float.isNaN(m.score()) && (Float.isNaN(bestScore[0]) || m.score() > bestScore[0])) {
                bestScore[0] = m.score();
            }
            if (relevance) {
                if (topN > 0) {
                    top.add(m);
                    if (top.size() > topN) {
                        top.poll();
                    }
                }
                return;
            }
            ValuesDoc doc = new ValuesDoc(m.id(), m.score(), sortFields.isEmpty() ? List.of()
                    : DocumentParser.parse(mappings, m.source(), m.id()).values(), i -> false);
            GatewaySort.Key key = sort.key(doc, m.position());
            if (after == null || sort.isAfter(key, after)) {
                all.add(new Match(m.id(), m.position(), m.score(), JsonObject.of()));
                keys.add(key);
            }
        });
        Optional<IndexHits.Total> totals = IndexHits.Total.of(request.trackTotalHits(), total[0]);
        List<FetchRef> refs = new ArrayList<>();
        if (relevance) {
            all.addAll(top);
            all.sort(best);
            for (Match m : all) {
                refs.add(new FetchRef(m.id(), m.score(), List.of()));
            }
        } else {
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                order.add(i);
            }
            order.sort((a, b) -> sort.order().compare(keys.get(a), keys.get(b)));
            for (int i = 0; i < Math.min(topN, order.size()); i++) {
                int at = order.get(i);
                refs.add(new FetchRef(all.get(at).id(), all.get(at).score(), sort.render(keys.get(at))));
            }
        }
        List<Hit> hits = topN <= 0 || refs.isEmpty() ? List.of() : store.fetch(index, request, refs);
        float maxScore = Float.NaN;
        if (scores) {
            if (!request.sort().isEmpty() && request.trackScores()) {
                maxScore = bestScore[0];
            } else {
                for (Hit h : hits) {
                    if (!Float.isNaN(h.score()) && (Float.isNaN(maxScore) || h.score() > maxScore)) {
                        maxScore = h.score();
                    }
                }
            }
        }
        return new IndexHits(totals, hits, maxScore);
    }

    public void scan(IndexMetadata index, ScanRequest scan, Consumer<ScannedDocument> sink) {
        SearchRequest request = scan.search();
        List<Query> filters = new ArrayList<>();
        if (scan.postFilter()) {
            request.postFilter().ifPresent(filters::add);
        }
        scan.filter().ifPresent(filters::add);
        matches(index, request, filters, scan.fields(), scan.scores(),
                m -> sink.accept(new ScannedDocument(m.id(), m.position(), m.score(), m.source())));
    }

    public long count(IndexMetadata index, Query query) {
        SearchRequest request = new SearchRequest(Optional.of(query), List.of(), 0, 0, List.of(), Optional.empty(),
                SourceFilter.NONE, new TrackTotalHits.Exact(), false, Optional.empty(), Optional.empty(),
                Optional.empty(), List.of(), List.of(), Optional.empty(), Map.of(), Optional.empty());
        long[] n = {0};
        matches(index, request, List.of(), Set.of(), false, m -> n[0]++);
        return n[0];
    }
}
