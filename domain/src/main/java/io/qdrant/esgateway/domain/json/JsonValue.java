package io.qdrant.esgateway.domain.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The neutral JSON tree the domain reads requests from and writes responses to. Adapters turn bytes into this
 * tree (and back); the domain never sees a JSON library. Objects keep their key order.
 */
public sealed interface JsonValue {

    /** The JSON type name used in error messages, as Elasticsearch words it (e.g. {@code START_OBJECT}). */
    String tokenName();

    record JsonObject(Map<String, JsonValue> members) implements JsonValue {
        /**
         * Copies the members (in their order), except {@link CompactMembers} and a builder's members, which are
         * immutable already.
         */
        public JsonObject {
            if (!(members instanceof CompactMembers || members instanceof BuiltMembers)) {
                members = Collections.unmodifiableMap(new LinkedHashMap<>(members));
            }
        }

        private static final JsonObject EMPTY = new JsonObject(Map.of());

        /** The empty object (one shared instance: objects are immutable). */
        public static JsonObject of() {
            return EMPTY;
        }

        public JsonValue get(String key) {
            return members.get(key);
        }

        public boolean has(String key) {
            return members.containsKey(key);
        }

        @Override
        public String tokenName() {
            return "START_OBJECT";
        }
    }

    record JsonArray(List<JsonValue> elements) implements JsonValue {
        public JsonArray {
            elements = List.copyOf(elements);
        }

        @Override
        public String tokenName() {
            return "START_ARRAY";
        }
    }

    record JsonString(String value) implements JsonValue {
        @Override
        public String tokenName() {
            return "VALUE_STRING";
        }
    }

    /** A number exactly as written: {@link Long}, {@link BigInteger}, {@link Double} or {@link BigDecimal}. */
    record JsonNumber(Number value) implements JsonValue {
        public boolean isIntegral() {
            return value instanceof Long || value instanceof Integer || value instanceof BigInteger
                    || value instanceof Short || value instanceof Byte;
        }

        @Override
        public String tokenName() {
            return "VALUE_NUMBER";
        }
    }

    record JsonBool(boolean value) implements JsonValue {
        @Override
        public String tokenName() {
            return "VALUE_BOOLEAN";
        }
    }

    enum JsonNull implements JsonValue {
        INSTANCE;

        @Override
        public String tokenName() {
            return "VALUE_NULL";
        }
    }

    static JsonString string(String value) {
        return new JsonString(value);
    }

    static JsonNumber number(long value) {
        return new JsonNumber(value);
    }

    static JsonBool bool(boolean value) {
        return new JsonBool(value);
    }
}
