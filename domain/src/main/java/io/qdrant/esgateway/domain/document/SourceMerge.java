package io.qdrant.esgateway.domain.document;

import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;

/** The partial-document merge of {@code _update}: objects merge key by key, recursively; anything else replaces. */
public final class SourceMerge {
    private SourceMerge() {
    }

    public static JsonObject merge(JsonObject current, JsonObject partial) {
        Map<String, JsonValue> out = new LinkedHashMap<>(current.members());
        for (Map.Entry<String, JsonValue> e : partial.members().entrySet()) {
            JsonValue existing = out.get(e.getKey());
            if (existing instanceof JsonObject a && e.getValue() instanceof JsonObject b) {
                out.put(e.getKey(), merge(a, b));
            } else {
                out.put(e.getKey(), e.getValue());
            }
        }
        return new JsonObject(out);
    }
}
