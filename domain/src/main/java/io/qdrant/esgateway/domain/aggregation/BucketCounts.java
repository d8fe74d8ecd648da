package io.qdrant.esgateway.domain.aggregation;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code filter} and {@code filters} aggregations answered from document counts alone (a backend that can count the
 * matches of "query AND filter" directly, e.g. Lucene's conjunction counts), for the shape where the counts are the
 * whole answer: no sub-aggregations. The partials are the ones {@link BucketAggregators} builds while collecting the
 * same documents one by one, so both ways merge, complete and render alike.
 */
public final class BucketCounts {
    private BucketCounts() {
    }

    /** Whether document counts are all this aggregation needs: a {@code filter} or {@code filters} without subs. */
    public static boolean countable(Aggregation aggregation) {
        return switch (aggregation) {
            case Aggregation.Filter f -> f.subs().isEmpty();
            case Aggregation.Filters f -> f.subs().isEmpty();
            default -> false;
        };
    }

    /** A {@code filter} aggregation's partial: {@code count} matching documents pass its query. */
    public static Partial filter(Aggregation.Filter filter, long count) {
        requireCountable(filter);
        return new BucketAggregators.SingleBucket("filter", count, NamedPartials.EMPTY);
    }

    /**
     * A {@code filters} aggregation's partial.
     *
     * @param counts the matching documents passing each query, in the aggregation's order, then (when it has an
     *               other bucket) the matching documents passing none of them
     * @throws IllegalArgumentException when the aggregation has sub-aggregations or the counts do not fit its buckets
     */
    public static Partial filters(Aggregation.Filters filters, long[] counts) {
        requireCountable(filters);
        int buckets = filters.queries().size() + (filters.otherBucketKey().isPresent() ? 1 : 0);
        if (counts.length != buckets) {
            throw new IllegalArgumentException("filters aggregation has " + buckets + " buckets, got " + counts.length
                    + " counts");
        }
        List<BucketAggregators.SingleBucket> out = new ArrayList<>(buckets);
        for (long count : counts) {
            out.add(new BucketAggregators.SingleBucket("filters", count, NamedPartials.EMPTY));
        }
        return new BucketAggregators.FiltersPartial(filters, out);
    }

    private static void requireCountable(Aggregation aggregation) {
        if (!countable(aggregation)) {
            throw new IllegalArgumentException("a " + aggregation.type() + " aggregation with sub-aggregations needs"
                    + " more than counts");
        }
    }
}
