package io.qdrant.esgateway.domain.search;

/**
 * ES's {@code track_total_hits}: count exactly up to a threshold (default 10,000, then {@code "gte"}), exactly
 * ({@code true}), or not at all ({@code false}: no {@code hits.total}).
 */
public sealed interface TrackTotalHits {
    int DEFAULT_THRESHOLD = 10_000;

    record UpTo(int threshold) implements TrackTotalHits {
    }

    record Exact() implements TrackTotalHits {
    }

    record Disabled() implements TrackTotalHits {
    }

    TrackTotalHits DEFAULT = new UpTo(DEFAULT_THRESHOLD);
}
