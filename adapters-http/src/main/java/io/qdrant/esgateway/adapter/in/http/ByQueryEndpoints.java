package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.application.port.in.ByQueryOperations;
import io.qdrant.esgateway.application.port.in.ByQueryOperations.ByQueryRequest;
import io.qdrant.esgateway.application.port.in.ByQueryOperations.ByQueryResult;
import io.qdrant.esgateway.application.port.in.TaskControl;
import io.qdrant.esgateway.application.port.in.TaskOperations;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.query.dsl.QueryDsl;
import io.qdrant.esgateway.domain.script.Script;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code _delete_by_query} and {@code _update_by_query} (with or without a script), answered with Elasticsearch's
 * {@code BulkByScrollResponse}.
 *
 * <pre>
 * curl -XPOST 'localhost:9200/books/_delete_by_query?conflicts=proceed' -H 'Content-Type: application/json' \
 *      -d '{"query":{"term":{"tag":"old"}}}'
 * </pre>
 */
final class ByQueryEndpoints {
    private static final String QUERY_PARAMS = "q,df,default_operator,lenient,analyzer,analyze_wildcard";
    private static final String PARAMS = QUERY_PARAMS + "," + Routes.INDEX_OPTIONS + ",conflicts,max_docs,"
            + "scroll_size,slices,refresh,wait_for_completion,requests_per_second,timeout,wait_for_active_shards,"
            + "scroll,search_timeout,preference,request_cache,stats,routing";
    /** {@code _update_by_query} also takes {@code pipeline} and {@code version_type} (refused when given). */
    private static final String UPDATE_PARAMS = PARAMS + ",pipeline,version_type";

    private final ByQueryOperations byQuery;
    private final TaskOperations tasks;

    ByQueryEndpoints(ByQueryOperations byQuery, TaskOperations tasks) {
        this.byQuery = byQuery;
        this.tasks = tasks;
    }

    void register(Router router) {
        router.add(route("POST", "/{index}/_delete_by_query", "delete_by_query", PARAMS, true, this::delete))
                .add(route("POST", "/{index}/_update_by_query", "update_by_query", UPDATE_PARAMS, true,
                        this::update));
    }

    private EsResponse delete(EsRequest request) {
        long start = System.nanoTime();
        Parsed parsed = parse(request, true);
        String target = request.pathParam("index");
        CatalogView.Options options = Routes.indexOptions(request, true);
        TaskControl control = new TaskControl(parsed.requestsPerSecond());
        if (!request.flag("wait_for_completion", true)) {
            return submit("indices:data/write/delete/byquery", "delete-by-query [" + target + "]", control,
                    () -> BulkByScrollBody.Counters.of(byQuery.deleteByQuery(target, parsed.request(), options,
                            control), false, control));
        }
        ByQueryResult result = byQuery.deleteByQuery(target, parsed.request(), options, control);
        return render(result, false, control, start);
    }

    private EsResponse update(EsRequest request) {
        long start = System.nanoTime();
        request.param("pipeline").ifPresent(p -> {
            throw GatewayException.unsupported("[pipeline] (ingest pipelines)");
        });
        request.param("version_type").ifPresent(v -> {
            throw GatewayException.unsupported("[version_type] on _update_by_query");
        });
        Parsed parsed = parse(request, false);
        String target = request.pathParam("index");
        CatalogView.Options options = Routes.indexOptions(request, true);
        TaskControl control = new TaskControl(parsed.requestsPerSecond());
        if (!request.flag("wait_for_completion", true)) {
            return submit("indices:data/write/update/byquery", "update-by-query [" + target + "]", control,
                    () -> BulkByScrollBody.Counters.of(byQuery.updateByQuery(target, parsed.request(), options,
                            control), true, control));
        }
        ByQueryResult result = byQuery.updateByQuery(target, parsed.request(), options, control);
        return render(result, true, control, start);
    }

    /** {@code wait_for_completion=false}: the operation as a task, answered with its id. */
    private EsResponse submit(String action, String description, TaskControl control,
                              java.util.function.Supplier<Object> work) {
        return EsResponse.ok(JsonObjectBuilder.object().put("task", tasks.submit(action, description,
                Optional.of(control), work)).build());
    }

    private record Parsed(ByQueryRequest request, float requestsPerSecond) {
    }

