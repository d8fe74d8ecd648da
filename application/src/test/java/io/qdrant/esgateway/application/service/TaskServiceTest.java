package io.qdrant.esgateway.application.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.qdrant.esgateway.application.port.in.TaskOperations.Task;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Tasks on an executor the test runs by hand: running and completed states with the result or the error, the time
 * they ran, ids of another node or without a number, a full executor's refusal, and only the last results kept.
 */
class TaskServiceTest {
    /** Holds the submitted work until {@link #runAll}; refuses past {@code capacity}. */
    private static final class ManualExecutor implements Executor {
        final Deque<Runnable> queued = new ArrayDeque<>();
        final int capacity;

        ManualExecutor(int capacity) {
            this.capacity = capacity;
        }

        @Override
        public void execute(Runnable command) {
            if (queued.size() >= capacity) {
                throw new RejectedExecutionException("full");
            }
            queued.add(command);
        }

        void runAll() {
            while (!queued.isEmpty()) {
                queued.poll().run();
            }
        }
    }

    private final AtomicLong nanos = new AtomicLong(1_000);
    private final ManualExecutor executor = new ManualExecutor(2);
    private final TaskService tasks = new TaskService("node-a", executor,
            () -> Instant.ofEpochMilli(1_700_000_000_000L), nanos::get, 2);

    @Test
    void aTaskRunsThenHoldsItsResultOrError() {
        String ok = tasks.submit("indices:data/write/reindex", "reindex from [a] to [b]", () -> "done");
        String bad = tasks.submit("indices:data/write/delete/byquery", "delete-by-query [x]", () -> {
            throw GatewayException.indexNotFound("x");
        });
        assertThat(ok).isEqualTo("node-a:1");
        Task running = tasks.get(ok).orElseThrow();
        assertThat(running.completed()).isFalse();
        assertThat(running.result()).isEmpty();
        assertThat(tasks.running()).extracting(Task::id).containsExactly(1L, 2L);

        nanos.addAndGet(5_000);
        executor.runAll();
        nanos.addAndGet(99_000);
        Task done = tasks.get(ok).orElseThrow();
        assertThat(done.completed()).isTrue();
        assertThat(done.result()).contains("done");
        assertThat(done.runningNanos()).as("up to its end").isEqualTo(5_000);
        assertThat(done.startMillis()).isEqualTo(1_700_000_000_000L);
        Task failed = tasks.get(bad).orElseThrow();
        assertThat(failed.error().orElseThrow().kind()).isEqualTo(ErrorKind.INDEX_NOT_FOUND);
        assertThat(tasks.running()).isEmpty();
    }

    @Test
    void unknownAndMalformedIds() {
        assertThat(tasks.get("node-a:7")).isEmpty();
        assertThat(tasks.get("node-b:1")).isEmpty();
        GatewayException malformed = catchThrowableOfType(GatewayException.class, () -> tasks.get("nonsense"));
        assertThat(malformed.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
        assertThat(malformed.reason()).isEqualTo("malformed task id nonsense");
    }

    @Test
    void aFullExecutorRefusesAndOnlyTheLastResultsAreKept() {
        tasks.submit("a", "one", () -> 1);
        tasks.submit("a", "two", () -> 2);
        GatewayException full = catchThrowableOfType(GatewayException.class, () -> tasks.submit("a", "three",
                () -> 3));
        assertThat(full.kind()).isEqualTo(ErrorKind.REJECTED_EXECUTION);
        assertThat(tasks.get("node-a:3")).as("a refused task is not kept").isEmpty();
        executor.runAll();
        tasks.submit("a", "four", () -> 4);
        executor.runAll();
        assertThat(tasks.get("node-a:1")).as("the oldest result dropped past two").isEmpty();
        assertThat(tasks.get("node-a:2").orElseThrow().result()).contains(2);
        assertThat(tasks.get("node-a:4").orElseThrow().result()).contains(4);
    }
}
