package io.qdrant.esgateway.adapter.out.qdrant.scoring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantCollections;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator.Translated;
import io.qdrant.esgateway.adapter.out.qdrant.filter.SupersetFilter;
import io.qdrant.esgateway.adapter.out.qdrant.read.CollectionReads;
import io.qdrant.esgateway.adapter.out.qdrant.read.QdrantKnnSearch;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.search.IndexHits;
import io.qdrant.esgateway.domain.search.SearchRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The exact-kNN fast path of a {@code script_score} query whose script is Elasticsearch's exact vector scoring,
 * {@code cosineSimilarity(params.v, 'field') + c} (or {@code c + …}, {@code c} a number literal, possibly
 * absent), on a {@code dense_vector} field stored as a Qdrant {@code Cosine} vector, with a filter-only inner query.
 * It changes the cost of the answer, never the answer: the scores are those of the gateway's exact path.
 *
 * <p>The exact path reads every candidate's whole source (its vectors as JSON) and runs the script on each. Here
 * Qdrant's exact search ({@code params.exact: true}, no quantization) ranks the candidates, and only the few that
 * can reach the page are read and scored by the exact path. Qdrant's cosine (the f32 dot product of the normalised
 * vectors, SIMD summation) and the script's (an f32 dot product divided by the f32 magnitudes) differ from the real
 * cosine by at most {@code ε = (8n + 64)·2⁻²⁴} for {@code n} dimensions (each is within about {@code (2n + 8)·2⁻²⁴}:
 * a summation of {@code n} products of terms of magnitude at most one, and the magnitudes; the bound is taken twice
 * over). With {@code S} the {@code k}-th best Qdrant score ({@code k = from + size}), every candidate whose Qdrant
 * score is at least {@code T = S − 3ε} is scored exactly; a candidate below {@code T} has a script cosine below
 * {@code T + ε}, so a final score at most {@code B = float(T + ε + c) · boost}. The page is taken from the exactly
 * scored set only when {@code B} (plus two ulps) is below the {@code k}-th exact score, which proves that no
 * candidate left out could be on the page, not even as a tie (ties are in index order on both paths); else
 * {@code T} is lowered and, after three attempts, the exact path answers. The total is Qdrant's exact count. The
 * first search asks for {@code 2k + 16} points, which usually already reach below {@code T} (then no second search);
 * when the page holds every candidate, the exact path answers (nothing to save).
 *
 * <p>The exact path's per-document failures are kept: when some candidate has no vector in the field (the script's
 * "doesn't have a value for a vector field"), or when some candidate could score below zero (ES's invalid-score
 * error; the lowest cosine is Qdrant's best score for the negated query vector), the exact path answers. Not taken
 * either: {@code min_score}, a sort, {@code search_after}, {@code post_filter}, {@code knn}, an inner query Qdrant
 * cannot filter exactly (text), other script shapes ({@code dotProduct}, {@code l1norm}, {@code l2norm}, scripts that
 * read {@code _score} or {@code doc}), fields of another similarity and a query vector of zero or non-finite
 * magnitude. A document vector whose squared magnitude overflows a float is outside the bound (ES's cosine of it is
 * not a number either).
 */
public final class VectorScriptScores {
    private static final String NUMBER = "([0-9]+(?:\\.[0-9]+)?)";
    private static final String CALL = "cosineSimilarity\\s*\\(\\s*params\\s*(?:\\.\\s*([A-Za-z_][A-Za-z0-9_]*)"
            + "|\\[\\s*'([A-Za-z_][A-Za-z0-9_]*)'\\s*\\])\\s*,\\s*(?:'([^'\\\\]+)'|\"([^\"\\\\]+)\")\\s*\\)";
    private static final Pattern SHAPE = Pattern.compile("\\s*(?:return\\s+)?(?:" + NUMBER + "\\s*\\+\\s*)?" + CALL
            + "(?:\\s*\\+\\s*" + NUMBER + ")?\\s*;?\\s*");
    /** Attempts with a lower threshold before the exact path answers. */
    private static final int ATTEMPTS = 3;
    /**
     * The fewest candidates for which the fast path is taken (besides more candidates than the page holds): none. The
     * exact path's cost is less its Qdrant reads than scoring every candidate's whole source: on the bench's exact
     * vector workload (100 candidates per request, 8 dimensions) it answered in 244 ms p50 where the fast path's five
     * to seven calls took 64 ms.
     */
    public static final int MIN_CANDIDATES = 0;

    private final CollectionReads reads;
    private final QdrantCollections collections;
    private final GatewayScoring scoring;
    private final int minCandidates;

    /** The fast path from {@code minCandidates} candidates on ({@link #MIN_CANDIDATES}; tests take it always). */
    public VectorScriptScores(CollectionReads reads, QdrantCollections collections, GatewayScoring scoring,
                              int minCandidates) {
        this.reads = reads;
        this.collections = collections;
        this.scoring = scoring;
        this.minCandidates = minCandidates;
    }

    /** A recognised script: the query vector as the script reads it, the field and the added constant. */
    record Shape(float[] vector, String field, double constant) {
    }

    /** The recognised cosine script of a {@code script_score}, if it is one (params checked as the script reads them). */
    static Optional<Shape> shape(Query.ScriptScore s) {
        if (s.source() == null) {
            return Optional.empty();
        }
        Matcher m = SHAPE.matcher(s.source());
        if (!m.matches() || m.group(1) != null && m.group(6) != null) {
            return Optional.empty();
        }
        String param = m.group(2) != null ? m.group(2) : m.group(3);
        String field = m.group(4) != null ? m.group(4) : m.group(5);
        String literal = m.group(1) != null ? m.group(1) : m.group(6);
        double constant = literal == null ? 0.0 : Double.parseDouble(literal);
        Object value = s.script().paramsForRun().get(param);
        if (!(value instanceof List<?> list) || list.isEmpty()) {
            return Optional.empty();
        }
        float[] vector = new float[list.size()];
        for (int i = 0; i < vector.length; i++) {
            if (!(list.get(i) instanceof Number n)) {
                return Optional.empty();
            }
            // as the script converts it
            vector[i] = n.floatValue();
        }
        float norm = 0;
        for (float f : vector) {
            norm += f * f;
        }
        if (!(norm > 0) || Float.isInfinite(norm)) {
            return Optional.empty();
        }
        return Optional.of(new Shape(vector, field, constant));
    }

    /** The error bound {@code ε} of either cosine for {@code n} dimensions (see the class comment). */
    static double epsilon(int n) {
        return (8.0 * n + 64) * 0x1p-24;
    }

    /**
     * The answer of the fast path, or empty when the exact path must answer (the request is not of the shape, or the
     * proof fails).
     */
    public Optional<IndexHits> search(IndexMetadata index, SearchRequest request, int topN) {
        if (!request.sort().isEmpty() || request.searchAfter().isPresent() || request.minScore().isPresent()
                || request.postFilter().isPresent() || !request.knn().isEmpty() || request.rrf().isPresent()
                || !(request.query().orElse(null) instanceof Query.ScriptScore s) || s.minScore().isPresent()
                || !(s.boost() > 0) || Float.isInfinite(s.boost())) {
            return Optional.empty();
        }
        Optional<Shape> recognised = shape(s);
        if (recognised.isEmpty() || SupersetFilter.textual(index, s.query()) || QdrantKnnSearch.hasKnn(s.query())) {
            return Optional.empty();
        }
        Shape shape = recognised.get();
        if (!(index.mappings().field(shape.field()).orElse(null) instanceof FieldMapping.DenseVectorField dense)
                || dense.similarity() != FieldMapping.Similarity.COSINE || dense.dims() != shape.vector().length
                || !collections.vectorNames(index).contains(shape.field())) {
            return Optional.empty();
        }
        Translated filter;
        try {
            filter = new FilterTranslator(index, CollectionReads.now()).query(s.query());
        } catch (GatewayException e) {
            // an inner query the filter path refuses: the exact path gives its answer or its error
            return Optional.empty();
        }
        if (filter instanceof FilterTranslator.Never) {
            return Optional.empty();
        }
        long candidates = reads.count(index, filter);
        if (candidates <= topN || candidates < minCandidates) {
            // every candidate is on the page, or so few that reading them costs less: nothing to save
            return Optional.empty();
        }
        ObjectNode hasVector = QdrantClient.object();
        hasVector.put("has_vector", shape.field());
        Translated withVector = FilterTranslator.and(List.of(filter, new FilterTranslator.Condition(hasVector)));
        if (reads.count(index, withVector) != candidates) {
            return Optional.empty();
        }
        double eps = epsilon(shape.vector().length);
        if (shape.constant() < 2.0) {
            float[] negated = new float[shape.vector().length];
            for (int i = 0; i < negated.length; i++) {
                negated[i] = -shape.vector()[i];
            }
            JsonNode lowest = query(index, negated, shape.field(), filter, 1, Optional.empty()).path("points");
            double lowestCosine = -lowest.path(0).path("score").asDouble(Double.NaN);
            if (!(lowestCosine - 2 * eps + shape.constant() > 0)) {
                return Optional.empty();
            }
        }
        IndexHits none = new IndexHits(IndexHits.Total.of(request.trackTotalHits(), candidates), List.of(), Float.NaN);
        if (topN <= 0) {
            return Optional.of(none);
        }
        // the page and some more: usually every candidate above the threshold, saving a second search
        long first = Math.min(candidates, 2L * topN + 16);
        JsonNode top = query(index, shape.vector(), shape.field(), filter, first, Optional.empty()).path("points");
        if (top.size() < topN) {
            return Optional.empty();
        }
        double kth = top.get(topN - 1).path("score").asDouble();
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            float threshold = below(kth - 3 * eps * (1L << (2 * attempt)));
            JsonNode near;
            if (top.size() == candidates || top.get(top.size() - 1).path("score").asDouble() < threshold) {
                // the first search already went below the threshold: its points at or above it are all there are
                com.fasterxml.jackson.databind.node.ArrayNode kept = QdrantClient.object().arrayNode();
                for (JsonNode point : top) {
                    if (point.path("score").asDouble() >= threshold) {
                        kept.add(point);
                    }
                }
                near = kept;
            } else {
                near = query(index, shape.vector(), shape.field(), filter, candidates, Optional.of(threshold))
                        .path("points");
            }
            List<String> ids = new ArrayList<>();
            for (JsonNode point : near) {
                JsonNode id = point.path("payload").path(QdrantLayout.ID);
                if (!id.isTextual()) {
                    return Optional.empty();
                }
                ids.add(id.asText());
            }
            if (ids.size() < topN) {
                return Optional.empty();
            }
            IndexHits scored = scoring.search(index, request, topN, List.of(new Query.Ids(ids, 1f)));
            if (scored.hits().size() < topN) {
                return Optional.empty();
            }
            float kthExact = scored.hits().get(topN - 1).score();
            double outsideCosine = Math.nextUp(threshold + eps);
            float outside = Math.nextUp(Math.nextUp((float) (outsideCosine + shape.constant()) * s.boost()));
            if (outside < kthExact) {
                return Optional.of(new IndexHits(IndexHits.Total.of(request.trackTotalHits(), candidates),
                        scored.hits(), scored.maxScore()));
            }
        }
        return Optional.empty();
    }

    /** A float threshold not above {@code value} (Qdrant reads {@code score_threshold} as an f32). */
    private static float below(double value) {
        float f = (float) value;
        return f > value ? Math.nextDown(f) : f;
    }

    /** One exact search of the field's vector over the candidates, best first, with their {@code _id}s. */
    private JsonNode query(IndexMetadata index, float[] vector, String field, Translated filter, long limit,
                           Optional<Float> threshold) {
        ObjectNode body = QdrantClient.object();
        ArrayNode q = body.putArray("query");
        for (float f : vector) {
            q.add(f);
        }
        body.put("using", field);
        body.set("filter", CollectionReads.filter(filter));
        ObjectNode params = body.putObject("params");
        params.put("exact", true);
        params.putObject("quantization").put("ignore", true);
        threshold.ifPresent(t -> body.put("score_threshold", t));
        body.put("limit", Math.max(1, Math.min(limit, Integer.MAX_VALUE)));
        body.putArray("with_payload").add(QdrantLayout.ID);
        body.put("with_vector", false);
        return reads.query(index, body);
    }
}
