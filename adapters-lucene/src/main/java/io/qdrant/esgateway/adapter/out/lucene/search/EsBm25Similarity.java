package io.qdrant.esgateway.adapter.out.lucene.search;

import org.apache.lucene.index.FieldInvertState;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.search.similarities.Similarity;

/**
 * Elasticsearch's BM25 similarity (default k1 = 1.2 and b = 0.75), whose scores are Lucene's
 * {@link BM25Similarity} scores times (k1 + 1) (Elasticsearch keeps the pre-Lucene-8 scale). Norms are Lucene's,
 * so this is a search-time choice only.
 */
final class EsBm25Similarity extends Similarity {
    static final float K1 = 1.2f;
    private final float k1;
    private final BM25Similarity bm25;

    EsBm25Similarity() {
        this(K1, 0.75f);
    }

    EsBm25Similarity(float k1, float b) {
        this.k1 = k1;
        this.bm25 = new BM25Similarity(k1, b);
    }

    @Override
    public long computeNorm(FieldInvertState state) {
        return bm25.computeNorm(state);
    }

    @Override
    public SimScorer scorer(float boost, CollectionStatistics collectionStats, TermStatistics... termStats) {
        return bm25.scorer(boost * (k1 + 1), collectionStats, termStats);
    }

    @Override
    public String toString() {
        return "ES BM25(k1=" + k1 + ",b=" + bm25.getB() + ")";
    }
}
