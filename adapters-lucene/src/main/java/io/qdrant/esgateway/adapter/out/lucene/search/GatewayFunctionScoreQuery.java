package io.qdrant.esgateway.adapter.out.lucene.search;

import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.script.FunctionScoring;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TwoPhaseIterator;
import org.apache.lucene.search.Weight;

/**
 * Elasticsearch's {@code function_score}: the documents of {@code in}, scored by {@link FunctionScoring.Bound} over
 * their doc values, the inner score and which functions' filters match them. The boost given to this query goes to
 * the inner query, as in Elasticsearch (so {@code boost_mode: replace} drops it).
 */
final class GatewayFunctionScoreQuery extends InnerScoringQuery {
    /** Each function's filter, or null for a function that applies to every document. */
    private final List<Query> filters;
    private final FunctionScoring.Bound functions;
    private final Mappings mappings;

    GatewayFunctionScoreQuery(Query in, List<Query> filters, FunctionScoring.Bound functions, Mappings mappings) {
        super(in);
        this.filters = filters;
        this.functions = functions;
        this.mappings = mappings;
    }

    @Override
    public Query rewrite(IndexSearcher searcher) throws IOException {
        Query rewritten = in.rewrite(searcher);
        boolean changed = rewritten != in;
        List<Query> rewrittenFilters = new ArrayList<>();
        for (Query f : filters) {
            Query r = f == null ? null : f.rewrite(searcher);
            changed |= r != f;
            rewrittenFilters.add(r);
        }
        return changed ? new GatewayFunctionScoreQuery(rewritten, rewrittenFilters, functions, mappings) : this;
    }

    @Override
    public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) throws IOException {
        if (!scoreMode.needsScores()) {
            return in.createWeight(searcher, scoreMode, boost);
        }
        boolean subScores = functions.needsSubScore();
        Weight inner = in.createWeight(searcher, subScores ? ScoreMode.COMPLETE : ScoreMode.COMPLETE_NO_SCORES,
                boost);
        Weight[] filterWeights = new Weight[filters.size()];
        for (int i = 0; i < filterWeights.length; i++) {
            Query f = filters.get(i);
            filterWeights[i] = f == null ? null
                    : searcher.createWeight(searcher.rewrite(f), ScoreMode.COMPLETE_NO_SCORES, 1f);
        }
        return weight(inner, (scorer, context) -> {
            FilterMatch[] matches = new FilterMatch[filterWeights.length];
            for (int i = 0; i < matches.length; i++) {
                matches[i] = filterWeights[i] == null ? FilterMatch.ALL
                        : FilterMatch.of(filterWeights[i].scorer(context));
            }
            return new FunctionScorer(scorer, new LeafDocReader(context, mappings), matches, subScores);
        });
    }

    /** Whether a filter matches the current document (documents come in increasing order within a segment). */
    private static class FilterMatch {
        static final FilterMatch ALL = new FilterMatch(null);
        private final Scorer scorer;
        private int doc = -1;
        private boolean match;

        FilterMatch(Scorer scorer) {
            this.scorer = scorer;
        }

        static FilterMatch of(Scorer scorer) {
            return scorer == null ? new FilterMatch(null) {
                @Override
                boolean matches(int target) {
                    return false;
                }
            } : new FilterMatch(scorer);
        }

        boolean matches(int target) {
            if (scorer == null) {
                return true;
            }
            if (target == doc) {
                return match;
            }
            try {
                TwoPhaseIterator twoPhase = scorer.twoPhaseIterator();
                DocIdSetIterator it = twoPhase == null ? scorer.iterator() : twoPhase.approximation();
                int at = it.docID() < target ? it.advance(target) : it.docID();
                match = at == target && (twoPhase == null || twoPhase.matches());
                doc = target;
                return match;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    /** The inner query's matches, scored by the functions. */
    private final class FunctionScorer extends DocValuesScorer {
        private final FilterMatch[] matches;
        private final boolean subScores;

        FunctionScorer(Scorer inner, LeafDocReader doc, FilterMatch[] matches, boolean subScores) {
            super(inner, doc);
            this.matches = matches;
            this.subScores = subScores;
        }

        @Override
        public float score() throws IOException {
            LeafDocReader doc = current();
            int id = doc.doc;
            float sub = subScores ? in.score() : 0f;
            return functions.score(doc, sub, i -> matches[i].matches(id), doc.docId());
        }
    }

    @Override
    public String toString(String field) {
        return "function_score(" + in.toString(field) + ")";
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
