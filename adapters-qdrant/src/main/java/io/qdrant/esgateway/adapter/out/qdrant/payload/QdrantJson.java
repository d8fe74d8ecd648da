package io.qdrant.esgateway.adapter.out.qdrant.payload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;

/** Conversions between the domain's JSON values and Jackson's, for payloads. */
public final class QdrantJson {
    private QdrantJson() {
    }

    /**
     * The exact JSON text of a source, safe to carry as a JSON string: lone surrogates (which the domain keeps, and
     * which no UTF-8 body can carry raw) are written as {@code \\uXXXX} escapes, which parse back to the same char.
     */
    public static String exactText(JsonObject source) {
        String text = Json.write(source);
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean lone = Character.isHighSurrogate(c)
                    ? i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1))
                    : Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(text.charAt(i - 1)));
            if (lone) {
                if (out == null) {
                    out = new StringBuilder(text.length() + 16).append(text, 0, i);
                }
                out.append(String.format("\\u%04x", (int) c));
            } else if (out != null) {
                out.append(c);
            }
        }
        return out == null ? text : out.toString();
    }

    /** A value as a payload node; lone surrogates become U+FFFD (this copy only serves projections). */
    public static JsonNode toNode(JsonValue value) {
        return switch (value) {
            case JsonValue.JsonObject o -> {
                ObjectNode node = QdrantClient.object();
                o.members().forEach((k, v) -> node.set(clean(k), toNode(v)));
                yield node;
            }
            case JsonValue.JsonArray a -> {
                ArrayNode node = QdrantClient.NODES.arrayNode();
                a.elements().forEach(e -> node.add(toNode(e)));
                yield node;
            }
            case JsonValue.JsonString s -> QdrantClient.NODES.textNode(clean(s.value()));
            case JsonValue.JsonNumber n -> switch (n.value()) {
                case Long l -> QdrantClient.NODES.numberNode(l);
                case Integer i -> QdrantClient.NODES.numberNode(i.longValue());
                case BigInteger b -> QdrantClient.NODES.numberNode(b);
                case BigDecimal d -> QdrantClient.NODES.numberNode(d);
                default -> QdrantClient.NODES.numberNode(n.value().doubleValue());
            };
            case JsonValue.JsonBool b -> QdrantClient.NODES.booleanNode(b.value());
            case JsonValue.JsonNull x -> QdrantClient.NODES.nullNode();
        };
    }

    private static String clean(String s) {
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean lone = Character.isHighSurrogate(c)
                    ? i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))
                    : Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(s.charAt(i - 1)));
            if (lone && out == null) {
                out = new StringBuilder(s.length()).append(s, 0, i);
            }
            if (out != null) {
                out.append(lone ? '\uFFFD' : c);
            }
        }
        return out == null ? s : out.toString();
    }

    /** A payload object as a domain object ({@code {}} when absent). */
    public static JsonObject toObject(JsonNode node) {
        return node instanceof ObjectNode o ? (JsonObject) toValue(o) : JsonObject.of();
    }

    static JsonValue toValue(JsonNode node) {
        if (node.isObject()) {
            Map<String, JsonValue> members = new LinkedHashMap<>();
            node.properties().forEach(e -> members.put(e.getKey(), toValue(e.getValue())));
            return new JsonValue.JsonObject(members);
        }
        if (node.isArray()) {
            List<JsonValue> elements = new ArrayList<>();
            node.forEach(e -> elements.add(toValue(e)));
            return new JsonValue.JsonArray(elements);
        }
        if (node.isTextual()) {
            return new JsonValue.JsonString(node.asText());
        }
        if (node.isBoolean()) {
            return new JsonValue.JsonBool(node.asBoolean());
        }
        if (node.isIntegralNumber()) {
            return node.canConvertToLong() ? new JsonValue.JsonNumber(node.asLong())
                    : new JsonValue.JsonNumber(node.bigIntegerValue());
        }
        if (node.isNumber()) {
            return new JsonValue.JsonNumber(node.doubleValue());
        }
        return JsonValue.JsonNull.INSTANCE;
    }

    /**
     * The {@code with_payload} include paths that hold every source path asked: for {@code a.b.c} the top-level
     * keys {@code a}, {@code "a.b"} and {@code "a.b.c"} (Elasticsearch finds {@code a.b.c} through any of them, and a
     * Qdrant path {@code a.b} would not descend into an array {@code a}); the whole {@code _source} for patterns.
     * The gateway then applies the source filter itself, so the projection is exact.
     */
    public static List<String> sourceIncludes(Set<String> fields) {
        Set<String> out = new LinkedHashSet<>();
        for (String field : fields) {
            if (field.contains("*") || field.indexOf('"') >= 0 || field.indexOf('\\') >= 0) {
                return List.of(QdrantLayout.SOURCE);
            }
            String[] parts = field.split("\\.", -1);
            StringBuilder key = new StringBuilder();
            for (String part : parts) {
                if (key.length() > 0) {
                    key.append('.');
                }
                key.append(part);
                if (!key.isEmpty()) {
                    out.add(QdrantLayout.sourcePath(key.toString()));
                }
            }
        }
        return List.copyOf(out);
    }
}
