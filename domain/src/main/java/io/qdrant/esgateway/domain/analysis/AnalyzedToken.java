package io.qdrant.esgateway.domain.analysis;

/** One token of an {@code _analyze} answer, as Elasticsearch reports it. */
public record AnalyzedToken(String token, int startOffset, int endOffset, String type, int position,
                            int positionLength) {
}
