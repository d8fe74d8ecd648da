package io.qdrant.esgateway.adapter.out.lucene.aggregation;

import io.qdrant.esgateway.domain.aggregation.AggregationDoc;
import io.qdrant.esgateway.domain.aggregation.AggregationPlan;
import io.qdrant.esgateway.domain.aggregation.FieldRef;
import io.qdrant.esgateway.domain.aggregation.NamedCollectors;
import io.qdrant.esgateway.domain.aggregation.NamedPartials;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.search.SearchRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.search.Collector;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.LeafCollector;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.NumericUtils;
import io.qdrant.esgateway.adapter.out.lucene.search.LuceneSearch;
import io.qdrant.esgateway.adapter.out.lucene.search.QueryTranslator;
import io.qdrant.esgateway.adapter.out.lucene.encoding.FieldEncoding;

/**
 * Aggregations on the embedded store, natively: the request's matches (its query with the kNN sections and
 * {@code min_score}, without {@code post_filter}) are collected segment by segment, each document's values read
 * from the doc values written by {@link FieldEncoding} and handed to the domain's collectors, and each slice's
 * partials merged with the domain's reducers. Filter queries of the plan are tested per document with their own
 * iterators (documents arrive in increasing order within a segment). A plan that counts alone (countable
 * {@code terms}, {@code filter}/{@code filters} without sub-aggregations) is counted by
 * {@link LuceneCountedAggregations} instead, with the same partials.
 */
public final class LuceneAggregations {
    private LuceneAggregations() {
    }

    public static NamedPartials aggregate(IndexReader reader, IndexMetadata index, SearchRequest request,
                                   AggregationPlan plan) throws IOException {
        IndexSearcher searcher = LuceneSearch.searcher(reader, index);
        QueryTranslator translator = new QueryTranslator(index, reader, LuceneSearch.now());
        org.apache.lucene.search.Query query = LuceneSearch.aggregationQuery(translator, request);
        if (LuceneCountedAggregations.covers(index, plan)) {
            return LuceneCountedAggregations.aggregate(searcher, translator, query, index, plan);
        }
        List<Weight> filters = new ArrayList<>();
        for (io.qdrant.esgateway.domain.query.Query filter : plan.filters()) {
            filters.add(searcher.createWeight(searcher.rewrite(translator.translate(filter)),
                    ScoreMode.COMPLETE_NO_SCORES, 1f));
        }
        ScoreMode mode = plan.needsScores() ? ScoreMode.COMPLETE : ScoreMode.COMPLETE_NO_SCORES;
        return searcher.search(query, new CollectorManager<PartitionCollector, NamedPartials>() {
            @Override
            public PartitionCollector newCollector() {
                return new PartitionCollector(plan, filters, mode);
            }

            @Override
            public NamedPartials reduce(Collection<PartitionCollector> collectors) {
                List<NamedPartials> partials = new ArrayList<>();
                collectors.forEach(c -> partials.add(c.collectors.partial()));
                return NamedPartials.mergeAll(partials);
            }
        });
    }

    /** Collects one slice of segments into one set of domain collectors. */
    private static final class PartitionCollector implements Collector {
        final NamedCollectors collectors;
        private final AggregationPlan plan;
        private final List<Weight> filters;
        private final ScoreMode mode;

        PartitionCollector(AggregationPlan plan, List<Weight> filters, ScoreMode mode) {
            this.plan = plan;
            this.filters = filters;
            this.mode = mode;
            this.collectors = plan.newCollectors();
        }

        @Override
        public LeafCollector getLeafCollector(LeafReaderContext context) throws IOException {
            SegmentDoc doc = new SegmentDoc(context, plan.fields(), filters);
            return new LeafCollector() {
                @Override
                public void setScorer(Scorable scorer) {
                    doc.scorer = scorer;
                }

                @Override
                public void collect(int id) throws IOException {
                    doc.moveTo(id);
                    collectors.collect(doc);
                }
            };
        }

        @Override
        public ScoreMode scoreMode() {
            return mode;
        }
    }

    /** The current document of a segment, read from doc values on demand. */
    private static final class SegmentDoc implements AggregationDoc {
        private final Map<String, Column> columns = new HashMap<>();
        private final DocIdSetIterator[] filters;
        private final LeafReaderContext context;
        private int doc = -1;
        Scorable scorer;

        SegmentDoc(LeafReaderContext context, Collection<FieldRef> fields, List<Weight> weights) throws IOException {
            this.context = context;
            for (FieldRef field : fields) {
                columns.put(field.name(), new Column(context, field));
            }
            filters = new DocIdSetIterator[weights.size()];
            for (int i = 0; i < weights.size(); i++) {
                Scorer scorer = weights.get(i).scorer(context);
                filters[i] = scorer == null ? DocIdSetIterator.empty() : scorer.iterator();
            }
        }

        /** The columns load lazily for the current document: each remembers which document it holds. */
        void moveTo(int id) {
            doc = id;
        }

