package io.qdrant.esgateway.adapter.out.qdrant.read;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator.Translated;
import io.qdrant.esgateway.application.port.out.DocumentStore.ScanRequest;
import io.qdrant.esgateway.application.port.out.DocumentStore.ScannedDocument;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.SourceFilter;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.search.GatewaySort;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.IndexHits;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.TrackTotalHits;
import io.qdrant.esgateway.domain.sort.SortSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantCollections;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.scoring.KnnScores;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator;

/**
 * Searches with kNN parts on Qdrant — top-level {@code knn} sections and {@code knn} queries anywhere in the query
 * or {@code post_filter} — with Elasticsearch's semantics: each kNN search runs first, once ({@link QdrantKnn}, one
 * query request each); its neighbours then take part in matching as a {@code has_id} condition
 * ({@link FilterTranslator}); the matches are the query's ∪ the sections' neighbours (then {@code post_filter});
 * scores are {@link KnnScores}.
 *
 * <p>Only the neighbours can score differently from each other: every other match scores the query's constant
 * score. So the relevance order needs no scan: the neighbours that match are scored, and the first matches of the
 * rest in index order fill up the window; ties are broken by index order ({@code _seq_no}) on both sides. Any other order
 * ({@code _doc}, {@code _score} ascending, {@code search_after}) sorts a scroll of all matches, as the constant-score
 * path does. Only the hits of the window are fetched, with their source only when the response shows it.
 * {@code min_score} applies to the computed scores: neighbours one by one, the other matches all or none.
 *
 * <p>The kNN searches run again for each read of one request (page, total, each scan of an aggregation), as every
 * other part of a search reads Qdrant again: one query request per kNN search per read.
 */
public final class QdrantKnnSearch {
    private static final List<String> VERSIONED = List.of(QdrantLayout.ID, QdrantLayout.VERSION, QdrantLayout.SEQ_NO,
            QdrantLayout.PRIMARY_TERM, QdrantLayout.ROUTING);

    private final CollectionReads store;
    private final QdrantCollections collections;

    public QdrantKnnSearch(CollectionReads store, QdrantCollections collections) {
        this.store = store;
        this.collections = collections;
    }

    /** Whether a request has kNN parts (sections, or {@code knn} queries in its query or post_filter). */
    public static boolean applies(SearchRequest request) {
        return !request.knn().isEmpty() || request.query().map(QdrantKnnSearch::hasKnn).orElse(false)
                || request.postFilter().map(QdrantKnnSearch::hasKnn).orElse(false);
    }

    public static boolean hasKnn(Query query) {
        return !QdrantKnn.inQuery(query).isEmpty();
    }

    /** The kNN searches of a request, run; the translator that matches them; what matches. */
    private final class Context {
        final IndexMetadata index;
        final SearchRequest request;
        final Map<Query.Knn, QdrantKnn.Neighbours> neighbours;
        final LongSupplier now = CollectionReads.now();
        final FilterTranslator translator;
        final KnnScores scores;
        /** The query that scores: the request's, or {@code match_all} when it has neither query nor sections. */
        final Optional<Query> scoring;
        final Optional<Translated> query;
        /** Every point some kNN search found: the only matches whose scores differ. */
        final Set<String> scored = new LinkedHashSet<>();
        final Map<String, String> ids = new HashMap<>();
        final Map<String, Long> positions = new HashMap<>();
        Set<String> matchingQuery;

        Context(IndexMetadata index, SearchRequest request, Optional<Query> extra) {
            this.index = index;
            this.request = request;
            List<Query.Knn> searches = new ArrayList<>(request.knn());
            request.query().ifPresent(q -> searches.addAll(QdrantKnn.inQuery(q)));
            request.postFilter().ifPresent(q -> searches.addAll(QdrantKnn.inQuery(q)));
            extra.ifPresent(q -> searches.addAll(QdrantKnn.inQuery(q)));
            Map<Query.Knn, QdrantKnn.Neighbours> found = new HashMap<>();
            this.neighbours = found;
            this.translator = new FilterTranslator(index, now, k -> {
                QdrantKnn.Neighbours n = found.get(k);
                if (n == null) {
                    throw FilterTranslator.unsupported("a [knn] query inside a knn [filter]");
                }
                return n.asFilter();
            });
            found.putAll(QdrantKnn.resolve(index, collections.vectorNames(index), searches, translator::query,
                    body -> store.query(index, body)));
            found.values().forEach(n -> {
                scored.addAll(n.scores().keySet());
                ids.putAll(n.ids());
                positions.putAll(n.positions());
            });
            this.scores = new KnnScores(found);
            this.scoring = request.query().or(() -> request.knn().isEmpty() ? Optional.of(new Query.MatchAll(1f))
                    : Optional.empty());
            this.query = scoring.map(translator::query);
        }

