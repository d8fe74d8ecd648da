package io.qdrant.esgateway.domain.search;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.query.dsl.QueryDsl;
import io.qdrant.esgateway.domain.query.dsl.VectorQueries;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code retriever} section ({@code standard}, {@code knn}, {@code rrf}) and {@code rank: {rrf: …}} of a search
 * body, in Elasticsearch 8.15's shapes. A lone {@code standard} or {@code knn} retriever is the same search as the
 * body's {@code query} or {@code knn}; {@code rrf} becomes an {@link Rrf}.
 */
final class RrfParser {
    private RrfParser() {
    }

    /** What a {@code retriever} section means for the request. */
    sealed interface Parsed {
        record AsQuery(Optional<Query> query) implements Parsed {
        }

        record AsKnn(Query.Knn knn) implements Parsed {
        }

        record Fusion(Rrf rrf) implements Parsed {
        }
    }

    static Parsed retriever(JsonValue value, int size) {
        JsonObject o = object(value, "retriever");
        if (o.members().size() != 1) {
            throw parsing("[retriever] must hold exactly one retriever, found " + o.members().keySet());
        }
        Map.Entry<String, JsonValue> only = o.members().entrySet().iterator().next();
        return switch (only.getKey()) {
            case "standard" -> {
                Rrf.Retriever.Standard s = standard(only.getValue());
                yield new Parsed.AsQuery(withFilters(s.query(), s.filter()));
            }
            case "knn" -> new Parsed.AsKnn(knn(only.getValue(), size));
            case "rrf" -> new Parsed.Fusion(rrf(only.getValue(), size));
            default -> throw GatewayException.unsupported("the [" + only.getKey() + "] retriever");
        };
    }

