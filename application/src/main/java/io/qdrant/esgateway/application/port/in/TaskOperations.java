package io.qdrant.esgateway.application.port.in;

import io.qdrant.esgateway.domain.error.GatewayException;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Background tasks ({@code wait_for_completion=false}): an operation runs on a bounded executor and its id
 * ({@code <node>:<number>}) reads its state and, once it has finished, its result or error. Tasks and their results
 * live in the gateway's memory only.
 */
public interface TaskOperations {

    /**
     * Starts {@code work} in the background; its task id. A full executor refuses it (429
     * {@code es_rejected_execution_exception}).
     */
    String submit(String action, String description, Supplier<Object> work);

    /**
     * The task {@code id}: empty when it is unknown (never started here, or its result dropped); ES's 400 "malformed
     * task id" when {@code id} is not {@code <node>:<number>}.
     */
    Optional<Task> get(String id);

    /** The tasks still running. */
    List<Task> running();

    /**
     * One task: where and what it runs, since when (epoch millis) and for how long (nanoseconds, up to its end once
     * completed), and once completed its result (the operation's own result type) or error.
     */
    record Task(String node, long id, String action, String description, long startMillis, long runningNanos,
                boolean completed, Optional<Object> result, Optional<GatewayException> error) {
    }
}
