package io.qdrant.esgateway.adapter.out.lucene.aggregation;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.DocValuesType;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.search.DocIdSetIterator;

/**
 * For one segment, one keyword field and one numeric field: the numeric field's distinct values in the segment in
 * ascending order, and for every value of the keyword field (by the segment's ordinal) and every distinct value the
 * number of that keyword value's documents whose numeric value is at most it (one row of running counts per keyword
 * value). A range's two positions among the distinct values are found once (two binary searches per segment); each
 * keyword value's count in the range is then two reads in its row. {@link RangeTermsCounts} uses it instead of one
 * {@link SortedTermValues} lookup per keyword value and segment (each a cache lookup and two binary searches over all
 * the value's documents, which at 1,000,000 documents miss the CPU caches at nearly every step).
 *
 * <p>Built from the segment's core (doc values), so it covers deleted documents too: it answers for a reader only
 * while that reader has no deletions. {@link #usable()} is false unless the keyword field's (sorted-set) doc values
 * hold at most one value per document in the segment with at most the builder's limit of distinct values, the
 * numeric field has one-dimensional 8-byte points with sorted-numeric doc values next to them holding at most one
 * value per document (then a document matches a range exactly when its one value lies in it, as the points answer),
 * and the rows (keyword values × distinct numeric values) are within the builder's limit of cells. Documents with a
 * keyword value and no numeric value are counted in no row (they match no range), nor are documents without a keyword
 * value. The numeric values are the raw doc values — the long itself for integral and date fields, the sortable-long
 * form for doubles — ordered as the points order them; the keyword values are the doc values' terms, which is what
 * the counting collectors read.
 */
public final class TermValueCounts {
    /** What an entry costs besides its arrays (object headers, the array headers, the cache's key and node). */
    static final long OVERHEAD_BYTES = 192;

    /** An entry that cannot answer (several values in a document, no points/doc values, too many values or cells). */
    static final TermValueCounts UNUSABLE = new TermValueCounts(false, new String[0], new long[0], new int[0], 0);

    private final boolean usable;
    private final String[] terms;
    private final long[] values;
    private final int[] atMost;
    private final int docsWithTerm;

    private TermValueCounts(boolean usable, String[] terms, long[] values, int[] atMost, int docsWithTerm) {
        this.usable = usable;
        this.terms = terms;
        this.values = values;
        this.atMost = atMost;
        this.docsWithTerm = docsWithTerm;
    }

    /**
     * The entry of {@code termField} and {@code valueField} in {@code reader}'s segment; {@link #UNUSABLE} when
     * either field does not hold at most one value per document as described, the keyword field has more than
     * {@code maxTerms} values or the keyword values times the distinct numeric values are more than {@code maxCells}.
     */
    public static TermValueCounts build(LeafReader reader, String termField, String valueField, int maxTerms, int maxCells)
            throws IOException {
        FieldInfo termInfo = reader.getFieldInfos().fieldInfo(termField);
        if (termInfo == null) {
            return new TermValueCounts(true, new String[0], new long[0], new int[0], 0);
        }
        SortedDocValues keywords = termInfo.getDocValuesType() == DocValuesType.SORTED_SET
                ? DocValues.unwrapSingleton(reader.getSortedSetDocValues(termField)) : null;
        if (keywords == null || keywords.getValueCount() > maxTerms) {
            return UNUSABLE; // no doc values, several values in some document, or too many values
        }
        int termCount = keywords.getValueCount();
        FieldInfo valueInfo = reader.getFieldInfos().fieldInfo(valueField);
        NumericDocValues numbers = null;
        if (valueInfo != null) {
            if (valueInfo.getPointDimensionCount() != 1 || valueInfo.getPointNumBytes() != Long.BYTES
                    || valueInfo.getDocValuesType() != DocValuesType.SORTED_NUMERIC) {
                return UNUSABLE;
            }
            numbers = DocValues.unwrapSingleton(DocValues.getSortedNumeric(reader, valueField));
            if (numbers == null) {
                return UNUSABLE; // some document of the segment has several values
            }
        }
        // every document with both values: its keyword ordinal and the slot of its value among the distinct ones,
        // stopping as soon as there are more distinct values than the cells allow (no sort of every document's value)
        int maxDistinct = termCount == 0 ? 0 : maxCells / termCount;
        DistinctValues distinct = new DistinctValues(Math.min(reader.maxDoc(), maxDistinct + 1));
        int maxDoc = reader.maxDoc();
        int[] ords = new int[maxDoc];
        int[] slots = new int[maxDoc];
        int both = 0;
        int docsWithTerm = 0;
        for (int doc = keywords.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = keywords.nextDoc()) {
            docsWithTerm++;
            if (numbers == null || !numbers.advanceExact(doc)) {
                continue;
            }
            ords[both] = keywords.ordValue();
            slots[both] = distinct.slot(numbers.longValue());
            if (distinct.size() > maxDistinct) {
                return UNUSABLE;
            }
            both++;
        }
        // the distinct values ascending, then per keyword value and distinct value the documents, then running counts
        long[] values = distinct.sorted();
        int[] position = distinct.positions(values);
        int width = values.length;
        int[] atMost = new int[width * termCount];
        for (int i = 0; i < both; i++) {
            atMost[ords[i] * width + position[slots[i]]]++;
        }
        for (int ord = 0; ord < termCount; ord++) {
            int row = ord * width;
            for (int i = 1; i < width; i++) {
                atMost[row + i] += atMost[row + i - 1];
            }
        }
        String[] terms = new String[termCount];
        for (int ord = 0; ord < termCount; ord++) {
            terms[ord] = keywords.lookupOrd(ord).utf8ToString();
        }
        return new TermValueCounts(true, terms, values, atMost, docsWithTerm);
    }

