package io.qdrant.esgateway.domain.aggregation;

/**
 * Collects the matching documents of one partition (an index, a segment, a batch of a scan) for one aggregation and
 * hands out its mergeable {@link Partial}. Not thread-safe: one collector per partition.
 */
public interface Collector {
    void collect(AggregationDoc doc);

    Partial partial();
}
