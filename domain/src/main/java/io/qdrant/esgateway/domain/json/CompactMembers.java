package io.qdrant.esgateway.domain.json;

import java.util.AbstractMap;
import java.util.Map;
import java.util.Set;

/**
 * The members of a {@link JsonValue.JsonObject} that a backend read as compact JSON text (a stored {@code _source}),
 * parsed by {@link Json#parse} only when someone reads them, and kept as text so that an answer can carry the source
 * without parsing and re-rendering it ({@link #verbatimText()}).
 *
 * <p>Made only by {@link Json#compactObject} and only for a {@link io.qdrant.esgateway.domain.json.compact.CompactText#verbatim verbatim} text: one that is
 * exactly how the gateway renders the object it parses to (compact, no escapes, canonical numbers, no repeated keys),
 * so that writing the text is writing the object. The text's UTF-8 encoding is kept beside it when the verbatim check
 * ran on it ({@link #verbatimUtf8()}: an answer writes those bytes, no encode). Immutable; the parse happens at most
 * once per reader race and is safe to share between threads (the parsed map is immutable and published through a
 * volatile field).
 */
public final class CompactMembers extends AbstractMap<String, JsonValue> {
    private final String text;
    private final byte[] utf8;
    private volatile Map<String, JsonValue> parsed;

    /** {@code utf8}: the text's UTF-8 encoding (not copied, must not change), or {@code null}. */
    CompactMembers(String text, byte[] utf8) {
        this.text = text;
        this.utf8 = utf8;
    }

    /**
     * The object's compact JSON text: byte for byte (as UTF-8) what rendering the parsed members compactly gives,
     * with the gateway's JSON writer or with {@link Json#write}.
     */
    public String verbatimText() {
        return text;
    }

    /**
     * {@link #verbatimText()} as UTF-8, or {@code null} when it was not kept. The array is shared: callers must not
     * change it.
     */
    public byte[] verbatimUtf8() {
        return utf8;
    }

    /** Whether the members were parsed already (for tests: rendering a verbatim source must not parse it). */
    public boolean isParsed() {
        return parsed != null;
    }

    private Map<String, JsonValue> members() {
        Map<String, JsonValue> m = parsed;
        if (m == null) {
            m = ((JsonValue.JsonObject) Json.parse(text)).members();
            parsed = m;
        }
        return m;
    }

    @Override
    public Set<Entry<String, JsonValue>> entrySet() {
        return members().entrySet();
    }

    @Override
    public JsonValue get(Object key) {
        return members().get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return members().containsKey(key);
    }

    @Override
    public int size() {
        return members().size();
    }

    @Override
    public boolean isEmpty() {
        return text.length() == 2; // "{}"
    }

    @Override
    public Set<String> keySet() {
        return members().keySet();
    }

    @Override
    public java.util.Collection<JsonValue> values() {
        return members().values();
    }

    @Override
    public boolean equals(Object o) {
        return o == this || members().equals(o);
    }

    @Override
    public int hashCode() {
        return members().hashCode();
    }

    @Override
    public String toString() {
        return members().toString();
    }
}
