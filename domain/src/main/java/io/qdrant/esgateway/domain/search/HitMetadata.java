package io.qdrant.esgateway.domain.search;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.Map;
import java.util.Optional;

/**
 * Which version metadata a search's hits carry: {@code _version} ({@code version: true}) and {@code _seq_no} with
 * {@code _primary_term} ({@code seq_no_primary_term: true}), from the body or, overriding it as in Elasticsearch, the
 * URL parameters of the same names. Nothing to compute: every hit already holds its version triple.
 */
public record HitMetadata(boolean version, boolean seqNoPrimaryTerm) {
    public static final HitMetadata NONE = new HitMetadata(false, false);

    /** The flags of a search body that {@link SearchRequestParser} accepted, then of its URL parameters. */
    public static HitMetadata of(Optional<JsonValue> body, Map<String, String> params) {
        boolean version = false;
        boolean seqNo = false;
        if (body.isPresent() && body.get() instanceof JsonObject o) {
            version = o.members().containsKey("version") && bodyFlag("version", o.members().get("version"));
            seqNo = o.members().containsKey("seq_no_primary_term")
                    && bodyFlag("seq_no_primary_term", o.members().get("seq_no_primary_term"));
        }
        if (params.containsKey("version")) {
            version = urlFlag(params.get("version"));
        }
        if (params.containsKey("seq_no_primary_term")) {
            seqNo = urlFlag(params.get("seq_no_primary_term"));
        }
        return version || seqNo ? new HitMetadata(version, seqNo) : NONE;
    }

    /**
     * The body's {@code version} or {@code seq_no_primary_term}: a boolean, or the text {@code true}/{@code false};
     * anything else fails as in Elasticsearch's parser.
     */
    static boolean bodyFlag(String key, JsonValue value) {
        return switch (value) {
            case JsonValue.JsonBool b -> b.value();
            case JsonValue.JsonString s -> JsonReads.bool(s).orElseThrow(() -> GatewayException.illegalArgument(
                    "Failed to parse value [" + s.value() + "] as only [true] or [false] are allowed."));
            case JsonValue.JsonNumber n -> throw new GatewayException(ErrorKind.X_CONTENT_PARSE, "Current token ("
                    + (n.isIntegral() ? "VALUE_NUMBER_INT" : "VALUE_NUMBER_FLOAT") + ") not of boolean type");
            default -> throw new GatewayException(ErrorKind.PARSING, "Unknown key for a " + value.tokenName()
                    + " in [" + key + "].");
        };
    }

    /** A URL flag; {@code ?version} without a value unsets it, as Elasticsearch reads it. */
    private static boolean urlFlag(String value) {
        return switch (value) {
            case "" -> false;
            case "true" -> true;
            case "false" -> false;
            default -> throw GatewayException.illegalArgument("Failed to parse value [" + value
                    + "] as only [true] or [false] are allowed.");
        };
    }
}
