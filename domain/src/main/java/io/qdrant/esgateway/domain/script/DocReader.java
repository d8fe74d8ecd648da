package io.qdrant.esgateway.domain.script;

import java.util.List;

/**
 * The doc values of one document, as a store holds them, for the {@code doc} of a score script. A store reads what
 * the mapping indexed: keyword values sorted and distinct, numbers ascending; the script's view types them by the
 * mapping ({@link ScoreScript}).
 */
public interface DocReader {
    /** The keyword values of {@code field}, sorted and distinct. */
    List<String> keywords(String field);

    /** The values of an integral, date (epoch milliseconds) or boolean (0 or 1) field, ascending. */
    long[] longs(String field);

    /** The values of a {@code double}, {@code float} or {@code half_float} field, ascending. */
    double[] doubles(String field);

    /** The vector of a {@code dense_vector} field, or null when the document has none. */
    float[] vector(String field);

    /** A number that identifies the document in its index for {@code randomScore(seed)}. */
    int docId();
}
