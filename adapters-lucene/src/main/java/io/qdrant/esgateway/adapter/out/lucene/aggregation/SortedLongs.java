package io.qdrant.esgateway.adapter.out.lucene.aggregation;

/** Binary searches over an ascending {@code long[]} (repeated values allowed), for the per-segment value entries. */
final class SortedLongs {
    private SortedLongs() {
    }

    /** The first position whose value is {@code >= value} ({@code sorted.length} when none): how many are below it. */
    static int firstAtLeast(long[] sorted, long value) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < value) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The first position whose value is {@code > value} ({@code sorted.length} when none): how many are at most it. */
    static int firstAbove(long[] sorted, long value) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] <= value) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
