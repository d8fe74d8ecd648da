package io.qdrant.esgateway.domain.document;

import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;

/** A document as the backend holds it: its id, its version triple and its {@code _source}. */
public record StoredDocument(String id, DocumentVersion version, JsonObject source) {
}
