package io.qdrant.esgateway.adapter.out.lucene.aggregation;

import io.qdrant.esgateway.domain.aggregation.Aggregation;
import io.qdrant.esgateway.domain.aggregation.AggregationPlan;
import io.qdrant.esgateway.domain.aggregation.BucketCounts;
import io.qdrant.esgateway.domain.aggregation.FieldRef;
import io.qdrant.esgateway.domain.aggregation.NamedPartials;
import io.qdrant.esgateway.domain.aggregation.Partial;
import io.qdrant.esgateway.domain.aggregation.TermsCounts;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BulkScorer;
import org.apache.lucene.search.Collector;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.LeafCollector;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Weight;
import io.qdrant.esgateway.adapter.out.lucene.cache.SortedTermValuesCache;
import io.qdrant.esgateway.adapter.out.lucene.search.QueryTranslator;

/**
 * The aggregations of a plan that are answered by counts alone, counted the way Lucene counts fast instead of handing
 * every match to the domain's collectors one by one (what {@link LuceneAggregations} does for everything else):
 *
 * <ul>
 *   <li>{@code terms} without sub-aggregations, ordered by count and/or key, {@code min_doc_count} ≥ 1
 *       ({@link TermsCounts#countable}) on a keyword or integral field (long kinds, date, boolean): one pass over the
 *       matches counts each segment's keyword ordinals in an array (each distinct value of a document once, as
 *       doc values hold them) or each integral value in a map (consecutive duplicates of a document once), plus the
 *       matches without a value; the ordinals become strings once per segment. {@link TermsCounts} then applies
 *       {@code include}/{@code exclude} and {@code missing} as the collectors would;</li>
 *   <li>{@code filter} and {@code filters} without sub-aggregations ({@link BucketCounts#countable}): each bucket is
 *       the count of "matches AND filter" (Lucene's bulk scorer hands a conjunction of bit sets over a window at
 *       a time, counted without visiting documents one by one); the other bucket is the
 *       count of "matches AND NOT (any filter)". Elasticsearch counts such a top-level {@code filters} aggregation
 *       filter by filter too.</li>
 * </ul>
 *
 * The matches are the same query the collectors see (rewritten once, so a kNN section searches once), without
 * scores; the partials equal the collectors' — this changes the cost of an answer, never the answer.
 */
public final class LuceneCountedAggregations {
    /** Keyword ordinals of a segment counted in an array up to this many distinct values, in a map above it. */
    private static final long ORD_ARRAY_LIMIT = 1 << 16;

    private LuceneCountedAggregations() {
    }

    /**
     * Whether counts answer the whole plan: every aggregation a countable {@code terms} on a keyword or integral
     * field, or a {@code filter}/{@code filters} without sub-aggregations; nothing over all documents.
     */
    public static boolean covers(IndexMetadata index, AggregationPlan plan) {
        if (plan.allDocuments().isPresent() || plan.aggregations().isEmpty()) {
            return false;
        }
        for (Aggregation agg : plan.aggregations().values()) {
            boolean countable = switch (agg) {
                case Aggregation.Terms t -> TermsCounts.countable(t)
                        && counted(FieldRef.of(index.name(), t.field(), index.mappings()).kind());
                case Aggregation.Filter f -> BucketCounts.countable(f);
                case Aggregation.Filters f -> BucketCounts.countable(f);
                default -> false;
            };
            if (!countable) {
                return false;
            }
        }
        return true;
    }

    private static boolean counted(FieldRef.ValueKind kind) {
        return switch (kind) {
            case KEYWORD, LONG, DATE, BOOLEAN -> true;
            case DOUBLE, FLOAT, UNMAPPED -> false;
        };
    }