        /** The matches: query ∪ sections, then post_filter (when asked) and the extra filter. */
        Translated matches(boolean postFilter, Optional<Query> extra) {
            List<Translated> union = new ArrayList<>();
            query.ifPresent(union::add);
            request.knn().forEach(k -> union.add(neighbours.get(k).asFilter()));
            List<Translated> parts = new ArrayList<>();
            parts.add(union.isEmpty() ? new FilterTranslator.Always() : FilterTranslator.or(union));
            if (postFilter) {
                request.postFilter().ifPresent(q -> parts.add(translator.query(q)));
            }
            extra.ifPresent(q -> parts.add(translator.query(q)));
            return FilterTranslator.and(parts);
        }

        /** The score of a match. */
        float score(String pointId) {
            boolean inQuery = scoring.isPresent() && (!scored.contains(pointId) || matchingQuery().contains(pointId));
            return scores.score(pointId, scoring, inQuery, request.knn());
        }

        /** Whether a score passes the request's {@code min_score} (every score does without one). */
        boolean passes(float score) {
            return request.minScore().isEmpty() || score >= request.minScore().get();
        }

        /**
         * Whether some matches may be no neighbour: the query may match documents no kNN search found (unless a
         * {@code knn} query restricts all of its matches).
         */
        boolean hasRest() {
            return scoring.isPresent() && !KnnScores.onlyNeighboursMatch(scoring.get());
        }

        /** The score of the matches that are no neighbour: the query's, the same for all of them. */
        float restScore() {
            return scores.query(scoring.orElseThrow(), "");
        }

        /** The neighbours among {@code matches}. */
        Set<String> matchingNeighbours(Translated matches) {
            if (request.postFilter().isPresent()) {
                return pointIds(FilterTranslator.and(List.of(matches, QdrantKnn.hasId(scored))));
            }
            Set<String> matching = new HashSet<>(matchingQuery());
            request.knn().forEach(k -> matching.addAll(neighbours.get(k).scores().keySet()));
            return matching;
        }

        /** The scored points that match the query (one scroll, the first time it is needed). */
        Set<String> matchingQuery() {
            if (matchingQuery == null) {
                matchingQuery = query.isEmpty() ? Set.of()
                        : query.get() instanceof FilterTranslator.Always ? scored
                        : pointIds(FilterTranslator.and(List.of(query.get(), QdrantKnn.hasId(scored))));
            }
            return matchingQuery;
        }

        Set<String> pointIds(Translated matches) {
            Set<String> out = new HashSet<>();
            if (!(matches instanceof FilterTranslator.Never)) {
                store.scroll(index, matches, List.of(QdrantLayout.ID), Integer.MAX_VALUE, record -> {
                    out.add(record.path("id").asText());
                    return true;
                });
            }
            return out;
        }
    }

    // ---------------------------------------------------------------- search

    public IndexHits search(IndexMetadata index, SearchRequest request, int topN) {
        if (request.highlight().isPresent()) {
            throw FilterTranslator.unsupported("[highlight] with [knn]");
        }
        Context context = new Context(index, request, Optional.empty());
        Translated matches = context.matches(true, Optional.empty());
        Optional<IndexHits.Total> total = Optional.empty();
        if (!(request.trackTotalHits() instanceof TrackTotalHits.Disabled)) {
            long count;
            if (request.minScore().isPresent()) {
                count = countAboveMinScore(context, matches);
            } else if (context.scoring.isEmpty() && request.postFilter().isEmpty()) {
                Set<String> union = new HashSet<>();
                request.knn().forEach(k -> union.addAll(context.neighbours.get(k).scores().keySet()));
                count = union.size();
            } else {
                count = store.count(index, matches);
            }
            total = IndexHits.Total.of(request.trackTotalHits(), count);
        }
        if (topN <= 0 || matches instanceof FilterTranslator.Never) {
            return new IndexHits(total, List.of(), Float.NaN);
        }
        boolean byRelevance = request.searchAfter().isEmpty() && (request.sort().isEmpty()
                || (request.sort().size() == 1 && request.sort().get(0) instanceof SortSpec.Score s
                && s.order() == SortSpec.Order.DESC));
        float[] best = {Float.NaN};
        List<Ranked> page = byRelevance ? byRelevance(context, matches, topN)
                : sorted(context, matches, topN, best);
        boolean scored = request.needsScores();
        List<Hit> hits = fetch(index, request, page, scored);
        // under another order with track_scores, ES reports the best score of all matches; otherwise the page's
        float maxScore = Float.NaN;
        if (scored && !byRelevance && request.trackScores()) {
            maxScore = best[0];
        } else if (scored) {
            for (Hit h : hits) {
                maxScore = Float.isNaN(maxScore) ? h.score() : Math.max(maxScore, h.score());
            }
        }
        return new IndexHits(total, hits, maxScore);
    }

