package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/** A concrete index: its identity, settings and mappings. Aliases live beside it in the catalog. */
public record IndexMetadata(String name, String uuid, Instant creationDate, IndexSettings settings, Mappings mappings) {

    /** The {@code index.version.created} Elasticsearch 8.15.0 reports. */
    public static final String VERSION_CREATED = "8512000";
    /** The {@code index.routing.allocation.include._tier_preference} Elasticsearch 8.15 sets on every new index. */
    public static final String TIER_PREFERENCE = "data_content";

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
            flatSettings().forEach(root::put);
            return root.build();
        }
        Map<String, Object> tree = new TreeMap<>();
        flatSettings().forEach((key, value) -> {
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
            } else {
                b.put(k, (String) v);
            }
        });
        return b.build();
    }
}
