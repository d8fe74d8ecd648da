package io.qdrant.esgateway.application.port.out;

import io.qdrant.esgateway.domain.analysis.AnalysisSettings;
import io.qdrant.esgateway.domain.analysis.AnalyzeRequest;
import io.qdrant.esgateway.domain.analysis.AnalyzedToken;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import java.util.List;
import java.util.Optional;

/**
 * Text analysis as Elasticsearch defines it (tokenizers, token and char filters, analyzers, normalizers), shared by
 * every backend: the same implementation analyses what the embedded store indexes and what the Qdrant backend keeps
 * for the gateway's scoring, so both give the same tokens.
 */
public interface TextAnalysis {

    /**
     * Builds every component {@code analysis} defines, so that a bad parameter or synonym rule is Elasticsearch's 400
     * at index creation rather than at the first write.
     */
    void validate(AnalysisSettings analysis);

    /** The tokens of an {@code _analyze} request, against {@code index}'s analysis or, without one, the built-ins. */
    List<AnalyzedToken> analyze(Optional<IndexMetadata> index, AnalyzeRequest request);

    /** {@code _analyze} with {@code explain: true}: each stage's output, as Elasticsearch's {@code detail}. */
    default io.qdrant.esgateway.domain.analysis.AnalyzeDetail explain(Optional<IndexMetadata> index,
                                                                      AnalyzeRequest request) {
        throw io.qdrant.esgateway.domain.error.GatewayException.unsupported("[explain] in [_analyze]");
    }

    /** Nothing is built or analysed: for wiring without analysis (tests of other parts). */
    TextAnalysis NONE = new TextAnalysis() {
        @Override
        public void validate(AnalysisSettings analysis) {
        }

        @Override
        public List<AnalyzedToken> analyze(Optional<IndexMetadata> index, AnalyzeRequest request) {
            throw io.qdrant.esgateway.domain.error.GatewayException.unsupported("[_analyze]");
        }
    };
}
