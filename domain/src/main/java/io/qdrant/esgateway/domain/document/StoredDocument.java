package io.qdrant.esgateway.domain.document;

import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.Optional;

/**
 * A document as the backend holds it: its id, its version triple, its {@code _source} and the routing value it was
 * written with ({@code _routing}; empty when it was written without one).
 */
public record StoredDocument(String id, DocumentVersion version, JsonObject source, Optional<String> routing) {
    public StoredDocument(String id, DocumentVersion version, JsonObject source) {
        this(id, version, source, Optional.empty());
    }

    /** This document with {@code other} as its {@code _source}. */
    public StoredDocument withSource(JsonObject other) {
        return new StoredDocument(id, version, other, routing);
    }
}
