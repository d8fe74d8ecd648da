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
        /**
         * The total {@code mode} reports when {@code count} documents match: none when disabled, the count, or the
         * threshold as a lower bound ({@code "gte"}) when the count passes it.
         */
        public static Optional<Total> of(TrackTotalHits mode, long count) {
            return switch (mode) {
                case TrackTotalHits.Disabled d -> Optional.empty();
                case TrackTotalHits.Exact e -> Optional.of(new Total(count, true));
                case TrackTotalHits.UpTo u -> Optional.of(count > u.threshold() ? new Total(u.threshold(), false)
                        : new Total(count, true));
            };
        }
    }
}
