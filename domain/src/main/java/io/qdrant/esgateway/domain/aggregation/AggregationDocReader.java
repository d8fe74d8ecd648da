package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.script.DocReader;
import java.util.List;

/**
 * A document's values as the gateway computes them ({@link AggregationDoc}, e.g. from a scanned source) read as the
 * {@code doc} of a script. The gateway's values hold no vectors: a script reads none.
 */
public final class AggregationDocReader implements DocReader {
    private final AggregationDoc doc;
    private final long position;

    public AggregationDocReader(AggregationDoc doc, long position) {
        this.doc = doc;
        this.position = position;
    }

    @Override
    public List<String> keywords(String field) {
        return List.of(doc.keywords(field));
    }

    @Override
    public long[] longs(String field) {
        return doc.longs(field).clone();
    }

    @Override
    public double[] doubles(String field) {
        return doc.doubles(field).clone();
    }

    @Override
    public float[] vector(String field) {
        return null;
    }

    @Override
    public int docId() {
        return (int) position;
    }
}
