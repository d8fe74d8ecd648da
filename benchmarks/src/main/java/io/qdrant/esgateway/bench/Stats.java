package io.qdrant.esgateway.bench;

import java.util.Arrays;
import java.util.List;

/** Nearest-rank percentiles and medians: no interpolation, so a reported latency is one that was measured. */
public final class Stats {
    private Stats() {
    }

    public static double percentile(long[] values, double quantile) {
        if (values.length == 0) {
            return Double.NaN;
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(quantile * sorted.length);
        return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
    }

    /** The median of trial values (the lower middle for an even count, again a measured value). */
    public static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted.length == 0 ? Double.NaN : sorted[(sorted.length - 1) / 2];
    }
}
