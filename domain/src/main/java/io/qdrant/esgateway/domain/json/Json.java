package io.qdrant.esgateway.domain.json;

import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonBool;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNull;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.qdrant.esgateway.domain.json.compact.CompactText;
import io.qdrant.esgateway.domain.json.compact.CompactUtf8;

/**
 * Compact JSON text for the neutral tree. Used where the model is persisted as text (catalog rows); the HTTP edge
 * parses client bodies with its own, stricter parser. {@link #parse} accepts exactly what {@link #write} produces
 * and any other standard JSON.
 */
public final class Json {
    private Json() {
    }

    public static String write(JsonValue value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(JsonValue value, StringBuilder out) {
        switch (value) {
            case JsonObject o when o.members() instanceof CompactMembers compact ->
                    out.append(compact.verbatimText()); // what the case below would write
            case JsonObject o -> {
                out.append('{');
                boolean first = true;
                for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    quote(e.getKey(), out);
                    out.append(':');
                    write(e.getValue(), out);
                }
                out.append('}');
            }
            case JsonArray a -> {
                out.append('[');
                for (int i = 0; i < a.elements().size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    write(a.elements().get(i), out);
                }
                out.append(']');
            }
            case JsonString s -> quote(s.value(), out);
            case JsonNumber n -> out.append(n.value() instanceof BigDecimal d ? d.toPlainString() : n.value().toString());
            case JsonBool b -> out.append(b.value());
            case JsonNull ignored -> out.append("null");
        }
    }

    private static void quote(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /**
     * What {@link #parse} gives for {@code text}, for a stored document's compact source: when the text is
     * {@linkplain CompactText verbatim} (as {@link #write} writes an object whose strings need no escapes), an object
     * whose {@link CompactMembers} parse the text only when they are read, so that an answer can carry the text as it is;
     * otherwise (or when the text is not an object) the text parsed now, failing as {@link #parse} fails.
     */
    public static JsonValue compactObject(String text) {
        return compactObject(text, text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /**
     * As {@link #compactObject(String)}, for a caller that holds the text's UTF-8 bytes already (a source read from
     * storage as bytes): {@code utf8} must be them (not copied; must not change).
     */
    public static JsonValue compactObject(String text, byte[] utf8) {
        // decided on the UTF-8 encoding (a faster scan, and the bytes are what an answer writes) when the encoding is
        // lossless: a lone surrogate encodes as '?', so bytes with a '?' in a string are decided on the text instead
        return switch (CompactUtf8.verdict(utf8)) {
            case VERBATIM -> new JsonObject(new CompactMembers(text, utf8));
            case NOT_VERBATIM -> parse(text);
            case ASK_THE_TEXT -> CompactText.verbatim(text) ? new JsonObject(new CompactMembers(text, null)) : parse(text);
        };
    }

    public static JsonValue parse(String text) {
        Parser p = new Parser(text);
        p.skipWhitespace();
        JsonValue v = p.value();
        p.skipWhitespace();
        if (p.pos != text.length()) {
            throw p.error("trailing characters");
        }
        return v;
    }

    private static final class Parser {
        private final String s;
        private int pos;

        Parser(String s) {
            this.s = s;
        }

        JsonValue value() {
            if (pos >= s.length()) {
                throw error("unexpected end of input");
            }
            char c = s.charAt(pos);
            return switch (c) {
                case '{' -> object();
                case '[' -> array();
                case '"' -> new JsonString(string());
                case 't' -> literal("true", new JsonBool(true));
                case 'f' -> literal("false", new JsonBool(false));
                case 'n' -> literal("null", JsonNull.INSTANCE);
                default -> number();
            };
        }

        private JsonObject object() {
            pos++;
            LinkedHashMap<String, JsonValue> members = new LinkedHashMap<>();
            skipWhitespace();
            if (peek() == '}') {
                pos++;
                return new JsonObject(new BuiltMembers(members));
            }
            while (true) {
                skipWhitespace();
                String key = string();
                skipWhitespace();
                expect(':');
                skipWhitespace();
                members.put(key, value());
                skipWhitespace();
                char c = next();
                if (c == '}') {
                    return new JsonObject(new BuiltMembers(members));
                }
                if (c != ',') {
                    throw error("expected ',' or '}'");
                }
            }
        }

        private JsonArray array() {
            pos++;
            List<JsonValue> elements = new ArrayList<>();
            skipWhitespace();
            if (peek() == ']') {
                pos++;
                return new JsonArray(elements);
            }
            while (true) {
                skipWhitespace();
                elements.add(value());
                skipWhitespace();
                char c = next();
                if (c == ']') {
                    return new JsonArray(elements);
                }
                if (c != ',') {
                    throw error("expected ',' or ']'");
                }
            }
        }

        private String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            while (true) {
                char c = next();
                if (c == '"') {
                    return out.toString();
                }
                if (c == '\\') {
                    char e = next();
                    switch (e) {
                        case '"', '\\', '/' -> out.append(e);
                        case 'b' -> out.append('\b');
                        case 'f' -> out.append('\f');
                        case 'n' -> out.append('\n');
                        case 'r' -> out.append('\r');
                        case 't' -> out.append('\t');
                        case 'u' -> {
                            if (pos + 4 > s.length()) {
                                throw error("bad unicode escape");
                            }
                            out.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                            pos += 4;
                        }
                        default -> throw error("bad escape");
                    }
                } else {
                    out.append(c);
                }
            }
        }

        private JsonNumber number() {
            int start = pos;
            while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
                pos++;
            }
            String text = s.substring(start, pos);
            if (text.isEmpty()) {
                throw error("unexpected character");
            }
            try {
                if (text.contains(".") || text.contains("e") || text.contains("E")) {
                    double d = Double.parseDouble(text);
                    return new JsonNumber(Double.isFinite(d) ? d : new BigDecimal(text));
                }
                BigInteger big = new BigInteger(text);
                return new JsonNumber(big.bitLength() < 64 ? (Number) big.longValue() : big);
            } catch (NumberFormatException e) {
                throw error("bad number [" + text + "]");
            }
        }

        private JsonValue literal(String word, JsonValue value) {
            if (!s.startsWith(word, pos)) {
                throw error("unexpected character");
            }
            pos += word.length();
            return value;
        }

        void skipWhitespace() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        private char peek() {
            return pos < s.length() ? s.charAt(pos) : '\0';
        }

        private char next() {
            if (pos >= s.length()) {
                throw error("unexpected end of input");
            }
            return s.charAt(pos++);
        }

        private void expect(char c) {
            if (next() != c) {
                throw error("expected '" + c + "'");
            }
        }

        IllegalArgumentException error(String what) {
            return new IllegalArgumentException("invalid JSON at offset " + pos + ": " + what);
        }
    }
}
