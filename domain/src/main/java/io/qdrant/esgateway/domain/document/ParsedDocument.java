package io.qdrant.esgateway.domain.document;

import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.List;
import java.util.Optional;

/**
 * A source checked against a mapping: the values to index and, when {@code dynamic: true} met new fields, the mapping
 * with those fields added (to be recorded in the catalog before the write is acknowledged).
 */
public record ParsedDocument(JsonObject source, List<IndexedValue> values, Optional<Mappings> updatedMappings) {
    public ParsedDocument {
        values = List.copyOf(values);
    }
}
