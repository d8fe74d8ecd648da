package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.script.DocReader;
import java.util.List;

/**
 * A document's values as the gateway computes them ({@link AggregationDoc}, e.g. from a scanned source) read as the
 * {@code doc} of a sort, field or aggregation script. The gateway's values hold no vectors, so reading a
 * {@code dense_vector} field's doc values here is refused by name (a 400) rather than read as absent.
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
        throw io.qdrant.esgateway.domain.error.GatewayException.unsupported("reading the [dense_vector] field ["
                + field + "] in a sort, field or aggregation script");
    }

    @Override
    public int docId() {
        return (int) position;
    }
}
