package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import java.util.Optional;

/**
 * The parameters of a {@code text} field that shape how its values are indexed: {@code position_increment_gap} (the
 * positions between the values of an array; absent: the analyzer's, 100 for Elasticsearch's) and
 * {@code index_prefixes} ({@code min_chars}, {@code max_chars}: Elasticsearch indexes the prefixes of each term so
 * that its prefix queries cost less; their hits and constant scores stay the same). Only the parameters given are
 * rendered, as Elasticsearch renders them.
 */
public record TextOptions(Optional<Integer> positionIncrementGap, Optional<IndexPrefixes> indexPrefixes) {
    /** No parameter given. */
    public static final TextOptions DEFAULT = new TextOptions(Optional.empty(), Optional.empty());

    /** {@code index_prefixes}: the prefix lengths Elasticsearch indexes (defaults 2 and 5). */
    public record IndexPrefixes(int minChars, int maxChars) {
        public static final int DEFAULT_MIN_CHARS = 2;
        public static final int DEFAULT_MAX_CHARS = 5;
    }

    void render(JsonObjectBuilder b) {
        positionIncrementGap.ifPresent(g -> b.put("position_increment_gap", g));
        indexPrefixes.ifPresent(p -> b.put("index_prefixes", JsonObjectBuilder.object().put("min_chars", p.minChars())
                .put("max_chars", p.maxChars()).build()));
    }
}
