package io.qdrant.esgateway.application.service;

import io.qdrant.esgateway.application.port.in.TaskControl;
import io.qdrant.esgateway.application.port.in.TaskOperations;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Background tasks on an executor the caller bounds. Running tasks and the results of the last {@code keepResults}
 * finished ones are kept in memory (older results are dropped: their ids then read as unknown, as Elasticsearch
 * answers for a task that stored no result); a restart forgets them all.
 */
public final class TaskService implements TaskOperations {
    private final String node;
    private final Executor executor;
    private final InstantSource clock;
    private final LongSupplier nanoTime;
    private final int keepResults;
    private final AtomicLong sequence = new AtomicLong();
    private final Map<Long, Entry> tasks = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Long> finished = new ConcurrentLinkedQueue<>();

    public TaskService(String node, Executor executor, InstantSource clock, LongSupplier nanoTime, int keepResults) {
        this.node = node;
        this.executor = executor;
        this.clock = clock;
        this.nanoTime = nanoTime;
        this.keepResults = keepResults;
    }

    private static final class Entry {
        final long id;
        final String action;
        final String description;
        final long startMillis;
        final long startNanos;
        volatile long endNanos;
        volatile boolean completed;
        volatile Object result;
        volatile GatewayException error;
        final Optional<TaskControl> control;

        Entry(long id, String action, String description, long startMillis, long startNanos,
              Optional<TaskControl> control) {
            this.control = control;
            this.id = id;
            this.action = action;
            this.description = description;
            this.startMillis = startMillis;
            this.startNanos = startNanos;
        }
    }

    @Override
    public String submit(String action, String description, Optional<TaskControl> control, Supplier<Object> work) {
        long id = sequence.incrementAndGet();
        Entry entry = new Entry(id, action, description, clock.millis(), nanoTime.getAsLong(), control);
        tasks.put(id, entry);
        try {
            executor.execute(() -> run(entry, work));
        } catch (RejectedExecutionException e) {
            tasks.remove(id);
            throw new GatewayException(ErrorKind.REJECTED_EXECUTION, "rejected execution of task [" + description
                    + "]: too many tasks running or queued");
        }
        return node + ":" + id;
    }

    private void run(Entry entry, Supplier<Object> work) {
        try {
            entry.result = work.get();
        } catch (GatewayException e) {
            entry.error = e;
        } catch (RuntimeException e) {
            entry.error = GatewayException.backendUnavailable("the task [" + entry.description + "]", e);
        } finally {
            entry.endNanos = nanoTime.getAsLong();
            entry.completed = true;
            finished.add(entry.id);
            while (finished.size() > keepResults) {
                Long dropped = finished.poll();
                if (dropped != null) {
                    tasks.remove(dropped);
                }
            }
        }
    }

    @Override
    public Task cancel(String id) {
        Entry entry = runningEntry(id, "is not found");
        if (entry.control.isEmpty()) {
            throw GatewayException.illegalArgument("task [" + id + "] doesn't support cancellation");
        }
        entry.control.get().cancel(TaskControl.BY_USER_REQUEST);
        return view(entry);
    }

    @Override
    public Task rethrottle(String id, float requestsPerSecond) {
        Entry entry = runningEntry(id, "is missing");
        if (entry.control.isEmpty()) {
            throw GatewayException.illegalArgument("task [" + id + "] doesn't support this operation");
        }
        entry.control.get().rethrottle(requestsPerSecond);
        return view(entry);
    }

    /** The running task {@code id}, or Elasticsearch's 404 "task [id] {@code missing}". */
    private Entry runningEntry(String id, String missing) {
        long number = number(id);
        Entry entry = id.substring(0, id.lastIndexOf(':')).equals(node) ? tasks.get(number) : null;
        if (entry == null || entry.completed) {
            throw new GatewayException(ErrorKind.RESOURCE_NOT_FOUND, "task [" + id + "] " + missing);
        }
        return entry;
    }

    @Override
    public List<Task> cancelAll(List<String> actions) {
        List<Task> out = new ArrayList<>();
        for (Entry e : tasks.values()) {
            if (!e.completed && e.control.isPresent() && (actions.isEmpty()
                    || actions.stream().anyMatch(a -> matches(a, e.action)))) {
                e.control.get().cancel(TaskControl.BY_USER_REQUEST);
                out.add(view(e));
            }
        }
        out.sort(Comparator.comparingLong(Task::id));
        return out;
    }

    /** A simple pattern: {@code *} stands for any text. */
    private static boolean matches(String pattern, String action) {
        return action.matches(String.join(".*", java.util.Arrays.stream(pattern.split("\\*", -1))
                .map(java.util.regex.Pattern::quote).toList()));
    }

    private static long number(String id) {
        int colon = id.lastIndexOf(':');
        try {
            if (colon <= 0) {
                throw new NumberFormatException();
            }
            return Long.parseLong(id.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw GatewayException.illegalArgument("malformed task id " + id);
        }
    }

    @Override
    public Optional<Task> get(String id) {
        int colon = id.lastIndexOf(':');
        long number;
        try {
            if (colon <= 0) {
                throw new NumberFormatException();
            }
            number = Long.parseLong(id.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw GatewayException.illegalArgument("malformed task id " + id);
        }
        if (!id.substring(0, colon).equals(node)) {
            return Optional.empty();
        }
        return Optional.ofNullable(tasks.get(number)).map(this::view);
    }

    @Override
    public List<Task> running() {
        List<Task> out = new ArrayList<>();
        for (Entry e : tasks.values()) {
            if (!e.completed) {
                out.add(view(e));
            }
        }
        out.sort(Comparator.comparingLong(Task::id));
        return out;
    }

    private Task view(Entry e) {
        boolean done = e.completed;
        long running = (done ? e.endNanos : nanoTime.getAsLong()) - e.startNanos;
        return new Task(node, e.id, e.action, e.description, e.startMillis, running, done,
                done ? Optional.ofNullable(e.result) : Optional.empty(),
                done ? Optional.ofNullable(e.error) : Optional.empty(), e.control);
    }
}
