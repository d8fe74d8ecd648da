package io.qdrant.esgateway.adapter.out.qdrant.read;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;

/**
 * Decodes the answer of a points retrieve ({@code POST /collections/{name}/points} with the stored fields as
 * {@code with_payload}) straight from the streaming parser into the gateway's documents — no {@code JsonNode} tree in
 * between. A record's payload gives the document's id ({@code _id}), its exact source text ({@code _src}, parsed by
 * the domain's parser as before) and its version triple; a record without a textual {@code _id} or {@code _src} was
 * not written by the gateway and is a backend fault. Numbers read as {@code JsonNode.asLong} would (missing: 0, the
 * primary term 1).
 */
public final class StoredDocuments {
    private StoredDocuments() {
    }

    /** A decoder of the retrieve's {@code result}: the documents among {@code wanted}, by id. */
    public static QdrantClient.ResultDecoder<Map<String, StoredDocument>> retrieved(IndexMetadata index, Set<String> wanted) {
        return parser -> {
            Map<String, StoredDocument> found = new HashMap<>();
            if (parser.currentToken() != JsonToken.START_ARRAY) {
                return found; // null or not a list: nothing retrieved, as iterating a non-array node gives nothing
            }
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                if (parser.currentToken() != JsonToken.START_OBJECT) {
                    parser.skipChildren();
                    throw notOurs(index);
                }
                StoredDocument d = record(parser, index);
                if (wanted.contains(d.id())) {
                    found.put(d.id(), d);
                }
            }
            return found;
        };
    }

    /** One record object (the parser on its {@code START_OBJECT}); leaves the parser on its {@code END_OBJECT}. */
    private static StoredDocument record(JsonParser parser, IndexMetadata index) throws IOException {
        Fields fields = new Fields();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            if (!field.equals("payload") || value != JsonToken.START_OBJECT) {
                parser.skipChildren();
                continue;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String key = parser.currentName();
                JsonToken token = parser.nextToken();
                fields.read(key, token, parser);
                parser.skipChildren();
            }
        }
        StoredDocument document = fields.document();
        if (document == null) {
            throw notOurs(index);
        }
        return document;
    }

    /**
     * The stored fields of one record's payload as a retrieve reads them, collected member by member (a payload read
     * for other purposes too — a sort stream's records — feeds its members here as it meets them).
     */
    static final class Fields {
        private String id;
        private String text;
        private long version;
        private long seqNo;
        private long primaryTerm = 1;
        private String routing;

        /**
         * Reads the payload member {@code key} whose first token {@code token} the parser is on, when it is one of
         * the stored fields; leaves the parser on that token (a caller skips its children as for any member).
         */
        void read(String key, JsonToken token, JsonParser parser) throws IOException {
            switch (key) {
                case QdrantLayout.ID -> id = token == JsonToken.VALUE_STRING ? parser.getText() : null;
                case QdrantLayout.SOURCE_TEXT -> text = token == JsonToken.VALUE_STRING ? parser.getText() : null;
                case QdrantLayout.VERSION -> version = asLong(parser, token, 0);
                case QdrantLayout.SEQ_NO -> seqNo = asLong(parser, token, 0);
                case QdrantLayout.PRIMARY_TERM -> primaryTerm = asLong(parser, token, 1);
                case QdrantLayout.ROUTING -> routing = token == JsonToken.VALUE_STRING ? parser.getText() : null;
                default -> {
                    // not a stored field
                }
            }
        }

        /** The document, or {@code null} when the payload had no textual {@code _id} or {@code _src}. */
        StoredDocument document() {
            return id == null || text == null ? null : new StoredDocument(id,
                    new DocumentVersion(version, seqNo, primaryTerm), (JsonObject) Json.compactObject(text),
                    java.util.Optional.ofNullable(routing));
        }
    }

    /** {@code JsonNode.asLong(otherwise)} of the value the parser is on. */
    private static long asLong(JsonParser parser, JsonToken token, long otherwise) throws IOException {
        return switch (token) {
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT, VALUE_STRING, VALUE_TRUE, VALUE_FALSE ->
                    parser.getValueAsLong(otherwise);
            default -> otherwise;
        };
    }

    private static GatewayException notOurs(IndexMetadata index) {
        return new GatewayException(ErrorKind.BACKEND_FAILURE, "a point of the collection of index [" + index.name()
                + "] has no [_id] or [_src] payload: it was not written by the gateway", Map.of(), null);
    }
}
