package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.application.port.in.ReindexOperations;
import io.qdrant.esgateway.application.port.in.ReindexOperations.ReindexRequest;
import io.qdrant.esgateway.application.port.in.TaskControl;
import io.qdrant.esgateway.application.port.in.TaskOperations;
import io.qdrant.esgateway.domain.document.SourceFilter;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.query.dsl.QueryDsl;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code POST /_reindex} from indices of this gateway (no remote source, no script), answered with
 * Elasticsearch's {@code BulkByScrollResponse}, or with a task id under {@code wait_for_completion=false}.
 *
 * <pre>
 * curl -XPOST localhost:9200/_reindex -H 'Content-Type: application/json' \
 *      -d '{"source":{"index":"books","query":{"term":{"tag":"new"}}},"dest":{"index":"books-v2"}}'
 * </pre>
 */
final class ReindexEndpoints {
    private static final String PARAMS = "refresh,timeout,wait_for_active_shards,wait_for_completion,"
            + "requests_per_second,require_alias,scroll,slices,max_docs";

    private final ReindexOperations reindex;
    private final TaskOperations tasks;

    ReindexEndpoints(ReindexOperations reindex, TaskOperations tasks) {
        this.reindex = reindex;
        this.tasks = tasks;
    }

    void register(Router router) {
        router.add(route("POST", "/_reindex", "reindex", PARAMS, true, this::reindex));
    }

    private EsResponse reindex(EsRequest request) {
        long start = System.nanoTime();
        request.flag("refresh", false); // every acknowledged write is visible already; only the value is checked
        boolean wait = request.flag("wait_for_completion", true);
        if (request.flag("require_alias", false)) {
            throw GatewayException.unsupported("[require_alias] on _reindex");
        }
        request.param("slices").ifPresent(ByQueryEndpoints::checkSlices);
        float rps = request.param("requests_per_second").map(ByQueryEndpoints::requestsPerSecond).orElse(-1f);
        OptionalLong maxDocs = request.param("max_docs")
                .map(v -> OptionalLong.of(ByQueryEndpoints.maxDocs(ByQueryEndpoints.parseLong("max_docs", v))))
                .orElse(OptionalLong.empty());
        if (request.body().isEmpty()) {
            throw GatewayException.parse("request body is required");
        }
        JsonObject body = JsonReads.object(request.body().get(), GatewayException::parse, "request body");
        Optional<String> conflicts = request.param("conflicts");
        JsonObject source = null;
        JsonObject dest = null;
        for (Map.Entry<String, JsonValue> e : body.members().entrySet()) {
            switch (e.getKey()) {
                case "source" -> source = object("source", e.getValue());
                case "dest" -> dest = object("dest", e.getValue());
                case "conflicts" -> conflicts = Optional.of(text("reindex", "conflicts", e.getValue()));
                case "max_docs", "size" -> maxDocs = OptionalLong.of(ByQueryEndpoints.maxDocs(
                        ByQueryEndpoints.number(e.getKey(), e.getValue())));
                case "script" -> throw GatewayException.unsupported("[script] (scripts) on _reindex");
                default -> throw xContent("[reindex] unknown field [" + e.getKey() + "]");
            }
        }
        boolean proceed = conflicts.map(ReindexEndpoints::conflicts).orElse(false);
        Source from = source(source);
        Dest to = dest(dest);
        List<String> problems = new ArrayList<>();
        if (from.index().isEmpty()) {
            problems.add("use _all if you really want to copy from all existing indexes");
        }
        if (to.index().isEmpty()) {
            problems.add("index must be specified");
        }
        if (!problems.isEmpty()) {
            throw GatewayException.validationFailed(problems);
        }
        ReindexRequest parsed = new ReindexRequest(from.index(), CatalogView.Options.STRICT_EXPAND_OPEN, from.query(),
                from.filter(), from.size(), maxDocs, to.index(), to.create(), proceed);
        TaskControl control = new TaskControl(rps);
        if (!wait) {
            String description = "reindex from [" + from.index() + "] to [" + to.index() + "]";
            String task = tasks.submit("indices:data/write/reindex", description, Optional.of(control),
                    () -> BulkByScrollBody.Counters.of(reindex.reindex(parsed, control), control));
            return EsResponse.ok(JsonObjectBuilder.object().put("task", task).build());
        }
        BulkByScrollBody.Counters counters = BulkByScrollBody.Counters.of(reindex.reindex(parsed, control), control);
        return EsResponse.json(counters.status(), BulkByScrollBody.response(counters,
                (System.nanoTime() - start) / 1_000_000, false, false));
    }

