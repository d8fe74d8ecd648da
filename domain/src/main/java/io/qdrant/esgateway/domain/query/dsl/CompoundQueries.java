package io.qdrant.esgateway.domain.query.dsl;

import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.query.MinimumShouldMatch;
import io.qdrant.esgateway.domain.query.Query;
import java.util.List;

/** {@code match_all}, {@code match_none}, {@code bool}, {@code constant_score}, {@code boosting}, {@code dis_max}. */
final class CompoundQueries {
    private CompoundQueries() {
    }

    static Query matchAll(JsonValue body) {
        DslObject o = new DslObject("match_all", body);
        float boost = o.boost();
        o.done();
        return new Query.MatchAll(boost);
    }

    static Query matchNone(JsonValue body) {
        DslObject o = new DslObject("match_none", body);
        float boost = o.boost();
        o.done();
        return new Query.MatchNone(boost);
    }

    /**
     * {@code bool}. Clause lists may be one query or an array. {@code adjust_pure_negative} is accepted with its
     * default ({@code true}) only: the gateway always treats a pure-negative bool as "everything except".
     */
    static Query bool(JsonValue body) {
        DslObject o = new DslObject("bool", body);
        List<Query> must = QueryDsl.parseAll(o.oneOrMany("must"));
        List<Query> filter = QueryDsl.parseAll(o.oneOrMany("filter"));
        List<Query> should = QueryDsl.parseAll(o.oneOrMany("should"));
        List<Query> mustNot = QueryDsl.parseAll(o.oneOrMany("must_not"));
        MinimumShouldMatch msm = o.take("minimum_should_match").map(MinimumShouldMatch::parse)
                .orElse(MinimumShouldMatch.UNSPECIFIED);
        o.bool("adjust_pure_negative").filter(b -> !b).ifPresent(b -> {
            throw io.qdrant.esgateway.domain.error.GatewayException.unsupported("[bool] [adjust_pure_negative: false]");
        });
        float boost = o.boost();
        o.done();
        return new Query.Bool(must, filter, should, mustNot, msm, boost);
    }

    static Query constantScore(JsonValue body) {
        DslObject o = new DslObject("constant_score", body);
        Query filter = QueryDsl.parse(o.take("filter").orElseThrow(
                () -> DslObject.parsing("[constant_score] requires a 'filter' element")));
        float boost = o.boost();
        o.done();
        return new Query.ConstantScore(filter, boost);
    }

    static Query boosting(JsonValue body) {
        DslObject o = new DslObject("boosting", body);
        Query positive = QueryDsl.parse(o.take("positive").orElseThrow(
                () -> DslObject.parsing("[boosting] query requires 'positive' query")));
        Query negative = QueryDsl.parse(o.take("negative").orElseThrow(
                () -> DslObject.parsing("[boosting] query requires 'negative' query")));
        float negativeBoost = o.floatValue("negative_boost").orElseThrow(
                () -> DslObject.parsing("[boosting] query requires 'negative_boost' to be set to be a positive value'"));
        if (negativeBoost < 0) {
            throw DslObject.parsing("[boosting] query requires 'negative_boost' to be set to be a positive value'");
        }
        float boost = o.boost();
        o.done();
        return new Query.Boosting(positive, negative, negativeBoost, boost);
    }

    static Query disMax(JsonValue body) {
        DslObject o = new DslObject("dis_max", body);
        List<Query> queries = QueryDsl.parseAll(o.oneOrMany("queries"));
        if (queries.isEmpty()) {
            throw DslObject.parsing("[dis_max] requires 'queries' field with at least one clause");
        }
        float tie = o.floatValue("tie_breaker").orElse(0.0f);
        float boost = o.boost();
        o.done();
        return new Query.DisMax(queries, tie, boost);
    }
}
