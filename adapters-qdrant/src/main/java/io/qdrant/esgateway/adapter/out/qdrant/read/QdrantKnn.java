package io.qdrant.esgateway.adapter.out.qdrant.read;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator.Translated;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.FieldMapping.DenseVectorField;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.query.Query;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator;

/**
 * One kNN search (a top-level {@code knn} section or a {@code knn} query) on Qdrant's query API, with
 * Elasticsearch 8.15's semantics: {@code POST /collections/{c}/points/query} with the field's named vector
 * ({@code using}), the knn {@code filter} as a pre-filter, {@code params.hnsw_ef = num_candidates} (ES's own
 * accuracy knob; collections below Qdrant's full-scan/indexing thresholds are searched exactly, as Lucene searches a
 * small index), and only the {@code _id} payload.
 *
 * <p>Scores are Elasticsearch's (Lucene's vector similarity functions) computed from Qdrant's raw score, in float:
 * {@code cosine} and {@code dot_product} {@code max((1 + s) / 2, 0)} (Qdrant's {@code Cosine} is the dot product of
 * the normalised vectors, which is also how ES 8.15 computes cosine); {@code max_inner_product}
 * {@code s < 0 ? 1 / (1 - s) : s + 1}; {@code l2_norm} {@code 1 / (1 + d²)} where Qdrant's {@code Euclid} score is
 * the distance {@code d}. Float summation order differs between engines (SIMD), so a score may differ from
 * Elasticsearch's in its last bits; the order and the set of neighbours do not, unless two neighbours are that close.
 *
 * <p>The {@code k} nearest are chosen by that score, ties in index order (ascending {@code _seq_no}): when
 * the neighbour after the {@code k}-th ties with it, the search is repeated with a larger limit until the tie is
 * complete, so that Qdrant's arbitrary order among equal scores never decides. {@code similarity} keeps, of the
 * {@code k} nearest, those at least that similar: Qdrant gets a slightly looser {@code score_threshold} (so that no
 * document the exact test keeps is lost to rounding) and the gateway applies ES's threshold on the converted score.
 */
public final class QdrantKnn {
    /** The relative slack of the threshold sent to Qdrant (the exact one is applied by the gateway). */
    private static final double THRESHOLD_SLACK = 1e-5;

    /** Runs one query request on the index's collection and returns its {@code result}. */
    interface Caller {
        JsonNode query(ObjectNode body);
    }

