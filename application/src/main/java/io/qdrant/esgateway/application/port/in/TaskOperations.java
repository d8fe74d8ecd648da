package io.qdrant.esgateway.application.port.in;

import io.qdrant.esgateway.domain.error.GatewayException;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Background tasks ({@code wait_for_completion=false}): an operation runs on a bounded executor and its id
 * ({@code <node>:<number>}) reads its state and, once it has finished, its result or error; a running one can be
 * cancelled. Tasks and their results live in the gateway's memory only.
 */
public interface TaskOperations {

    /**
     * Starts {@code work} in the background; its task id. A full executor refuses it (429
     * {@code es_rejected_execution_exception}).
     */
    default String submit(String action, String description, Supplier<Object> work) {
        return submit(action, description, Optional.empty(), work);
    }

    /**
     * As {@link #submit(String, String, Supplier)}; with a {@code control} the task is cancellable and shows the
     * counters {@code work} reports through it while it runs.
     */
    String submit(String action, String description, Optional<TaskControl> control, Supplier<Object> work);

    /**
     * The task {@code id}: empty when it is unknown (never started here, or its result dropped); ES's 400 "malformed
     * task id" when {@code id} is not {@code <node>:<number>}.
     */
    Optional<Task> get(String id);

    /** The tasks still running. */
    List<Task> running();

    /**
     * Cancels the running task {@code id}: the task as it is now (marked cancelled; it stops before its next batch).
     * Elasticsearch's errors: an unknown or finished task → {@code resource_not_found_exception} "task [id] is not
     * found" (answered as a node failure), one that cannot be cancelled → 400, a malformed id → 400.
     */
    Task cancel(String id);

    /**
     * Cancels every running cancellable task whose action matches one of {@code actions} (simple {@code *}
     * patterns; every action when empty): the tasks cancelled.
     */
    List<Task> cancelAll(List<String> actions);

    /**
     * Changes the throttle of the running task {@code id} to {@code requestsPerSecond} (-1: unthrottled): the task.
     * An unknown or finished task → {@code resource_not_found_exception} "task [id] is missing", one without a
     * throttle → 400.
     */
    Task rethrottle(String id, float requestsPerSecond);

    /**
     * One task: where and what it runs, since when (epoch millis) and for how long (nanoseconds, up to its end once
     * completed), and once completed its result (the operation's own result type) or error.
     */
    record Task(String node, long id, String action, String description, long startMillis, long runningNanos,
                boolean completed, Optional<Object> result, Optional<GatewayException> error,
                Optional<TaskControl> control) {
        public Task(String node, long id, String action, String description, long startMillis, long runningNanos,
                    boolean completed, Optional<Object> result, Optional<GatewayException> error) {
            this(node, id, action, description, startMillis, runningNanos, completed, result, error,
                    Optional.empty());
        }

        /** Whether it can be cancelled (by-query operations and reindex can). */
        public boolean cancellable() {
            return control.isPresent();
        }

        /** Whether it was asked to stop. */
        public boolean cancelled() {
            return control.flatMap(TaskControl::cancelled).isPresent();
        }
    }
}
