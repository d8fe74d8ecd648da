package io.qdrant.esgateway.adapter.out.qdrant.read;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.payload.QdrantJson;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;
import io.qdrant.esgateway.adapter.out.qdrant.transport.StreamedJsonNodes;

/**
 * One record of a sort stream ({@code points/query} with {@code order_by}, or a {@code scroll}) read with
 * {@link SortPayload#include()}: what the gateway's sort reads of it, and nothing else.
 *
 * <p>Two readers give the same record: {@link #of} from a {@code JsonNode} tree (the scroll path), and {@link #points}
 * straight from the answer's streaming parser (the {@code order_by} stream, read on every sorted page) — no tree
 * for the answer, and the payload's {@code _source} becomes the domain's value directly instead of a Jackson tree
 * copied into one. Equal to the tree form on every input ({@code SortRecordTest} decodes random answers both ways).
 *
 * @param pointId    the point's id as {@code JsonNode.asText} gives it ({@code ""} when absent)
 * @param orderValue the record's {@code order_value} ({@link MissingNode} when absent)
 * @param docId      the payload's {@code _id} as {@code asText} gives it ({@code ""} when absent)
 * @param position   the payload's {@code _seq_no} as {@code asLong} gives it (0 when absent): the point's position in
 *                   index order
 * @param source     the payload's {@code _source} object as {@link QdrantJson#toObject} gives it ({@code {}} when
 *                   absent or not an object)
 */
record SortRecord(String pointId, JsonNode orderValue, String docId, long position, JsonObject source) {

    /** The record as the tree-based reading saw it. */
    static SortRecord of(JsonNode record) {
        JsonNode payload = record.path("payload");
        return new SortRecord(record.path("id").asText(), record.path("order_value"),
                payload.path(QdrantLayout.ID).asText(), payload.path(QdrantLayout.SEQ_NO).asLong(),
                QdrantJson.toObject(payload.path(QdrantLayout.SOURCE)));
    }

    /**
     * A decoder of a {@code points/query} result: its {@code points}, as iterating {@code result.path("points")}
     * gave them (no list, or not an array or object: none).
     */
    static QdrantClient.ResultDecoder<List<SortRecord>> points() {
        return points(null);
    }

    /**
     * The same decoder, that also keeps the stored document of every record whose payload carries it (the stream read
     * with {@link SortPayload#include()} and the stored fields, {@code _id} and {@code _src} textual): into
     * {@code documents} by document id, the first one met kept. Records of other shapes add nothing there; the
     * records themselves are exactly what {@link #points()} gives. {@code documents} {@code null}: none kept.
     */
    static QdrantClient.ResultDecoder<List<SortRecord>> points(Map<String, StoredDocument> documents) {
        return parser -> {
            List<SortRecord> points = List.of();
            if (parser.currentToken() != JsonToken.START_OBJECT) {
                parser.skipChildren();
                return points;
            }
            // the documents of the records returned: a repeated "points" key replaces them with its own
            Map<String, StoredDocument> found = documents == null ? null : new HashMap<>();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                if (!name.equals("points")) {
                    parser.skipChildren();
                    continue;
                }
                points = new ArrayList<>();
                if (found != null) {
                    found.clear();
                }
                if (value == JsonToken.START_ARRAY) {
                    while (parser.nextToken() != JsonToken.END_ARRAY) {
                        points.add(record(parser, found));
                    }
                } else { // rare shapes: the tree, iterated as before (an object's values; a scalar: nothing)
                    for (JsonNode element : StreamedJsonNodes.node(parser)) {
                        points.add(of(element));
                    }
                }
            }
            if (found != null) {
                found.forEach(documents::putIfAbsent);
            }
            return points;
        };
    }

    /** One element of the points array (the parser on its first token); leaves the parser on its last token. */
    private static SortRecord record(JsonParser parser, Map<String, StoredDocument> documents) throws IOException {
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            return of(StreamedJsonNodes.node(parser));
        }
        String pointId = "";
        JsonNode orderValue = MissingNode.getInstance();
        String docId = "";
        long position = 0;
        JsonObject source = JsonObject.of();
        StoredDocuments.Fields stored = documents == null ? null : new StoredDocuments.Fields();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken token = parser.nextToken();
            switch (field) {
                case "id" -> pointId = StreamedJsonNodes.text(parser);
                case "order_value" -> orderValue = StreamedJsonNodes.node(parser);
                case "payload" -> { // a repeated key: the last one counts, as in the tree
                    docId = "";
                    position = 0;
                    source = JsonObject.of();
                    if (token != JsonToken.START_OBJECT) {
                        parser.skipChildren();
                        continue;
                    }
                    while (parser.nextToken() == JsonToken.FIELD_NAME) {
                        String key = parser.currentName();
                        JsonToken inner = parser.nextToken();
                        if (stored != null) {
                            stored.read(key, inner, parser);
                        }
                        if (key.equals(QdrantLayout.ID)) {
                            docId = StreamedJsonNodes.text(parser);
                        } else if (key.equals(QdrantLayout.SEQ_NO)) {
                            position = StreamedJsonNodes.node(parser).asLong();
                        } else if (key.equals(QdrantLayout.SOURCE)) {
                            source = inner == JsonToken.START_OBJECT ? (JsonObject) value(parser) : JsonObject.of();
                            parser.skipChildren();
                        } else {
                            parser.skipChildren();
                        }
                    }
                }
                default -> parser.skipChildren();
            }
        }
        if (stored != null) {
            StoredDocument document = stored.document();
            if (document != null) {
                documents.putIfAbsent(document.id(), document);
            }
        }
        return new SortRecord(pointId, orderValue, docId, position, source);
    }

    /**
     * The value the parser is on as {@link QdrantJson#toValue} makes it from the tree: integers as {@code Long}
     * (beyond: {@code BigInteger}), other numbers as {@code double}, a repeated key's last value in its first place.
     */
    static JsonValue value(JsonParser parser) throws IOException {
        return switch (parser.currentToken()) {
            case START_OBJECT -> { // the builder hands its map to the object (no copy)
                JsonObjectBuilder members = JsonObjectBuilder.object();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String key = parser.currentName();
                    parser.nextToken();
                    members.put(key, value(parser));
                }
                yield members.build();
            }
            case START_ARRAY -> {
                List<JsonValue> elements = new ArrayList<>();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    elements.add(value(parser));
                }
                yield new JsonValue.JsonArray(elements);
            }
            case VALUE_STRING -> new JsonValue.JsonString(parser.getText());
            case VALUE_TRUE -> new JsonValue.JsonBool(true);
            case VALUE_FALSE -> new JsonValue.JsonBool(false);
            case VALUE_NUMBER_INT -> parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                    ? new JsonValue.JsonNumber(parser.getBigIntegerValue())
                    : new JsonValue.JsonNumber(parser.getLongValue());
            case VALUE_NUMBER_FLOAT -> new JsonValue.JsonNumber(StreamedJsonNodes.node(parser).doubleValue());
            default -> JsonValue.JsonNull.INSTANCE;
        };
    }
}
