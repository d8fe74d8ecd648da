package io.qdrant.esgateway.domain.query.dsl;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.Position;
import io.qdrant.esgateway.domain.query.Query;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Elasticsearch query DSL → {@link Query}. One object with exactly one key, the query type; each type has its
 * converter (term-level, compound, full-text, vector families). Query types Elasticsearch has that the gateway does
 * not implement are a 400 that says so; unknown names are ES's {@code parsing_exception} "unknown query [x]".
 */
public final class QueryDsl {
    /** ES query types the gateway rejects by name (the checklist is the ES client's list of query kinds). */
    private static final Set<String> KNOWN_UNSUPPORTED = Set.of("nested", "has_child", "has_parent", "parent_id",
            "geo_bounding_box", "geo_distance", "geo_grid", "geo_polygon", "geo_shape", "shape", "more_like_this",
            "percolate", "pinned", "rank_feature", "script", "span_containing",
            "span_field_masking", "span_first", "span_multi", "span_near", "span_not", "span_or", "span_term",
            "span_within", "terms_set", "intervals", "distance_feature", "combined_fields", "match_bool_prefix",
            "sparse_vector", "text_expansion", "weighted_tokens", "semantic", "rule", "type");

    /**
     * Elasticsearch's {@code indices.query.bool.max_nested_depth}: a query may hold queries at most this deep (the
     * query itself is the first level).
     */
    public static final int MAX_NESTED_DEPTH = 30;
    private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);

    private QueryDsl() {
    }

    /** One query; its inner queries are parsed by the same method, at most {@link #MAX_NESTED_DEPTH} deep. */
    public static Query parse(JsonValue json) {
        int[] depth = DEPTH.get();
        if (depth[0] >= MAX_NESTED_DEPTH) {
            GatewayException cause = GatewayException.illegalArgument("The nested depth of the query exceeds the"
                    + " maximum nested depth for queries set in [indices.query.bool.max_nested_depth]");
            throw new GatewayException(io.qdrant.esgateway.domain.error.ErrorKind.X_CONTENT_PARSE, cause.reason(),
                    Map.of(), cause);
        }
        depth[0]++;
        try {
            return parseOne(json);
        } finally {
            depth[0]--;
        }
    }

    private static Query parseOne(JsonValue json) {
        if (!(json instanceof JsonObject object)) {
            throw DslObject.parsing("query malformed, must start with start_object");
        }
        if (object.members().isEmpty()) {
            long end = object.end();
            throw GatewayException.illegalArgument("query malformed, empty clause found" + (end == 0 ? ""
                    : " at [" + Position.line(end) + ":" + Position.column(end) + "]"));
        }
        if (object.members().size() > 1) {
            List<String> keys = new ArrayList<>(object.members().keySet());
            throw GatewayException.parsingAt("[" + keys.get(0) + "] malformed query, expected [END_OBJECT] but found "
                    + "[FIELD_NAME]", object.keyAt(keys.get(1)));
        }
        Map.Entry<String, JsonValue> only = object.members().entrySet().iterator().next();
        String type = only.getKey();
        JsonValue body = only.getValue();
        return switch (type) {
            case "match_all" -> CompoundQueries.matchAll(body);
            case "match_none" -> CompoundQueries.matchNone(body);
            case "bool" -> CompoundQueries.bool(body);
            case "constant_score" -> CompoundQueries.constantScore(body);
            case "boosting" -> CompoundQueries.boosting(body);
            case "dis_max" -> CompoundQueries.disMax(body);
            case "term" -> TermLevelQueries.term(body);
            case "terms" -> TermLevelQueries.terms(body);
            case "range" -> TermLevelQueries.range(body);
            case "exists" -> TermLevelQueries.exists(body);
            case "ids" -> TermLevelQueries.ids(body);
            case "prefix" -> TermLevelQueries.prefix(body);
            case "wildcard" -> TermLevelQueries.wildcard(body);
            case "regexp" -> TermLevelQueries.regexp(body);
            case "fuzzy" -> TermLevelQueries.fuzzy(body);
            case "match" -> FullTextQueries.match(body);
            case "match_phrase" -> FullTextQueries.matchPhrase(body);
            case "match_phrase_prefix" -> FullTextQueries.matchPhrasePrefix(body);
            case "multi_match" -> FullTextQueries.multiMatch(body);
            case "query_string" -> FullTextQueries.queryString(body, false);
            case "simple_query_string" -> FullTextQueries.queryString(body, true);
            case "knn" -> VectorQueries.knn(body);
            case "script_score" -> ScriptQueries.scriptScore(body);
            case "wrapper" -> WrapperQueries.wrapper(body);
            case "function_score" -> FunctionScoreQueries.functionScore(body);
            default -> throw KNOWN_UNSUPPORTED.contains(type)
                    ? GatewayException.unsupported("the [" + type + "] query")
                    : unknownQuery(type, body.at());
        };
    }

    /**
     * Elasticsearch's "unknown query [x]" at the query's body, caused by its registry's
     * {@code named_object_not_found_exception}.
     */
    private static GatewayException unknownQuery(String type, long at) {
        GatewayException cause = GatewayException.javaException("named_object_not_found_exception",
                Position.prefix(at) + "unknown field [" + type + "]");
        GatewayException parsing = GatewayException.parsingAt("unknown query [" + type + "]", at);
        return new GatewayException(ErrorKind.PARSING, parsing.reason(), parsing.metadata(), cause);
    }

    static List<Query> parseAll(List<JsonValue> clauses) {
        List<Query> out = new ArrayList<>();
        for (JsonValue clause : clauses) {
            out.add(parse(clause));
        }
        return out;
    }
}
