package io.qdrant.esgateway.domain.json;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonValue.JsonBool;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Optional;
import java.util.function.Function;

/**
 * Typed reads from the neutral tree with Elasticsearch's leniencies in one place: numbers and booleans may arrive as
 * strings ({@code "1"}, {@code "true"}), as ES accepts them. Each read names what it was reading when it fails.
 */
public final class JsonReads {
    private JsonReads() {
    }

    public static JsonObject object(JsonValue value, Function<String, GatewayException> error, String what) {
        if (value instanceof JsonObject o) {
            return o;
        }
        throw error.apply(what + " must be an object, got [" + value.tokenName() + "]");
    }

    public static Optional<String> text(JsonValue value) {
        return switch (value) {
            case JsonString s -> Optional.of(s.value());
            case JsonNumber n -> Optional.of(Json.write(n));
            case JsonBool b -> Optional.of(Boolean.toString(b.value()));
            default -> Optional.empty();
        };
    }

    /** An integer, also from its string form; empty if the value is not an integer at all. */
    public static Optional<Long> integer(JsonValue value) {
        try {
            return switch (value) {
                case JsonNumber n when n.value() instanceof BigInteger big -> Optional.of(big.longValueExact());
                case JsonNumber n when n.isIntegral() -> Optional.of(n.value().longValue());
                case JsonNumber n -> {
                    BigDecimal d = new BigDecimal(n.value().toString());
                    yield d.stripTrailingZeros().scale() <= 0 ? Optional.of(d.longValueExact()) : Optional.empty();
                }
                case JsonString s -> Optional.of(Long.parseLong(s.value().trim()));
                default -> Optional.empty();
            };
        } catch (NumberFormatException | ArithmeticException e) {
            return Optional.empty();
        }
    }

    /** A boolean, also from "true"/"false"; empty otherwise. */
    public static Optional<Boolean> bool(JsonValue value) {
        return switch (value) {
            case JsonBool b -> Optional.of(b.value());
            case JsonString s when s.value().equals("true") -> Optional.of(true);
            case JsonString s when s.value().equals("false") -> Optional.of(false);
            default -> Optional.empty();
        };
    }

    public static GatewayException parseError(String reason) {
        return new GatewayException(ErrorKind.PARSE, reason);
    }
}
