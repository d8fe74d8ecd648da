package io.qdrant.esgateway.adapter.out.lucene.search;

import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.script.DocReader;
import io.qdrant.esgateway.domain.script.ScoreScript;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.FilterWeight;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.TwoPhaseIterator;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.NumericUtils;

/**
 * Elasticsearch's {@code script_score}: the documents of {@code in}, each scored by a score script over its doc
 * values and the inner score. A negative or NaN script score fails the search, as in Elasticsearch 8. The boost and
 * {@code min_score} are applied around this query ({@link QueryTranslator}).
 */
final class ScriptScoreQuery extends Query {
    private final Query in;
    private final ScoreScript script;
    private final Mappings mappings;
    private final String source;

    ScriptScoreQuery(Query in, ScoreScript script, Mappings mappings, String source) {
        this.in = in;
        this.script = script;
        this.mappings = mappings;
        this.source = source;
    }

    @Override
    public Query rewrite(IndexSearcher searcher) throws IOException {
        Query rewritten = in.rewrite(searcher);
        return rewritten == in ? this : new ScriptScoreQuery(rewritten, script, mappings, source);
    }

    @Override
    public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) throws IOException {
        if (!scoreMode.needsScores()) {
            return in.createWeight(searcher, scoreMode, boost);
        }
        Weight inner = in.createWeight(searcher, ScoreMode.COMPLETE, 1f);
        return new FilterWeight(this, inner) {
            @Override
            public ScorerSupplier scorerSupplier(LeafReaderContext context) throws IOException {
                ScorerSupplier supplier = inner.scorerSupplier(context);
                if (supplier == null) {
                    return null;
                }
                return new ScorerSupplier() {
                    @Override
                    public Scorer get(long leadCost) throws IOException {
                        return new ScriptScorer(supplier.get(leadCost), new LeafDocReader(context, mappings), boost);
                    }

                    @Override
                    public long cost() {
                        return supplier.cost();
                    }
                };
            }

            @Override
            public boolean isCacheable(LeafReaderContext ctx) {
                return false;
            }
        };
    }

    private final class ScriptScorer extends Scorer {
        private final Scorer inner;
        private final LeafDocReader doc;
        private final float boost;

        ScriptScorer(Scorer inner, LeafDocReader doc, float boost) {
            this.inner = inner;
            this.doc = doc;
            this.boost = boost;
        }

        @Override
        public float score() throws IOException {
            int id = inner.docID();
            doc.doc = id;
            float score = (float) script.score(doc, inner.score());
            if (score < 0f || Float.isNaN(score)) {
                throw ScoreScript.invalidScore(score, doc.docId());
            }
            return score * boost;
        }

        @Override
        public int docID() {
            return inner.docID();
        }

        @Override
        public DocIdSetIterator iterator() {
            return inner.iterator();
        }

        @Override
        public TwoPhaseIterator twoPhaseIterator() {
            return inner.twoPhaseIterator();
        }

        @Override
        public float getMaxScore(int upTo) {
            return Float.MAX_VALUE;
        }
    }

    /** The doc values of one segment's current document. */
    static final class LeafDocReader implements DocReader {
        private final LeafReaderContext context;
        private final Mappings mappings;
        int doc = -1;
        private final Map<String, SortedSetDocValues> keywords = new HashMap<>();
        private final Map<String, SortedNumericDocValues> numbers = new HashMap<>();
        private final Map<String, FloatVectorValues> vectors = new HashMap<>();
        private final Map<String, KnnVectorValues.DocIndexIterator> vectorIterators = new HashMap<>();
        private final Map<String, Object> read = new HashMap<>();
        private int readDoc = -1;

        LeafDocReader(LeafReaderContext context, Mappings mappings) {
            this.context = context;
            this.mappings = mappings;
        }

        private Object cached(String key) {
            if (readDoc != doc) {
                read.clear();
                readDoc = doc;
            }
            return read.get(key);
        }

        @Override
        public List<String> keywords(String field) {
            Object hit = cached(field);
            if (hit != null) {
                return castList(hit);
            }
            try {
                SortedSetDocValues values = keywords.get(field);
                if (values == null || values.docID() > doc) {
                    values = DocValues.getSortedSet(context.reader(), field);
                    keywords.put(field, values);
                }
                List<String> out = new ArrayList<>();
                if (values.advanceExact(doc)) {
                    for (int i = 0; i < values.docValueCount(); i++) {
                        out.add(values.lookupOrd(values.nextOrd()).utf8ToString());
                    }
                }
                read.put(field, out);
                return out;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @SuppressWarnings("unchecked")
        private static List<String> castList(Object o) {
            return (List<String>) o;
        }

        private long[] raw(String field) {
            Object hit = cached(field);
            if (hit != null) {
                return (long[]) hit;
            }
            try {
                SortedNumericDocValues values = numbers.get(field);
                if (values == null || values.docID() > doc) {
                    values = DocValues.getSortedNumeric(context.reader(), field);
                    numbers.put(field, values);
                }
                long[] out = new long[0];
                if (values.advanceExact(doc)) {
                    out = new long[values.docValueCount()];
                    for (int i = 0; i < out.length; i++) {
                        out[i] = values.nextValue();
                    }
                }
                read.put(field, out);
                return out;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public long[] longs(String field) {
            return raw(field);
        }

        @Override
        public double[] doubles(String field) {
            long[] raw = raw(field);
            boolean isDouble = mappings.field(field).orElse(null) instanceof FieldMapping.NumberField n
                    && n.numberType() == FieldMapping.NumberType.DOUBLE;
            double[] out = new double[raw.length];
            for (int i = 0; i < raw.length; i++) {
                out[i] = isDouble ? NumericUtils.sortableLongToDouble(raw[i])
                        : NumericUtils.sortableIntToFloat((int) raw[i]);
            }
            return out;
        }

        @Override
        public float[] vector(String field) {
            try {
                FloatVectorValues values = vectors.get(field);
                KnnVectorValues.DocIndexIterator it = vectorIterators.get(field);
                if (values == null || it.docID() > doc) {
                    values = context.reader().getFloatVectorValues(field);
                    if (values == null) {
                        return null;
                    }
                    it = values.iterator();
                    vectors.put(field, values);
                    vectorIterators.put(field, it);
                }
                int at = it.docID() < doc ? it.advance(doc) : it.docID();
                return at == doc ? values.vectorValue(it.index()) : null;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public int docId() {
            return context.docBase + doc;
        }
    }

    @Override
    public void visit(QueryVisitor visitor) {
        in.visit(visitor.getSubVisitor(org.apache.lucene.search.BooleanClause.Occur.MUST, this));
    }

    @Override
    public String toString(String field) {
        return "script_score(" + in.toString(field) + ", script: " + source + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o == this;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }
}
