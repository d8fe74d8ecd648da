package io.qdrant.esgateway.domain.query.dsl;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Strict reading of one query's parameters: every read consumes a key; {@link #done()} rejects what is left with
 * Elasticsearch's "[type] query does not support [key]". Keys the gateway accepts and ignores are named in
 * {@link #IGNORED} with the reason, never dropped silently.
 */
final class DslObject {
    /** Accepted everywhere and ignored: {@code _name} only labels matches (matched_queries), never changes a hit. */
    static final Set<String> IGNORED = Set.of("_name");

    private final String type;
    private final Map<String, JsonValue> remaining;

    DslObject(String type, JsonValue value) {
        this.type = type;
        if (!(value instanceof JsonObject object)) {
            throw malformed(type);
        }
        this.remaining = new LinkedHashMap<>(object.members());
        IGNORED.forEach(remaining::remove);
    }

    /** Over {@code remaining}, which it owns (no copy) and from which {@link #IGNORED} keys were removed. */
    private DslObject(String type, Map<String, JsonValue> remaining) {
        this.type = type;
        this.remaining = remaining;
    }

    static GatewayException malformed(String type) {
        return parsing("[" + type + "] query malformed, no start_object after query name");
    }

    static GatewayException parsing(String reason) {
        return new GatewayException(ErrorKind.PARSING, reason);
    }

    String type() {
        return type;
    }

    Optional<JsonValue> take(String key) {
        return Optional.ofNullable(remaining.remove(key));
    }

    JsonValue required(String key) {
        return take(key).orElseThrow(() -> parsing("[" + type + "] requires [" + key + "]"));
    }

    Optional<String> string(String key) {
        return take(key).map(v -> JsonReads.text(v).orElseThrow(() -> parsing("[" + type + "] query does not support ["
                + key + "] as " + v.tokenName())));
    }

    Optional<Float> floatValue(String key) {
        return take(key).map(v -> {
            try {
                return Float.parseFloat(JsonReads.text(v).orElseThrow());
            } catch (RuntimeException e) {
                throw parsing("[" + type + "] [" + key + "] must be a number, got [" + v.tokenName() + "]");
            }
        });
    }

    Optional<Integer> intValue(String key) {
        return take(key).map(v -> JsonReads.integer(v).map(Long::intValue).orElseThrow(() -> parsing("[" + type
                + "] [" + key + "] must be an integer")));
    }

    Optional<Boolean> bool(String key) {
        return take(key).map(v -> JsonReads.bool(v).orElseThrow(() -> parsing("[" + type + "] [" + key
                + "] must be a boolean")));
    }

    float boost() {
        return floatValue("boost").orElse(1.0f);
    }

    /** One query or an array of queries (ES accepts both wherever a clause list is expected). */
    List<JsonValue> oneOrMany(String key) {
        return take(key).map(v -> v instanceof JsonArray a ? a.elements() : List.of(v)).orElse(List.of());
    }

    List<String> strings(String key) {
        List<String> out = new ArrayList<>();
        for (JsonValue v : oneOrMany(key)) {
            out.add(JsonReads.text(v).orElseThrow(() -> parsing("[" + type + "] [" + key
                    + "] must contain strings")));
        }
        return out;
    }

    /** Rejects every key not read, naming it. */
    void done() {
        if (!remaining.isEmpty()) {
            Map.Entry<String, JsonValue> first = remaining.entrySet().iterator().next();
            throw GatewayException.parsingAt("[" + type + "] query does not support [" + first.getKey() + "]",
                    first.getValue().at());
        }
    }

    boolean isEmpty() {
        return remaining.isEmpty();
    }

    /**
     * ES's one-field shorthand, normalised in one place: {@code {"f": "v"}} and {@code {"f": {"value": "v", …}}} both
     * give the field name and a parameter object. {@code shortKey} names the parameter the short form sets.
     */
    static Map.Entry<String, DslObject> oneField(String type, JsonValue value, String shortKey) {
        if (!(value instanceof JsonObject object)) {
            throw malformed(type);
        }
        // the one member besides boost and the ignored keys, read in place (one map: the parameters)
        Map.Entry<String, JsonValue> only = null;
        JsonValue boost = null;
        int fields = 0;
        for (Map.Entry<String, JsonValue> member : object.members().entrySet()) {
            if (IGNORED.contains(member.getKey())) {
                continue;
            }
            if (member.getKey().equals("boost")) {
                boost = member.getValue();
            } else if (fields++ == 0) {
                only = member;
            }
        }
        if (fields != 1) {
            List<String> names = new ArrayList<>();
            object.members().keySet().stream().filter(k -> !IGNORED.contains(k) && !k.equals("boost"))
                    .forEach(names::add);
            throw parsing("[" + type + "] query doesn't support multiple fields, found [" + String.join("] and [",
                    names) + "]");
        }
        Map<String, JsonValue> params = new LinkedHashMap<>();
        if (only.getValue() instanceof JsonObject inner) {
            params.putAll(inner.members());
        } else {
            params.put(shortKey, only.getValue());
        }
        if (boost != null) {
            params.putIfAbsent("boost", boost);
        }
        IGNORED.forEach(params::remove);
        return Map.entry(only.getKey(), new DslObject(type, params));
    }
}
