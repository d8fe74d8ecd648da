package io.qdrant.esgateway.domain.query.dsl;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.query.Query;
import java.util.List;
import java.util.Optional;

/**
 * {@code knn} in ES 8.15's shape, both as the top-level search section and as a query: {@code field},
 * {@code query_vector}, {@code k} (top level; as a query it defaults to the search's size), {@code num_candidates}
 * (default {@code max(1.5 * k, 10)} capped at 10,000 as ES), {@code filter}, {@code similarity}, {@code boost}.
 * {@code query_vector_builder} (a model-generated vector) is rejected.
 */
public final class VectorQueries {
    public static final int MAX_CANDIDATES = 10_000;

    private VectorQueries() {
    }

    static Query knn(JsonValue body) {
        return knn(body, Optional.empty());
    }

    /** Parses a knn object; {@code defaultK} is used when the object has no {@code k} (the query form). */
    public static Query.Knn knn(JsonValue body, Optional<Integer> defaultK) {
        DslObject o = new DslObject("knn", body);
        String field = o.string("field").orElseThrow(() -> DslObject.parsing("[knn] requires [field]"));
        if (o.take("query_vector_builder").isPresent()) {
            throw GatewayException.unsupported("[knn] [query_vector_builder]");
        }
        JsonValue vector = o.take("query_vector").orElseThrow(() -> DslObject.parsing(
                "[knn] requires [query_vector]"));
        if (!(vector instanceof JsonArray array) || array.elements().isEmpty()) {
            throw DslObject.parsing("[knn] [query_vector] must be a non-empty array of numbers");
        }
        float[] values = new float[array.elements().size()];
        List<JsonValue> elements = array.elements();
        for (int i = 0; i < values.length; i++) {
            if (!(elements.get(i) instanceof JsonNumber n)) {
                throw DslObject.parsing("[knn] [query_vector] must be a non-empty array of numbers");
            }
            values[i] = n.value().floatValue();
        }
        Optional<Integer> k = o.intValue("k").or(() -> defaultK);
        Optional<Integer> candidates = o.intValue("num_candidates");
        int kValue = k.orElse(10);
        if (kValue < 1) {
            throw GatewayException.illegalArgument("[k] must be greater than 0");
        }
        int numCandidates = candidates.orElse(Math.min(Math.max((int) Math.ceil(1.5 * kValue), 10), MAX_CANDIDATES));
        if (numCandidates < kValue) {
            throw GatewayException.illegalArgument("[num_candidates] cannot be less than [k]");
        }
        if (numCandidates > MAX_CANDIDATES) {
            throw GatewayException.illegalArgument("[num_candidates] cannot exceed [" + MAX_CANDIDATES + "]");
        }
        List<Query> filter = QueryDsl.parseAll(o.oneOrMany("filter"));
        Optional<Float> similarity = o.floatValue("similarity");
        float boost = o.boost();
        if (o.take("inner_hits").isPresent()) {
            throw GatewayException.unsupported("[knn] [inner_hits]");
        }
        o.done();
        return new Query.Knn(field, values, kValue, numCandidates, filter, similarity, boost);
    }
}
