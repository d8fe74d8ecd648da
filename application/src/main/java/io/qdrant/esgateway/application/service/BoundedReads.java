package io.qdrant.esgateway.application.service;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * The backend reads of one request, run concurrently on virtual threads with at most {@code maxInFlight} of them
 * running at once (a bound per request, so that one request with many indices and aggregations cannot flood the
 * backend). A single read runs on the caller's thread; of several, the first runs there and the others on new threads.
 * A task that makes several reads at once ({@link Several}) holds as many permits while it runs.
 */
final class BoundedReads {
    private final Semaphore permits;
    private final int bound;

    BoundedReads(int maxInFlight) {
        this.bound = Math.max(1, maxInFlight);
        this.permits = new Semaphore(bound);
    }

    /** The most reads running at once. */
    int bound() {
        return bound;
    }

    /**
     * A task of {@code reads} backend reads in flight at once (sent side by side on one thread): it holds that many
     * permits (at most {@link #bound}) while it runs.
     */
    record Several(int reads, Callable<Object> task) implements Callable<Object> {
        @Override
        public Object call() throws Exception {
            return task.call();
        }
    }

    /** A task's value or its failure. */
    record Outcome<T>(T value, RuntimeException failure) {
    }

    /** Runs every task (unbounded: they are coordinators whose reads take permits) and reports each outcome. */
    static <T> List<Outcome<T>> all(List<Callable<T>> tasks) {
        List<Outcome<T>> out = new ArrayList<>();
        if (tasks.isEmpty()) {
            return out;
        }
        if (tasks.size() == 1) {
            out.add(outcome(tasks.get(0)));
            return out;
        }
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            // the first task on the calling thread (one thread start and hand-off fewer), the others beside it
            List<Future<Outcome<T>>> futures = new ArrayList<>();
            for (Callable<T> task : tasks.subList(1, tasks.size())) {
                futures.add(executor.submit(io.qdrant.esgateway.domain.search.SearchDeadline.carried(() -> outcome(task))));
            }
            out.add(outcome(tasks.get(0)));
            for (Future<Outcome<T>> f : futures) {
                out.add(join(f));
            }
        }
        return out;
    }

    /** Runs the reads, bounded; their values in task order, or the first failure (in task order) rethrown. */
    List<Object> run(List<Callable<Object>> tasks) {
        List<Outcome<Object>> outcomes = new ArrayList<>();
        if (tasks.isEmpty()) {
            return List.of();
        }
        if (tasks.size() == 1) {
            outcomes.add(bounded(tasks.get(0)));
        } else {
            try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
                // the first task on the calling thread (one thread start and hand-off fewer), the others beside it
                List<Future<Outcome<Object>>> futures = new ArrayList<>();
                for (Callable<Object> task : tasks.subList(1, tasks.size())) {
                    futures.add(executor.submit(io.qdrant.esgateway.domain.search.SearchDeadline.carried(() -> bounded(task))));
                }
                outcomes.add(bounded(tasks.get(0)));
                for (Future<Outcome<Object>> f : futures) {
                    outcomes.add(join(f));
                }
            }
        }
        List<Object> values = new ArrayList<>();
        for (Outcome<Object> o : outcomes) {
            if (o.failure() != null) {
                throw o.failure();
            }
            values.add(o.value());
        }
        return values;
    }

    private Outcome<Object> bounded(Callable<Object> task) {
        int held = task instanceof Several several ? Math.clamp(several.reads(), 1, bound) : 1;
        try {
            permits.acquire(held);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome<>(null, new IllegalStateException("interrupted while waiting to read", e));
        }
        try {
            return outcome(task);
        } finally {
            permits.release(held);
        }
    }

    private static <T> Outcome<T> outcome(Callable<T> task) {
        try {
            return new Outcome<>(task.call(), null);
        } catch (RuntimeException e) {
            return new Outcome<>(null, e);
        } catch (Exception e) {
            return new Outcome<>(null, new IllegalStateException(e));
        }
    }

    private static <T> T join(Future<T> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        }
    }
}
