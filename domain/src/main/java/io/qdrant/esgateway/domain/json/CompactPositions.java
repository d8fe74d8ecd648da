package io.qdrant.esgateway.domain.json;

import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonBool;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNull;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import io.qdrant.esgateway.domain.json.JsonValue.Position;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A tree with the positions its values would have in its compact JSON text ({@link Json#write}): one line, columns
 * counted in UTF-8 bytes from 1, as a JSON parser reading those bytes reports them. Elasticsearch parses a document it
 * built itself (the source an update merged, an upsert taken out of an update body) from such a text, so its errors
 * name these positions, not the ones in the request.
 */
public final class CompactPositions {
    private CompactPositions() {
    }

    public static JsonObject of(JsonObject document) {
        return (JsonObject) new Layout().place(document);
    }

    private static final class Layout {
        private long column = 1;

        JsonValue place(JsonValue value) {
            long at = Position.of(1, (int) column);
            switch (value) {
                case JsonObject o -> {
                    column++;
                    Map<String, JsonValue> members = new LinkedHashMap<>();
                    long[] keyAt = new long[o.members().size()];
                    int i = 0;
                    for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
                        if (i > 0) {
                            column++;
                        }
                        keyAt[i++] = Position.of(1, (int) column);
                        column += bytes(Json.write(new JsonString(e.getKey()))) + 1;
                        members.put(e.getKey(), place(e.getValue()));
                    }
                    long end = Position.of(1, (int) column);
                    column++;
                    return new JsonObject(members, at, end, keyAt);
                }
                case JsonArray a -> {
                    column++;
                    List<JsonValue> elements = new ArrayList<>(a.elements().size());
                    for (int i = 0; i < a.elements().size(); i++) {
                        if (i > 0) {
                            column++;
                        }
                        elements.add(place(a.elements().get(i)));
                    }
                    long end = Position.of(1, (int) column);
                    column++;
                    return new JsonArray(elements, at, end);
                }
                case JsonString s -> {
                    column += bytes(Json.write(s));
                    return new JsonString(s.value(), at);
                }
                case JsonNumber n -> {
                    column += bytes(Json.write(n));
                    return new JsonNumber(n.value(), at);
                }
                case JsonBool b -> {
                    column += b.value() ? 4 : 5;
                    return new JsonBool(b.value(), at);
                }
                case JsonNull ignored -> {
                    column += 4;
                    return JsonNull.INSTANCE;
                }
            }
        }

        private static int bytes(String text) {
            return text.getBytes(StandardCharsets.UTF_8).length;
        }
    }
}
