package io.qdrant.esgateway.adapter.out.lucene.search;

import java.io.IOException;
import java.util.OptionalLong;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.FieldDoc;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.SortedNumericSortField;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopFieldCollectorManager;
import org.apache.lucene.search.TopFieldDocs;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.search.Weight;

/**
 * The top {@code n} hits of a field-sorted search, and how many documents match: the same {@link TopDocs} as one
 * {@link TopFieldCollectorManager} pass with the given total-hits threshold, computed without visiting every match
 * where Lucene can count without visiting them.
 *
 * <p>A collector that must count every match (an exact total) has to visit every match, so Lucene's numeric sort
 * cannot skip the documents that are no longer competitive: it prunes through the sort field's points only once the
 * total-hits threshold is reached. When the total is asked exactly, the first sort key is a plain numeric sort on a
 * field with points, and every segment can count the query's matches from its index structures without visiting them
 * ({@link Weight#count}: a match-all query, a term without deletions, a single range on a single-valued field, a
 * query the query cache holds, …) and there are at least {@link #MIN_MATCHES_TO_PRUNE} of them, the search runs as
 * that count plus a top-{@code n} collection with a total-hits threshold of {@code n}, which skips the documents that
 * cannot enter the page. Both see the same reader and query, so the hits (ids, order, sort values) equal the single
 * pass's — pruning leaves out only documents that cannot be competitive — and the total is the exact count with
 * relation {@code EQUAL_TO}, as the single pass reports it. In
 * every other case (an approximate or no total; a score, {@code _doc}, keyword or reduced-mode first key; a field
 * without points; a query some segment cannot count cheaply, such as a conjunction; few matches) the single pass
 * runs unchanged: there an extra counting pass would cost as much as the pass it tries to shorten.
 */
final class SortedTopDocs {
    /**
     * Fewer matches than this are collected in the single pass even when they could be counted: building the
     * competitive iterators from the points costs more than comparing a few thousand sort values (measured on the
     * benchmark corpus: the pruned pass is slower at 10,000 matches, faster at 50,000).
     */
    static final long MIN_MATCHES_TO_PRUNE = 32_768;

    private SortedTopDocs() {
    }

    /**
     * The top {@code n} hits after {@code after} (null: from the start) in {@code sort} order; the total counted up to
     * {@code threshold} exactly as {@link TopFieldCollectorManager} counts it ({@code Integer.MAX_VALUE}: every
     * match).
     */
    static TopDocs search(IndexSearcher searcher, Query query, Sort sort, int n, FieldDoc after, int threshold)
            throws IOException {
        return search(searcher, query, sort, n, after, threshold, MIN_MATCHES_TO_PRUNE);
    }

    /** {@link #search(IndexSearcher, Query, Sort, int, FieldDoc, int)} pruning from {@code minMatches} matches on. */
    static TopDocs search(IndexSearcher searcher, Query query, Sort sort, int n, FieldDoc after, int threshold,
                          long minMatches) throws IOException {
        Query rewritten = query;
        if (threshold == Integer.MAX_VALUE && pointPrunable(searcher, sort.getSort()[0])) {
            // rewritten once for both passes: a kNN section's rewrite runs its vector search
            rewritten = searcher.rewrite(query);
            OptionalLong count = countWithoutVisiting(searcher, rewritten);
            if (count.isPresent() && count.getAsLong() >= minMatches) {
                TopFieldDocs top = searcher.search(rewritten, new TopFieldCollectorManager(sort, n, after, n));
                return new TopFieldDocs(new TotalHits(count.getAsLong(), TotalHits.Relation.EQUAL_TO), top.scoreDocs,
                        top.fields);
            }
        }
        return searcher.search(rewritten, new TopFieldCollectorManager(sort, n, after, threshold));
    }

    /** A plain numeric sort (min or max of the values) on a field that has one-dimensional points in some segment. */
    static boolean pointPrunable(IndexSearcher searcher, SortField first) {
        if (first.getClass() != SortedNumericSortField.class) {
            return false;
        }
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            FieldInfo info = leaf.reader().getFieldInfos().fieldInfo(first.getField());
            if (info != null && info.getPointDimensionCount() == 1) {
                return true;
            }
        }
        return false;
    }

    /**
     * The exact number of live documents matching {@code query} when every segment can tell it without visiting the
     * matches ({@link Weight#count} of each leaf), else empty.
     */
    static OptionalLong countWithoutVisiting(IndexSearcher searcher, Query query) throws IOException {
        Weight weight = searcher.createWeight(searcher.rewrite(query), ScoreMode.COMPLETE_NO_SCORES, 1f);
        long total = 0;
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            int count = weight.count(leaf);
            if (count < 0) {
                return OptionalLong.empty();
            }
            total += count;
        }
        return OptionalLong.of(total);
    }
}
