package io.qdrant.esgateway.adapter.out.lucene.aggregation;

import java.io.IOException;
import org.apache.lucene.index.LeafReader;

/**
 * What one segment keeps to count a numeric range's matches without visiting them ({@link SortedTermValues} for a
 * term and a range, {@link FieldValueCounts} for a range alone); {@link TermRangePages#countFromEntries} sums them.
 */
public interface SegmentRangeCount {
    /** False when the segment's documents do not allow it (e.g. several values in one document). */
    boolean usable();

    /** How many documents have a value in {@code [lower, upper]} (none when {@code lower > upper}). */
    int count(long lower, long upper);

    /** The entry of one segment, or null when it has none (not held, not cacheable, not admitted). */
    @FunctionalInterface
    interface Lookup {
        SegmentRangeCount of(LeafReader reader) throws IOException;
    }
}
