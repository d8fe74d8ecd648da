package io.qdrant.esgateway.domain.json;

import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.LinkedHashMap;

/** Builds a {@link JsonObject} in Elasticsearch's key order; {@code null} Java values become JSON null. */
public final class JsonObjectBuilder {
    private LinkedHashMap<String, JsonValue> members = new LinkedHashMap<>();
    /** Whether {@link #members} belongs to a built object (then the next {@code put} copies it first). */
    private boolean built;

    public static JsonObjectBuilder object() {
        return new JsonObjectBuilder();
    }

    public JsonObjectBuilder put(String key, JsonValue value) {
        if (built) {
            members = new LinkedHashMap<>(members);
            built = false;
        }
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

    /** The object with the members put so far; later {@code put}s do not change it. */
    public JsonObject build() {
        built = true;
        return new JsonObject(new BuiltMembers(members));
    }

    /**
     * As {@link #build()}, for an object parsed from a body: {@code at} is where it starts, {@code end} where it
     * ends, {@code keyAt} where each key starts, in the order they were put (see {@link JsonValue.Position}).
     */
    public JsonObject build(long at, long end, long[] keyAt) {
        built = true;
        return new JsonObject(new BuiltMembers(members), at, end, keyAt);
    }
}
