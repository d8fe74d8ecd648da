package io.qdrant.esgateway.domain.document;

import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.List;

/** A document ready for the backend: id, version triple, the {@code _source} to keep, and the values to index. */
public record IndexableDocument(String id, DocumentVersion version, JsonObject source, List<IndexedValue> values) {
    public IndexableDocument {
        values = List.copyOf(values);
    }

    public StoredDocument stored() {
        return new StoredDocument(id, version, source);
    }
}