    /**
     * The neighbours of one kNN search: point id → ES score (before the knn's boost), their {@code _id}s and their
     * positions in index order ({@link QdrantLayout#position}).
     */
    public record Neighbours(Map<String, Float> scores, Map<String, String> ids, Map<String, Long> positions) {
        public Neighbours {
            scores = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(scores));
            ids = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(ids));
            positions = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(positions));
        }

        /** The point ids as a {@code has_id} condition, or {@link FilterTranslator.Never} when there are none. */
        Translated asFilter() {
            return hasId(scores.keySet());
        }
    }

    private QdrantKnn() {
    }

    /** Every {@code knn} query inside {@code query} (in any clause), in tree order. */
    static List<Query.Knn> inQuery(Query query) {
        List<Query.Knn> out = new ArrayList<>();
        collect(query, out);
        return out;
    }

    private static void collect(Query q, List<Query.Knn> out) {
        switch (q) {
            case Query.Knn k -> out.add(k);
            case Query.Bool b -> {
                b.must().forEach(c -> collect(c, out));
                b.filter().forEach(c -> collect(c, out));
                b.should().forEach(c -> collect(c, out));
                b.mustNot().forEach(c -> collect(c, out));
            }
            case Query.ConstantScore c -> collect(c.filter(), out);
            case Query.Boosting b -> {
                collect(b.positive(), out);
                collect(b.negative(), out);
            }
            case Query.DisMax d -> d.queries().forEach(c -> collect(c, out));
            default -> {
            }
        }
    }

    /**
     * Runs each distinct kNN search once (one query request each), in order; the answer is keyed by value.
     * {@code vectors} are the named vectors of the collection; {@code filters} translates a knn's {@code filter}
     * clauses.
     */
    static Map<Query.Knn, Neighbours> resolve(IndexMetadata index, Set<String> vectors, List<Query.Knn> searches,
                                              Function<Query, Translated> filters, Caller caller) {
        Map<Query.Knn, Neighbours> out = new java.util.HashMap<>();
        for (Query.Knn knn : searches) {
            if (!out.containsKey(knn)) {
                out.put(knn, search(index, vectors, knn, filters, caller));
            }
        }
        return out;
    }

    /** One kNN search: its {@code k} nearest (ES scores, best first; ties in index order) above its similarity. */
    static Neighbours search(IndexMetadata index, Set<String> vectors, Query.Knn knn,
                             Function<Query, Translated> filters, Caller caller) {
        DenseVectorField dense = field(index, knn);
        if (!vectors.contains(knn.field())) {
            throw FilterTranslator.unsupported("[knn] on the field [" + knn.field() + "] (a dense_vector added by a"
                    + " mapping update, or mapped without [dims], is kept in _source only)");
        }
        List<Translated> parts = new ArrayList<>();
        knn.filter().forEach(f -> parts.add(filters.apply(f)));
        Translated filter = FilterTranslator.and(parts);
        if (filter instanceof FilterTranslator.Never) {
            return new Neighbours(Map.of(), Map.of(), Map.of());
        }
        int limit = knn.k() + 1;
        List<Scored> found;
        while (true) {
            ObjectNode body = body(knn, dense, filter, limit);
            found = new ArrayList<>();
            for (JsonNode point : caller.query(body).path("points")) {
                String pointId = point.path("id").asText();
                JsonNode id = point.path("payload").path(QdrantLayout.ID);
                if (!id.isTextual()) {
                    throw new GatewayException(io.qdrant.esgateway.domain.error.ErrorKind.BACKEND_FAILURE,
                            "a point of the collection of index [" + index.name() + "] has no [_id] payload: it was"
                                    + " not written by the gateway", Map.of(), null);
                }
                found.add(new Scored(pointId, id.asText(), esScore(dense.similarity(),
                        (float) point.path("score").asDouble()), QdrantLayout.position(point)));
            }
            if (found.size() < limit || !tiesAtBoundary(found, knn.k())) {
                break;
            }
            // the neighbour after the k-th ties with it: fetch the whole tie so that index order decides
            limit = Math.multiplyExact(limit, 2);
        }
        found.sort(Comparator.comparing(Scored::score, Comparator.reverseOrder())
                .thenComparingLong(Scored::position));
        Optional<Float> threshold = knn.similarity().map(s -> esScore(dense.similarity(), s, true));
        Map<String, Float> scores = new LinkedHashMap<>();
        Map<String, String> ids = new LinkedHashMap<>();
        Map<String, Long> positions = new LinkedHashMap<>();
        for (Scored s : found.subList(0, Math.min(knn.k(), found.size()))) {
            if (threshold.isEmpty() || s.score() >= threshold.get()) {
                scores.put(s.pointId(), s.score());
                ids.put(s.pointId(), s.id());
                positions.put(s.pointId(), s.position());
            }
        }
        return new Neighbours(scores, ids, positions);
    }

    private record Scored(String pointId, String id, float score, long position) {
    }

    /** Whether, in Qdrant's order, the last point ties (in ES score) with the k-th. */
    private static boolean tiesAtBoundary(List<Scored> found, int k) {
        float kth = found.stream().map(Scored::score).sorted(Comparator.reverseOrder()).skip(k - 1L).findFirst()
                .orElseThrow();
        float worst = found.stream().map(Scored::score).min(Float::compare).orElseThrow();
        return worst >= kth;
    }

    /** The query request of one kNN search (guide §8). */
    static ObjectNode body(Query.Knn knn, DenseVectorField dense, Translated filter, int limit) {
        ObjectNode body = QdrantClient.object();
        ArrayNode vector = body.putArray("query");
        for (float f : knn.queryVector()) {
            vector.add(f);
        }
        body.put("using", knn.field());
        body.set("filter", CollectionReads.filter(filter));
        body.putObject("params").put("hnsw_ef", knn.numCandidates());
        knn.similarity().ifPresent(s -> body.put("score_threshold", looseThreshold(dense.similarity(), s)));
        body.put("limit", limit);
        body.putArray("with_payload").add(QdrantLayout.ID).add(QdrantLayout.SEQ_NO);
        body.put("with_vector", false);
        return body;
    }

    /**
     * A {@code similarity} as a Qdrant {@code score_threshold}, slightly looser than the exact one: a lower bound on
     * the cosine or dot product, an upper bound on the Euclidean distance.
     */
    static double looseThreshold(FieldMapping.Similarity similarity, float s) {
        double slack = THRESHOLD_SLACK * Math.max(1, Math.abs(s));
        return switch (similarity) {
            case COSINE, DOT_PRODUCT, MAX_INNER_PRODUCT -> s - slack;
            case L2_NORM -> s + slack;
        };
    }

    /** Elasticsearch's (Lucene's) score of a raw Qdrant score: see the class comment. */
    static float esScore(FieldMapping.Similarity similarity, float raw) {
        return esScore(similarity, raw, false);
    }

    /**
     * The score of a raw similarity; a threshold (ES's {@code similarity}) is not clamped, as ES turns it into a
     * score threshold with the similarity function's own transformation.
     */
    static float esScore(FieldMapping.Similarity similarity, float raw, boolean threshold) {
        return switch (similarity) {
            case COSINE, DOT_PRODUCT -> threshold ? (1 + raw) / 2 : Math.max((1 + raw) / 2, 0);
            case MAX_INNER_PRODUCT -> raw < 0 ? 1 / (1 - raw) : raw + 1;
            case L2_NORM -> 1 / (1 + raw * raw);
        };
    }

    /** The field's mapping, with Elasticsearch's errors for a search it cannot run. */
    private static DenseVectorField field(IndexMetadata index, Query.Knn knn) {
        Optional<FieldMapping> mapping = index.mappings().field(knn.field());
        if (!(mapping.orElse(null) instanceof DenseVectorField dense)) {
            throw GatewayException.illegalArgument("[knn] queries are only supported on [dense_vector] fields, but ["
                    + knn.field() + "] is " + mapping.map(m -> "of type [" + m.type() + "]").orElse("not mapped"));
        }
        if (!dense.index()) {
            throw GatewayException.illegalArgument("to perform knn search on field [" + knn.field()
                    + "], its mapping must have [index] set to [true]");
        }
        if (knn.queryVector().length != dense.dims()) {
            throw GatewayException.illegalArgument("the query vector has a different dimension ["
                    + knn.queryVector().length + "] than the index vectors [" + dense.dims() + "]");
        }
        return dense;
    }

    /** A {@code has_id} condition of point ids, or {@link FilterTranslator.Never} when there are none. */
    static Translated hasId(java.util.Collection<String> pointIds) {
        if (pointIds.isEmpty()) {
            return new FilterTranslator.Never();
        }
        ObjectNode condition = QdrantClient.object();
        ArrayNode ids = condition.putArray("has_id");
        pointIds.forEach(ids::add);
        return new FilterTranslator.Condition(condition);
    }
}
