package io.qdrant.esgateway.adapter.out.qdrant;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.JsonNode;
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
        return switch (node.getNodeType()) {
            case OBJECT, ARRAY -> {
                for (JsonNode child : node) {
                    if (!plain(child, depth + 1)) {
                        yield false;
                    }
                }
                yield true;
            }
            case STRING, BOOLEAN, NULL -> true;
            case NUMBER -> node.numberType() != null;
            case BINARY, POJO, MISSING -> false;
        };
    }

    /**
     * Writes a plain tree as its node classes serialise themselves (an enum switch: a type-pattern switch over the
     * node classes costs a chain of class checks per node).
     */
    private static void write(JsonGenerator gen, JsonNode node) throws IOException {
        switch (node.getNodeType()) {
            case OBJECT -> {
                gen.writeStartObject(node, node.size());
                for (Map.Entry<String, JsonNode> e : node.properties()) {
                    gen.writeFieldName(e.getKey());
                    write(gen, e.getValue());
                }
                gen.writeEndObject();
            }
            case ARRAY -> {
                gen.writeStartArray(node, node.size());
                for (JsonNode element : node) {
                    write(gen, element);
                }
                gen.writeEndArray();
            }
            case STRING -> gen.writeString(node.textValue());
            case BOOLEAN -> gen.writeBoolean(node.booleanValue());
            case NULL -> gen.writeNull();
            case NUMBER -> {
                switch (node.numberType()) {
                    case INT -> gen.writeNumber(node.intValue()); // IntNode, ShortNode
                    case LONG -> gen.writeNumber(node.longValue());
                    case BIG_INTEGER -> gen.writeNumber(node.bigIntegerValue());
                    case FLOAT -> gen.writeNumber(node.floatValue());
                    case DOUBLE -> gen.writeNumber(node.doubleValue());
                    case BIG_DECIMAL -> gen.writeNumber(node.decimalValue());
                }
            }
            case BINARY, POJO, MISSING -> throw new IllegalStateException("not a plain node: " + node.getNodeType());
        }
    }
}
