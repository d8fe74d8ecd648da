package io.qdrant.esgateway.adapter.out.lucene.search;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.AnalyzerWrapper;
import org.apache.lucene.analysis.standard.StandardAnalyzer;

/**
 * The analyzer text fields are indexed with: Lucene's standard analyzer, with Elasticsearch's
 * {@code position_increment_gap} of 100 between the values of a multi-valued field, so that a phrase never
 * matches across two values of an array.
 */
public final class IndexAnalyzer extends AnalyzerWrapper {
    /** Elasticsearch's default {@code position_increment_gap} for text fields. */
    static final int POSITION_INCREMENT_GAP = 100;

    private final Analyzer standard = new StandardAnalyzer();

    public IndexAnalyzer() {
        super(Analyzer.GLOBAL_REUSE_STRATEGY);
    }

    @Override
    protected Analyzer getWrappedAnalyzer(String fieldName) {
        return standard;
    }

    @Override
    public int getPositionIncrementGap(String fieldName) {
        return POSITION_INCREMENT_GAP;
    }
}
