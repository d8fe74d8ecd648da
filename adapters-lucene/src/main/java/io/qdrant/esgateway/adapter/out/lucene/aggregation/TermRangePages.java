package io.qdrant.esgateway.adapter.out.lucene.aggregation;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.BulkScorer;
import org.apache.lucene.search.CollectionTerminatedException;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.FieldDoc;
import org.apache.lucene.search.FilterLeafCollector;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.LeafCollector;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.PointRangeQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.SortedNumericSortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopFieldCollector;
import org.apache.lucene.search.TopFieldCollectorManager;
import org.apache.lucene.search.TopFieldDocs;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.NumericUtils;
import io.qdrant.esgateway.adapter.out.lucene.cache.FieldValueCountsCache;
import io.qdrant.esgateway.adapter.out.lucene.cache.SortedTermValuesCache;

/**
 * A field-sorted page of a filter conjunction of one term and ranges on the sort's first field, answered from
 * {@link SortedTermValues} instead of visiting every match: the count is two binary searches per segment, and the
 * page is collected from the few documents that can be on it.
 *
 * <p>The shape: the query is a conjunction ({@code must}/{@code filter} clauses of {@link BooleanQuery}s without
 * {@code should}/{@code must_not}, through {@link ConstantScoreQuery}, {@link BoostQuery}, {@link MatchAllDocsQuery}
 * conjuncts) of exactly one {@link TermQuery} and any number of {@link LongPoint} or {@link DoublePoint} range queries
 * on the field the sort's first key sorts by, that key being a {@link SortedNumericSortField} of type {@code LONG}
 * (with {@code LongPoint} ranges) or {@code DOUBLE} (with {@code DoublePoint} ranges); the sort needs no scores. This
 * is the Lucene query {@code QueryTranslator} builds for a {@code bool} filter of a {@code term} and a {@code range}
 * on an integral, date or double field (also inside {@code constant_score}, with a boost, as {@code must}, with the
 * range in a {@code post_filter}).
 *
 * <p>A segment is answered from its entry when its reader has no deletions and its entry is usable (every document of
 * the term has at most one value of the field, and, when the query has no range, every one has a value); other
 * segments ("general") are searched with the query's own weight as {@link IndexSearcher#search} would. The answer is
 * the one {@link TopFieldCollectorManager} gives for the whole query with the same sort, {@code after} and an
 * exact total, because the very same collector is used: it is handed, per segment in index order, either the
 * general segment's matches or, for an entry segment, the matches whose first sort value is at least as good as the
 * {@code n}-th best first sort value among the entry segments' matches strictly after the cursor (every document
 * that can be on the page; its ties included, and every match tied with the cursor's own first value), in doc id
 * order. The collector compares the remaining sort keys, breaks ties by doc id and applies the cursor itself. The
 * total is the entry segments' range counts plus the general segments' collected matches.
 *
 * <p>Totals: with {@code threshold == Integer.MAX_VALUE} the exact total ({@code EQUAL_TO}). With a smaller threshold
 * (only when every segment answers from its entry) the exact total when it is below the threshold, else
 * {@code (threshold, GREATER_THAN_OR_EQUAL_TO)}: what {@code LuceneSearch} renders for both is what it renders for the
 * single pass (an exact total at most the threshold; else the threshold as a lower bound). A total equal to the
 * threshold is left to the single pass, whose relation there depends on how it pruned.
 *
 * <p>{@link #count} answers the count of such a conjunction (a term and at least one range, all on one field, with
 * or without a sort) the same way — used for {@code _count} and the exact total of a {@code size: 0} search.
 */
public final class TermRangePages {
    private TermRangePages() {
    }

    /** The recognised query: the term, the sort field, and the intersection of the ranges as sortable longs. */
    public record Shape(Term term, String field, boolean ranged, long lower, long upper) {
    }

