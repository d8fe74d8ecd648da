package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The root mapping parameters besides {@code dynamic} and {@code _meta}: {@code _source} ({@code enabled},
 * {@code includes}, {@code excludes}: what a document's {@code _source} shows when read back, if anything — the
 * gateway keeps the whole source and indexes every field, as Elasticsearch indexes excluded fields), {@code _routing.required}, and
 * {@code dynamic_templates} (in order; the first that matches a new field maps it).
 */
public record RootOptions(Optional<Boolean> sourceEnabled, List<String> sourceIncludes, List<String> sourceExcludes,
                          Optional<Boolean> routingRequired, List<DynamicTemplate> dynamicTemplates) {
    public static final RootOptions NONE = new RootOptions(Optional.empty(), List.of(), List.of(), Optional.empty(),
            List.of());

    public RootOptions {
        sourceIncludes = List.copyOf(sourceIncludes);
        sourceExcludes = List.copyOf(sourceExcludes);
        dynamicTemplates = List.copyOf(dynamicTemplates);
    }

    /** Whether documents read back show less than their whole source. */
    public boolean filtersSource() {
        return !sourceEnabled.orElse(true) || !sourceIncludes.isEmpty() || !sourceExcludes.isEmpty();
    }

    /**
     * Whether the mapping says {@code _source: {enabled: false}}: reads show no {@code _source}, updates fail. The
     * gateway still keeps the source (its complete scan and doc values read it); it is never shown.
     */
    public boolean sourceDisabled() {
        return !sourceEnabled.orElse(true);
    }

    public boolean requiresRouting() {
        return routingRequired.orElse(false);
    }

    /** This mapping's root options after an update's: each part the update gives replaces this one's. */
    RootOptions merge(RootOptions update) {
        boolean sourceGiven = update.sourceEnabled.isPresent() || !update.sourceIncludes.isEmpty()
                || !update.sourceExcludes.isEmpty();
        Map<String, DynamicTemplate> templates = new LinkedHashMap<>();
        dynamicTemplates.forEach(t -> templates.put(t.name(), t));
        update.dynamicTemplates.forEach(t -> templates.put(t.name(), t));
        return new RootOptions(sourceGiven ? update.sourceEnabled : sourceEnabled,
                sourceGiven ? update.sourceIncludes : sourceIncludes,
                sourceGiven ? update.sourceExcludes : sourceExcludes,
                update.routingRequired.or(() -> routingRequired), new ArrayList<>(templates.values()));
    }

    void render(JsonObjectBuilder b) {
        if (!dynamicTemplates.isEmpty()) {
            List<JsonValue> list = new ArrayList<>();
            dynamicTemplates.forEach(t -> list.add(JsonObjectBuilder.object().put(t.name(), t.toJson()).build()));
            b.put("dynamic_templates", new JsonArray(list));
        }
        routingRequired.ifPresent(r -> b.put("_routing", JsonObjectBuilder.object().put("required", r).build()));
        if (sourceEnabled.isPresent() || !sourceIncludes.isEmpty() || !sourceExcludes.isEmpty()) {
            JsonObjectBuilder s = JsonObjectBuilder.object();
            sourceEnabled.ifPresent(e -> s.put("enabled", e));
            if (!sourceIncludes.isEmpty()) {
                s.put("includes", strings(sourceIncludes));
            }
            if (!sourceExcludes.isEmpty()) {
                s.put("excludes", strings(sourceExcludes));
            }
            b.put("_source", s.build());
        }
    }

    private static JsonArray strings(List<String> values) {
        return new JsonArray(values.stream().map(v -> (JsonValue) new JsonString(v)).toList());
    }
}
