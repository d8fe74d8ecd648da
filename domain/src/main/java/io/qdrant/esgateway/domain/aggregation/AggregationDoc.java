package io.qdrant.esgateway.domain.aggregation;

/**
 * One matching document as aggregations read it. Backends provide it from their columnar data (Lucene doc values) or
 * the gateway from scanned sources; both must give the same values, with Elasticsearch's doc-values semantics:
 *
 * <ul>
 *   <li>{@link #keywords}: the distinct values of a keyword field, in ascending (UTF-8 byte, i.e. code point)
 *       order;</li>
 *   <li>{@link #longs}: the values of a long/integer/short/byte field, a date (epoch millis) or a boolean (0/1),
 *       ascending, <em>duplicates kept</em>;</li>
 *   <li>{@link #doubles}: the values of any numeric field as doubles (a float widened from its float value),
 *       ascending, duplicates kept;</li>
 *   <li>a missing field, {@code null}, {@code []} and {@code [null]} all give no values.</li>
 * </ul>
 *
 * The arrays returned may be reused by the next call: read them before asking again.
 */
public interface AggregationDoc {
    String[] keywords(String field);

    long[] longs(String field);

    double[] doubles(String field);

    /** Whether this document matches the plan's filter number {@code filter} (see {@link AggregationPlan#filters}). */
    boolean matches(int filter);

    /** The document's score (NaN when not scoring). */
    float score();

    // ---- for top_hits (TopHitsAggregator): the document's identity, and its stored form loaded only on demand

    /**
     * The document's position in its index: unique within one index, increasing in the backend's index order (the
     * Lucene adapter: the reader-wide doc id). {@code top_hits} breaks ties between equal sort values by it (the
     * lower first, as Elasticsearch breaks them by doc id) and renders it as the value of a {@code _doc} sort.
     */
    long position();

    /**
     * A loader of this document's id and full {@code _source} (its {@link StoredDocument}) that stays valid after
     * the collector has moved on to other documents, until the partition's partials have been taken
     * ({@link NamedCollectors#partial()}). {@code top_hits} asks for it only when a document enters its current top,
     * and calls it only for the documents still in the top when the partial is taken: nothing is loaded for the
     * others. Calling this method must be cheap (no loading).
     */
    java.util.function.Supplier<io.qdrant.esgateway.domain.document.StoredDocument> stored();
}
