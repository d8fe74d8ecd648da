package io.qdrant.esgateway.adapter.out.lucene.search;

import java.io.IOException;
import org.apache.lucene.index.LeafReaderContext;
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

/** ES's {@code min_score}: the documents of {@code in} whose score is at least {@code min} (for hits and totals). */
final class MinScoreQuery extends Query {
    private final Query in;
    private final float min;

    MinScoreQuery(Query in, float min) {
        this.in = in;
        this.min = min;
    }

    @Override
    public Query rewrite(IndexSearcher searcher) throws IOException {
        Query rewritten = in.rewrite(searcher);
        return rewritten == in ? this : new MinScoreQuery(rewritten, min);
    }

    @Override
    public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) throws IOException {
        Weight inner = in.createWeight(searcher, ScoreMode.COMPLETE, boost);
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
                        return new MinScoreScorer(supplier.get(leadCost), min);
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

    private static final class MinScoreScorer extends Scorer {
        private final Scorer in;
        private final TwoPhaseIterator twoPhase;

        MinScoreScorer(Scorer in, float min) {
            this.in = in;
            TwoPhaseIterator inner = in.twoPhaseIterator();
            DocIdSetIterator approximation = inner == null ? in.iterator() : inner.approximation();
            this.twoPhase = new TwoPhaseIterator(approximation) {
                @Override
                public boolean matches() throws IOException {
                    return (inner == null || inner.matches()) && in.score() >= min;
                }

                @Override
                public float matchCost() {
                    return 1000f;
                }
            };
        }

        @Override
        public int docID() {
            return in.docID();
        }

        @Override
        public DocIdSetIterator iterator() {
            return TwoPhaseIterator.asDocIdSetIterator(twoPhase);
        }

        @Override
        public TwoPhaseIterator twoPhaseIterator() {
            return twoPhase;
        }

        @Override
        public float getMaxScore(int upTo) throws IOException {
            return in.getMaxScore(upTo);
        }

        @Override
        public float score() throws IOException {
            return in.score();
        }
    }

    @Override
    public void visit(QueryVisitor visitor) {
        in.visit(visitor.getSubVisitor(org.apache.lucene.search.BooleanClause.Occur.MUST, this));
    }

    @Override
    public String toString(String field) {
        return "min_score(" + in.toString(field) + ", " + min + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MinScoreQuery other && other.in.equals(in) && other.min == min;
    }

    @Override
    public int hashCode() {
        return 31 * in.hashCode() + Float.hashCode(min);
    }
}