    /** The matches whose score passes {@code min_score}: the neighbours scored, the others counted. */
    private long countAboveMinScore(Context context, Translated matches) {
        long count = 0;
        for (String pointId : context.matchingNeighbours(matches)) {
            if (context.passes(context.score(pointId))) {
                count++;
            }
        }
        if (context.hasRest() && context.passes(context.restScore())) {
            Translated rest = FilterTranslator.and(List.of(matches, FilterTranslator.not(QdrantKnn.hasId(
                    context.scored))));
            count += rest instanceof FilterTranslator.Never ? 0 : store.count(context.index, rest);
        }
        return count;
    }

    /** A hit chosen, before its fetch. */
    private record Ranked(String pointId, String id, float score, long position, List<JsonValue> sort) {
    }

    private static final Comparator<Ranked> RELEVANCE = Comparator.comparing(Ranked::score,
            Comparator.reverseOrder()).thenComparingLong(Ranked::position);

    /** The best {@code topN}: the matching neighbours scored, and the first {@code topN} other matches. */
    private List<Ranked> byRelevance(Context context, Translated matches, int topN) {
        SearchRequest request = context.request;
        Set<String> candidates = context.scored;
        Set<String> matching = context.matchingNeighbours(matches);
        boolean scored = request.needsScores();
        List<Ranked> ranked = new ArrayList<>();
        for (String pointId : candidates) {
            if (matching.contains(pointId)) {
                Ranked r = ranked(context, pointId, context.ids.get(pointId), context.positions.get(pointId), scored);
                if (context.passes(r.score())) {
                    ranked.add(r);
                }
            }
        }
        if (context.hasRest() && context.passes(context.restScore())) {
            Translated rest = FilterTranslator.and(List.of(matches, FilterTranslator.not(QdrantKnn.hasId(
                    candidates))));
            if (!(rest instanceof FilterTranslator.Never)) {
                store.scroll(context.index, rest, List.of(QdrantLayout.ID), topN, record -> {
                    String pointId = record.path("id").asText();
                    ranked.add(ranked(context, pointId, record.path("payload").path(QdrantLayout.ID).asText(),
                            QdrantLayout.position(record), scored));
                    return true;
                });
            }
        }
        ranked.sort(RELEVANCE);
        return ranked.subList(0, Math.min(topN, ranked.size()));
    }

    private static Ranked ranked(Context context, String pointId, String id, long position, boolean scored) {
        float score = context.score(pointId);
        List<JsonValue> sort = context.request.sort().isEmpty() ? List.of()
                : List.of(new JsonValue.JsonNumber(Double.parseDouble(Float.toString(score))));
        return new Ranked(pointId, id, scored ? score : Float.NaN, position, sort);
    }

    /** Any other order: the gateway's sort over a scroll of every match (with the sort fields' source). */
    private List<Ranked> sorted(Context context, Translated matches, int topN, float[] best) {
        SearchRequest request = context.request;
        IndexMetadata index = context.index;
        GatewaySort sort = GatewaySort.of(index.name(), request.sort(), index.mappings(), context.now);
        Object[] after = request.searchAfter().map(sort::parseAfter).orElse(null);
        SortPayload reads = new SortPayload(index.mappings(), sort);
        boolean scored = request.needsScores();
        List<GatewaySort.Key> keys = new ArrayList<>();
        List<Ranked> candidates = new ArrayList<>();
        store.scroll(index, matches, reads.include(), Integer.MAX_VALUE, record -> {
            String pointId = record.path("id").asText();
            float score = scored || request.minScore().isPresent() ? context.score(pointId) : Float.NaN;
            if (!context.passes(score)) {
                return true;
            }
            if (scored && (Float.isNaN(best[0]) || score > best[0])) {
                best[0] = score;
            }
            GatewaySort.Key key = reads.key(record, score);
            if (after == null || sort.isAfter(key, after)) {
                keys.add(key);
                candidates.add(new Ranked(pointId, SortPayload.id(record), scored ? score : Float.NaN,
                        key.position(), List.of()));
            }
            return true;
        });
        List<Integer> order = reads.order(keys);
        List<Ranked> page = new ArrayList<>();
        for (int i = 0; i < Math.min(topN, order.size()); i++) {
            Ranked r = candidates.get(order.get(i));
            page.add(new Ranked(r.pointId(), r.id(), r.score(), r.position(), sort.render(keys.get(order.get(i)))));
        }
        return page;
    }

