package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import java.util.Optional;

/**
 * The parameters of a {@code text} field that shape how its values are indexed: {@code position_increment_gap} (the
 * positions between the values of an array; absent: the analyzer's, 100 for Elasticsearch's),
 * {@code index_prefixes} ({@code min_chars}, {@code max_chars}: Elasticsearch indexes the prefixes of each term into
 * the hidden field {@code <field>._index_prefix}), {@code index_phrases} (the two-term shingles of the field go into
 * the hidden field {@code <field>._index_phrase}, which phrase queries without slop read) and {@code index_options}
 * ({@code positions} or {@code offsets}, both indexing positions). Only the parameters given are rendered, as
 * Elasticsearch renders them.
 */
public record TextOptions(Optional<Integer> positionIncrementGap, Optional<IndexPrefixes> indexPrefixes,
                          boolean indexPhrases, Optional<String> indexOptions) {
    /** No parameter given. */
    public static final TextOptions DEFAULT = new TextOptions(Optional.empty(), Optional.empty());
    /** The suffix of the hidden field holding a text field's two-term shingles ({@code index_phrases}). */
    public static final String PHRASE_SUFFIX = "._index_phrase";
    /** The suffix of the hidden field holding a text field's term prefixes ({@code index_prefixes}). */
    public static final String PREFIX_SUFFIX = "._index_prefix";

    public TextOptions(Optional<Integer> positionIncrementGap, Optional<IndexPrefixes> indexPrefixes) {
        this(positionIncrementGap, indexPrefixes, false, Optional.empty());
    }

    /** {@code index_prefixes}: the prefix lengths Elasticsearch indexes (defaults 2 and 5). */
    public record IndexPrefixes(int minChars, int maxChars) {
        public static final int DEFAULT_MIN_CHARS = 2;
        public static final int DEFAULT_MAX_CHARS = 5;
    }

    /** What a hidden field indexes: the shingles or the prefixes of its parent text field. */
    public enum HiddenKind { PHRASES, PREFIXES }

    /** A hidden field of a text field: its parent's path and mapping, and what it holds. */
    public record Hidden(String parent, FieldMapping.TextField mapping, HiddenKind kind) {
    }

    /** The hidden field {@code field} names ({@code <text>._index_phrase} or {@code <text>._index_prefix}), if any. */
    public static Optional<Hidden> hidden(Mappings mappings, String field) {
        HiddenKind kind;
        String parent;
        if (field.endsWith(PHRASE_SUFFIX)) {
            kind = HiddenKind.PHRASES;
            parent = field.substring(0, field.length() - PHRASE_SUFFIX.length());
        } else if (field.endsWith(PREFIX_SUFFIX)) {
            kind = HiddenKind.PREFIXES;
            parent = field.substring(0, field.length() - PREFIX_SUFFIX.length());
        } else {
            return Optional.empty();
        }
        if (!(mappings.field(parent).orElse(null) instanceof FieldMapping.TextField t)) {
            return Optional.empty();
        }
        boolean has = kind == HiddenKind.PHRASES ? t.text().indexPhrases() : t.text().indexPrefixes().isPresent();
        return has ? Optional.of(new Hidden(parent, t, kind)) : Optional.empty();
    }

    void render(JsonObjectBuilder b) {
        indexOptions.ifPresent(o -> b.put("index_options", o));
        positionIncrementGap.ifPresent(g -> b.put("position_increment_gap", g));
        if (indexPhrases) {
            b.put("index_phrases", true);
        }
        indexPrefixes.ifPresent(p -> b.put("index_prefixes", JsonObjectBuilder.object().put("min_chars", p.minChars())
                .put("max_chars", p.maxChars()).build()));
    }
}
