package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The {@code template} part of an index or component template (and the settings, mappings and aliases of a create
 * request once templates are applied to it): settings kept flat with {@code index.} keys and string values, as
 * Elasticsearch normalises them; mappings and aliases as given. {@link #then(TemplateBody)} composes two bodies in
 * Elasticsearch's order (the later one wins; mappings merge deeply).
 */
public record TemplateBody(Optional<Map<String, JsonValue>> settings, Optional<JsonObject> mappings,
                           Optional<JsonObject> aliases) {
    public static final TemplateBody EMPTY = new TemplateBody(Optional.empty(), Optional.empty(), Optional.empty());

    public TemplateBody {
        settings = settings.map(s -> java.util.Collections.unmodifiableMap(new TreeMap<>(s)));
    }

    /** Reads a {@code template} object; {@code owner} names it in errors ({@code index_template}, …). */
    public static TemplateBody parse(JsonValue json, String owner) {
        JsonObject object = JsonReads.object(json, JsonReads::parseError, "[" + owner + "] template");
        Optional<Map<String, JsonValue>> settings = Optional.empty();
        Optional<JsonObject> mappings = Optional.empty();
        Optional<JsonObject> aliases = Optional.empty();
        for (Map.Entry<String, JsonValue> e : object.members().entrySet()) {
            switch (e.getKey()) {
                case "settings" -> settings = Optional.of(normaliseSettings(e.getValue()));
                case "mappings" -> mappings = Optional.of(JsonReads.object(e.getValue(), JsonReads::parseError,
                        "[mappings]"));
                case "aliases" -> aliases = Optional.of(JsonReads.object(e.getValue(), JsonReads::parseError,
                        "[aliases]"));
                case "lifecycle" -> throw GatewayException.unsupported("template [lifecycle] (data stream lifecycle)");
                default -> throw new GatewayException(ErrorKind.X_CONTENT_PARSE,
                        "[template] unknown field [" + e.getKey() + "]");
            }
        }
        return new TemplateBody(settings, mappings, aliases);
    }

    /** Settings flat, every key with its {@code index.} prefix, scalars as strings, lists as lists of strings. */
    public static Map<String, JsonValue> normaliseSettings(JsonValue json) {
        JsonObject object = JsonReads.object(json, JsonReads::parseError, "[settings]");
        Map<String, JsonValue> out = new TreeMap<>();
        flatten("", object, out);
        return out;
    }

    private static void flatten(String prefix, JsonObject object, Map<String, JsonValue> out) {
        for (Map.Entry<String, JsonValue> e : object.members().entrySet()) {
            String key = prefix + e.getKey();
            switch (e.getValue()) {
                case JsonObject nested -> flatten(key + ".", nested, out);
                case JsonArray array -> {
                    List<JsonValue> strings = new ArrayList<>();
                    array.elements().forEach(v -> strings.add(JsonReads.text(v).<JsonValue>map(JsonValue.JsonString::new)
                            .orElse(v)));
                    out.put(indexKey(key), new JsonArray(strings));
                }
                case JsonValue.JsonNull n -> out.put(indexKey(key), n);
                default -> out.put(indexKey(key), new JsonValue.JsonString(JsonReads.text(e.getValue()).orElseThrow()));
            }
        }
    }

    private static String indexKey(String key) {
        return key.startsWith("index.") ? key : "index." + key;
    }

    /** This body with {@code later} composed over it: later settings and aliases win, mappings merge deeply. */
    public TemplateBody then(TemplateBody later) {
        Optional<Map<String, JsonValue>> s = settings;
        if (later.settings.isPresent()) {
            Map<String, JsonValue> merged = new TreeMap<>(settings.orElse(Map.of()));
            merged.putAll(later.settings.get());
            s = Optional.of(merged);
        }
        Optional<JsonObject> m = later.mappings.isEmpty() ? mappings : mappings.isEmpty() ? later.mappings
                : Optional.of(TemplateMappings.merge(mappings.get(), later.mappings.get()));
        Optional<JsonObject> a = aliases;
        if (later.aliases.isPresent()) {
            Map<String, JsonValue> merged = new LinkedHashMap<>(aliases.map(JsonObject::members).orElse(Map.of()));
            merged.putAll(later.aliases.get().members());
            a = Optional.of(new JsonObject(merged));
        }
        return new TemplateBody(s, m, a);
    }

    /** The settings as a nested object ({@code {"index":{…}}}), keys sorted, as Elasticsearch renders them. */
    public static JsonObject nestedSettings(Map<String, JsonValue> flat) {
        Map<String, Object> tree = new TreeMap<>();
        flat.forEach((key, value) -> {
            String[] parts = key.split("\\.");
            Map<String, Object> level = tree;
            for (int i = 0; i < parts.length - 1; i++) {
                Object next = level.computeIfAbsent(parts[i], k -> new TreeMap<String, Object>());
                if (!(next instanceof Map<?, ?>)) {
                    next = new TreeMap<String, Object>();
                    level.put(parts[i], next);
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> map = (Map<String, Object>) next;
                level = map;
            }
            level.put(parts[parts.length - 1], value);
        });
        return toJson(tree);
    }

    private static JsonObject toJson(Map<String, Object> tree) {
        JsonObjectBuilder b = JsonObjectBuilder.object();
        tree.forEach((k, v) -> {
            if (v instanceof Map<?, ?> m) {
                @SuppressWarnings("unchecked")
                Map<String, Object> child = (Map<String, Object>) m;
                b.put(k, toJson(child));
            } else {
                b.put(k, (JsonValue) v);
            }
        });
        return b.build();
    }

    /** The {@code template} object as Elasticsearch renders it in {@code GET}: only the parts that were given. */
    public JsonObject toJson() {
        JsonObjectBuilder b = JsonObjectBuilder.object();
        settings.ifPresent(s -> b.put("settings", nestedSettings(s)));
        mappings.ifPresent(m -> b.put("mappings", m));
        aliases.ifPresent(a -> b.put("aliases", a));
        return b.build();
    }

    /** The settings as one object of flat keys (what {@link IndexSettings#parse} reads). */
    public JsonObject flatSettings() {
        return new JsonObject(new LinkedHashMap<>(settings.orElse(Map.of())));
    }

    /** Each alias parsed, named for {@code index} (validates names and properties). */
    public List<AliasMetadata> parsedAliases(String index) {
        List<AliasMetadata> out = new ArrayList<>();
        aliases.ifPresent(a -> a.members().forEach((name, body) -> {
            IndexName.validateAlias(name);
            out.add(AliasProperties.parse(name, body).on(name, index));
        }));
        return out;
    }
}
