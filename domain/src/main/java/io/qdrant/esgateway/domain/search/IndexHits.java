package io.qdrant.esgateway.domain.search;

import java.util.List;
import java.util.Optional;

/**
 * The answer of one index to a search: its best {@code topN} hits in the request's order, the total (absent when
 * {@code track_total_hits: false}; {@code exact} false when counting stopped at the threshold: ES's {@code "gte"}),
 * and the best score ({@link Float#NaN} when not scoring or no hits).
 */
public record IndexHits(Optional<Total> total, List<Hit> hits, float maxScore) {
    public IndexHits {
        hits = List.copyOf(hits);
    }

    public record Total(long value, boolean exact) {
    }
}
