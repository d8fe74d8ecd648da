package io.qdrant.esgateway.domain.search;

import java.util.List;

/**
 * A search's {@code highlight} section, as Elasticsearch 8.15's default (unified) highlighter reads it: the requested
 * fields (names or wildcard patterns, in request order), each with its options resolved (field-level options over the
 * top-level ones over ES's defaults).
 */
public record HighlightSpec(List<FieldSpec> fields) {
    public HighlightSpec {
        fields = List.copyOf(fields);
    }

    /** One requested field: a name, or a pattern with {@code *} matching any run of characters. */
    public record FieldSpec(String field, Options options) {
        public boolean isPattern() {
            return field.indexOf('*') >= 0;
        }

        /** Whether {@code name} is this field or matches this pattern. */
        public boolean matches(String name) {
            if (!isPattern()) {
                return field.equals(name);
            }
            return java.util.regex.Pattern.matches(java.util.Arrays.stream(field.split("\\*", -1))
                    .map(java.util.regex.Pattern::quote).collect(java.util.stream.Collectors.joining(".*")), name);
        }
    }

    /**
     * The options the gateway applies. The unified highlighter uses only the first pre and post tag.
     * {@code numberOfFragments} 0 highlights each matching value whole; {@code noMatchSize} 0 returns nothing for a
     * field without a match; {@code scoreOrder} orders fragments by score (ES's {@code order: score}) instead of by
     * position; {@code htmlEncode} is ES's {@code encoder: html}.
     */
    public record Options(String preTag, String postTag, int fragmentSize, int numberOfFragments, int noMatchSize,
                          boolean scoreOrder, boolean requireFieldMatch, boolean htmlEncode) {
        public static final Options DEFAULTS = new Options("<em>", "</em>", 100, 5, 0, false, true, false);
    }
}
