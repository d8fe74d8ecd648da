package io.qdrant.esgateway.adapter.out.lucene.search;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.ConstantScoreScorer;
import org.apache.lucene.search.ConstantScoreWeight;
import org.apache.lucene.search.FieldExistsQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.BitSetIterator;
import org.apache.lucene.util.FixedBitSet;

/**
 * The documents where at least one of many fields exists, each field exactly as {@link FieldExistsQuery} decides it
 * (doc values, norms or a vector), without one Boolean clause per field: an {@code exists} on a wildcard or an object
 * with more leaves than Lucene's clause limit (1,024) is one leaf query, counted once against that limit. Each
 * segment's matches are the union of the fields' matches, gathered into a bit set.
 */
final class AnyFieldExistsQuery extends Query {
    private final List<String> fields;

    AnyFieldExistsQuery(List<String> fields) {
        this.fields = List.copyOf(fields);
    }

    @Override
    public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) throws IOException {
        List<Weight> each = new ArrayList<>(fields.size());
        for (String field : fields) {
            each.add(new FieldExistsQuery(field).createWeight(searcher, ScoreMode.COMPLETE_NO_SCORES, 1f));
        }
        return new ConstantScoreWeight(this, boost) {
            @Override
            public ScorerSupplier scorerSupplier(LeafReaderContext context) throws IOException {
                FixedBitSet matches = null;
                for (Weight weight : each) {
                    Scorer scorer = weight.scorer(context);
                    if (scorer == null) {
                        continue;
                    }
                    if (matches == null) {
                        matches = new FixedBitSet(context.reader().maxDoc());
                    }
                    matches.or(scorer.iterator());
                }
                if (matches == null) {
                    return null;
                }
                Scorer scorer = new ConstantScoreScorer(score(), scoreMode,
                        new BitSetIterator(matches, matches.approximateCardinality()));
                return new DefaultScorerSupplier(scorer);
            }

            @Override
            public boolean isCacheable(LeafReaderContext context) {
                for (Weight weight : each) {
                    if (!weight.isCacheable(context)) {
                        return false;
                    }
                }
                return true;
            }
        };
    }

    @Override
    public void visit(QueryVisitor visitor) {
        for (String field : fields) {
            if (visitor.acceptField(field)) {
                visitor.visitLeaf(this);
                return;
            }
        }
    }

    @Override
    public String toString(String field) {
        return "AnyFieldExistsQuery" + fields;
    }

    @Override
    public boolean equals(Object other) {
        return sameClassAs(other) && fields.equals(((AnyFieldExistsQuery) other).fields);
    }

    @Override
    public int hashCode() {
        return Objects.hash(classHash(), fields);
    }
}
