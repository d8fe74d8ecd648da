package io.qdrant.esgateway.domain.document;

import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.List;
import java.util.Optional;

/**
 * A source checked against a mapping: the values to index and, when {@code dynamic: true} met new fields, the mapping
 * with those fields added (to be recorded in the catalog before the write is acknowledged), and the fields that had a
 * value left out by {@code ignore_above} or {@code ignore_malformed} (Elasticsearch's {@code _ignored}, sorted).
 */
public record ParsedDocument(JsonObject source, List<IndexedValue> values, Optional<Mappings> updatedMappings,
                             List<String> ignored) {
    public ParsedDocument {
        values = List.copyOf(values);
        ignored = List.copyOf(ignored);
    }

    public ParsedDocument(JsonObject source, List<IndexedValue> values, Optional<Mappings> updatedMappings) {
        this(source, values, updatedMappings, List.of());
    }
}
