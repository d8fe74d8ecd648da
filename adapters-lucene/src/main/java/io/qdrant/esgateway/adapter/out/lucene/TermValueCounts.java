package io.qdrant.esgateway.adapter.out.lucene;

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
 * For one segment, one keyword field and one numeric field: for every value of the keyword field (by the segment's
 * ordinal), the numeric field's distinct values among that value's documents in ascending order, each with the
 * number of those documents whose value is at most it — so every keyword value's count over a range of the numeric
 * field is two binary searches in its own slice of a few hundred or thousand values, all the keyword values' slices
 * in one entry. {@link RangeTermsCounts} uses it instead of one {@link SortedTermValues} lookup per keyword value and
 * segment (each a cache lookup and two binary searches over all the value's documents).
 *
 * <p>Built from the segment's core (doc values), so it covers deleted documents too: it answers for a reader only
 * while that reader has no deletions. {@link #usable()} is false unless the keyword field's (sorted-set) doc values
 * hold at most one value per document in the segment with at most
 * the builder's limit of distinct values, the numeric field has one-dimensional 8-byte points with sorted-numeric doc
 * values next to them holding at most one value per document (then a document matches a range exactly when its one
 * value lies in it, as the points answer), and the (keyword value, numeric value) pairs are within the builder's
 * limit. Documents with a keyword value and no numeric value are in no slice (they match no range); documents without
 * a keyword value are in none either. The numeric values are the raw doc values — the long itself for integral and
 * date fields, the sortable-long form for doubles — ordered as the points order them; the keyword values are the doc
 * values' terms, which is what the counting collectors read.
 */
final class TermValueCounts {
    /** What an entry costs besides its arrays (object headers, the array headers, the cache's key and node). */
    static final long OVERHEAD_BYTES = 192;

    /** An entry that cannot answer (several values in a document, no points/doc values, too many values or pairs). */
    static final TermValueCounts UNUSABLE = new TermValueCounts(false, new String[0], new int[1], new long[0],
            new int[0], 0);

    private final boolean usable;
    private final String[] terms;
    private final int[] start;
    private final long[] values;
    private final int[] atMost;
    private final int docsWithTerm;

    private TermValueCounts(boolean usable, String[] terms, int[] start, long[] values, int[] atMost,
                            int docsWithTerm) {
        this.usable = usable;
        this.terms = terms;
        this.start = start;
        this.values = values;
        this.atMost = atMost;
        this.docsWithTerm = docsWithTerm;
    }

    /**
     * The entry of {@code termField} and {@code valueField} in {@code reader}'s segment; {@link #UNUSABLE} when
     * either field does not hold at most one value per document as described, the keyword field has more than
     * {@code maxTerms} values or there are more than {@code maxPairs} distinct (keyword value, numeric value) pairs.
     */
    static TermValueCounts build(LeafReader reader, String termField, String valueField, int maxTerms, int maxPairs)
            throws IOException {
        FieldInfo termInfo = reader.getFieldInfos().fieldInfo(termField);
        if (termInfo == null) {
            return new TermValueCounts(true, new String[0], new int[1], new long[0], new int[0], 0);
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
        // every document with both values: its keyword ordinal and its value, then grouped by ordinal
        int maxDoc = reader.maxDoc();
        int[] ords = new int[maxDoc];
        long[] raw = new long[maxDoc];
        int[] perOrd = new int[termCount + 1];
        int both = 0;
        int docsWithTerm = 0;
        for (int doc = keywords.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = keywords.nextDoc()) {
            docsWithTerm++;
            if (numbers == null || !numbers.advanceExact(doc)) {
                continue;
            }
            int ord = keywords.ordValue();
            ords[both] = ord;
            raw[both] = numbers.longValue();
            perOrd[ord + 1]++;
            both++;
        }
        int[] from = new int[termCount + 1];
        for (int ord = 0; ord < termCount; ord++) {
            from[ord + 1] = from[ord] + perOrd[ord + 1];
        }
        int[] next = Arrays.copyOf(from, termCount);
        long[] grouped = new long[both];
        for (int i = 0; i < both; i++) {
            grouped[next[ords[i]]++] = raw[i];
        }
        // per ordinal: sorted, then its distinct values with running counts
        int pairs = 0;
        for (int ord = 0; ord < termCount; ord++) {
            Arrays.sort(grouped, from[ord], from[ord + 1]);
            for (int i = from[ord]; i < from[ord + 1]; i++) {
                if (i == from[ord] || grouped[i] != grouped[i - 1]) {
                    if (++pairs > maxPairs) {
                        return UNUSABLE;
                    }
                }
            }
        }
        long[] values = new long[pairs];
        int[] atMost = new int[pairs];
        int[] start = new int[termCount + 1];
        int k = -1;
        for (int ord = 0; ord < termCount; ord++) {
            start[ord] = k + 1;
            for (int i = from[ord]; i < from[ord + 1]; i++) {
                if (i == from[ord] || grouped[i] != grouped[i - 1]) {
                    values[++k] = grouped[i];
                }
                atMost[k] = i - from[ord] + 1;
            }
        }
        start[termCount] = k + 1;
        String[] terms = new String[termCount];
        for (int ord = 0; ord < termCount; ord++) {
            terms[ord] = keywords.lookupOrd(ord).utf8ToString();
        }
        return new TermValueCounts(true, terms, start, values, atMost, docsWithTerm);
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
        if (lower > upper) {
            return 0;
        }
        int from = start[ord];
        int to = start[ord + 1];
        return atMostCount(from, to, upper) - belowCount(from, to, lower);
    }

    /** Documents of the slice {@code [from, to)} with a value {@code <= value}. */
    private int atMostCount(int from, int to, long value) {
        int lo = from;
        int hi = to;
        while (lo < hi) { // the first distinct value > value
            int mid = (lo + hi) >>> 1;
            if (values[mid] <= value) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo == from ? 0 : atMost[lo - 1];
    }

    /** Documents of the slice {@code [from, to)} with a value {@code < value}. */
    private int belowCount(int from, int to, long value) {
        int lo = from;
        int hi = to;
        while (lo < hi) { // the first distinct value >= value
            int mid = (lo + hi) >>> 1;
            if (values[mid] < value) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo == from ? 0 : atMost[lo - 1];
    }

    /** The heap this entry holds: its arrays, the keyword values' strings and {@link #OVERHEAD_BYTES}. */
    long bytes() {
        long strings = 0;
        for (String term : terms) {
            strings += 56 + 2L * term.length(); // String and byte[] headers, at most two bytes a char
        }
        return OVERHEAD_BYTES + (long) values.length * (Long.BYTES + Integer.BYTES)
                + (long) start.length * Integer.BYTES + (long) terms.length * 8 + strings;
    }
}
