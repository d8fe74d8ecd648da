package io.qdrant.esgateway.adapter.out.qdrant.scoring;

import io.qdrant.esgateway.domain.query.Query;
import java.util.Optional;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator;

/**
 * The relevance score of queries whose every match scores the same, as Elasticsearch computes it: {@code match_all},
 * {@code constant_score} and the constant-score term-level queries ({@code terms}, {@code range}, {@code exists},
 * {@code ids}, {@code prefix}) score their boost; a {@code bool} scores the sum of its {@code must} clauses (its
 * {@code filter} and {@code must_not} clauses score nothing), times its boost. Boosts multiply down the tree and the
 * sum is taken in double and rounded to float, as Lucene's conjunction scorer does.
 *
 * <p>Any query whose score varies between matches (BM25 of a {@code term} or full-text query, kNN, a {@code bool}
 * with {@code should} clauses, which add to some matches only) is not constant: it throws a 400 naming it, which
 * {@link GatewayScoring#needed} takes as "score in the gateway" (and which a store without a scorer returns).
 */
public final class ConstantScores {
    private ConstantScores() {
    }

    /** The score of every match of {@code query} (match-all when absent). */
    public static float of(Optional<Query> query) {
        return query.map(q -> (float) score(q, 1f)).orElse(1f);
    }

    private static double score(Query q, float parentBoost) {
        return switch (q) {
            case Query.MatchAll m -> m.boost() * parentBoost;
            case Query.ConstantScore c -> c.boost() * parentBoost;
            case Query.Terms t -> t.boost() * parentBoost;
            case Query.Range r -> r.boost() * parentBoost;
            case Query.Exists e -> e.boost() * parentBoost;
            case Query.Ids i -> i.boost() * parentBoost;
            case Query.Prefix p -> p.boost() * parentBoost;
            case Query.MatchNone m -> 0;
            case Query.Bool b -> {
                if (!b.should().isEmpty()) {
                    throw scored("a [bool] query with [should] clauses");
                }
                if (b.must().isEmpty()) {
                    if (b.filter().isEmpty()) {
                        throw scored("a [bool] query with only [must_not] clauses");
                    }
                    yield 0;
                }
                float boost = b.boost() * parentBoost;
                double sum = 0;
                for (Query must : b.must()) {
                    sum += (float) score(must, boost);
                }
                yield sum;
            }
            case Query.Term t -> throw scored("the [term] query (use it in a filter or [constant_score])");
            case Query.Wildcard w -> throw scored("the [wildcard] query");
            case Query.Regexp r -> throw scored("the [regexp] query");
            case Query.Fuzzy f -> throw scored("the [fuzzy] query");
            case Query.Match m -> throw scored("the [match] query");
            case Query.MatchPhrase m -> throw scored("the [match_phrase] query");
            case Query.MatchPhrasePrefix m -> throw scored("the [match_phrase_prefix] query");
            case Query.MultiMatch m -> throw scored("the [multi_match] query");
            case Query.QueryString s -> throw scored("the [query_string] query");
            case Query.Knn k -> throw scored("the [knn] query");
            case Query.Boosting b -> throw scored("the [boosting] query");
            case Query.DisMax d -> throw scored("the [dis_max] query");
            case Query.ScriptScore s -> throw scored("the [script_score] query");
            case Query.FunctionScore f -> throw scored("the [function_score] query");
        };
    }

    private static RuntimeException scored(String what) {
        return FilterTranslator.unsupported("relevance scoring of " + what);
    }
}
