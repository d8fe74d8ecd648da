package io.qdrant.esgateway.adapter.out.lucene.search;

import java.io.IOException;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.FilterScorer;
import org.apache.lucene.search.FilterWeight;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.Weight;

/**
 * A query over the matches of one inner query, with a scorer of its own per segment that scores (or filters) the
 * inner scorer's documents: {@code script_score}, {@code function_score}, {@code min_score}. Its weight explains and
 * matches as the inner weight does and is never cached (its scorers read request-time scripts and values).
 */
abstract class InnerScoringQuery extends Query {
    /** The inner query. */
    final Query in;

    InnerScoringQuery(Query in) {
        this.in = in;
    }

    /** One segment's scorer over the inner query's scorer of that segment. */
    @FunctionalInterface
    interface LeafScorer {
        Scorer over(Scorer inner, LeafReaderContext context) throws IOException;
    }

    /** A weight of this query over {@code inner} (the inner query's weight) whose scorers {@code leaf} makes. */
    final Weight weight(Weight inner, LeafScorer leaf) {
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
                        return leaf.over(supplier.get(leadCost), context);
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

    @Override
    public void visit(QueryVisitor visitor) {
        in.visit(visitor.getSubVisitor(BooleanClause.Occur.MUST, this));
    }

    /**
     * A scorer of the inner scorer's documents, in its iteration (two-phase included), that computes each score over
     * the document's values; it gives no bound on its scores.
     */
    abstract static class DocValuesScorer extends FilterScorer {
        private final LeafDocReader doc;

        DocValuesScorer(Scorer inner, LeafDocReader doc) {
            super(inner);
            this.doc = doc;
        }

        /** The doc values reader, positioned on the current document. */
        final LeafDocReader current() {
            doc.doc = in.docID();
            return doc;
        }

        @Override
        public final float getMaxScore(int upTo) {
            return Float.MAX_VALUE;
        }
    }
}
