package io.qdrant.esgateway.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Collects the measured latencies of read cells by distinct request, over the trials, and compares engines request by
 * request: a p95 alone cannot tell whether an engine is slow on a few expensive requests or randomly slow on any.
 */
public final class PerRequest {
    /** Twice its request's median: a latency above it is counted as tail that the request's cost does not explain. */
    static final double TAIL_FACTOR = 2.0;

    /** (engine, workload, clients) → distinct request → latencies in ns. */
    private final Map<Cell, Map<Integer, List<Long>>> samples = new LinkedHashMap<>();

    private record Cell(String engine, String workload, int clients) {
    }

    /** Adds a valid outcome's latencies under their keys; invalid outcomes and keyless (write) steps are ignored. */
    public synchronized void add(String engine, String workload, int clients, Measurement.Outcome outcome) {
        if (outcome.status() != Status.VALID) {
            return;
        }
        for (int i = 0; i < outcome.latencies().length; i++) {
            int key = outcome.keys()[i];
            if (key < 0) {
                continue;
            }
            samples.computeIfAbsent(new Cell(engine, workload, clients), c -> new LinkedHashMap<>())
                    .computeIfAbsent(key, k -> new ArrayList<>()).add(outcome.latencies()[i]);
        }
    }

    /** One {@link Results.RequestCosts} per (engine, workload, clients) seen, in the order first seen. */
    public synchronized List<Results.RequestCosts> costs() {
        List<Results.RequestCosts> out = new ArrayList<>();
        samples.forEach((cell, byKey) -> out.add(fold(cell.engine(), cell.workload(), cell.clients(), byKey)));
        return out;
    }

    static Results.RequestCosts fold(String engine, String workload, int clients, Map<Integer, List<Long>> byKey) {
        int size = byKey.keySet().stream().mapToInt(Integer::intValue).max().orElse(-1) + 1;
        List<Double> medians = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        long all = 0;
        long tail = 0;
        for (int key = 0; key < size; key++) {
            List<Long> values = byKey.get(key);
            if (values == null || values.isEmpty()) {
                medians.add(null);
                counts.add(0);
                continue;
            }
            long[] ns = values.stream().mapToLong(Long::longValue).toArray();
            Arrays.sort(ns);
            long median = ns[(ns.length - 1) / 2];
            medians.add(median / 1e6);
            counts.add(ns.length);
            all += ns.length;
            for (long v : ns) {
                if (v > TAIL_FACTOR * median) {
                    tail++;
                }
            }
        }
        return new Results.RequestCosts(engine, workload, clients, medians, counts, all == 0 ? 0 : (double) tail / all);
    }

    /**
     * How an engine compares with the faster native engine request by request.
     *
     * @param compared the distinct requests both it and a native engine measured
     * @param slower   how many of them its median is above the faster native median of
     * @param worst    the requests with the highest ratio of its median to the faster native one, highest first
     *                 (at most three)
     */
    public record Comparison(int compared, int slower, List<Worst> worst) {
    }

    /** One distinct request (its index in the workload's set) and the ratio of the medians. */
    public record Worst(int request, double ratio) {
    }

    /** Against the faster native engine per request; empty when no native engine measured this workload. */
    public static Optional<Comparison> compare(Results.RequestCosts engine, List<Results.RequestCosts> natives) {
        if (natives.isEmpty()) {
            return Optional.empty();
        }
        int compared = 0;
        int slower = 0;
        List<Worst> ratios = new ArrayList<>();
        for (int key = 0; key < engine.medianMs().size(); key++) {
            Double own = engine.medianMs().get(key);
            int k = key;
            Double best = natives.stream()
                    .map(n -> k < n.medianMs().size() ? n.medianMs().get(k) : null)
                    .filter(Objects::nonNull).min(Double::compare).orElse(null);
            if (own == null || best == null || best <= 0) {
                continue;
            }
            compared++;
            if (own > best) {
                slower++;
            }
            ratios.add(new Worst(key, own / best));
        }
        if (compared == 0) {
            return Optional.empty();
        }
        ratios.sort((a, b) -> Double.compare(b.ratio(), a.ratio()));
        return Optional.of(new Comparison(compared, slower, List.copyOf(ratios.subList(0, Math.min(3, ratios.size())))));
    }

    /** The median and the largest of the per-request medians, in ms (NaN when none). */
    public static double[] spread(Results.RequestCosts costs) {
        double[] m = costs.medianMs().stream().filter(Objects::nonNull).mapToDouble(Double::doubleValue).sorted()
                .toArray();
        return m.length == 0 ? new double[] {Double.NaN, Double.NaN} : new double[] {m[(m.length - 1) / 2], m[m.length - 1]};
    }
}
