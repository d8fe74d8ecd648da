package io.qdrant.esgateway.domain.search;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * A search's {@code timeout} (body or URL), read as Elasticsearch 8.15's {@code TimeValue.parseTimeValue}: a whole
 * number with a unit ({@code nanos}, {@code micros}, {@code ms}, {@code s}, {@code m}, {@code h}, {@code d}),
 * {@code 0} or {@code -1} (none); anything else fails with ES's error.
 */
public final class SearchTimeout {
    private static final String[] UNITS = {"nanos", "micros", "ms", "s", "m", "h", "d"};

    private SearchTimeout() {
    }

    /** The body's {@code timeout} value: any scalar is read as its text (ES reads {@code 10} as "10"). */
    public static Optional<Duration> parse(JsonValue value) {
        return switch (value) {
            case JsonValue.JsonString s -> parse(s.value());
            case JsonValue.JsonNumber n -> parse(n.value().toString());
            case JsonValue.JsonBool b -> parse(Boolean.toString(b.value()));
            case JsonValue.JsonNull ignored -> Optional.empty();
            default -> throw new GatewayException(ErrorKind.PARSING,
                    "Unknown key for a " + value.tokenName() + " in [timeout].");
        };
    }

    /** The duration, or empty for {@code -1} (no timeout). */
    public static Optional<Duration> parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("-1")) {
            return Optional.empty();
        }
        if (t.equals("0")) {
            return Optional.of(Duration.ZERO);
        }
        for (String unit : UNITS) {
            if (!t.endsWith(unit) || unit.equals("s") && (t.endsWith("ms") || t.endsWith("nanos")
                    || t.endsWith("micros"))) {
                continue;
            }
            String number = t.substring(0, t.length() - unit.length()).trim();
            long n;
            try {
                n = Long.parseLong(number);
            } catch (NumberFormatException e) {
                GatewayException cause = GatewayException.scriptCause("number_format_exception",
                        "For input string: \"" + number + "\"");
                try {
                    Double.parseDouble(number);
                } catch (NumberFormatException notANumber) {
                    throw new GatewayException(ErrorKind.ILLEGAL_ARGUMENT, "failed to parse [" + text + "]",
                            java.util.Map.of(), cause);
                }
                throw new GatewayException(ErrorKind.ILLEGAL_ARGUMENT, "failed to parse [" + text
                        + "], fractional time values are not supported", java.util.Map.of(), cause);
            }
            if (n < -1) {
                throw GatewayException.illegalArgument("failed to parse setting [timeout] with value [" + text
                        + "] as a time value: negative durations are not supported");
            }
            if (n == -1) {
                return Optional.empty();
            }
            try {
                return Optional.of(switch (unit) {
                    case "nanos" -> Duration.ofNanos(n);
                    case "micros" -> Duration.ofNanos(Math.multiplyExact(n, 1000L));
                    case "ms" -> Duration.ofMillis(n);
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                });
            } catch (ArithmeticException e) {
                return Optional.of(Duration.ofSeconds(Long.MAX_VALUE));
            }
        }
        throw GatewayException.illegalArgument("failed to parse setting [timeout] with value [" + text
                + "] as a time value: unit is missing or unrecognized");
    }
}
