package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Mappings composed as Elasticsearch composes templates (component templates in order, then the index template, then
 * the create request): objects merge field by field, a field given again as a leaf replaces the earlier definition
 * whole (so a later template may change a field's type), {@code dynamic_templates} merge by name (a later one of the
 * same name replaces the earlier), and other root objects ({@code _meta}, {@code _source}) merge key by key.
 */
final class TemplateMappings {
    private static final Set<String> OBJECT_TYPES = Set.of("object", "nested");

    private TemplateMappings() {
    }

    static JsonObject merge(JsonObject earlier, JsonObject later) {
        Map<String, JsonValue> out = new LinkedHashMap<>(earlier.members());
        later.members().forEach((key, value) -> {
            JsonValue before = out.get(key);
            if (before == null) {
                out.put(key, value);
            } else if (key.equals("properties") && before instanceof JsonObject b && value instanceof JsonObject v) {
                out.put(key, mergeProperties(b, v));
            } else if (key.equals("dynamic_templates") && before instanceof JsonArray b && value instanceof JsonArray v) {
                out.put(key, mergeDynamicTemplates(b, v));
            } else if (before instanceof JsonObject b && value instanceof JsonObject v) {
                out.put(key, deepMerge(b, v));
            } else {
                out.put(key, value);
            }
        });
        return new JsonObject(out);
    }

    private static JsonObject mergeProperties(JsonObject earlier, JsonObject later) {
        Map<String, JsonValue> out = new LinkedHashMap<>(earlier.members());
        later.members().forEach((name, definition) -> {
            JsonValue before = out.get(name);
            if (before instanceof JsonObject b && definition instanceof JsonObject d && isObject(b) && isObject(d)) {
                // the later object's parameters (its type included), the properties of both
                Map<String, JsonValue> merged = new LinkedHashMap<>(d.members());
                JsonValue bp = b.get("properties");
                JsonValue dp = d.get("properties");
                if (bp instanceof JsonObject bo && dp instanceof JsonObject dob) {
                    merged.put("properties", mergeProperties(bo, dob));
                } else if (bp != null && dp == null) {
                    merged.put("properties", bp);
                }
                out.put(name, new JsonObject(merged));
            } else {
                out.put(name, definition);
            }
        });
        return new JsonObject(out);
    }

    private static boolean isObject(JsonObject definition) {
        JsonValue type = definition.get("type");
        return type == null || type instanceof JsonValue.JsonString s && OBJECT_TYPES.contains(s.value());
    }

    private static JsonArray mergeDynamicTemplates(JsonArray earlier, JsonArray later) {
        List<JsonValue> out = new ArrayList<>(earlier.elements());
        for (JsonValue template : later.elements()) {
            String name = nameOf(template);
            int at = -1;
            for (int i = 0; i < out.size() && name != null; i++) {
                if (name.equals(nameOf(out.get(i)))) {
                    at = i;
                }
            }
            if (at >= 0) {
                out.set(at, template);
            } else {
                out.add(template);
            }
        }
        return new JsonArray(out);
    }

    private static String nameOf(JsonValue template) {
        return template instanceof JsonObject o && o.members().size() == 1 ? o.members().keySet().iterator().next()
                : null;
    }

    private static JsonObject deepMerge(JsonObject earlier, JsonObject later) {
        Map<String, JsonValue> out = new LinkedHashMap<>(earlier.members());
        later.members().forEach((key, value) -> {
            JsonValue before = out.get(key);
            out.put(key, before instanceof JsonObject b && value instanceof JsonObject v ? deepMerge(b, v) : value);
        });
        return new JsonObject(out);
    }
}
