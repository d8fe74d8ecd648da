package io.qdrant.esgateway.domain.document;

import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.JsonValue;

/**
 * Checks a document's {@code _source} against its index's mapping, converts every value to its mapped type, and
 * applies Elasticsearch's dynamic mapping to fields the mapping does not know.
 */
public final class DocumentParser {
    private DocumentParser() {
    }

    /**
     * @throws io.qdrant.esgateway.domain.error.GatewayException {@code DOCUMENT_PARSING} when the source is not an
     *     object or a value does not fit its type, {@code STRICT_DYNAMIC_MAPPING} for a new field under
     *     {@code dynamic: strict}
     */
    public static ParsedDocument parse(Mappings mappings, JsonValue source, String id) {
        throw new UnsupportedOperationException("DocumentParser is being written");
    }
}