    boolean usable() {
        return usable;
    }

    /** The keyword field's distinct values in the segment. */
    int termCount() {
        return terms.length;
    }

    /** The keyword value of ordinal {@code ord} ({@code 0 <= ord < termCount()}), in ordinal (byte) order. */
    String term(int ord) {
        return terms[ord];
    }

    /** Documents of the segment (deleted ones included) with a value of the keyword field. */
    int docsWithTerm() {
        return docsWithTerm;
    }

    /** How many documents of keyword value {@code ord} have a numeric value in {@code [lower, upper]}. */
    int count(int ord, long lower, long upper) {
        return lower > upper ? 0 : count(ord, below(lower), atMost(upper));
    }

    /**
     * How many documents of keyword value {@code ord} have one of the distinct values at positions {@code [from, to)}
     * — with {@code from = below(lower)} and {@code to = atMost(upper)}, those in {@code [lower, upper]} when
     * {@code lower <= upper}: the positions are found once per range, then every keyword value's count is two reads.
     */
    int count(int ord, int from, int to) {
        if (from >= to) {
            return 0;
        }
        int row = ord * values.length;
        return atMost[row + to - 1] - (from == 0 ? 0 : atMost[row + from - 1]);
    }

    /** The number of distinct values {@code < value}: the position of the first one {@code >= value}. */
    int below(long value) {
        return SortedLongs.firstAtLeast(values, value);
    }

    /** The number of distinct values {@code <= value}: the position of the first one {@code > value}. */
    int atMost(long value) {
        return SortedLongs.firstAbove(values, value);
    }

    /** The distinct values seen while building: an open-addressing table of at most the capacity it was made for. */
    private static final class DistinctValues {
        private final long[] keys;
        private final boolean[] used;
        private final int shift;
        private int size;

        /** A table for at most {@code capacity} distinct values (kept at most half full). */
        DistinctValues(int capacity) {
            int slots = Integer.highestOneBit(Math.max(8, capacity) * 2 - 1) << 1;
            keys = new long[slots];
            used = new boolean[slots];
            shift = 64 - Integer.numberOfTrailingZeros(slots);
        }

        int size() {
            return size;
        }

        /**
         * The slot of {@code value}, added if new; callers stop when {@link #size()} exceeds the capacity (the table
         * has room for one value more than that).
         */
        int slot(long value) {
            int mask = keys.length - 1;
            int slot = (int) ((value * 0x9E3779B97F4A7C15L) >>> shift);
            while (used[slot]) {
                if (keys[slot] == value) {
                    return slot;
                }
                slot = (slot + 1) & mask;
            }
            used[slot] = true;
            keys[slot] = value;
            size++;
            return slot;
        }

        /** The distinct values in ascending order. */
        long[] sorted() {
            long[] values = new long[size];
            int n = 0;
            for (int slot = 0; slot < keys.length; slot++) {
                if (used[slot]) {
                    values[n++] = keys[slot];
                }
            }
            Arrays.sort(values);
            return values;
        }

        /** For every used slot, the position of its value in {@code sorted}. */
        int[] positions(long[] sorted) {
            int[] position = new int[keys.length];
            for (int slot = 0; slot < keys.length; slot++) {
                if (used[slot]) {
                    position[slot] = Arrays.binarySearch(sorted, keys[slot]);
                }
            }
            return position;
        }
    }

    /** The heap this entry holds: its arrays, the keyword values' strings and {@link #OVERHEAD_BYTES}. */
    public long bytes() {
        long strings = 0;
        for (String term : terms) {
            strings += 56 + 2L * term.length(); // String and byte[] headers, at most two bytes a char
        }
        return OVERHEAD_BYTES + (long) values.length * Long.BYTES + (long) atMost.length * Integer.BYTES
                + (long) terms.length * 8 + strings;
    }
}
