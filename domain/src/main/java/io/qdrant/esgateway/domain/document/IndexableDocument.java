package io.qdrant.esgateway.domain.document;

import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.List;
import java.util.Optional;

/**
 * A document ready for the backend: id, version triple, the {@code _source} to keep, the values to index and the
 * routing value to keep with it ({@code _routing}).
 */
public record IndexableDocument(String id, DocumentVersion version, JsonObject source, List<IndexedValue> values,
                                Optional<String> routing) {
    public IndexableDocument {
        values = List.copyOf(values);
    }

    public IndexableDocument(String id, DocumentVersion version, JsonObject source, List<IndexedValue> values) {
        this(id, version, source, values, Optional.empty());
    }

    public StoredDocument stored() {
        return new StoredDocument(id, version, source, routing);
    }
}