    /** The plan's partials over the documents {@code matches} finds (the plan must be {@link #covers covered}). */
    static NamedPartials aggregate(IndexSearcher searcher, QueryTranslator translator, Query matches,
                                   IndexMetadata index, AggregationPlan plan) throws IOException {
        Query rewritten = searcher.rewrite(matches);
        List<String> termsNames = new ArrayList<>();
        List<FieldRef> termsFields = new ArrayList<>();
        plan.aggregations().forEach((name, agg) -> {
            if (agg instanceof Aggregation.Terms t) {
                termsNames.add(name);
                termsFields.add(FieldRef.of(index.name(), t.field(), index.mappings()));
            }
        });
        List<ValueCounts> terms = termsFields.isEmpty() ? List.of() : termsCounts(searcher, rewritten, termsFields);
        Map<String, Partial> out = new LinkedHashMap<>();
        for (Map.Entry<String, Aggregation> e : plan.aggregations().entrySet()) {
            Partial partial = switch (e.getValue()) {
                case Aggregation.Terms t -> {
                    ValueCounts counts = terms.get(termsNames.indexOf(e.getKey()));
                    yield TermsCounts.partial(index.name(), e.getKey(), t, index.mappings(), counts.values,
                            counts.withoutValue, plan.now());
                }
                case Aggregation.Filter f -> BucketCounts.filter(f,
                        count(searcher, both(rewritten, translator.translate(f.query()))));
                case Aggregation.Filters f -> BucketCounts.filters(f, filterCounts(searcher, translator, rewritten, f));
                default -> throw new IllegalStateException("aggregation [" + e.getKey() + "] is not counted");
            };
            out.put(e.getKey(), partial);
        }
        return new NamedPartials(out);
    }

