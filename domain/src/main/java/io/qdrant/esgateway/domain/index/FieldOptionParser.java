package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping.NumberType;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonBool;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import io.qdrant.esgateway.domain.time.DateFormat;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Reads the common leaf parameters of {@link FieldOptions} with Elasticsearch's checks and messages. */
final class FieldOptionParser {
    /** The parameters {@link FieldOptions} holds; on a type that lacks one, ES says "unknown parameter". */
    static final Set<String> COMMON = Set.of("index", "doc_values", "store", "null_value", "copy_to", "coerce",
            "ignore_malformed");

    private FieldOptionParser() {
    }

    static boolean bool(String field, String key, JsonValue value) {
        return JsonReads.bool(value).orElseThrow(() -> GatewayException.mappingIllegal("Failed to parse value ["
                + JsonReads.text(value).orElse(value.tokenName()) + "] as only [true] or [false] are allowed."));
    }

    static List<String> copyTo(String field, JsonValue value) {
        List<String> out = new ArrayList<>();
        List<JsonValue> items = value instanceof JsonArray a ? a.elements() : List.of(value);
        for (JsonValue item : items) {
            out.add(JsonReads.text(item).orElseThrow(() -> GatewayException.mappingFailed("[copy_to] on field ["
                    + field + "] must be a string or a list of strings")));
        }
        return out;
    }

    /** A keyword's {@code null_value}: any scalar, kept as its text (as ES renders it). */
    static JsonValue keywordNull(JsonValue value) {
        return new JsonString(JsonReads.text(value).orElseThrow(() -> GatewayException.mappingFailed(
                "Failed to parse mapping: [null_value] must be a scalar, got [" + value.tokenName() + "]")));
    }

    /** A number's {@code null_value}: a number or a numeric string, rendered as a number. */
    static JsonValue numberNull(NumberType type, JsonValue value) {
        String text = JsonReads.text(value).orElse(value.tokenName());
        if (value instanceof JsonNumber n) {
            return n;
        }
        try {
            BigDecimal d = new BigDecimal(text);
            if (type.isIntegral()) {
                if (d.stripTrailingZeros().scale() > 0) {
                    throw GatewayException.mappingFailed("For input string: \"" + text + "\"");
                }
                return new JsonNumber(d.longValueExact());
            }
            return new JsonNumber(d.doubleValue());
        } catch (NumberFormatException | ArithmeticException e) {
            throw GatewayException.mappingFailed("For input string: \"" + text + "\"");
        }
    }

    static JsonValue booleanNull(JsonValue value) {
        return switch (value) {
            case JsonBool b -> b;
            case JsonString s when s.value().equals("true") || s.value().equals("false") ->
                    new JsonBool(Boolean.parseBoolean(s.value()));
            default -> throw GatewayException.mappingIllegal("Failed to parse value ["
                    + JsonReads.text(value).orElse(Json.write(value)) + "] as only [true] or [false] are allowed.");
        };
    }

    static JsonValue dateNull(String field, Optional<String> format, JsonValue value) {
        String pattern = format.orElse(DateFormat.DEFAULT_PATTERN);
        String text = JsonReads.text(value).orElse(value.tokenName());
        try {
            DateFormat.of(pattern).parseMillis(text);
        } catch (GatewayException e) {
            throw GatewayException.mappingFailed("Error parsing [null_value] on field [" + field
                    + "]: failed to parse date field [" + text + "] with format [" + pattern + "]");
        }
        return value;
    }
}
