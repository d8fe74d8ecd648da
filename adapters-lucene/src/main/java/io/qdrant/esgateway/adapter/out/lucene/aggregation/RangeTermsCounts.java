package io.qdrant.esgateway.adapter.out.lucene.aggregation;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.BytesRef;
import io.qdrant.esgateway.adapter.out.lucene.cache.TermValueCountsCache;
import io.qdrant.esgateway.adapter.out.lucene.cache.SortedTermValuesCache;

/**
 * Keyword {@code terms} counts over a range query, per segment from {@link SortedTermValues}: when the matches are a
 * pure conjunction of ranges on one numeric field ({@link TermRangePages#rangeOnly}), a keyword value's count in a
 * segment is the number of its documents whose value of that field lies in the range — two binary searches in the
 * value's sorted entry ({@link SortedTermValuesCache}) instead of reading the keyword of every match.
 *
 * <p>A segment answers this way only when all of these hold, else it is left to the collector pass
 * ({@link LuceneCountedAggregations}) unchanged: no deletions; for every keyword field of the plan, the segment's doc
 * values hold at most one value per document (so the matches without a value are the range's count minus the
 * buckets' — none when every document has a value; else the range must count its matches without visiting them,
 * {@code Weight.count}), the field has at most
 * {@link #MAX_TERMS} indexed values in the segment, and every value's entry is held or admitted and usable (a
 * single-valued numeric field for the value's documents). The indexed terms of a keyword field are its doc values
 * (the store writes both from the same values), so the counts are the collectors'; {@code LuceneCountedAggregationsTest}
 * compares them.
 *
 * <p>From the first request that needs it, a (segment, keyword field, numeric field)'s {@link TermValueCounts}
 * (every keyword value's distinct numeric values with running counts, {@link TermValueCountsCache}) answers the whole
 * field in one lookup — the same counts, from the keyword field's doc values, which are what the collectors read;
 * when that entry is unusable, the per-value entries answer as above.
 */
public final class RangeTermsCounts {
    /** Keyword values per segment above which the collector pass is cheaper than one entry per value. */
    public static final int MAX_TERMS = 128;

    private RangeTermsCounts() {
    }

    /** One segment's counts: per keyword field, each value's count and the matches without a value. */
    record SegmentCounts(List<Map<String, Long>> values, long[] withoutValue) {
    }

    /**
     * Counts per segment of {@code searcher} where the segment can answer as described; the segments left out (no
     * entry in the result) are for the collector pass. Empty when {@code matches} is not a range conjunction.
     */
    static Map<LeafReaderContext, SegmentCounts> count(IndexSearcher searcher, Query matches, List<String> keywordFields,
                                                       SortedTermValuesCache cache) throws IOException {
        return count(searcher, matches, keywordFields, cache, TermValueCountsCache.SHARED);
    }

