package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@code dense_vector}'s {@code index_options} as Elasticsearch 8.15 reads and renders them: the types {@code hnsw},
 * {@code int8_hnsw}, {@code int4_hnsw} (with {@code m}, {@code ef_construction}, and for the quantized ones
 * {@code confidence_interval}), {@code flat}, {@code int8_flat} and {@code int4_flat} (with {@code confidence_interval}
 * for the quantized ones). The mapping keeps them in Elasticsearch's rendered form: the graph types with their
 * {@code m} and {@code ef_construction} (defaults 16 and 100), {@code int4} types with their
 * {@code confidence_interval} (default 0.0), {@code int8} types with it only when given. As in Elasticsearch, the
 * ranges of {@code m} (1–512), {@code ef_construction} (1–3200) and {@code confidence_interval} (0, or 0.9–1.0) are
 * not checked by the mapping but when a vector is indexed ({@link #checkIndexing}).
 */
public final class VectorIndexOptions {
    /** The types, in the order Elasticsearch lists them. */
    public static final List<String> TYPES = List.of("hnsw", "int8_hnsw", "int4_hnsw", "flat", "int8_flat",
            "int4_flat");
    static final int DEFAULT_M = 16;
    static final int DEFAULT_EF_CONSTRUCTION = 100;

    private VectorIndexOptions() {
    }

    /** Whether the type builds a graph ({@code *hnsw}); the others are searched exhaustively by Elasticsearch. */
    public static boolean graph(String type) {
        return type.endsWith("hnsw");
    }

    /** The options' type ({@code hnsw} when the options are absent: a float graph). */
    public static String type(Optional<JsonObject> options) {
        return options.map(o -> o.get("type") instanceof JsonValue.JsonString t ? t.value() : "hnsw").orElse("hnsw");
    }

    /** The options' integer parameter, or {@code fallback}. */
    public static int intParam(Optional<JsonObject> options, String key, int fallback) {
        return options.map(o -> o.get(key) instanceof JsonValue.JsonNumber n ? n.value().intValue() : fallback)
                .orElse(fallback);
    }

    /** Parses {@code index_options} of the field {@code field} ({@code dims} 0: not given) into the rendered form. */
    static JsonObject parse(String field, JsonObject given, int dims) {
        JsonValue typeValue = given.get("type");
        if (typeValue == null || typeValue instanceof JsonValue.JsonNull) {
            throw GatewayException.mappingFailed("[index_options] requires field [type] to be configured");
        }
        String type = typeValue instanceof JsonValue.JsonString t ? t.value() : io.qdrant.esgateway.domain.json.Json
                .write(typeValue);
        if (!TYPES.contains(type)) {
            throw GatewayException.mappingFailed("Unknown vector index options type [" + type + "] for field [" + field
                    + "]");
        }
        boolean graph = graph(type);
        boolean quantized = type.startsWith("int");
        Map<String, JsonValue> rest = new java.util.LinkedHashMap<>(given.members());
        rest.remove("type");
        JsonValue m = graph ? rest.remove("m") : null;
        JsonValue ef = graph ? rest.remove("ef_construction") : null;
        JsonValue confidence = quantized ? rest.remove("confidence_interval") : null;
        rest.values().removeIf(v -> v instanceof JsonValue.JsonNull);
        if (!rest.isEmpty()) {
            StringBuilder unsupported = new StringBuilder();
            rest.forEach((k, v) -> unsupported.append(" [").append(k).append(" : ").append(v instanceof
                    JsonValue.JsonString str ? str.value() : io.qdrant.esgateway.domain.json.Json.write(v)).append(']'));
            throw GatewayException.mappingFailed("Mapping definition for [" + field + "] has unsupported parameters: "
                    + unsupported);
        }
        if (type.startsWith("int4") && dims > 0 && dims % 2 != 0) {
            throw GatewayException.mappingIllegal(type + " only supports even dimensions; provided=" + dims);
        }
        JsonObjectBuilder out = JsonObjectBuilder.object().put("type", type);
        if (graph) {
            out.put("m", integer(m, DEFAULT_M));
            out.put("ef_construction", integer(ef, DEFAULT_EF_CONSTRUCTION));
        }
        Float interval = confidence == null || confidence instanceof JsonValue.JsonNull ? null : decimal(confidence);
        if (interval == null && type.startsWith("int4")) {
            interval = 0f;
        }
        if (interval != null) {
            out.put("confidence_interval", new JsonValue.JsonNumber(Double.parseDouble(Float.toString(interval))));
        }
        return out.build();
    }

    /**
     * The errors Elasticsearch gives when a vector is indexed into a field with out-of-range options (its codec
     * refuses them then): {@code illegal_argument_exception} naming the Lucene parameter.
     */
    public static void checkIndexing(Optional<JsonObject> options) {
        if (options.isEmpty()) {
            return;
        }
        String type = type(options);
        if (graph(type)) {
            int m = intParam(options, "m", DEFAULT_M);
            if (m <= 0 || m > 512) {
                throw GatewayException.illegalArgument("maxConn must be positive and less than or equal to 512;"
                        + " maxConn=" + m);
            }
            int ef = intParam(options, "ef_construction", DEFAULT_EF_CONSTRUCTION);
            if (ef <= 0 || ef > 3200) {
                throw GatewayException.illegalArgument("beamWidth must be positive and less than or equal to 3200;"
                        + " beamWidth=" + ef);
            }
        }
        if (options.get().get("confidence_interval") instanceof JsonValue.JsonNumber n) {
            float c = n.value().floatValue();
            if (c != 0f && (c < 0.9f || c > 1.0f)) {
                // Lucene's flat and graph quantized formats word it differently
                throw GatewayException.illegalArgument("confidenceInterval must be between 0.9 and 1.0"
                        + (graph(type) ? "" : " or 0") + "; confidenceInterval=" + c);
            }
        }
    }

    /** An integer parameter as Elasticsearch reads it (a number without fraction, or a string of one). */
    private static int integer(JsonValue value, int fallback) {
        if (value == null || value instanceof JsonValue.JsonNull) {
            return fallback;
        }
        String text = value instanceof JsonValue.JsonString s ? s.value() : io.qdrant.esgateway.domain.json.Json
                .write(value);
        if (value instanceof JsonValue.JsonNumber n) {
            BigDecimal d = new BigDecimal(n.value().toString());
            if (d.stripTrailingZeros().scale() > 0) {
                throw GatewayException.mappingIllegal(text + " is not an integer value");
            }
            return d.intValue();
        }
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new GatewayException(ErrorKind.MAPPER_PARSING, "Failed to parse mapping: For input string: \""
                    + text + "\"", Map.of(), GatewayException.javaException("number_format_exception",
                    "For input string: \"" + text + "\""));
        }
    }

    /** A float parameter as Elasticsearch reads it (a number, or a string of one). */
    private static float decimal(JsonValue value) {
        if (value instanceof JsonValue.JsonNumber n) {
            return n.value().floatValue();
        }
        String text = value instanceof JsonValue.JsonString s ? s.value() : io.qdrant.esgateway.domain.json.Json
                .write(value);
        try {
            return Float.parseFloat(text);
        } catch (NumberFormatException e) {
            throw new GatewayException(ErrorKind.MAPPER_PARSING, "Failed to parse mapping: For input string: \""
                    + text + "\"", Map.of(), GatewayException.javaException("number_format_exception",
                    "For input string: \"" + text + "\""));
        }
    }
}
