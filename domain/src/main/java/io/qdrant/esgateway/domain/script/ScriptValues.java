package io.qdrant.esgateway.domain.script;

import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonBool;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNull;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON to script values and back, as Elasticsearch hands them to Painless: objects as maps (a document's
 * {@code _source} keeps its key order, {@code params} does not), arrays as {@link ArrayList}s, integers as
 * {@link Integer} when they fit (else {@link Long}), decimals as {@link Double}.
 */
public final class ScriptValues {
    private ScriptValues() {
    }

    /** A value for a script; {@code ordered} keeps object key order ({@code _source}). */
    public static Object toScript(JsonValue value, boolean ordered) {
        return switch (value) {
            case JsonObject o -> toScriptMap(o, ordered);
            case JsonArray a -> {
                List<Object> out = new ArrayList<>(a.elements().size());
                for (JsonValue v : a.elements()) {
                    out.add(toScript(v, ordered));
                }
                yield out;
            }
            case JsonString s -> s.value();
            case JsonNumber n -> number(n.value());
            case JsonBool b -> b.value();
            case JsonNull x -> null;
        };
    }

    public static Map<String, Object> toScriptMap(JsonObject object, boolean ordered) {
        Map<String, Object> out = ordered ? new LinkedHashMap<>() : new HashMap<>();
        object.members().forEach((k, v) -> out.put(k, toScript(v, ordered)));
        return out;
    }

    private static Object number(Number n) {
        if (n instanceof Long l) {
            return l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE ? (Object) l.intValue() : l;
        }
        if (n instanceof Integer || n instanceof Double) {
            return n;
        }
        if (n instanceof BigDecimal d) {
            return d.doubleValue();
        }
        return n;
    }

    /** A script's value as JSON; values JSON cannot hold fail as Elasticsearch's content builder does. */
    public static JsonValue toJson(Object value) {
        if (value == null) {
            return JsonNull.INSTANCE;
        }
        if (value instanceof String s) {
            return new JsonString(s);
        }
        if (value instanceof Boolean b) {
            return new JsonBool(b);
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return new JsonNumber(((Number) value).longValue());
        }
        if (value instanceof Float f) {
            return new JsonNumber(Double.parseDouble(Float.toString(f)));
        }
        if (value instanceof Double || value instanceof BigInteger || value instanceof BigDecimal) {
            return new JsonNumber((Number) value);
        }
        if (value instanceof Map<?, ?> m) {
            Map<String, JsonValue> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(String.valueOf(k), toJson(v)));
            return new JsonObject(out);
        }
        if (value instanceof Collection<?> c) {
            List<JsonValue> out = new ArrayList<>(c.size());
            for (Object v : c) {
                out.add(toJson(v));
            }
            return new JsonArray(out);
        }
        if (value instanceof PArray a) {
            List<JsonValue> out = new ArrayList<>(a.length());
            for (Object v : a.values) {
                out.add(toJson(v));
            }
            return new JsonArray(out);
        }
        throw new IllegalArgumentException("cannot write xcontent for unknown value of type "
                + value.getClass());
    }
}
