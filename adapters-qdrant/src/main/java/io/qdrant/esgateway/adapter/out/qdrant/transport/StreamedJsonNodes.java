package io.qdrant.esgateway.adapter.out.qdrant.transport;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;

/**
 * Pieces of Qdrant answers read from a streaming parser as the {@code JsonNode} tree of the whole answer would have
 * given them ({@code ObjectMapper.readTree} with the adapter's defaults): scalars become the same nodes without the
 * tree machinery, containers (rare where these are used) are read as trees.
 */
public final class StreamedJsonNodes {
    private StreamedJsonNodes() {
    }

    /** The value the parser is on, as a node equal to the tree's; leaves the parser on the value's last token. */
    public static JsonNode node(JsonParser parser) throws IOException {
        JsonToken token = parser.currentToken();
        if (token == null) {
            return MissingNode.getInstance();
        }
        return switch (token) {
            case VALUE_STRING -> QdrantClient.NODES.textNode(parser.getText());
            case VALUE_NUMBER_INT -> switch (parser.getNumberType()) {
                case INT -> QdrantClient.NODES.numberNode(parser.getIntValue());
                case LONG -> QdrantClient.NODES.numberNode(parser.getLongValue());
                default -> QdrantClient.NODES.numberNode(parser.getBigIntegerValue());
            };
            // what the tree reads from JSON text: a double (no BigDecimal or float unless configured: they are not)
            case VALUE_NUMBER_FLOAT -> QdrantClient.NODES.numberNode(parser.getDoubleValue());
            case VALUE_TRUE -> QdrantClient.NODES.booleanNode(true);
            case VALUE_FALSE -> QdrantClient.NODES.booleanNode(false);
            case VALUE_NULL -> QdrantClient.NODES.nullNode();
            default -> {
                JsonNode tree = QdrantClient.MAPPER.readTree(parser);
                yield tree == null ? MissingNode.getInstance() : tree;
            }
        };
    }

    /** {@code JsonNode.asText()} of the value the parser is on (a string without making a node). */
    public static String text(JsonParser parser) throws IOException {
        return parser.currentToken() == JsonToken.VALUE_STRING ? parser.getText() : node(parser).asText();
    }

    /**
     * A decoder of a {@code points/count} result: {@code result.path("count").asLong()} as on the tree (absent: 0;
     * a repeated key: the last one).
     */
    public static QdrantClient.ResultDecoder<Long> count() {
        return parser -> {
            long count = 0;
            if (parser.currentToken() != JsonToken.START_OBJECT) {
                parser.skipChildren();
                return count;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                parser.nextToken();
                if (name.equals("count")) {
                    count = node(parser).asLong();
                } else {
                    parser.skipChildren();
                }
            }
            return count;
        };
    }
}
