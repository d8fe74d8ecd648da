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
 *
 * <p>A value parsed from a request body knows where it started in that body ({@link #at()}, see {@link Position}),
 * and an object knows where each of its keys started, so that errors can name the position as Elasticsearch does
 * ({@code [1:15] failed to parse field …}). Positions take no part in equality: two trees with the same content are
 * equal wherever they were written.
 */
public sealed interface JsonValue {

    /** The JSON type name used in error messages, as Elasticsearch words it (e.g. {@code START_OBJECT}). */
    String tokenName();

    /** Where this value's first token starts in the body it was parsed from ({@link Position}), 0 when unknown. */
    long at();

    /**
     * A position in a body packed into a {@code long}: the line (from 1) in the high 32 bits, the column (from 1,
     * as Jackson counts it) in the low 32 bits; 0 is "unknown".
     */
    final class Position {
        private Position() {
        }

        public static long of(int line, int column) {
            return line <= 0 || column <= 0 ? 0 : ((long) line << 32) | (column & 0xFFFF_FFFFL);
        }

        public static int line(long at) {
            return (int) (at >>> 32);
        }

        public static int column(long at) {
            return (int) at;
        }

        /** Elasticsearch's reason prefix {@code "[line:col] "}, or "" when the position is unknown. */
        public static String prefix(long at) {
            return at == 0 ? "" : "[" + line(at) + ":" + column(at) + "] ";
        }

        /**
         * Where Elasticsearch's parser stands once it has read a whole value: the closing bracket of an object or
         * an array, the value itself otherwise.
         */
        public static long endOf(JsonValue value) {
            return switch (value) {
                case JsonObject o -> o.end();
                case JsonArray a -> a.end();
                default -> value.at();
            };
        }

        /** {@link #prefix(long)} of a value's start; "" for null (nulls carry no position) or an unknown one. */
        public static String prefix(JsonValue value) {
            return value == null ? "" : prefix(value.at());
        }
    }

    /**
     * An object; {@code at} is where its {@code '{'} starts, {@code end} where its {@code '}'} starts, and
     * {@code keyAt} holds where each key starts, in member order (null when unknown).
     */
    record JsonObject(Map<String, JsonValue> members, long at, long end, long[] keyAt) implements JsonValue {
        /**
         * Copies the members (in their order), except {@link CompactMembers} and a builder's members, which are
         * immutable already.
         */
        public JsonObject {
            if (!(members instanceof CompactMembers || members instanceof BuiltMembers)) {
                members = Collections.unmodifiableMap(new LinkedHashMap<>(members));
            }
        }

        /** An object with no known position. */
        public JsonObject(Map<String, JsonValue> members) {
            this(members, 0, 0, null);
        }

        /** Where the key {@code key} starts in the body, 0 when unknown or absent. */
        public long keyAt(String key) {
            if (keyAt == null) {
                return 0;
            }
            int i = 0;
            for (String k : members.keySet()) {
                if (i >= keyAt.length) {
                    return 0;
                }
                if (k.equals(key)) {
                    return keyAt[i];
                }
                i++;
            }
            return 0;
        }

        @Override
        public boolean equals(Object o) {
            return o == this || o instanceof JsonObject other && members.equals(other.members);
        }

        @Override
        public int hashCode() {
            return members.hashCode();
        }

        @Override
        public String toString() {
            return "JsonObject[members=" + members + "]";
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

    /** An array; {@code at} is where its {@code '['} starts and {@code end} where its {@code ']'} starts. */
    record JsonArray(List<JsonValue> elements, long at, long end) implements JsonValue {
        public JsonArray {
            elements = List.copyOf(elements);
        }

        /** An array with no known position. */
        public JsonArray(List<JsonValue> elements) {
            this(elements, 0, 0);
        }

        @Override
        public boolean equals(Object o) {
            return o == this || o instanceof JsonArray other && elements.equals(other.elements);
        }

        @Override
        public int hashCode() {
            return elements.hashCode();
        }

        @Override
        public String toString() {
            return "JsonArray[elements=" + elements + "]";
        }

        @Override
        public String tokenName() {
            return "START_ARRAY";
        }
    }

    record JsonString(String value, long at) implements JsonValue {
        /** A string with no known position. */
        public JsonString(String value) {
            this(value, 0);
        }

        @Override
        public boolean equals(Object o) {
            return o == this || o instanceof JsonString other && java.util.Objects.equals(value, other.value);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hashCode(value);
        }

        @Override
        public String toString() {
            return "JsonString[value=" + value + "]";
        }

        @Override
        public String tokenName() {
            return "VALUE_STRING";
        }
    }

    /** A number exactly as written: {@link Long}, {@link BigInteger}, {@link Double} or {@link BigDecimal}. */
    record JsonNumber(Number value, long at) implements JsonValue {
        /** A number with no known position. */
        public JsonNumber(Number value) {
            this(value, 0);
        }

        @Override
        public boolean equals(Object o) {
            return o == this || o instanceof JsonNumber other && java.util.Objects.equals(value, other.value);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hashCode(value);
        }

        @Override
        public String toString() {
            return "JsonNumber[value=" + value + "]";
        }

        public boolean isIntegral() {
            return value instanceof Long || value instanceof Integer || value instanceof BigInteger
                    || value instanceof Short || value instanceof Byte;
        }

        @Override
        public String tokenName() {
            return "VALUE_NUMBER";
        }
    }

    record JsonBool(boolean value, long at) implements JsonValue {
        /** A boolean with no known position. */
        public JsonBool(boolean value) {
            this(value, 0);
        }

        @Override
        public boolean equals(Object o) {
            return o == this || o instanceof JsonBool other && value == other.value;
        }

        @Override
        public int hashCode() {
            return Boolean.hashCode(value);
        }

        @Override
        public String toString() {
            return "JsonBool[value=" + value + "]";
        }

        @Override
        public String tokenName() {
            return "VALUE_BOOLEAN";
        }
    }

    enum JsonNull implements JsonValue {
        INSTANCE;

        /** The one null carries no position. */
        @Override
        public long at() {
            return 0;
        }

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
