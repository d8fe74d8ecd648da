package io.qdrant.esgateway.adapter.out.lucene.search;

import java.io.IOException;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TwoPhaseIterator;
import org.apache.lucene.search.Weight;

/** ES's {@code min_score}: the documents of {@code in} whose score is at least {@code min} (for hits and totals). */
final class MinScoreQuery extends InnerScoringQuery {
    private final float min;

    MinScoreQuery(Query in, float min) {
        super(in);
        this.min = min;
    }

    @Override
    public Query rewrite(IndexSearcher searcher) throws IOException {
        Query rewritten = in.rewrite(searcher);
        return rewritten == in ? this : new MinScoreQuery(rewritten, min);
    }

    @Override
    public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) throws IOException {
        return weight(in.createWeight(searcher, ScoreMode.COMPLETE, boost),
                (inner, context) -> new MinScoreScorer(inner, min));
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
