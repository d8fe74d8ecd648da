package io.qdrant.esgateway.adapter.out.qdrant;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.ShortNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.util.Map;

/**
 * Writes a Qdrant request body: the bytes {@code ObjectMapper.writeValueAsBytes} gives for the tree, written by a
 * plain walk over the nodes on Jackson's streaming generator — without databind's serializer provider and its
 * non-recursive node serialisation, which cost more than the body's text on every call. Node kinds the adapter never
 * builds (binary, POJO, missing) send the whole body through databind as before. {@code RequestBodiesTest} compares
 * the bytes with databind's on many random trees.
 */
final class RequestBodies {
    private static final int MAX_DEPTH = 200;

    private RequestBodies() {
    }

    /** The body's bytes, as {@code QdrantHttp.MAPPER.writeValueAsBytes(body)} writes them. */
    static byte[] write(JsonNode body) throws IOException {
        if (!plain(body, 0)) {
            return QdrantHttp.MAPPER.writeValueAsBytes(body);
        }
        try (ByteArrayBuilder out = new ByteArrayBuilder(256)) {
            try (JsonGenerator gen = QdrantHttp.MAPPER.getFactory().createGenerator(out)) {
                write(gen, body);
            }
            return out.toByteArray();
        }
    }

    /** Whether the tree holds only the node kinds {@link #write(JsonGenerator, JsonNode)} writes itself. */
    private static boolean plain(JsonNode node, int depth) {
        if (depth > MAX_DEPTH) {
            return false;
        }
        if (node instanceof ObjectNode || node instanceof ArrayNode) {
            for (JsonNode child : node) {
                if (!plain(child, depth + 1)) {
                    return false;
                }
            }
            return true;
        }
        return node instanceof TextNode || node instanceof IntNode || node instanceof LongNode
                || node instanceof DoubleNode || node instanceof BooleanNode || node instanceof NullNode
                || node instanceof BigIntegerNode || node instanceof DecimalNode || node instanceof FloatNode
                || node instanceof ShortNode;
    }

    private static void write(JsonGenerator gen, JsonNode node) throws IOException {
        switch (node) {
            case ObjectNode o -> {
                gen.writeStartObject(o, o.size());
                for (Map.Entry<String, JsonNode> e : o.properties()) {
                    gen.writeFieldName(e.getKey());
                    write(gen, e.getValue());
                }
                gen.writeEndObject();
            }
            case ArrayNode a -> {
                gen.writeStartArray(a, a.size());
                for (JsonNode element : a) {
                    write(gen, element);
                }
                gen.writeEndArray();
            }
            case TextNode t -> gen.writeString(t.textValue());
            case IntNode i -> gen.writeNumber(i.intValue());
            case LongNode l -> gen.writeNumber(l.longValue());
            case DoubleNode d -> gen.writeNumber(d.doubleValue());
            case BooleanNode b -> gen.writeBoolean(b.booleanValue());
            case NullNode n -> gen.writeNull();
            case BigIntegerNode b -> gen.writeNumber(b.bigIntegerValue());
            case DecimalNode d -> gen.writeNumber(d.decimalValue());
            case FloatNode f -> gen.writeNumber(f.floatValue());
            case ShortNode s -> gen.writeNumber(s.shortValue());
            default -> throw new IllegalStateException("not a plain node: " + node.getNodeType());
        }
    }
}