    /**
     * The top {@code n} hits after {@code after} in {@code sort} order with the total as described above; empty when
     * the query or sort has another shape, no segment can answer from its entry, or the total would be ambiguous.
     */
    public static Optional<TopDocs> search(IndexSearcher searcher, Query query, Sort sort, int n, FieldDoc after,
                                    int threshold, SortedTermValuesCache cache) throws IOException {
        SortField first = sort.getSort()[0];
        if (n <= 0 || sort.needsScores()) {
            return Optional.empty();
        }
        Optional<Shape> recognised = shape(query, first);
        if (recognised.isEmpty()) {
            return Optional.empty();
        }
        Shape shape = recognised.get();
        boolean desc = first.getReverse();
        // the matches that may be on the page: the range, cut at the cursor's first value (kept: ties with the
        // cursor are decided by the collector); the matches counted towards n: strictly after the cursor's value
        long lower = shape.lower();
        long upper = shape.upper();
        long countLower = lower;
        long countUpper = upper;
        if (after != null) {
            long cursor = sortable(after.fields[0]);
            if (desc) {
                upper = Math.min(upper, cursor);
                countUpper = cursor == Long.MIN_VALUE ? Long.MIN_VALUE : Math.min(countUpper, cursor - 1);
                countLower = cursor == Long.MIN_VALUE ? Long.MAX_VALUE : countLower;
            } else {
                lower = Math.max(lower, cursor);
                countLower = cursor == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(countLower, cursor + 1);
                countUpper = cursor == Long.MAX_VALUE ? Long.MIN_VALUE : countUpper;
            }
        }

        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        SortedTermValues[] entries = new SortedTermValues[leaves.size()];
        boolean anyEntry = false;
        boolean anyGeneral = false;
        long total = 0;
        for (int i = 0; i < entries.length; i++) {
            LeafReaderContext leaf = leaves.get(i);
            SortedTermValues entry = leaf.reader().getLiveDocs() != null ? null
                    : cache.get(leaf.reader(), shape.term(), shape.field());
            if (entry != null && entry.usable() && (shape.ranged() || entry.missing() == 0)) {
                entries[i] = entry;
                anyEntry = true;
                total += shape.ranged() ? entry.count(shape.lower(), shape.upper()) : entry.size();
            } else {
                anyGeneral = true;
            }
        }
        if (!anyEntry || (anyGeneral && threshold != Integer.MAX_VALUE)) {
            return Optional.empty();
        }

        // the n-th best first value among the entry segments' matches strictly after the cursor
        long[] best = new long[0];
        int held = 0;
        if (countLower <= countUpper) {
            for (SortedTermValues entry : entries) {
                if (entry == null) {
                    continue;
                }
                int from = entry.lowerBound(countLower);
                int to = entry.upperBound(countUpper);
                int take = Math.min(n, to - from);
                if (best.length < held + take) {
                    best = Arrays.copyOf(best, Math.max(held + take, best.length * 2));
                }
                for (int k = 0; k < take; k++) {
                    best[held++] = entry.value(desc ? to - 1 - k : from + k);
                }
            }
        }
        if (held >= n) {
            Arrays.sort(best, 0, held);
            long nth = desc ? best[held - n] : best[n - 1];
            if (desc) {
                lower = Math.max(lower, nth);
            } else {
                upper = Math.min(upper, nth);
            }
        }

        TopFieldCollectorManager manager = new TopFieldCollectorManager(sort, n, after, Integer.MAX_VALUE);
        TopFieldCollector collector = manager.newCollector();
        Weight weight = anyGeneral
                ? searcher.createWeight(searcher.rewrite(query), collector.scoreMode(), 1f) : null;
        long[] generalMatches = {0};
        for (int i = 0; i < entries.length; i++) {
            LeafReaderContext leaf = leaves.get(i);
            LeafCollector leafCollector;
            try {
                leafCollector = collector.getLeafCollector(leaf);
            } catch (CollectionTerminatedException e) {
                return Optional.empty(); // an early-terminating sort (index sort): not this path's business
            }
            SortedTermValues entry = entries[i];
            if (entry != null) {
                int[] docs = candidates(entry, lower, upper);
                leafCollector.setScorer(NO_SCORE);
                for (int doc : docs) {
                    leafCollector.collect(doc);
                }
            } else {
                ScorerSupplier supplier = weight.scorerSupplier(leaf);
                if (supplier != null) {
                    supplier.setTopLevelScoringClause();
                    BulkScorer scorer = supplier.bulkScorer();
                    LeafCollector counting = new FilterLeafCollector(leafCollector) {
                        @Override
                        public void collect(int doc) throws IOException {
                            generalMatches[0]++;
                            super.collect(doc);
                        }
                    };
                    scorer.score(counting, leaf.reader().getLiveDocs(), 0, DocIdSetIterator.NO_MORE_DOCS);
                }
            }
            leafCollector.finish();
        }
        TopFieldDocs top = manager.reduce(List.of(collector));
        total += generalMatches[0];
        TotalHits totalHits;
        if (threshold == Integer.MAX_VALUE || total < threshold) {
            totalHits = new TotalHits(total, TotalHits.Relation.EQUAL_TO);
        } else if (total > threshold) {
            totalHits = new TotalHits(threshold, TotalHits.Relation.GREATER_THAN_OR_EQUAL_TO);
        } else {
            return Optional.empty();
        }
        return Optional.of(new TopFieldDocs(totalHits, top.scoreDocs, top.fields));
    }