    private static Parsed parse(EsRequest request, boolean delete) {
        request.flag("wait_for_completion", true); // the value is checked here, used by the caller
        request.param("routing").ifPresent(r -> {
            throw GatewayException.unsupported("[routing] (one shard per index)");
        });
        request.flag("refresh", false); // every acknowledged write is visible already; only the value is checked
        Optional<String> conflictsParam = request.param("conflicts");
        OptionalLong maxDocs = request.param("max_docs").map(v -> OptionalLong.of(maxDocs(parseLong("max_docs", v))))
                .orElse(OptionalLong.empty());
        int batchSize = request.param("scroll_size").map(v -> (int) parseLong("scroll_size", v)).orElse(1000);
        request.param("slices").ifPresent(ByQueryEndpoints::checkSlices);
        float rps = request.param("requests_per_second").map(ByQueryEndpoints::requestsPerSecond).orElse(-1f);

        Optional<Query> query = Optional.empty();
        Optional<String> conflictsBody = Optional.empty();
        Optional<Script> script = Optional.empty();
        if (request.body().isPresent()) {
            JsonObject body = JsonReads.object(request.body().get(), GatewayException::parse, "request body");
            for (Map.Entry<String, JsonValue> e : body.members().entrySet()) {
                switch (e.getKey()) {
                    case "query" -> query = Optional.of(QueryDsl.parse(e.getValue()));
                    case "max_docs" -> maxDocs = OptionalLong.of(maxDocs(number("max_docs", e.getValue())));
                    case "conflicts" -> conflictsBody = Optional.of(text("conflicts", e.getValue()));
                    case "slice" -> throw GatewayException.unsupported("[slice] (manual slicing)");
                    case "script" -> {
                        if (delete) {
                            throw GatewayException.unsupported("[script] in the body of _delete_by_query");
                        }
                        script = Optional.of(Script.parse(e.getValue()));
                    }
                    default -> throw GatewayException.unsupported("[" + e.getKey() + "] in the body of "
                            + (delete ? "_delete_by_query" : "_update_by_query"));
                }
            }
        }
        if (request.param("q").isPresent()) {
            Map<String, String> params = new LinkedHashMap<>();
            for (String p : List.of("q", "df", "default_operator", "lenient")) {
                request.param(p).ifPresent(v -> params.put(p, v));
            }
            query = SearchRequestParser.parse(Optional.empty(), params).query();
        }
        boolean proceed = conflicts(conflictsBody.or(() -> conflictsParam).orElse("abort"));
        if (batchSize < 1) {
            throw GatewayException.validationFailed(List.of("size should be greater than 0 if the request is limited"
                    + " to some number of documents or -1 if it isn't but it was [" + batchSize + "]"));
        }
        if (delete && query.isEmpty()) {
            throw GatewayException.validationFailed(List.of("query is missing"));
        }
        return new Parsed(new ByQueryRequest(query, proceed, maxDocs, batchSize, script), rps);
    }

    private static boolean conflicts(String value) {
        return switch (value) {
            case "abort" -> false;
            case "proceed" -> true;
            default -> throw GatewayException.illegalArgument("conflicts may only be \"proceed\" or \"abort\" but was ["
                    + value + "]");
        };
    }

    static long maxDocs(long value) {
        if (value < 0) {
            throw GatewayException.illegalArgument("[max_docs] parameter cannot be negative, found [" + value + "]");
        }
        if (value == 0) {
            throw GatewayException.validationFailed(List.of("maxDocs should be greater than 0 if the request is"
                    + " limited to some number of documents or -1 if it isn't but it was [0]"));
        }
        return value;
    }

    static void checkSlices(String value) {
        if (value.equals("auto")) {
            return;
        }
        long slices = parseLong("slices", value);
        if (slices < 1) {
            throw GatewayException.illegalArgument("[slices] must be at least 1, was [" + slices + "]");
        }
    }

    static float requestsPerSecond(String value) {
        if (value.equals("-1")) {
            return -1f;
        }
        float rps;
        try {
            rps = Float.parseFloat(value);
        } catch (NumberFormatException e) {
            throw GatewayException.illegalArgument("[requests_per_second] must be a float greater than 0. Use -1 to"
                    + " disable throttling.");
        }
        if (!(rps > 0)) {
            throw GatewayException.illegalArgument("[requests_per_second] must be a float greater than 0. Use -1 to"
                    + " disable throttling.");
        }
        return rps;
    }

    static long parseLong(String name, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw GatewayException.illegalArgument("Failed to parse int parameter [" + name + "] with value ["
                    + value + "]");
        }
    }

    static long number(String name, JsonValue value) {
        if (value instanceof JsonValue.JsonNumber n && n.value().doubleValue() == Math.rint(n.value().doubleValue())) {
            return n.value().longValue();
        }
        throw GatewayException.parse("[" + name + "] must be an integer");
    }

    private static String text(String name, JsonValue value) {
        if (value instanceof JsonValue.JsonString s) {
            return s.value();
        }
        throw GatewayException.parse("[" + name + "] must be a string");
    }

    private static EsResponse render(ByQueryResult result, boolean update, TaskControl control, long start) {
        BulkByScrollBody.Counters counters = BulkByScrollBody.Counters.of(result, update, control);
        return EsResponse.json(counters.status(), BulkByScrollBody.response(counters,
                (System.nanoTime() - start) / 1_000_000, false, false));
    }
}
