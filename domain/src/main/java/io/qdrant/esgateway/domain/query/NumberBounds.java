package io.qdrant.esgateway.domain.query;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping.NumberType;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Optional;

/**
 * Query values on numeric fields as Elasticsearch reads them, for every backend's translator: exact decimals, the
 * range of each integral type, and the inclusive integral bounds of a {@code range} query (a fraction rounds inward,
 * an exclusive whole bound moves by one, bounds clamp to the type).
 */
public final class NumberBounds {
    private NumberBounds() {
    }

    /** The inclusive bounds of an integral range. */
    public record Integral(long from, long to) {
    }

    /** A query value as an exact decimal (ES's errors for what is not a number). */
    public static BigDecimal decimal(String field, JsonValue value) {
        String s = switch (value) {
            case JsonNumber n -> n.value().toString();
            case JsonString str -> str.value().trim();
            default -> throw GatewayException.illegalArgument("failed to create query: [" + field
                    + "] expects a number, got [" + value.tokenName() + "]");
        };
        try {
            return new BigDecimal(s);
        } catch (NumberFormatException e) {
            if (value instanceof JsonNumber n && n.value() instanceof Double dbl && (dbl.isNaN() || dbl.isInfinite())) {
                throw GatewayException.illegalArgument("failed to create query: [" + field + "] cannot be [" + s
                        + "]");
            }
            throw GatewayException.illegalArgument("failed to create query: For input string: \"" + s + "\"");
        }
    }

    /** The smallest and largest value of an integral type. */
    public static long[] bounds(NumberType type) {
        return switch (type) {
            case BYTE -> new long[] {Byte.MIN_VALUE, Byte.MAX_VALUE};
            case SHORT -> new long[] {Short.MIN_VALUE, Short.MAX_VALUE};
            case INTEGER -> new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE};
            default -> new long[] {Long.MIN_VALUE, Long.MAX_VALUE};
        };
    }

    /** A whole value of an integral type (ES's error when it is out of the type's range). */
    public static long integral(NumberType type, BigDecimal value) {
        long[] b = bounds(type);
        if (value.compareTo(BigDecimal.valueOf(b[0])) < 0 || value.compareTo(BigDecimal.valueOf(b[1])) > 0) {
            throw GatewayException.illegalArgument("Value [" + value.toPlainString() + "] is out of range for "
                    + (type == NumberType.INTEGER ? "an " : "a ") + type.esName());
        }
        return value.longValueExact();
    }

    /** The inclusive bounds of a range on an integral field, or empty when no value of the type can match. */
    public static Optional<Integral> range(String field, NumberType type, Optional<Query.Bound> lo,
                                           Optional<Query.Bound> hi) {
        long[] b = bounds(type);
        BigDecimal min = BigDecimal.valueOf(b[0]);
        BigDecimal max = BigDecimal.valueOf(b[1]);
        BigDecimal l = min;
        BigDecimal h = max;
        if (lo.isPresent()) {
            BigDecimal v = decimal(field, lo.get().value());
            boolean whole = v.stripTrailingZeros().scale() <= 0;
            l = whole ? (lo.get().inclusive() ? v : v.add(BigDecimal.ONE)) : v.setScale(0, RoundingMode.CEILING);
        }
        if (hi.isPresent()) {
            BigDecimal v = decimal(field, hi.get().value());
            boolean whole = v.stripTrailingZeros().scale() <= 0;
            h = whole ? (hi.get().inclusive() ? v : v.subtract(BigDecimal.ONE)) : v.setScale(0, RoundingMode.FLOOR);
        }
        if (l.compareTo(h) > 0 || l.compareTo(max) > 0 || h.compareTo(min) < 0) {
            return Optional.empty();
        }
        return Optional.of(new Integral(l.max(min).longValueExact(), h.min(max).longValueExact()));
    }
}