    private record Source(String index, Optional<Query> query, SourceFilter filter, int size) {
    }

    private record Dest(String index, boolean create) {
    }

    private static Source source(JsonObject source) {
        String index = "";
        Optional<Query> query = Optional.empty();
        SourceFilter filter = SourceFilter.ALL;
        int size = 1000;
        if (source == null) {
            return new Source(index, query, filter, size);
        }
        for (Map.Entry<String, JsonValue> e : source.members().entrySet()) {
            switch (e.getKey()) {
                case "index" -> {
                    if (e.getValue() instanceof JsonValue.JsonArray array) {
                        List<String> names = new ArrayList<>();
                        array.elements().forEach(v -> names.add(text("source", "index", v)));
                        index = String.join(",", names);
                    } else {
                        index = text("source", "index", e.getValue());
                    }
                }
                case "query" -> query = Optional.of(QueryDsl.parse(e.getValue()));
                case "_source" -> filter = SourceFilter.fromJson(e.getValue());
                case "size" -> {
                    long n = ByQueryEndpoints.number("size", e.getValue());
                    if (n < 1) {
                        throw GatewayException.validationFailed(List.of("source size must be greater than 0 but"
                                + " was [" + n + "]"));
                    }
                    size = (int) Math.min(n, 10_000);
                }
                case "remote" -> throw GatewayException.unsupported("[remote] (reindex from a remote cluster)");
                case "slice" -> throw GatewayException.unsupported("[slice] (manual slicing)");
                case "sort" -> throw GatewayException.unsupported("[sort] in the source of _reindex");
                default -> throw GatewayException.unsupported("[" + e.getKey() + "] in the source of _reindex");
            }
        }
        return new Source(index, query, filter, size);
    }

    private static Dest dest(JsonObject dest) {
        String index = "";
        boolean create = false;
        if (dest == null) {
            return new Dest(index, create);
        }
        for (Map.Entry<String, JsonValue> e : dest.members().entrySet()) {
            switch (e.getKey()) {
                case "index" -> index = text("dest", "index", e.getValue());
                case "op_type" -> {
                    String op = text("dest", "op_type", e.getValue());
                    create = switch (op) {
                        case "create" -> true;
                        case "index" -> false;
                        default -> throw new GatewayException(ErrorKind.X_CONTENT_PARSE,
                                "[dest] failed to parse field [op_type]: opType must be 'create' or 'index', found: ["
                                        + op + "]");
                    };
                }
                case "version_type" -> {
                    String type = text("dest", "version_type", e.getValue());
                    if (!type.equals("internal")) {
                        throw GatewayException.unsupported("[version_type=" + type + "] in _reindex (keeping the source"
                                + " documents' versions)");
                    }
                }
                case "pipeline" -> throw GatewayException.unsupported("[pipeline] (ingest pipelines)");
                case "routing" -> throw GatewayException.unsupported("[routing] (one shard per index)");
                default -> throw xContent("[dest] unknown field [" + e.getKey() + "]");
            }
        }
        return new Dest(index, create);
    }

    private static boolean conflicts(String value) {
        return switch (value) {
            case "abort" -> false;
            case "proceed" -> true;
            default -> throw GatewayException.illegalArgument("conflicts may only be \"proceed\" or \"abort\" but was ["
                    + value + "]");
        };
    }

    private static JsonObject object(String name, JsonValue value) {
        if (value instanceof JsonObject o) {
            return o;
        }
        throw xContent("[reindex] " + name + " doesn't support values of type: " + value.tokenName());
    }

    private static String text(String object, String name, JsonValue value) {
        return JsonReads.text(value).orElseThrow(() -> xContent("[" + object + "] failed to parse field [" + name
                + "]"));
    }

    private static GatewayException xContent(String reason) {
        return new GatewayException(ErrorKind.X_CONTENT_PARSE, reason);
    }
}
