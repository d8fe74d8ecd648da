package io.qdrant.esgateway.bench;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The gateway's per-request own time as a Prometheus histogram ({@code qeg_request_own_seconds_bucket}, summed over
 * every {@code api} but the scrape itself): cumulative counts by upper bound in seconds, the {@code +Inf} bucket
 * included. Taken before and after a cell, the difference is the cell's distribution, and {@link #quantile} reads a p50
 * or p95 from it.
 *
 * @param cumulative upper bound (s) → requests at or below it; {@code +Inf} as {@link Double#POSITIVE_INFINITY}
 */
public record OwnTimeHistogram(SortedMap<Double, Double> cumulative) {
    public static final OwnTimeHistogram EMPTY = new OwnTimeHistogram(new TreeMap<>());

    public OwnTimeHistogram {
        cumulative = new TreeMap<>(cumulative);
    }

    /** The requests counted between {@code before} and this (a bound absent before counted 0 then). */
    public OwnTimeHistogram since(OwnTimeHistogram before) {
        SortedMap<Double, Double> out = new TreeMap<>();
        for (Map.Entry<Double, Double> e : cumulative.entrySet()) {
            out.put(e.getKey(), e.getValue() - before.cumulative.getOrDefault(e.getKey(), 0.0));
        }
        return new OwnTimeHistogram(out);
    }

    /** The counts of this and {@code other} together (two processes' histograms with the same bounds). */
    public OwnTimeHistogram plus(OwnTimeHistogram other) {
        SortedMap<Double, Double> out = new TreeMap<>(cumulative);
        other.cumulative.forEach((bound, count) -> out.merge(bound, count, Double::sum));
        return new OwnTimeHistogram(out);
    }

    /** How many requests it holds (the {@code +Inf} bucket). */
    public double count() {
        return cumulative.isEmpty() ? 0 : cumulative.get(cumulative.lastKey());
    }

    /**
     * The {@code quantile} (0–1) in milliseconds, nearest rank: the upper bound of the bucket that holds the request of
     * rank ⌈quantile · count⌉ — never below the true value, at most one bucket width above it (5 µs up to 200 µs).
     * {@code null} without requests, or when that request is beyond the last finite bound.
     */
    public Double quantileMs(double quantile) {
        double n = count();
        if (n <= 0) {
            return null;
        }
        double rank = Math.max(1, Math.ceil(quantile * n));
        for (Map.Entry<Double, Double> e : cumulative.entrySet()) {
            if (e.getValue() >= rank) {
                return e.getKey().isInfinite() ? null : e.getKey() * 1000;
            }
        }
        return null;
    }

    /** Adds one sample line's count to bound {@code le} (the text of the label, e.g. {@code 1.0E-4} or {@code +Inf}). */
    static void add(SortedMap<Double, Double> into, String le, double count) {
        double bound = le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
        into.merge(bound, count, Double::sum);
    }
}
