package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.application.port.in.TaskOperations;
import io.qdrant.esgateway.application.port.in.TaskOperations.Task;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The tasks of {@code wait_for_completion=false}: {@code GET /_tasks/{id}} (with {@code wait_for_completion} and
 * {@code timeout}) answers whether it completed and then its response or error, {@code GET /_tasks} lists the running
 * ones. Cancelling is not implemented ({@code POST /_tasks/{id}/_cancel} is a 400 that says so).
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
                        + "wait_for_completion", false, this::cancel));
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
        List<Task> running = tasks.running();
        JsonObjectBuilder nodes = JsonObjectBuilder.object();
        if (!running.isEmpty()) {
            JsonObjectBuilder listed = JsonObjectBuilder.object();
            for (Task t : running) {
                listed.put(t.node() + ":" + t.id(), info(t));
            }
            nodes.put(running.get(0).node(), JsonObjectBuilder.object().put("name", nodeName)
                    .put("tasks", listed.build()).build());
        }
        return EsResponse.ok(JsonObjectBuilder.object().put("nodes", nodes.build()).build());
    }

    private EsResponse cancel(EsRequest request) {
        throw GatewayException.unsupported("[_cancel] (cancelling tasks)");
    }

    /** ES's task info: a finished task's status is its final counters; a running one shows none. */
    private static JsonObject info(Task t) {
        JsonObjectBuilder out = JsonObjectBuilder.object()
                .put("node", t.node())
                .put("id", t.id())
                .put("type", "transport")
                .put("action", t.action());
        t.result().filter(r -> r instanceof BulkByScrollBody.Counters)
                .ifPresent(r -> out.put("status", BulkByScrollBody.status((BulkByScrollBody.Counters) r)));
        return out.put("description", t.description())
                .put("start_time_in_millis", t.startMillis())
                .put("running_time_in_nanos", t.runningNanos())
                .put("cancellable", false)
                .put("cancelled", false)
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