    /**
     * The terms aggregations' counts: the segments {@link RangeTermsCounts} answers (keyword fields over a range) from
     * their sorted entries, the others by the collector pass.
     */
    private static List<ValueCounts> termsCounts(IndexSearcher searcher, Query rewritten, List<FieldRef> fields)
            throws IOException {
        Map<LeafReaderContext, RangeTermsCounts.SegmentCounts> answered =
                fields.stream().allMatch(f -> f.kind() == FieldRef.ValueKind.KEYWORD)
                        ? RangeTermsCounts.count(searcher, rewritten, fields.stream().map(FieldRef::name).toList(),
                        SortedTermValuesCache.SHARED)
                        : Map.of();
        if (answered.isEmpty()) {
            return searcher.search(rewritten, new TermsCountsManager(fields));
        }
        TermsCountsManager.SliceCollector collector = new TermsCountsManager.SliceCollector(fields);
        Weight weight = null;
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            RangeTermsCounts.SegmentCounts counted = answered.get(leaf);
            if (counted != null) {
                for (int i = 0; i < fields.size(); i++) {
                    ValueCounts out = collector.counts.get(i);
                    counted.values().get(i).forEach((value, count) -> out.values.merge(value, count, Long::sum));
                    out.withoutValue += counted.withoutValue()[i];
                }
                continue;
            }
            if (weight == null) {
                weight = searcher.createWeight(rewritten, ScoreMode.COMPLETE_NO_SCORES, 1f);
            }
            BulkScorer scorer = weight.bulkScorer(leaf);
            if (scorer == null) {
                continue;
            }
            LeafCollector leafCollector = collector.getLeafCollector(leaf);
            scorer.score(leafCollector, leaf.reader().getLiveDocs(), 0, DocIdSetIterator.NO_MORE_DOCS);
            leafCollector.finish();
        }
        return collector.counts;
    }

    private static long[] filterCounts(IndexSearcher searcher, QueryTranslator translator, Query matches,
                                       Aggregation.Filters filters) throws IOException {
        int n = filters.queries().size();
        boolean other = filters.otherBucketKey().isPresent();
        long[] counts = new long[n + (other ? 1 : 0)];
        List<Query> queries = new ArrayList<>(n);
        for (io.qdrant.esgateway.domain.query.Query q : filters.queries()) {
            queries.add(translator.translate(q));
        }
        for (int i = 0; i < n; i++) {
            counts[i] = count(searcher, both(matches, queries.get(i)));
        }
        if (other) {
            BooleanQuery.Builder none = new BooleanQuery.Builder().add(matches, Occur.FILTER);
            queries.forEach(q -> none.add(q, Occur.MUST_NOT));
            counts[n] = count(searcher, none.build());
        }
        return counts;
    }

    /**
     * The live documents {@code query} matches, counted from the bulk scorer's document streams (a conjunction of bit
     * sets is counted a window at a time). Unlike {@link IndexSearcher#count} it does not first ask every segment's
     * {@code Weight.count}, which for a conjunction opens each clause's terms and points only to answer "unknown".
     */
    static long count(IndexSearcher searcher, Query query) throws IOException {
        java.util.OptionalLong termAndRange = TermRangePages.count(searcher, query, SortedTermValuesCache.SHARED);
        if (termAndRange.isPresent()) {
            return termAndRange.getAsLong();
        }
        java.util.OptionalLong terms = TermConjunctionCounts.SHARED.count(searcher, query);
        if (terms.isPresent()) {
            return terms.getAsLong();
        }
        return searcher.search(query, new CollectorManager<StreamCounter, Long>() {
            @Override
            public StreamCounter newCollector() {
                return new StreamCounter();
            }

            @Override
            public Long reduce(Collection<StreamCounter> counters) {
                long total = 0;
                for (StreamCounter c : counters) {
                    total += c.count;
                }
                return total;
            }
        });
    }

    /** Counts the documents it is given, a stream at a time where the scorer hands out streams. */
    private static final class StreamCounter implements Collector {
        long count;

        @Override
        public LeafCollector getLeafCollector(LeafReaderContext context) {
            return new LeafCollector() {
                @Override
                public void setScorer(Scorable scorer) {
                }

                @Override
                public void collect(int doc) {
                    count++;
                }

                @Override
                public void collect(org.apache.lucene.search.DocIdStream stream) throws IOException {
                    count += stream.count();
                }
            };
        }

        @Override
        public ScoreMode scoreMode() {
            return ScoreMode.COMPLETE_NO_SCORES;
        }
    }

    private static Query both(Query matches, Query filter) {
        return new BooleanQuery.Builder().add(matches, Occur.FILTER).add(filter, Occur.FILTER).build();
    }

    /** One terms aggregation's counts so far: each value's matching documents, and the matches without a value. */
    private static final class ValueCounts {
        final Map<Object, Long> values = new HashMap<>();
        long withoutValue;

        void add(ValueCounts other) {
            other.values.forEach((k, c) -> values.merge(k, c, Long::sum));
            withoutValue += other.withoutValue;
        }
    }

    /** Counts the values of the terms aggregations' fields over the matches, one collector per slice. */
    private record TermsCountsManager(List<FieldRef> fields)
            implements CollectorManager<TermsCountsManager.SliceCollector, List<ValueCounts>> {

        @Override
        public SliceCollector newCollector() {
            return new SliceCollector(fields);
        }

        @Override
        public List<ValueCounts> reduce(Collection<SliceCollector> collectors) {
            List<ValueCounts> out = new ArrayList<>();
            for (int i = 0; i < fields.size(); i++) {
                ValueCounts merged = new ValueCounts();
                for (SliceCollector c : collectors) {
                    merged.add(c.counts.get(i));
                }
                out.add(merged);
            }
            return out;
        }

        static final class SliceCollector implements Collector {
            private final List<FieldRef> fields;
            final List<ValueCounts> counts = new ArrayList<>();

            SliceCollector(List<FieldRef> fields) {
                this.fields = fields;
                fields.forEach(f -> counts.add(new ValueCounts()));
            }

            @Override
            public LeafCollector getLeafCollector(LeafReaderContext context) throws IOException {
                SegmentCounter[] counters = new SegmentCounter[fields.size()];
                for (int i = 0; i < counters.length; i++) {
                    FieldRef field = fields.get(i);
                    counters[i] = field.kind() == FieldRef.ValueKind.KEYWORD
                            ? new KeywordCounter(context, field, counts.get(i))
                            : new IntegralCounter(context, field, counts.get(i));
                }
                return new LeafCollector() {
                    @Override
                    public void setScorer(Scorable scorer) {
                    }

                    @Override
                    public void collect(int doc) throws IOException {
                        for (SegmentCounter c : counters) {
                            c.collect(doc);
                        }
                    }

                    @Override
                    public void finish() throws IOException {
                        for (SegmentCounter c : counters) {
                            c.finish();
                        }
                    }
                };
            }

            @Override
            public ScoreMode scoreMode() {
                return ScoreMode.COMPLETE_NO_SCORES;
            }
        }
    }

    /** One field's counts in one segment, added to the slice's {@link ValueCounts} when the segment is done. */
    private sealed interface SegmentCounter permits KeywordCounter, IntegralCounter {
        void collect(int doc) throws IOException;

        void finish() throws IOException;
    }

    /**
     * Keyword values by segment ordinal. A sorted set holds each distinct value of a document once, in the order
     * {@link io.qdrant.esgateway.domain.aggregation.AggregationDoc#keywords} gives them, so each is counted once.
     */
    private static final class KeywordCounter implements SegmentCounter {
        private final SortedSetDocValues values;
        private final SortedDocValues single;
        private final long[] byOrd;
        private final Map<Long, long[]> byOrdLarge;
        private final ValueCounts out;
        private long without;

        KeywordCounter(LeafReaderContext context, FieldRef field, ValueCounts out) throws IOException {
            this.values = DocValues.getSortedSet(context.reader(), field.name());
            this.single = DocValues.unwrapSingleton(values);
            long count = values.getValueCount();
            this.byOrd = count <= ORD_ARRAY_LIMIT ? new long[(int) count] : null;
            this.byOrdLarge = byOrd == null ? new HashMap<>() : null;
            this.out = out;
        }

        @Override
        public void collect(int doc) throws IOException {
            if (single != null) {
                if (single.advanceExact(doc)) {
                    count(single.ordValue());
                } else {
                    without++;
                }
                return;
            }
            if (!values.advanceExact(doc)) {
                without++;
                return;
            }
            for (int i = values.docValueCount(); i > 0; i--) {
                count(values.nextOrd());
            }
        }

        private void count(long ord) {
            if (byOrd != null) {
                byOrd[(int) ord]++;
            } else {
                byOrdLarge.computeIfAbsent(ord, o -> new long[1])[0]++;
            }
        }

        @Override
        public void finish() throws IOException {
            if (byOrd != null) {
                for (int ord = 0; ord < byOrd.length; ord++) {
                    if (byOrd[ord] > 0) {
                        out.values.merge(term(ord), byOrd[ord], Long::sum);
                    }
                }
            } else {
                for (Map.Entry<Long, long[]> e : byOrdLarge.entrySet()) {
                    out.values.merge(term(e.getKey()), e.getValue()[0], Long::sum);
                }
            }
            out.withoutValue += without;
        }

        private String term(long ord) throws IOException {
            return single != null ? single.lookupOrd((int) ord).utf8ToString() : values.lookupOrd(ord).utf8ToString();
        }
    }

    /**
     * Integral values (long kinds, date millis, boolean 0/1) as Longs. Doc values hold a document's values sorted
     * with duplicates; a value repeated in a row is counted once per document, as the collectors count it.
     */
    private static final class IntegralCounter implements SegmentCounter {
        private final SortedNumericDocValues values;
        private final NumericDocValues single;
        private final Map<Long, long[]> counts = new HashMap<>();
        private final ValueCounts out;
        private long without;

        IntegralCounter(LeafReaderContext context, FieldRef field, ValueCounts out) throws IOException {
            this.values = DocValues.getSortedNumeric(context.reader(), field.name());
            this.single = DocValues.unwrapSingleton(values);
            this.out = out;
        }

        @Override
        public void collect(int doc) throws IOException {
            if (single != null) {
                if (single.advanceExact(doc)) {
                    count(single.longValue());
                } else {
                    without++;
                }
                return;
            }
            if (!values.advanceExact(doc)) {
                without++;
                return;
            }
            long previous = 0;
            for (int i = 0, n = values.docValueCount(); i < n; i++) {
                long value = values.nextValue();
                if (i == 0 || value != previous) {
                    count(value);
                }
                previous = value;
            }
        }

        private void count(long value) {
            counts.computeIfAbsent(value, v -> new long[1])[0]++;
        }

        @Override
        public void finish() {
            counts.forEach((value, c) -> out.values.merge(value, c[0], Long::sum));
            out.withoutValue += without;
        }
    }
}