    /**
     * As {@link #count(IndexSearcher, Query, List, SortedTermValuesCache)}; a keyword field of a segment whose
     * {@link TermValueCounts} entry {@code slices} holds (usable) is counted from it — one lookup for all the field's
     * values — and from {@code cache}'s per-value entries otherwise.
     */
    static Map<LeafReaderContext, SegmentCounts> count(IndexSearcher searcher, Query matches, List<String> keywordFields,
                                                       SortedTermValuesCache cache, TermValueCountsCache slices)
            throws IOException {
        var shape = TermRangePages.rangeOnly(matches);
        if (shape.isEmpty()) {
            return Map.of();
        }
        Weight weight = null;
        Map<LeafReaderContext, SegmentCounts> out = new HashMap<>();
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            LeafReader reader = leaf.reader();
            if (reader.hasDeletions()) {
                continue;
            }
            if (weight == null) {
                weight = searcher.createWeight(searcher.rewrite(matches), ScoreMode.COMPLETE_NO_SCORES, 1f);
            }
            SegmentCounts counts = segment(leaf, weight, keywordFields, shape.get(), cache, slices);
            if (counts != null) {
                out.put(leaf, counts);
            }
        }
        return out;
    }

    /**
     * The range's matches in the segment, asked only when a field lacks a value in some document (else every match
     * has exactly one value and is in exactly one bucket); -1 when the range cannot count them without visiting.
     */
    private static final class RangeTotal {
        private final Weight weight;
        private final LeafReaderContext leaf;
        private int total = -2;

        RangeTotal(Weight weight, LeafReaderContext leaf) {
            this.weight = weight;
            this.leaf = leaf;
        }

        int get() throws IOException {
            if (total == -2) {
                total = weight.count(leaf);
            }
            return total;
        }
    }

    private static SegmentCounts segment(LeafReaderContext leaf, Weight weight, List<String> fields,
                                         TermRangePages.Shape range, SortedTermValuesCache cache,
                                         TermValueCountsCache slices) throws IOException {
        LeafReader reader = leaf.reader();
        RangeTotal total = new RangeTotal(weight, leaf);
        List<Map<String, Long>> values = new ArrayList<>(fields.size());
        long[] without = new long[fields.size()];
        for (int f = 0; f < fields.size(); f++) {
            String field = fields.get(f);
            Map<String, Long> counts = new HashMap<>();
            long inBuckets;
            long docsWithValue;
            TermValueCounts all = slices.get(reader, field, range.field());
            if (all != null && all.usable()) {
                inBuckets = countFromRows(all, range, counts);
                docsWithValue = all.docsWithTerm();
            } else {
                SortedSetDocValues docValues = reader.getSortedSetDocValues(field);
                Terms terms = docValues == null ? null : reader.terms(field);
                if (docValues == null) {
                    inBuckets = 0;
                    docsWithValue = 0;
                } else if (DocValues.unwrapSingleton(docValues) == null || terms == null || terms.size() < 0
                        || terms.size() > MAX_TERMS) {
                    return null;
                } else {
                    inBuckets = countPerValue(reader, field, terms, range, cache, counts);
                    if (inBuckets < 0) {
                        return null;
                    }
                    docsWithValue = terms.getDocCount();
                }
            }
            if (docsWithValue == reader.maxDoc()) {
                without[f] = 0; // every document has its one value: every match is in a bucket
            } else if (total.get() < 0) {
                return null;
            } else {
                without[f] = total.get() - inBuckets;
            }
            values.add(counts);
        }
        return new SegmentCounts(values, without);
    }

    /** Counts every keyword value of {@code rows} in {@code range} into {@code counts}; returns their sum. */
    private static long countFromRows(TermValueCounts rows, TermRangePages.Shape range, Map<String, Long> counts) {
        int from = rows.below(range.lower());
        int to = range.lower() > range.upper() ? from : rows.atMost(range.upper());
        long inBuckets = 0;
        for (int ord = 0; ord < rows.termCount(); ord++) {
            int count = rows.count(ord, from, to);
            if (count > 0) {
                counts.put(rows.term(ord), (long) count);
                inBuckets += count;
            }
        }
        return inBuckets;
    }

    /**
     * Counts every indexed value of {@code field} in {@code range} from its per-value entries into {@code counts};
     * returns their sum, or -1 when some value has no usable entry.
     */
    private static long countPerValue(LeafReader reader, String field, Terms terms, TermRangePages.Shape range,
                                      SortedTermValuesCache cache, Map<String, Long> counts) throws IOException {
        long inBuckets = 0;
        TermsEnum each = terms.iterator();
        for (BytesRef term = each.next(); term != null; term = each.next()) {
            SortedTermValues entry = cache.get(reader, new Term(field, term), range.field()); // the cache copies a key it keeps
            if (entry == null || !entry.usable()) {
                return -1;
            }
            int count = entry.count(range.lower(), range.upper());
            if (count > 0) {
                counts.put(term.utf8ToString(), (long) count);
                inBuckets += count;
            }
        }
        return inBuckets;
    }
}