    /**
     * One retrieve of the window's documents: their {@code _id} and version triple, and their exact source only when
     * the response shows it ({@code _source}, {@code fields}, {@code docvalue_fields}).
     */
    private List<Hit> fetch(IndexMetadata index, SearchRequest request, List<Ranked> page, boolean scored) {
        if (page.isEmpty()) {
            return List.of();
        }
        boolean source = request.source().fetch() || !request.fields().isEmpty()
                || !request.docvalueFields().isEmpty() || !request.scriptFields().isEmpty();
        ObjectNode body = QdrantClient.object();
        ArrayNode list = body.putArray("ids");
        page.forEach(r -> list.add(r.pointId()));
        ArrayNode include = body.putArray("with_payload");
        VERSIONED.forEach(include::add);
        if (source) {
            include.add(QdrantLayout.SOURCE_TEXT);
        }
        body.put("with_vector", false);
        JsonNode result = store.calls().call(index, "POST", store.calls().collection(index), "/points", Map.of(), body, true,
                "get documents of index [" + index.name() + "]");
        Map<String, JsonNode> payloads = new HashMap<>();
        for (JsonNode record : result) {
            payloads.put(record.path("id").asText(), record.path("payload"));
        }
        List<Hit> hits = new ArrayList<>();
        for (Ranked r : page) {
            JsonNode payload = payloads.get(r.pointId());
            if (payload == null) {
                continue; // deleted meanwhile
            }
            JsonObject src = source ? (JsonObject) Json.compactObject(payload.path(QdrantLayout.SOURCE_TEXT).asText("{}"))
                    : JsonObject.of();
            DocumentVersion version = new DocumentVersion(payload.path(QdrantLayout.VERSION).asLong(),
                    payload.path(QdrantLayout.SEQ_NO).asLong(), payload.path(QdrantLayout.PRIMARY_TERM).asLong(1));
            hits.add(new Hit(index.name(), r.id(), scored ? r.score() : Float.NaN, r.sort(), src, version, Map.of(),
                    QdrantLayout.routing(payload)));
        }
        return hits;
    }

    // ---------------------------------------------------------------- scan and count

    /** The complete scan of a request with kNN parts (see {@link io.qdrant.esgateway.application.port.out.Scans#scan}). */
    public void scan(IndexMetadata index, ScanRequest scan, Consumer<ScannedDocument> sink) {
        Context context = new Context(index, scan.search(), scan.filter());
        Translated matches = context.matches(scan.postFilter(), scan.filter());
        if (matches instanceof FilterTranslator.Never) {
            return;
        }
        ScanPayload read = ScanPayload.of(scan.fields());
        boolean minScore = scan.search().minScore().isPresent();
        store.scroll(index, matches, read.include(), Integer.MAX_VALUE, record -> {
            JsonNode payload = record.path("payload");
            String pointId = record.path("id").asText();
            float score = scan.scores() || minScore ? context.score(pointId) : Float.NaN;
            if (!context.passes(score)) {
                return true;
            }
            sink.accept(new ScannedDocument(payload.path(QdrantLayout.ID).asText(), QdrantLayout.position(record),
                    scan.scores() ? score : Float.NaN, read.source(payload)));
            return true;
        });
    }

    /** {@code _count} with a {@code knn} query. */
    public long count(IndexMetadata index, Query query) {
        SearchRequest request = new SearchRequest(Optional.of(query), List.of(), 0, 0, List.of(), Optional.empty(),
                SourceFilter.NONE, new TrackTotalHits.Exact(), false, Optional.empty(), Optional.empty(),
                Optional.empty(), List.of(), List.of(), Optional.empty(), Map.of(), Optional.empty());
        Context context = new Context(index, request, Optional.empty());
        return store.count(index, context.matches(false, Optional.empty()));
    }
}
