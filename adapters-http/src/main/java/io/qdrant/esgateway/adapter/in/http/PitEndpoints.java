package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.application.port.in.PointInTimeOperations;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Point in time: {@code POST /{index}/_pit?keep_alive=} opens one, {@code DELETE /_pit} closes it; searches name it
 * with {@code pit} in the body of {@code _search} (without an index in the path).
 *
 * <pre>
 * curl -XPOST 'localhost:9200/books/_pit?keep_alive=1m'
 * curl -XPOST localhost:9200/_search -H 'Content-Type: application/json' \
 *      -d '{"pit":{"id":"…","keep_alive":"1m"},"sort":[{"year":"asc"}],"size":100}'
 * curl -XDELETE localhost:9200/_pit -H 'Content-Type: application/json' -d '{"id":"…"}'
 * </pre>
 */
final class PitEndpoints {
    private final PointInTimeOperations pits;

    PitEndpoints(PointInTimeOperations pits) {
        this.pits = pits;
    }

    void register(Router router) {
        router.add(route("POST", "/{index}/_pit", "open_point_in_time", Routes.INDEX_OPTIONS + ",keep_alive,"
                        + "preference,routing,max_concurrent_shard_requests,allow_partial_search_results", true,
                        this::open))
                .add(route("DELETE", "/_pit", "close_point_in_time", "", true, this::close));
    }

    private EsResponse open(EsRequest request) {
        Optional<String> keepAlive = request.param("keep_alive");
        if (keepAlive.isEmpty()) {
            throw GatewayException.validationFailed(List.of("[keep_alive] is not specified"));
        }
        Duration duration = ScrollEndpoints.keepAlive(keepAlive.get(), "keep_alive");
        request.param("routing").ifPresent(r -> {
            throw GatewayException.unsupported("[routing] (one shard per index)");
        });
        if (request.body().isPresent()) {
            JsonObject body = JsonReads.object(request.body().get(), GatewayException::parse, "request body");
            for (String key : body.members().keySet()) {
                throw GatewayException.unsupported("[" + key + "] in the body of _pit");
            }
        }
        String id = pits.open(request.pathParam("index"), duration, Routes.indexOptions(request, true));
        ContextOwners.opened(id, duration);
        return EsResponse.ok(JsonObjectBuilder.object().put("id", id).build());
    }

    private EsResponse close(EsRequest request) {
        if (request.body().isEmpty()) {
            throw GatewayException.parse("request body or source parameter is required");
        }
        JsonObject body = JsonReads.object(request.body().get(), GatewayException::parse, "request body");
        Optional<String> id = Optional.empty();
        for (Map.Entry<String, JsonValue> e : body.members().entrySet()) {
            if (!e.getKey().equals("id") || !(e.getValue() instanceof JsonValue.JsonString s)) {
                throw new GatewayException(ErrorKind.X_CONTENT_PARSE, "[1:2] [close_point_in_time] unknown field ["
                        + e.getKey() + "]");
            }
            id = Optional.of(s.value());
        }
        if (id.isEmpty()) {
            throw GatewayException.illegalArgument("search context id is is not provided");
        }
        // another user's point in time is not freed
        boolean own = ContextOwners.mayUse(id.get());
        int freed = own ? pits.close(id.get()) : 0;
        if (own) {
            ContextOwners.closed(id.get());
        }
        return EsResponse.json(freed > 0 ? 200 : 404, JsonObjectBuilder.object().put("succeeded", freed > 0)
                .put("num_freed", freed).build());
    }

    /**
     * A {@code _search} whose body names a point in time: {@code pit} read and taken out of the body, ES's checks
     * of what cannot go with it; the id, its renewal and the rest of the body.
     */
    record PitSearch(String id, Optional<Duration> keepAlive, Optional<JsonValue> body) {
    }

    /** The point in time of a search body, if it names one. */
    static Optional<PitSearch> of(EsRequest request) {
        if (request.body().isEmpty() || !(request.body().get() instanceof JsonObject body)
                || !body.members().containsKey("pit")) {
            return Optional.empty();
        }
        List<String> problems = new java.util.ArrayList<>();
        if (request.optionalPathParam("index").isPresent()) {
            problems.add("[indices] cannot be used with point in time. Do not specify any index with point in time.");
        }
        if (request.param("ignore_unavailable").isPresent() || request.param("allow_no_indices").isPresent()
                || request.param("expand_wildcards").isPresent()) {
            problems.add("[indicesOptions] cannot be used with point in time");
        }
        if (request.param("scroll").isPresent()) {
            problems.add("using [point in time] is not allowed in a scroll context");
        }
        if (!problems.isEmpty()) {
            throw GatewayException.validationFailed(problems);
        }
        if (!(body.members().get("pit") instanceof JsonObject pit)) {
            throw new GatewayException(ErrorKind.X_CONTENT_PARSE, "[pit] point_in_time doesn't support values of type: "
                    + body.members().get("pit").tokenName());
        }
        Optional<String> id = Optional.empty();
        Optional<Duration> keepAlive = Optional.empty();
        for (Map.Entry<String, JsonValue> e : pit.members().entrySet()) {
            switch (e.getKey()) {
                case "id" -> id = Optional.of(JsonReads.text(e.getValue()).orElseThrow(() -> new GatewayException(
                        ErrorKind.X_CONTENT_PARSE, "[pit] failed to parse field [id]")));
                case "keep_alive" -> {
                    String text = JsonReads.text(e.getValue()).orElseThrow(() -> new GatewayException(
                            ErrorKind.X_CONTENT_PARSE, "[pit] failed to parse field [keep_alive]"));
                    try {
                        keepAlive = Optional.of(ScrollEndpoints.keepAlive(text, "keep_alive"));
                    } catch (GatewayException bad) {
                        throw new GatewayException(ErrorKind.X_CONTENT_PARSE, "[pit] failed to parse field [keep_alive]");
                    }
                }
                default -> throw new GatewayException(ErrorKind.X_CONTENT_PARSE, "[pit] unknown field [" + e.getKey()
                        + "]");
            }
        }
        if (id.isEmpty()) {
            throw GatewayException.illegalArgument("point in time id is not provided");
        }
        Map<String, JsonValue> rest = new java.util.LinkedHashMap<>(body.members());
        rest.remove("pit");
        return Optional.of(new PitSearch(id.get(), keepAlive, Optional.of(new JsonObject(rest))));
    }
}
