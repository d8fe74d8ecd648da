package io.qdrant.esgateway.adapter.out.qdrant.scoring;

import io.qdrant.esgateway.domain.query.MinimumShouldMatch;
import io.qdrant.esgateway.domain.query.Query;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import io.qdrant.esgateway.adapter.out.qdrant.read.QdrantKnn;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator;

/**
 * Per-document relevance scores of a search with kNN parts, as Elasticsearch (Lucene) computes them, once every kNN
 * search has run ({@link QdrantKnn.Neighbours}):
 * <ul>
 *   <li>a {@code knn} query scores its similarity score times its boost and the boosts above it (Lucene multiplies
 *       the boosts down the tree first, then the score, in float);</li>
 *   <li>a {@code bool} with {@code knn} among its {@code must} or {@code should} clauses scores the sum of its
 *       {@code must} clauses (in double, rounded to float, as Lucene's conjunction) plus the sum of its
 *       {@code should} clauses that match (Lucene's required-plus-optional sum) — {@code should} clauses must then
 *       all be {@code knn} queries, whose matching is known (the neighbours); its {@code filter}/{@code must_not}
 *       clauses score nothing, and may hold {@code knn} queries (which then only restrict the matches);</li>
 *   <li>everything without a scoring {@code knn} scores as {@link ConstantScores} says (and is refused where that
 *       is not a constant: BM25, {@code should} clauses, …);</li>
 *   <li>the request: the query's score when the document matches it, plus each top-level knn section's score times
 *       its boost when the document is among its neighbours (Lucene's disjunction: summed in double, rounded to
 *       float).</li>
 * </ul>
 */
public final class KnnScores {
    private final Map<Query.Knn, QdrantKnn.Neighbours> neighbours;

    public KnnScores(Map<Query.Knn, QdrantKnn.Neighbours> neighbours) {
        this.neighbours = neighbours;
    }

    /**
     * The score of a document: {@code query} counts when {@code matchesQuery} (it is then present and the document
     * matches it); each section counts when the document is among its neighbours.
     */
    public float score(String pointId, Optional<Query> query, boolean matchesQuery, List<Query.Knn> sections) {
        double sum = 0;
        if (matchesQuery) {
            sum += query(query.orElseThrow(), pointId);
        }
        for (Query.Knn section : sections) {
            Float s = neighbours.get(section).scores().get(pointId);
            if (s != null) {
                sum += s * section.boost();
            }
        }
        return (float) sum;
    }

    /** The score of a document that matches {@code query}. */
    public float query(Query query, String pointId) {
        return (float) score(query, 1f, pointId);
    }

    /** Whether the score of {@code query} depends on a kNN search. */
    static boolean scoresKnn(Query query) {
        return switch (query) {
            case Query.Knn k -> true;
            case Query.Bool b -> b.must().stream().anyMatch(KnnScores::scoresKnn)
                    || b.should().stream().anyMatch(KnnScores::scoresKnn);
            case Query.DisMax d -> d.queries().stream().anyMatch(KnnScores::scoresKnn);
            case Query.Boosting b -> scoresKnn(b.positive()) || scoresKnn(b.negative());
            default -> false;
        };
    }

    /**
     * Whether every match of {@code query} is a neighbour of one of its {@code knn} queries: a {@code knn} query,
     * or a {@code bool}/{@code constant_score} that requires one ({@code must}/{@code filter}).
     */
    public static boolean onlyNeighboursMatch(Query query) {
        return switch (query) {
            case Query.Knn k -> true;
            case Query.Bool b -> b.must().stream().anyMatch(KnnScores::onlyNeighboursMatch)
                    || b.filter().stream().anyMatch(KnnScores::onlyNeighboursMatch);
            case Query.ConstantScore c -> onlyNeighboursMatch(c.filter());
            default -> false;
        };
    }

    private double score(Query q, float parentBoost, String pointId) {
        if (!scoresKnn(q)) {
            // a constant: ConstantScores of a bool whose only must clause is q and whose boost is the parent's
            try {
                return ConstantScores.of(Optional.of(new Query.Bool(List.of(q), List.of(), List.of(), List.of(),
                        new MinimumShouldMatch.Unspecified(), parentBoost)));
            } catch (io.qdrant.esgateway.domain.error.GatewayException e) {
                // scored per document (BM25, full text): the gateway's text scoring is not combined with kNN yet
                throw FilterTranslator.unsupported("a query scored per document together with [knn] ("
                        + e.getMessage() + ")");
            }
        }
        return switch (q) {
            case Query.Knn k -> {
                Float s = neighbours.get(k).scores().get(pointId);
                if (s == null) {
                    throw new IllegalStateException("document " + pointId + " matched a knn query it is not a"
                            + " neighbour of");
                }
                yield s * (k.boost() * parentBoost);
            }
            case Query.Bool b -> {
                float boost = b.boost() * parentBoost;
                double required = 0;
                for (Query must : b.must()) {
                    required += (float) score(must, boost, pointId);
                }
                if (b.should().isEmpty()) {
                    yield required;
                }
                // Lucene's ReqOptSumScorer: the required sum plus the sum of the optional clauses that match
                double optional = 0;
                for (Query should : b.should()) {
                    if (!(should instanceof Query.Knn k)) {
                        throw FilterTranslator.unsupported("relevance scoring of a [bool] query with [should] clauses"
                                + " other than [knn] queries next to a [knn] query");
                    }
                    Float s = neighbours.get(k).scores().get(pointId);
                    if (s != null) {
                        optional += s * (k.boost() * boost);
                    }
                }
                yield (double) (float) required + (float) optional;
            }
            case Query.DisMax d -> throw FilterTranslator.unsupported("relevance scoring of a [dis_max] query with"
                    + " a [knn] query");
            case Query.Boosting b -> throw FilterTranslator.unsupported("relevance scoring of a [boosting] query with"
                    + " a [knn] query");
            default -> throw new IllegalStateException("not a scoring knn: " + q);
        };
    }
}
