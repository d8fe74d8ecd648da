package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/** A concrete index: its identity, settings and mappings. Aliases live beside it in the catalog. */
public record IndexMetadata(String name, String uuid, Instant creationDate, IndexSettings settings, Mappings mappings) {
    public IndexMetadata {
        // keyword normalizers normalize with this index's analysis settings
        mappings = Normalizers.bind(mappings, settings.analysis());
    }

    /** The {@code index.version.created} Elasticsearch 8.15.0 reports. */
    public static final String VERSION_CREATED = "8512000";
    /** The {@code index.routing.allocation.include._tier_preference} Elasticsearch 8.15 sets on every new index. */
    public static final String TIER_PREFERENCE = "data_content";

    /** Whether the index is closed ({@code POST /{index}/_close}): no reads or writes of its documents. */
    public boolean closed() {
        return settings.closed();
    }

    public IndexMetadata withSettings(IndexSettings newSettings) {
        return new IndexMetadata(name, uuid, creationDate, newSettings, mappings);
    }

    public IndexMetadata withMappings(Mappings newMappings) {
        return new IndexMetadata(name, uuid, creationDate, settings, newMappings);
    }

    /** Every setting, user-given and private, flat and sorted by key, as ES renders {@code ?flat_settings=true}. */
    public Map<String, String> flatSettings() {
        Map<String, String> flat = new TreeMap<>(settings.toFlatMap());
        flat.put("index.creation_date", Long.toString(creationDate.toEpochMilli()));
        flat.put("index.provided_name", name);
        // Elasticsearch 8.15 gives every new index this allocation setting (data tiers); reported, never acted on
        flat.put("index.routing.allocation.include._tier_preference", settings.tierPreference().orElse(TIER_PREFERENCE));
        flat.put("index.uuid", uuid);
        flat.put("index.version.created", VERSION_CREATED);
        return flat;
    }

    /** The settings object of {@code GET /{index}/_settings}, nested ({@code {"index":{…}}}) or flat. */
    public JsonObject settingsJson(boolean flat) {
        JsonObjectBuilder root = JsonObjectBuilder.object();
        if (flat) {
            withLists(flatSettings()).forEach((key, value) -> {
                if (value instanceof String s) {
                    root.put(key, s);
                } else {
                    root.put(key, stringArray(value));
                }
            });
            return root.build();
        }
        Map<String, Object> tree = new TreeMap<>();
        withLists(flatSettings()).forEach((key, value) -> {
            String[] parts = key.split("\\.");
            Map<String, Object> level = tree;
            for (int i = 0; i < parts.length - 1; i++) {
                @SuppressWarnings("unchecked")
                Map<String, Object> next = (Map<String, Object>) level.computeIfAbsent(parts[i], k -> new TreeMap<>());
                level = next;
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
            } else if (v instanceof String s) {
                b.put(k, s);
            } else {
                b.put(k, stringArray(v));
            }
        });
        return b.build();
    }

    private static final java.util.regex.Pattern LIST_ELEMENT =
            java.util.regex.Pattern.compile("(index\\.analysis\\..+)\\.(\\d+)");

    /** The analysis lists, kept as {@code key.0}, {@code key.1} …, back as lists (ES renders them as arrays). */
    private static Map<String, Object> withLists(Map<String, String> flat) {
        Map<String, Object> out = new TreeMap<>();
        flat.forEach((key, value) -> {
            java.util.regex.Matcher m = LIST_ELEMENT.matcher(key);
            if (m.matches()) {
                @SuppressWarnings("unchecked")
                Map<Integer, String> list = (Map<Integer, String>) out.computeIfAbsent(m.group(1),
                        k -> new TreeMap<Integer, String>());
                list.put(Integer.parseInt(m.group(2)), value);
            } else {
                out.put(key, value);
            }
        });
        out.replaceAll((k, v) -> v instanceof Map<?, ?> m ? java.util.List.copyOf(m.values()) : v);
        return out;
    }

    private static io.qdrant.esgateway.domain.json.JsonValue stringArray(Object list) {
        java.util.List<io.qdrant.esgateway.domain.json.JsonValue> values = new java.util.ArrayList<>();
        ((java.util.List<?>) list).forEach(v -> values.add(new io.qdrant.esgateway.domain.json.JsonValue.JsonString(
                (String) v)));
        return new io.qdrant.esgateway.domain.json.JsonValue.JsonArray(values);
    }
}
