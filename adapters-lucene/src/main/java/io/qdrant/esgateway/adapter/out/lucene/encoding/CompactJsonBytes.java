package io.qdrant.esgateway.adapter.out.lucene.encoding;

import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonBool;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNull;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The stored bytes of a {@code _source}, written straight to UTF-8: byte for byte what {@link Json#write} gives
 * encoded as UTF-8, except that a lone surrogate (legal in a JSON string, not encodable in UTF-8) is written as a
 * lowercase {@code \\uXXXX} escape, which {@link Json#parse} turns back into the same character. One pass and one
 * buffer per document, instead of a {@link StringBuilder}, its {@link String}, a scan for surrogates and the UTF-8
 * encoding of that string (a bulk ingest spent ~5 % of its CPU there).
 */
public final class CompactJsonBytes {
    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private byte[] buffer;
    private int length;

    private CompactJsonBytes(int capacity) {
        buffer = new byte[capacity];
    }

    /** The compact UTF-8 JSON of {@code value} (see the class comment). */
    static byte[] of(JsonValue value) {
        return reusable().write(value);
    }

    /**
     * A writer for many values, one after the other on one thread (a write batch's sources): its buffer is kept, so a
     * value costs one array of its exact size.
     */
    public static CompactJsonBytes reusable() {
        return new CompactJsonBytes(1024);
    }

    /** The compact UTF-8 JSON of {@code value}, as {@link #of}. */
    public byte[] write(JsonValue value) {
        length = 0;
        value(value);
        return Arrays.copyOf(buffer, length);
    }

    private void value(JsonValue value) {
        switch (value) {
            case JsonObject o -> {
                put((byte) '{');
                boolean first = true;
                for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
                    if (!first) {
                        put((byte) ',');
                    }
                    first = false;
                    string(e.getKey());
                    put((byte) ':');
                    value(e.getValue());
                }
                put((byte) '}');
            }
            case JsonArray a -> {
                put((byte) '[');
                List<JsonValue> elements = a.elements();
                for (int i = 0; i < elements.size(); i++) {
                    if (i > 0) {
                        put((byte) ',');
                    }
                    value(elements.get(i));
                }
                put((byte) ']');
            }
            case JsonString s -> string(s.value());
            case JsonNumber n -> ascii(n.value() instanceof BigDecimal d ? d.toPlainString() : n.value().toString());
            case JsonBool b -> ascii(b.value() ? "true" : "false");
            case JsonNull ignored -> ascii("null");
        }
    }

    /** A quoted string with {@link Json#write}'s escapes; other characters as UTF-8, lone surrogates escaped. */
    private void string(String s) {
        int n = s.length();
        ensure(n * 3 + 2);
        byte[] b = buffer;
        int at = length;
        b[at++] = '"';
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
                b[at++] = (byte) c;
                continue;
            }
            length = at;
            switch (c) {
                case '"' -> escape('"');
                case '\\' -> escape('\\');
                case '\n' -> escape('n');
                case '\r' -> escape('r');
                case '\t' -> escape('t');
                default -> {
                    if (c < 0x20) {
                        unicodeEscape(c);
                    } else if (c < 0x800) {
                        ensure(2);
                        buffer[length++] = (byte) (0xc0 | (c >> 6));
                        buffer[length++] = (byte) (0x80 | (c & 0x3f));
                    } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                        int cp = Character.toCodePoint(c, s.charAt(++i));
                        ensure(4);
                        buffer[length++] = (byte) (0xf0 | (cp >> 18));
                        buffer[length++] = (byte) (0x80 | ((cp >> 12) & 0x3f));
                        buffer[length++] = (byte) (0x80 | ((cp >> 6) & 0x3f));
                        buffer[length++] = (byte) (0x80 | (cp & 0x3f));
                    } else if (Character.isSurrogate(c)) {
                        unicodeEscape(c);
                    } else {
                        ensure(3);
                        buffer[length++] = (byte) (0xe0 | (c >> 12));
                        buffer[length++] = (byte) (0x80 | ((c >> 6) & 0x3f));
                        buffer[length++] = (byte) (0x80 | (c & 0x3f));
                    }
                }
            }
            // the escapes may have grown the buffer; the rest of the string still fits (3 bytes a char at most)
            ensure((n - i) * 3 + 1);
            b = buffer;
            at = length;
        }
        b[at++] = '"';
        length = at;
    }

    private void escape(char c) {
        ensure(2);
        buffer[length++] = '\\';
        buffer[length++] = (byte) c;
    }

    private void unicodeEscape(char c) {
        ensure(6);
        buffer[length++] = '\\';
        buffer[length++] = 'u';
        buffer[length++] = HEX[(c >> 12) & 0xf];
        buffer[length++] = HEX[(c >> 8) & 0xf];
        buffer[length++] = HEX[(c >> 4) & 0xf];
        buffer[length++] = HEX[c & 0xf];
    }

    /** Text that is ASCII (numbers, literals). */
    private void ascii(String s) {
        int n = s.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            buffer[length++] = (byte) s.charAt(i);
        }
    }

    private void put(byte b) {
        ensure(1);
        buffer[length++] = b;
    }

    private void ensure(int more) {
        if (length + more > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + more));
        }
    }
}
