package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.json.JsonValue;

/**
 * The mergeable state of one aggregation over some documents: partials of disjoint partitions merge, in any order and
 * grouping, into the partial of their union (sums with their compensation, counts, every bucket — never an average
 * or a truncated list). Only {@link #render} (the final reduce) may lose information: it divides, truncates to
 * {@code size}, interpolates.
 */
public interface Partial {

    /** The partial of both partitions; {@code other} is of the same aggregation. Neither input changes. */
    Partial merge(Partial other);

    /** The aggregation's final answer, as Elasticsearch renders it under {@code aggregations.<name>}. */
    default JsonValue render() {
        return render(false);
    }

    /**
     * The final answer; {@code typedKeys} names every sub-aggregation inside it {@code <type>#<name>}, as
     * Elasticsearch does for {@code typed_keys=true}.
     */
    JsonValue render(boolean typedKeys);

    /**
     * The type Elasticsearch names this answer with under {@code typed_keys=true} (its result class's name:
     * {@code sterms}, {@code lterms}, {@code tdigest_percentiles}, {@code date_histogram}, …).
     */
    String typedName();

    /**
     * This partial with the zero-count buckets of {@code min_doc_count: 0} terms aggregations added (at any depth)
     * from one index's key universe; done per index, before partials of indices are merged.
     */
    default Partial complete(KeyUniverse universe) {
        return this;
    }

    /**
     * The value a parent bucket aggregation orders by ({@code order: {"<name>[.<key>]": "asc"}}); {@code key} is
     * empty for single-value metrics.
     */
    default double orderValue(String key) {
        throw new IllegalArgumentException("cannot order by this aggregation");
    }
}
