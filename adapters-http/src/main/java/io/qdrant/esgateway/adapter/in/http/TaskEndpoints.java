package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.application.port.in.TaskOperations;
import io.qdrant.esgateway.application.port.in.TaskOperations.Task;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The tasks of {@code wait_for_completion=false}: {@code GET /_tasks/{id}} (with {@code wait_for_completion} and
 * {@code timeout}) answers whether it completed and then its response or error, {@code GET /_tasks} lists the running
 * ones (with their counters so far), {@code POST /_tasks/{id}/_cancel} and {@code POST /_tasks/_cancel} cancel
 * by-query and reindex tasks (they stop before their next batch and store {@code canceled: "by user request"}).
 *
 * <pre>
 * curl -XPOST 'localhost:9200/books/_delete_by_query?wait_for_completion=false' -H 'Content-Type: application/json' \
 *      -d '{"query":{"term":{"tag":"old"}}}'
 * curl 'localhost:9200/_tasks/qdrant-es-gateway:1?wait_for_completion=true'
 * </pre>
 */
final class TaskEndpoints {
    private final TaskOperations tasks;
    private final String nodeName;

    TaskEndpoints(TaskOperations tasks, String nodeName) {
        this.tasks = tasks;
        this.nodeName = nodeName;
    }

    void register(Router router) {
        router.add(route("GET", "/_tasks/{task_id}", "tasks.get", "wait_for_completion,timeout", false, this::get))
                .add(route("GET", "/_tasks", "tasks.list", "actions,detailed,group_by,nodes,parent_task_id,"
                        + "wait_for_completion,timeout", false, this::list))
                .add(route("POST", "/_tasks/{task_id}/_cancel", "tasks.cancel", "actions,nodes,parent_task_id,"
                        + "wait_for_completion", false, this::cancel))
                .add(route("POST", "/_tasks/_cancel", "tasks.cancel", "actions,nodes,parent_task_id,"
                        + "wait_for_completion", false, this::cancel))
                .add(route("POST", "/_reindex/{task_id}/_rethrottle", "reindex_rethrottle", "requests_per_second",
                        false, this::rethrottle))
                .add(route("POST", "/_delete_by_query/{task_id}/_rethrottle", "delete_by_query_rethrottle",
                        "requests_per_second", false, this::rethrottle))
                .add(route("POST", "/_update_by_query/{task_id}/_rethrottle", "update_by_query_rethrottle",
                        "requests_per_second", false, this::rethrottle));
    }

    private EsResponse get(EsRequest request) {
        String id = request.pathParam("task_id");
        Optional<Task> task = tasks.get(id);
        if (task.isPresent() && !task.get().completed() && request.flag("wait_for_completion", false)) {
            Duration timeout = request.param("timeout").map(t -> ScrollEndpoints.keepAlive(t, "timeout"))
                    .orElse(Duration.ofSeconds(30));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (task.isPresent() && !task.get().completed() && System.nanoTime() < deadline) {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
                task = tasks.get(id);
            }
            if (task.isPresent() && !task.get().completed()) {
                throw new GatewayException(ErrorKind.RESOURCE_NOT_FOUND, "Timed out waiting for completion of task ["
                        + id + "]");
            }
        }
        if (task.isEmpty()) {
            throw new GatewayException(ErrorKind.RESOURCE_NOT_FOUND, "task [" + id
                    + "] isn't running and hasn't stored its results");
        }
        Task t = task.get();
        JsonObjectBuilder out = JsonObjectBuilder.object().put("completed", t.completed()).put("task", info(t));
        if (t.completed()) {
            t.result().ifPresent(r -> out.put("response", response(r, t)));
            t.error().ifPresent(e -> out.put("error", ErrorBodies.cause(e, true)));
        }
        return EsResponse.ok(out.build());
    }

    private EsResponse list(EsRequest request) {
        return EsResponse.ok(nodes(tasks.running()));
    }

