package io.qdrant.esgateway.adapter.out.lucene.search;

import io.qdrant.esgateway.adapter.out.lucene.analysis.AnalysisBuilder;
import io.qdrant.esgateway.adapter.out.lucene.analysis.IndexAnalyzers;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.Mappings;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.DelegatingAnalyzerWrapper;

/**
 * The analyzer text fields are indexed with: each field's index analyzer ({@link IndexAnalyzers}; the standard
 * analyzer unless the mapping or the index's analysis settings say otherwise), with Elasticsearch's
 * {@code position_increment_gap} of 100 between the values of a multi-valued field (the field's
 * {@code position_increment_gap}, else its custom analyzer's), so that a phrase matches across two values of an
 * array only within a larger slop. The writer's owner points it at the index's current mapping before each batch
 * ({@link #use}); the analyzers themselves are built once per index.
 */
public final class IndexAnalyzer extends DelegatingAnalyzerWrapper {
    /** Elasticsearch's default {@code position_increment_gap} for text fields. */
    static final int POSITION_INCREMENT_GAP = AnalysisBuilder.POSITION_INCREMENT_GAP;

    private volatile Mappings mappings = Mappings.EMPTY;
    private volatile IndexAnalyzers analyzers = IndexAnalyzers.DEFAULT;

    public IndexAnalyzer() {
        super(PER_FIELD_REUSE_STRATEGY);
    }

    public IndexAnalyzer(IndexMetadata index) {
        this();
        use(index);
    }

    /** Analyses with {@code index}'s mapping and analyzers from now on (cheap when they did not change). */
    public void use(IndexMetadata index) {
        if (index.mappings() != mappings) {
            mappings = index.mappings();
        }
        analyzers = IndexAnalyzers.of(index);
    }

    /** Points the writer's analyzer, if it is one of these, at {@code index}. */
    public static void use(Analyzer writerAnalyzer, IndexMetadata index) {
        if (writerAnalyzer instanceof IndexAnalyzer a) {
            a.use(index);
        }
    }

    @Override
    protected Analyzer getWrappedAnalyzer(String fieldName) {
        return analyzers.indexAnalyzer(mappings, fieldName);
    }

    @Override
    public int getPositionIncrementGap(String fieldName) {
        // the text field's position_increment_gap, else its analyzer's own: 100 unless a custom analyzer sets one;
        // a hidden field (shingles, prefixes) has its parent's
        fieldName = io.qdrant.esgateway.domain.index.TextOptions.hidden(mappings, fieldName)
                .map(io.qdrant.esgateway.domain.index.TextOptions.Hidden::parent).orElse(fieldName);
        if (mappings.field(fieldName).orElse(null) instanceof FieldMapping.TextField t
                && t.text().positionIncrementGap().isPresent()) {
            return t.text().positionIncrementGap().get();
        }
        return getWrappedAnalyzer(fieldName).getPositionIncrementGap(fieldName);
    }
}
