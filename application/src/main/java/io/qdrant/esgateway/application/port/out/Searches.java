package io.qdrant.esgateway.application.port.out;

import io.qdrant.esgateway.application.port.out.DocumentStore.Read;
import io.qdrant.esgateway.application.port.out.DocumentStore.ReadValue;
import io.qdrant.esgateway.domain.aggregation.AggregationPlan;
import io.qdrant.esgateway.domain.aggregation.NamedPartials;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.plan.BackendCapabilities;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.search.IndexHits;
import io.qdrant.esgateway.domain.search.SearchRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the backend answers natively (see {@link #capabilities}): a page of ranked hits, partial aggregations and exact
 * counts of one index, and several of these reads of one request together.
 */
public interface Searches {

    /**
     * Searches one index: the best {@code topN} hits (the caller asks for {@code from + size}) in the request's
     * order (its sort, else by score, ties by index order), with Elasticsearch's sort values, and the total as the
     * request's {@code track_total_hits} asks. {@code from} and {@code _source} filtering are applied by the caller.
     * A field that is not mapped matches nothing; sorting on it without {@code unmapped_type} is a 400.
     */
    IndexHits search(IndexMetadata index, SearchRequest request, int topN);

    /**
     * The partial aggregations of one index (see {@link AggregationPlan}): over the documents the request's query
     * matches (with its kNN sections and {@code min_score}; {@code post_filter} applies to hits only), computed
     * with the plan's collectors so that the application can merge indices with the domain's reducers.
     */
    NamedPartials aggregate(IndexMetadata index, SearchRequest request, AggregationPlan plan);

    /** The exact number of documents matching {@code query} (all documents when empty). */
    long count(IndexMetadata index, Optional<Query> query);

    /**
     * What this backend computes natively with Elasticsearch's exact semantics; the coverage rules send everything
     * else down the complete-scan path ({@link Scans#scan}).
     */
    BackendCapabilities capabilities();

    /**
     * Whether {@link #readTogether} overlaps the backend work of several reads on the calling thread (their requests
     * sent side by side, no thread per read). When false, a caller that wants several reads to overlap runs them on
     * threads of its own.
     */
    default boolean readsTogetherOnOneThread() {
        return false;
    }

    /**
     * Several reads of one request: their values in order (one {@link ReadValue} per {@link Read}, of its kind), and
     * on failure the failure of the first read in order that fails — the same values and the same failure as calling
     * them one by one in order (a later read's failure never hides an earlier one's). A store whose
     * {@link #readsTogetherOnOneThread} holds sends their backend calls side by side from the calling thread; the
     * default runs them in order.
     */
    default List<ReadValue> readTogether(List<Read> reads) {
        List<ReadValue> values = new ArrayList<>(reads.size());
        for (Read read : reads) {
            values.add(switch (read) {
                case Read.Search s -> new ReadValue.Hits(search(s.index(), s.request(), s.topN()));
                case Read.Aggregate a -> new ReadValue.Partials(aggregate(a.index(), a.request(), a.plan()));
            });
        }
        return values;
    }
}