    /**
     * {@code POST /_tasks/{id}/_cancel} (one task) and {@code POST /_tasks/_cancel} (every running cancellable task,
     * or those of {@code actions}): the tasks cancelled, as {@code GET /_tasks} lists them; with
     * {@code wait_for_completion=true} once they have stopped. An unknown or finished task is Elasticsearch's node
     * failure.
     */
    private EsResponse cancel(EsRequest request) {
        Optional<String> id = request.optionalPathParam("task_id");
        List<Task> cancelled;
        if (id.isPresent()) {
            try {
                cancelled = List.of(tasks.cancel(id.get()));
            } catch (GatewayException e) {
                return nodeFailure(id.get(), e);
            }
        } else {
            List<String> actions = request.param("actions").map(a -> List.of(a.split(","))).orElse(List.of());
            cancelled = tasks.cancelAll(actions);
        }
        if (request.flag("wait_for_completion", false)) {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            for (Task t : cancelled) {
                String taskId = t.node() + ":" + t.id();
                while (tasks.get(taskId).map(x -> !x.completed()).orElse(false) && System.nanoTime() < deadline) {
                    try {
                        Thread.sleep(5);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
            }
        }
        return EsResponse.ok(nodes(cancelled));
    }

    /**
     * {@code POST /_reindex/{id}/_rethrottle} (and {@code _delete_by_query}, {@code _update_by_query}) with
     * {@code requests_per_second}: the running task's new throttle (a wait in progress is measured again against it);
     * the task, as {@code GET /_tasks} lists it.
     */
    private EsResponse rethrottle(EsRequest request) {
        String id = request.pathParam("task_id");
        float rate = ByQueryEndpoints.requestsPerSecond(request.param("requests_per_second").orElseThrow(
                () -> GatewayException.validationFailed(List.of("requests_per_second must be set"))));
        try {
            return EsResponse.ok(nodes(List.of(tasks.rethrottle(id, rate))));
        } catch (GatewayException e) {
            return nodeFailure(id, e);
        }
    }

    /**
     * Elasticsearch's answer when the node cannot act on the task (unknown, finished): a node failure in a 200
     * answer that lists no task.
     */
    private static EsResponse nodeFailure(String id, GatewayException e) {
        if (e.kind() != ErrorKind.RESOURCE_NOT_FOUND) {
            throw e;
        }
        String node = id.substring(0, id.lastIndexOf(':'));
        JsonObject failure = JsonObjectBuilder.object()
                .put("type", "failed_node_exception")
                .put("reason", "Failed node [" + node + "]")
                .put("node_id", node)
                .put("caused_by", ErrorBodies.cause(e, true))
                .build();
        return EsResponse.ok(JsonObjectBuilder.object()
                .put("node_failures", new JsonValue.JsonArray(List.of(failure)))
                .put("nodes", JsonObjectBuilder.object().build()).build());
    }

    /** {@code {"nodes":{node:{name, tasks:{id:info}}}}}: the shape of {@code GET /_tasks}, of cancel and rethrottle. */
    JsonObject nodes(List<Task> listed) {
        JsonObjectBuilder nodes = JsonObjectBuilder.object();
        if (!listed.isEmpty()) {
            JsonObjectBuilder byId = JsonObjectBuilder.object();
            for (Task t : listed) {
                byId.put(t.node() + ":" + t.id(), info(t));
            }
            nodes.put(listed.get(0).node(), JsonObjectBuilder.object().put("name", nodeName)
                    .put("tasks", byId.build()).build());
        }
        return JsonObjectBuilder.object().put("nodes", nodes.build()).build();
    }

    /**
     * ES's task info: the status of a by-query or reindex task is its counters so far while it runs and its final
     * counters once it has finished.
     */
    static JsonObject info(Task t) {
        JsonObjectBuilder out = JsonObjectBuilder.object()
                .put("node", t.node())
                .put("id", t.id())
                .put("type", "transport")
                .put("action", t.action());
        Optional<BulkByScrollBody.Counters> counters = t.result()
                .filter(r -> r instanceof BulkByScrollBody.Counters).map(r -> (BulkByScrollBody.Counters) r)
                .or(() -> t.completed() ? Optional.empty()
                        : t.control().flatMap(c -> BulkByScrollBody.Counters.live(t.action(), c)));
        counters.ifPresent(c -> out.put("status", BulkByScrollBody.status(c)));
        return out.put("description", t.description())
                .put("start_time_in_millis", t.startMillis())
                .put("running_time_in_nanos", t.runningNanos())
                .put("cancellable", t.cancellable())
                .put("cancelled", t.cancelled())
                .put("headers", JsonObjectBuilder.object().build())
                .build();
    }

    private static JsonObject response(Object result, Task t) {
        if (result instanceof BulkByScrollBody.Counters c) {
            return BulkByScrollBody.response(c, t.runningNanos() / 1_000_000, true, true);
        }
        throw new IllegalStateException("a task result of an unknown kind: " + result.getClass());
    }
}
