package io.qdrant.esgateway.adapter.out.lucene.aggregation;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.DocValuesType;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.DocIdSetIterator;

/**
 * For one segment and one numeric field: the field's distinct values in ascending order, each with the number of the
 * segment's documents whose value is at most it — so the documents with a value in {@code [lower, upper]} are counted
 * by two binary searches over the distinct values instead of walking the field's point tree (Lucene's
 * {@code PointRangeQuery} count visits every point of the leaf blocks the range's bounds cut: ~2 blocks of 512
 * points per segment and bound).
 *
 * <p>Built from the segment's core (doc values), so it covers deleted documents too: it answers for a reader only
 * while that reader has no deletions. {@link #usable()} is false unless the field has one-dimensional 8-byte points
 * with sorted-numeric doc values next to them and holds at most one value per document in the segment (then a
 * document matches a range exactly when its one value lies in it, as the points answer), and unless the segment has
 * at most the builder's limit of distinct values. The values are the raw doc values — the long itself for integral
 * and date fields, the sortable-long form for doubles — ordered as the points order them; the store writes a numeric
 * field's points and doc values from the same values.
 */
public final class FieldValueCounts implements SegmentRangeCount {
    /** What an entry costs besides its arrays (object headers, the array headers, the cache's key and node). */
    static final long OVERHEAD_BYTES = 128;

    /** An entry that cannot answer (no points/doc values, several values in a document, too many distinct values). */
    static final FieldValueCounts UNUSABLE = new FieldValueCounts(false, new long[0], new int[0]);

    private final boolean usable;
    private final long[] values;
    private final int[] atMost;

    private FieldValueCounts(boolean usable, long[] values, int[] atMost) {
        this.usable = usable;
        this.values = values;
        this.atMost = atMost;
    }

    /**
     * The entry of {@code field} in {@code reader}'s segment; {@link #UNUSABLE} when the field is not a single-valued
     * points + doc-values numeric field in the segment or has more than {@code maxDistinct} distinct values.
     */
    public static FieldValueCounts build(LeafReader reader, String field, int maxDistinct) throws IOException {
        FieldInfo info = reader.getFieldInfos().fieldInfo(field);
        if (info == null) {
            return new FieldValueCounts(true, new long[0], new int[0]); // no document has the field: counts are 0
        }
        if (info.getPointDimensionCount() != 1 || info.getPointNumBytes() != Long.BYTES
                || info.getDocValuesType() != DocValuesType.SORTED_NUMERIC) {
            return UNUSABLE;
        }
        NumericDocValues single = DocValues.unwrapSingleton(DocValues.getSortedNumeric(reader, field));
        if (single == null) {
            return UNUSABLE; // some document of the segment has several values
        }
        long[] all = new long[reader.maxDoc()];
        int n = 0;
        for (int doc = single.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = single.nextDoc()) {
            all[n++] = single.longValue();
        }
        Arrays.sort(all, 0, n);
        int distinct = 0;
        for (int i = 0; i < n; i++) {
            if (i == 0 || all[i] != all[i - 1]) {
                if (++distinct > maxDistinct) {
                    return UNUSABLE;
                }
            }
        }
        long[] values = new long[distinct];
        int[] atMost = new int[distinct];
        int k = -1;
        for (int i = 0; i < n; i++) {
            if (i == 0 || all[i] != all[i - 1]) {
                values[++k] = all[i];
            }
            atMost[k] = i + 1;
        }
        return new FieldValueCounts(true, values, atMost);
    }

    @Override
    public boolean usable() {
        return usable;
    }

    /** How many documents have a value in {@code [lower, upper]} (none when {@code lower > upper}). */
    @Override
    public int count(long lower, long upper) {
        if (lower > upper) {
            return 0;
        }
        return atMostCount(upper) - belowCount(lower);
    }

    /** Documents with a value {@code <= value}. */
    private int atMostCount(long value) {
        int lo = SortedLongs.firstAbove(values, value);
        return lo == 0 ? 0 : atMost[lo - 1];
    }

    /** Documents with a value {@code < value}. */
    private int belowCount(long value) {
        int lo = SortedLongs.firstAtLeast(values, value);
        return lo == 0 ? 0 : atMost[lo - 1];
    }

    /** The heap this entry holds: its arrays and {@link #OVERHEAD_BYTES}. */
    public long bytes() {
        return OVERHEAD_BYTES + (long) values.length * (Long.BYTES + Integer.BYTES);
    }
}
