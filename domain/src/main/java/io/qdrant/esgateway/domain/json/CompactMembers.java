package io.qdrant.esgateway.domain.json;

import java.util.AbstractMap;
import java.util.Map;
import java.util.Set;

/**
 * The members of a {@link JsonValue.JsonObject} that a backend read as compact JSON text (a stored {@code _source}),
 * parsed by {@link Json#parse} only when someone reads them, and kept as text so that an answer can carry the source
 * without parsing and re-rendering it ({@link #verbatimText()}).
 *
 * <p>Made only by {@link Json#compactObject} and only for a {@link CompactText#verbatim verbatim} text: one that is
 * exactly how the gateway renders the object it parses to (compact, no escapes, canonical numbers, no repeated keys),
 * so that writing the text is writing the object. The text is kept as it came: a {@code String}, or UTF-8 bytes
 * ({@link Json#compactObject(byte[])}, which {@link #verbatimUtf8()} hands out without an encode). Immutable; the
 * parse (and a decode of the bytes) happens at most once per reader race and is safe to share between threads (the
 * parsed map is immutable and published through a volatile field, a decoded {@code String} is immutable).
 */
public final class CompactMembers extends AbstractMap<String, JsonValue> {
    private String text;
    private final byte[] utf8;
    private volatile Map<String, JsonValue> parsed;

    CompactMembers(String text) {
        this.text = text;
        this.utf8 = null;
    }

    /** Over verbatim UTF-8 bytes ({@link CompactUtf8#verbatim}), which are not copied and must not change. */
    CompactMembers(byte[] utf8) {
        this.text = null;
        this.utf8 = utf8;
    }

    /**
     * The object's compact JSON text: byte for byte (as UTF-8) what rendering the parsed members compactly gives,
     * with the gateway's JSON writer or with {@link Json#write}.
     */
    public String verbatimText() {
        String t = text;
        if (t == null) {
            t = new String(utf8, java.nio.charset.StandardCharsets.UTF_8);
            text = t; // a benign race: every thread decodes the same String
        }
        return t;
    }

    /**
     * {@link #verbatimText()} as UTF-8: the bytes the object was made from (not a copy: callers must not change
     * them), or the text encoded.
     */
    public byte[] verbatimUtf8() {
        return utf8 != null ? utf8 : text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Whether the object was made from UTF-8 bytes (so {@link #verbatimUtf8()} costs nothing). */
    public boolean isUtf8() {
        return utf8 != null;
    }

    /** Whether the members were parsed already (for tests: rendering a verbatim source must not parse it). */
    public boolean isParsed() {
        return parsed != null;
    }

    private Map<String, JsonValue> members() {
        Map<String, JsonValue> m = parsed;
        if (m == null) {
            m = ((JsonValue.JsonObject) Json.parse(verbatimText())).members();
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
        return utf8 != null ? utf8.length == 2 : text.length() == 2; // "{}"
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