    /**
     * The exact number of live documents matching {@code query} when it is a conjunction of one term and ranges on
     * one numeric field ({@link #ranged} with a term) and some segment answers from its entry (two binary searches); the
     * other segments are counted with the query's own weight ({@link Weight#count} where it can, else by visiting
     * their matches). Ranges with no term are counted from {@link FieldValueCountsCache#SHARED} the same way. Empty for
     * any other query, or when no segment has a usable entry.
     */
    public static OptionalLong count(IndexSearcher searcher, Query query, SortedTermValuesCache cache) throws IOException {
        Optional<Shape> recognised = ranged(query);
        if (recognised.isPresent() && recognised.get().term() == null) {
            return FieldValueCountsCache.SHARED.count(searcher, query, recognised.get());
        }
        if (recognised.isEmpty()) {
            return OptionalLong.empty();
        }
        Shape shape = recognised.get();
        return countFromEntries(searcher, query, shape,
                reader -> cache.get(reader, shape.term(), shape.field()));
    }

    /**
     * The exact number of live documents matching {@code query} (of shape {@code shape}): each segment without
     * deletions whose entry ({@code entries}) is usable counts by it, the others with the query's own weight
     * ({@link #countLeaf}). Empty when no segment has a usable entry.
     */
    public static OptionalLong countFromEntries(IndexSearcher searcher, Query query, Shape shape,
                                         SegmentRangeCount.Lookup entries) throws IOException {
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        boolean[] general = new boolean[leaves.size()];
        boolean anyEntry = false;
        long total = 0;
        for (int i = 0; i < general.length; i++) {
            LeafReader reader = leaves.get(i).reader();
            SegmentRangeCount entry = reader.getLiveDocs() != null ? null : entries.of(reader);
            if (entry != null && entry.usable()) {
                total += entry.count(shape.lower(), shape.upper());
                anyEntry = true;
            } else {
                general[i] = true;
            }
        }
        if (!anyEntry) {
            return OptionalLong.empty();
        }
        Weight weight = null;
        for (int i = 0; i < general.length; i++) {
            if (!general[i]) {
                continue;
            }
            if (weight == null) {
                weight = searcher.createWeight(searcher.rewrite(query), ScoreMode.COMPLETE_NO_SCORES, 1f);
            }
            total += countLeaf(weight, leaves.get(i));
        }
        return OptionalLong.of(total);
    }

    /** The live documents of {@code leaf} that {@code weight} matches: its own count when it knows it, else counted. */
    static long countLeaf(Weight weight, LeafReaderContext leaf) throws IOException {
        int known = weight.count(leaf);
        if (known >= 0) {
            return known;
        }
        ScorerSupplier supplier = weight.scorerSupplier(leaf);
        if (supplier == null) {
            return 0;
        }
        long[] matches = {0};
        supplier.setTopLevelScoringClause();
        supplier.bulkScorer().score(new LeafCollector() {
            @Override
            public void setScorer(Scorable scorer) {
            }

            @Override
            public void collect(int doc) {
                matches[0]++;
            }
        }, leaf.reader().getLiveDocs(), 0, DocIdSetIterator.NO_MORE_DOCS);
        return matches[0];
    }

    /** The entry's documents with a value in {@code [lower, upper]}, in doc id order. */
    private static int[] candidates(SortedTermValues entry, long lower, long upper) {
        if (lower > upper) {
            return new int[0];
        }
        int from = entry.lowerBound(lower);
        int to = entry.upperBound(upper);
        int[] docs = new int[Math.max(0, to - from)];
        for (int k = 0; k < docs.length; k++) {
            docs[k] = entry.doc(from + k);
        }
        Arrays.sort(docs);
        return docs;
    }

    private static final Scorable NO_SCORE = new Scorable() {
        @Override
        public float score() {
            return 0f; // never asked: the sort needs no scores
        }
    };

    /** A sort value of the first key as its field's raw doc value (sortable long for doubles). */
    private static long sortable(Object value) {
        return value instanceof Double d ? NumericUtils.doubleToSortableLong(d) : (Long) value;
    }

