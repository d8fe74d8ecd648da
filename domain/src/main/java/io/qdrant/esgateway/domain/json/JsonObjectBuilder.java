package io.qdrant.esgateway.domain.json;

import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;

/** Builds a {@link JsonObject} in Elasticsearch's key order; {@code null} Java values become JSON null. */
public final class JsonObjectBuilder {
    private final Map<String, JsonValue> members = new LinkedHashMap<>();

    public static JsonObjectBuilder object() {
        return new JsonObjectBuilder();
    }

    public JsonObjectBuilder put(String key, JsonValue value) {
        members.put(key, value == null ? JsonValue.JsonNull.INSTANCE : value);
        return this;
    }

    public JsonObjectBuilder put(String key, String value) {
        return put(key, value == null ? null : new JsonValue.JsonString(value));
    }

    public JsonObjectBuilder put(String key, long value) {
        return put(key, new JsonValue.JsonNumber(value));
    }

    public JsonObjectBuilder put(String key, double value) {
        return put(key, new JsonValue.JsonNumber(value));
    }

    public JsonObjectBuilder put(String key, boolean value) {
        return put(key, new JsonValue.JsonBool(value));
    }

    public JsonObjectBuilder put(String key, JsonObjectBuilder value) {
        return put(key, value.build());
    }

    public JsonObject build() {
        return new JsonObject(members);
    }
}