        private Column column(String field) {
            Column c = columns.get(field);
            if (c == null) {
                throw new IllegalStateException("field [" + field + "] was not planned");
            }
            try {
                c.load(doc);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return c;
        }

        @Override
        public String[] keywords(String field) {
            return column(field).keywords;
        }

        @Override
        public long[] longs(String field) {
            return column(field).longs;
        }

        @Override
        public double[] doubles(String field) {
            return column(field).doubles;
        }

        @Override
        public boolean matches(int filter) {
            DocIdSetIterator it = filters[filter];
            try {
                if (it.docID() < doc) {
                    it.advance(doc);
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return it.docID() == doc;
        }

        @Override
        public float score() {
            try {
                return scorer == null ? Float.NaN : scorer.score();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        /** The reader-wide doc id (segment base + segment doc id): Lucene's index order. */
        @Override
        public long position() {
            return (long) context.docBase + doc;
        }

        /** Reads the stored _id and _source of this document when called (the segment's reader is still open). */
        @Override
        public java.util.function.Supplier<io.qdrant.esgateway.domain.document.StoredDocument> stored() {
            int id = doc;
            return () -> {
                try {
                    return FieldEncoding.decode(context.reader().storedFields().document(id, FieldEncoding.STORED));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            };
        }
    }

    private static final String[] NO_KEYWORDS = new String[0];
    private static final long[] NO_LONGS = new long[0];
    private static final double[] NO_DOUBLES = new double[0];

    /** One field's doc values in a segment, decoded for the current document. */
    /**
     * One field's doc values in a segment, decoded for the current document. Keyword ordinals are decoded to strings
     * once per segment (the same String instance each time, so collectors' hash lookups reuse its cached hash), and
     * the value arrays of the usual small lengths are reused from document to document, as {@link AggregationDoc}
     * allows: this changes the cost of collecting, never the values.
     */
    private static final class Column {
        private static final int REUSED_LENGTHS = 8;
        private static final int ORD_ARRAY_LIMIT = 1 << 16;

        private final FieldRef field;
        private final SortedSetDocValues ords;
        private final SortedNumericDocValues numbers;
        private final String[] byOrd;
        private final Map<Long, String> byOrdLarge;
        private final String[][] keywordBuffers = new String[REUSED_LENGTHS + 1][];
        private final long[][] longBuffers = new long[REUSED_LENGTHS + 1][];
        private final double[][] doubleBuffers = new double[REUSED_LENGTHS + 1][];
        /** The document whose values the arrays hold (-1: none yet). */
        private int loadedDoc = -1;
        String[] keywords = NO_KEYWORDS;
        long[] longs = NO_LONGS;
        double[] doubles = NO_DOUBLES;

        Column(LeafReaderContext context, FieldRef field) throws IOException {
            this.field = field;
            if (field.kind() == FieldRef.ValueKind.KEYWORD) {
                ords = DocValues.getSortedSet(context.reader(), field.name());
                numbers = null;
                long count = ords.getValueCount();
                byOrd = count <= ORD_ARRAY_LIMIT ? new String[(int) count] : null;
                byOrdLarge = byOrd == null ? new HashMap<>() : null;
            } else {
                ords = null;
                numbers = DocValues.getSortedNumeric(context.reader(), field.name());
                byOrd = null;
                byOrdLarge = null;
            }
        }

        private String term(long ord) throws IOException {
            if (byOrd != null) {
                String s = byOrd[(int) ord];
                if (s == null) {
                    s = ords.lookupOrd(ord).utf8ToString();
                    byOrd[(int) ord] = s;
                }
                return s;
            }
            String s = byOrdLarge.get(ord);
            if (s == null) {
                s = ords.lookupOrd(ord).utf8ToString();
                byOrdLarge.put(ord, s);
            }
            return s;
        }

        void load(int doc) throws IOException {
            if (loadedDoc == doc) {
                return;
            }
            loadedDoc = doc;
            if (ords != null) {
                if (!ords.advanceExact(doc)) {
                    keywords = NO_KEYWORDS;
                    return;
                }
                int n = ords.docValueCount();
                keywords = n <= REUSED_LENGTHS ? reuse(keywordBuffers, n) : new String[n];
                for (int i = 0; i < n; i++) {
                    keywords[i] = term(ords.nextOrd());
                }
                return;
            }
            if (!numbers.advanceExact(doc)) {
                longs = NO_LONGS;
                doubles = NO_DOUBLES;
                return;
            }
            int n = numbers.docValueCount();
            if (n <= REUSED_LENGTHS) {
                if (longBuffers[n] == null) {
                    longBuffers[n] = new long[n];
                    doubleBuffers[n] = new double[n];
                }
                longs = longBuffers[n];
                doubles = doubleBuffers[n];
            } else {
                longs = new long[n];
                doubles = new double[n];
            }
            for (int i = 0; i < n; i++) {
                long raw = numbers.nextValue();
                switch (field.kind()) {
                    case DOUBLE -> {
                        doubles[i] = NumericUtils.sortableLongToDouble(raw);
                        longs[i] = (long) doubles[i];
                    }
                    case FLOAT -> {
                        doubles[i] = NumericUtils.sortableIntToFloat((int) raw);
                        longs[i] = (long) doubles[i];
                    }
                    default -> {
                        longs[i] = raw;
                        doubles[i] = raw;
                    }
                }
            }
        }

        private static String[] reuse(String[][] buffers, int n) {
            if (buffers[n] == null) {
                buffers[n] = new String[n];
            }
            return buffers[n];
        }
    }
}
