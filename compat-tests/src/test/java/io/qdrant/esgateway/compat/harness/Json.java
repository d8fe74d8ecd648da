package io.qdrant.esgateway.compat.harness;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.TextNode;

/** JSON helpers of the harness (Jackson). */
public final class Json {
    public static final ObjectMapper MAPPER = new ObjectMapper();
    private static final ObjectMapper PRETTY = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Json() {
    }

    /** The body as JSON when it parses as one JSON value, else as a text node (cat text output, empty HEAD bodies). */
    public static JsonNode parseOrText(String body) {
        if (body == null || body.isEmpty()) {
            return TextNode.valueOf("");
        }
        try {
            JsonNode node = MAPPER.readTree(body);
            return node == null ? TextNode.valueOf(body) : node;
        } catch (JsonProcessingException e) {
            return TextNode.valueOf(body);
        }
    }

    public static String compact(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String pretty(JsonNode node) {
        try {
            return PRETTY.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