    // ---------------------------------------------------------------- the shape

    /** The term, the field and the ranges' intersection when {@code query} and {@code first} have the shape. */
    static Optional<Shape> shape(Query query, SortField first) {
        if (first.getClass() != SortedNumericSortField.class) {
            return Optional.empty();
        }
        SortField.Type type = ((SortedNumericSortField) first).getNumericType();
        Class<?> points;
        if (type == SortField.Type.LONG) {
            points = LongPoint.class;
        } else if (type == SortField.Type.DOUBLE) {
            points = DoublePoint.class;
        } else {
            return Optional.empty();
        }
        Conjuncts found = new Conjuncts(first.getField(), points);
        if (!found.add(query) || found.term == null) {
            return Optional.empty();
        }
        return Optional.of(new Shape(found.term, first.getField(), found.ranged, found.lower, found.upper));
    }

    /**
     * The field and the ranges' intersection when {@code query} is a pure conjunction of ranges on one numeric field
     * (long or double points), with no term ({@link Shape#term()} null): what {@link RangeTermsCounts} counts from.
     */
    static Optional<Shape> rangeOnly(Query query) {
        return ranged(query).filter(shape -> shape.term() == null);
    }

    /**
     * The term (or null) and the ranges' intersection when {@code query} is a pure conjunction of at most one term and
     * ranges on one numeric field (long or double points), at least one range: what {@link RangeTermsCounts} counts.
     */
    static Optional<Shape> ranged(Query query) {
        PointRangeQuery first = firstRange(query);
        if (first == null) {
            return Optional.empty();
        }
        Class<?> points = first.getClass().getEnclosingClass();
        if (points != LongPoint.class && points != DoublePoint.class) {
            return Optional.empty();
        }
        Conjuncts found = new Conjuncts(first.getField(), points);
        if (!found.add(query) || !found.ranged) {
            return Optional.empty();
        }
        return Optional.of(new Shape(found.term, first.getField(), true, found.lower, found.upper));
    }

    /** The first point range among the clauses of a conjunction, or null. */
    private static PointRangeQuery firstRange(Query query) {
        return switch (query) {
            case PointRangeQuery r -> r;
            case ConstantScoreQuery c -> firstRange(c.getQuery());
            case BoostQuery b -> firstRange(b.getQuery());
            case BooleanQuery b -> {
                for (BooleanClause c : b.clauses()) {
                    PointRangeQuery r = firstRange(c.query());
                    if (r != null) {
                        yield r;
                    }
                }
                yield null;
            }
            default -> null;
        };
    }

    /** The leaves of a pure conjunction, gathered while they fit the shape. */
    private static final class Conjuncts {
        private final String field;
        private final Class<?> points;
        private Term term;
        private boolean ranged;
        private long lower = Long.MIN_VALUE;
        private long upper = Long.MAX_VALUE;

        Conjuncts(String field, Class<?> points) {
            this.field = field;
            this.points = points;
        }

        /** False when {@code query} is not a conjunction of one term and ranges on the field. */
        boolean add(Query query) {
            return switch (query) {
                // an empty BooleanQuery matches nothing
                case BooleanQuery b -> b.getMinimumNumberShouldMatch() == 0 && !b.clauses().isEmpty()
                        && b.clauses().stream().allMatch(
                        c -> (c.occur() == BooleanClause.Occur.MUST || c.occur() == BooleanClause.Occur.FILTER)
                                && add(c.query()));
                case ConstantScoreQuery c -> add(c.getQuery());
                case BoostQuery b -> add(b.getQuery());
                case MatchAllDocsQuery m -> true;
                case TermQuery t -> {
                    if (term != null) {
                        yield false;
                    }
                    term = t.getTerm();
                    yield true;
                }
                case PointRangeQuery r -> range(r);
                default -> false;
            };
        }

        private boolean range(PointRangeQuery r) {
            if (!r.getField().equals(field) || r.getNumDims() != 1 || r.getBytesPerDim() != Long.BYTES
                    || r.getClass().getEnclosingClass() != points) {
                return false;
            }
            ranged = true;
            lower = Math.max(lower, NumericUtils.sortableBytesToLong(r.getLowerPoint(), 0));
            upper = Math.min(upper, NumericUtils.sortableBytesToLong(r.getUpperPoint(), 0));
            return true;
        }
    }
}
