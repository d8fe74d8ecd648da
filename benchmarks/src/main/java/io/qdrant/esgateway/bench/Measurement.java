package io.qdrant.esgateway.bench;

import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Runs one cell: {@code clients} threads, each with its own persistent connection, first their share of the warm-up
 * (checked, not timed), then — all released together — their share of the measured steps. Each step returns its
 * latency and checks its own answers; the first failure stops every thread and the cell is not timed.
 */
public final class Measurement {
    private Measurement() {
    }

    /** One timed step of a client: sends its request(s), checks the answer(s), returns the latency in ns. */
    @FunctionalInterface
    public interface Step {
        long run(Http http, int client, int iteration);

        /**
         * Which of the workload's distinct requests the step sends at this (client, iteration), or -1 when its steps
         * are not drawn from a fixed set (writes): the key of the per-request breakdown.
         */
        default int key(int client, int iteration) {
            return -1;
        }
    }

    /**
     * The outcome of a cell.
     *
     * @param status     valid, or why not
     * @param detail     the first failure, or empty
     * @param latencies  the measured latencies in ns (empty unless valid)
     * @param keys       per latency, the distinct request it measured ({@link Step#key}; -1 for none)
     * @param wallNanos  from the release of the measured phase to the last client's end
     * @param cpuNanos   the engine process's CPU time over the same span, or -1 when unknown
     */
    public record Outcome(Status status, String detail, long[] latencies, int[] keys, long wallNanos, long cpuNanos) {
        public Outcome(Status status, String detail, long[] latencies, int[] keys, long wallNanos) {
            this(status, detail, latencies, keys, wallNanos, -1);
        }

        /** The engine's CPU ms per measured request, or null when unknown. */
        public Double cpuMsPerRequest() {
            return cpuNanos < 0 || latencies.length == 0 ? null : cpuNanos / 1e6 / latencies.length;
        }

        public double p(double quantile) {
            return Stats.percentile(latencies, quantile) / 1e6;
        }

        public double throughput() {
            return wallNanos == 0 ? 0 : latencies.length / (wallNanos / 1e9);
        }
    }

    public static Outcome run(URI url, int clients, int warmup, int measured, Step step) {
        return run(url, clients, warmup, measured, step, () -> -1);
    }

    /**
     * As {@link #run(URI, int, int, int, Step)}, reading {@code cpu} (the engine's CPU time in ns, negative when
     * unknown) when the measured phase is released and when its last client ends.
     */
    public static Outcome run(URI url, int clients, int warmup, int measured, Step step, LongSupplier cpu) {
        return run(List.of(url), clients, warmup, measured, step, cpu);
    }

    /**
     * As {@link #run(URI, int, int, int, Step, LongSupplier)}; each client takes turns over {@code urls} ({@link Http#to}).
     * The warm-up is {@code warmup} requests per URL (each replica of an engine sees as many warm-up requests as a
     * single process does, so its JIT has had as many runs of the cell's code before the measured phase).
     */
    public static Outcome run(List<URI> urls, int clients, int warmup, int measured, Step step, LongSupplier cpu) {
        int warmEach = (warmup * urls.size() + clients - 1) / clients;
        int measuredEach = Math.max(1, (measured + clients - 1) / clients);
        AtomicReference<CellFailure> failure = new AtomicReference<>();
        CyclicBarrier start = new CyclicBarrier(clients + 1);
        CyclicBarrier end = new CyclicBarrier(clients + 1);
        long[][] perClient = new long[clients][];
        int[][] keysPerClient = new int[clients][];
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            int client = c;
            Thread t = Thread.ofPlatform().name("bench-client-" + c).daemon().start(() -> {
                try (Http http = Http.to(urls)) {
                    client(http, client, warmEach, measuredEach, step, failure, perClient, keysPerClient, start);
                    await(end); // before close: the measured wall time ends with the last answer
                }
            });
            threads.add(t);
        }
        await(start);
        long cpu0 = cpu.getAsLong();
        long t0 = System.nanoTime();
        await(end);
        long wall = System.nanoTime() - t0;
        long cpu1 = cpu.getAsLong();
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        CellFailure f = failure.get();
        if (f != null) {
            return new Outcome(f.status(), f.getMessage(), new long[0], new int[0], 0);
        }
        long[] all = Arrays.stream(perClient).flatMapToLong(Arrays::stream).toArray();
        int[] keys = Arrays.stream(keysPerClient).flatMapToInt(Arrays::stream).toArray();
        return new Outcome(Status.VALID, "", all, keys, wall, cpu0 < 0 || cpu1 < 0 ? -1 : cpu1 - cpu0);
    }

    private static void client(Http http, int client, int warmEach, int measuredEach, Step step,
                               AtomicReference<CellFailure> failure, long[][] perClient, int[][] keysPerClient,
                               CyclicBarrier start) {
        long[] own = new long[measuredEach];
        int[] keys = new int[measuredEach];
        int iteration = 0;
        try {
            for (int i = 0; i < warmEach && failure.get() == null; i++) {
                step.run(http, client, iteration++);
            }
        } catch (CellFailure f) {
            failure.compareAndSet(null, f);
        } catch (RuntimeException e) {
            failure.compareAndSet(null, new CellFailure(Status.ERROR, e.toString()));
        }
        await(start);
        try {
            for (int i = 0; i < measuredEach && failure.get() == null; i++) {
                keys[i] = step.key(client, iteration);
                own[i] = step.run(http, client, iteration++);
            }
        } catch (CellFailure f) {
            failure.compareAndSet(null, f);
        } catch (RuntimeException e) {
            failure.compareAndSet(null, new CellFailure(Status.ERROR, e.toString()));
        }
        perClient[client] = own;
        keysPerClient[client] = keys;
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (java.util.concurrent.BrokenBarrierException e) {
            throw new IllegalStateException(e);
        }
    }
}
