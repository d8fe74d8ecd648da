package io.qdrant.esgateway.adapter.out.lucene.search;

import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.script.ScoreScript;
import java.io.IOException;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;

/**
 * Elasticsearch's {@code script_score}: the documents of {@code in}, each scored by a score script over its doc
 * values and the inner score. A negative or NaN script score fails the search, as in Elasticsearch 8. The boost and
 * {@code min_score} are applied around this query ({@link QueryTranslator}).
 */
final class ScriptScoreQuery extends InnerScoringQuery {
    private final ScoreScript script;
    private final Mappings mappings;
    private final String source;

    ScriptScoreQuery(Query in, ScoreScript script, Mappings mappings, String source) {
        super(in);
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
        return weight(in.createWeight(searcher, ScoreMode.COMPLETE, 1f),
                (inner, context) -> new ScriptScorer(inner, new LeafDocReader(context, mappings), boost));
    }

    private final class ScriptScorer extends DocValuesScorer {
        private final float boost;

        ScriptScorer(Scorer inner, LeafDocReader doc, float boost) {
            super(inner, doc);
            this.boost = boost;
        }

        @Override
        public float score() throws IOException {
            LeafDocReader doc = current();
            float score = (float) script.score(doc, in.score());
            if (score < 0f || Float.isNaN(score)) {
                throw ScoreScript.invalidScore(score, doc.docId());
            }
            return score * boost;
        }
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