    /** {@code rank: {rrf: {rank_window_size, rank_constant}}} over the body's query and kNN sections. */
    static Rrf rank(JsonValue value, Optional<Query> query, List<Query.Knn> knn, int size) {
        JsonObject o = object(value, "rank");
        int window = size;
        int constant = Rrf.DEFAULT_RANK_CONSTANT;
        for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
            if (!e.getKey().equals("rrf")) {
                throw parsing("unknown rank type [" + e.getKey() + "]");
            }
            for (Map.Entry<String, JsonValue> p : object(e.getValue(), "rrf").members().entrySet()) {
                switch (p.getKey()) {
                    case "rank_window_size", "window_size" -> window = integer(p.getKey(), p.getValue());
                    case "rank_constant" -> constant = integer("rank_constant", p.getValue());
                    default -> throw parsing("[rrf] unknown field [" + p.getKey() + "]");
                }
            }
        }
        List<Rrf.Retriever> lists = new ArrayList<>();
        query.ifPresent(q -> lists.add(new Rrf.Retriever.Standard(Optional.of(q), List.of())));
        knn.forEach(k -> lists.add(new Rrf.Retriever.Knn(k)));
        if (lists.size() < 2) {
            throw new GatewayException(ErrorKind.ACTION_REQUEST_VALIDATION, "Validation Failed: 1: [rank] requires a minimum of [2]"
                    + " result sets using a combination of sub searches, query, and/or knn;");
        }
        return check(new Rrf(lists, window, constant, List.of()), size);
    }

    private static Rrf rrf(JsonValue value, int size) {
        List<Rrf.Retriever> lists = new ArrayList<>();
        int window = size;
        int constant = Rrf.DEFAULT_RANK_CONSTANT;
        List<Query> filter = List.of();
        for (Map.Entry<String, JsonValue> e : object(value, "rrf").members().entrySet()) {
            switch (e.getKey()) {
                case "retrievers" -> {
                    if (!(e.getValue() instanceof JsonArray a)) {
                        throw parsing("[rrf] retrievers must be an array");
                    }
                    for (JsonValue child : a.elements()) {
                        JsonObject c = object(child, "retriever");
                        if (c.members().size() != 1) {
                            throw parsing("[rrf] each retriever must hold exactly one retriever");
                        }
                        Map.Entry<String, JsonValue> only = c.members().entrySet().iterator().next();
                        lists.add(switch (only.getKey()) {
                            case "standard" -> standard(only.getValue());
                            case "knn" -> new Rrf.Retriever.Knn(knn(only.getValue(), size));
                            default -> throw GatewayException.unsupported("the [" + only.getKey()
                                    + "] retriever inside [rrf]");
                        });
                    }
                }
                case "rank_window_size", "window_size" -> window = integer(e.getKey(), e.getValue());
                case "rank_constant" -> constant = integer("rank_constant", e.getValue());
                case "filter" -> filter = queries(e.getValue());
                default -> throw parsing("[rrf] unknown field [" + e.getKey() + "]");
            }
        }
        if (lists.size() < 2) {
            throw illegal("[rrf] requires at least 2 retrievers, found [" + lists.size() + "]");
        }
        return check(new Rrf(lists, window, constant, filter), size);
    }

    private static Rrf check(Rrf rrf, int size) {
        if (rrf.rankConstant() < 1) {
            throw illegal("[rank_constant] must be greater or equal to [1] for [rrf]");
        }
        if (rrf.rankWindowSize() < 1) {
            throw illegal("[rank_window_size] must be greater or equal to [1] for [rrf]");
        }
        if (rrf.rankWindowSize() < size) {
            throw new GatewayException(ErrorKind.ACTION_REQUEST_VALIDATION, "Validation Failed: 1: [rank] requires [rank_window_size:"
                    + " " + rrf.rankWindowSize() + "] be greater than or equal to [size: " + size + "];");
        }
        return rrf;
    }

    private static Rrf.Retriever.Standard standard(JsonValue value) {
        Optional<Query> query = Optional.empty();
        List<Query> filter = List.of();
        for (Map.Entry<String, JsonValue> e : object(value, "standard").members().entrySet()) {
            switch (e.getKey()) {
                case "query" -> query = Optional.of(QueryDsl.parse(e.getValue()));
                case "filter" -> filter = queries(e.getValue());
                case "search_after", "terminate_after", "sort", "min_score", "collapse" ->
                        throw GatewayException.unsupported("[" + e.getKey() + "] in a [standard] retriever");
                default -> throw parsing("[standard] unknown field [" + e.getKey() + "]");
            }
        }
        return new Rrf.Retriever.Standard(query, filter);
    }

    private static Query.Knn knn(JsonValue value, int size) {
        return VectorQueries.knn(value, Optional.of(size));
    }

    private static List<Query> queries(JsonValue v) {
        List<Query> out = new ArrayList<>();
        for (JsonValue q : v instanceof JsonArray a ? a.elements() : List.of(v)) {
            out.add(QueryDsl.parse(q));
        }
        return out;
    }

    /** A query with non-scoring filters (a bool with the query as {@code must}). */
    static Optional<Query> withFilters(Optional<Query> query, List<Query> filter) {
        if (filter.isEmpty()) {
            return query;
        }
        return Optional.of(new Query.Bool(query.map(List::of).orElse(List.of()), filter, List.of(), List.of(),
                new io.qdrant.esgateway.domain.query.MinimumShouldMatch.Unspecified(), 1f));
    }

    private static int integer(String key, JsonValue v) {
        long n = JsonReads.integer(v).orElseThrow(() -> parsing("[" + key + "] must be an integer"));
        if (n > Integer.MAX_VALUE || n < Integer.MIN_VALUE) {
            throw parsing("[" + key + "] is out of range");
        }
        return (int) n;
    }

    private static JsonObject object(JsonValue v, String what) {
        return JsonReads.object(v, RrfParser::parsing, what);
    }

    private static GatewayException parsing(String reason) {
        return new GatewayException(ErrorKind.PARSING, reason);
    }

    private static GatewayException illegal(String reason) {
        return GatewayException.illegalArgument(reason);
    }
}
