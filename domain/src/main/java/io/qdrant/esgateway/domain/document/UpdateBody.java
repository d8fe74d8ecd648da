package io.qdrant.esgateway.domain.document;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.Map;
import java.util.Optional;

/**
 * The body of {@code POST /{index}/_update/{id}} (and of a bulk {@code update} item): {@code doc}, {@code upsert},
 * {@code doc_as_upsert}, {@code detect_noop}, {@code _source}. Scripts are rejected by name.
 */
public record UpdateBody(Optional<JsonObject> doc, Optional<JsonObject> upsert, boolean docAsUpsert, boolean detectNoop,
                         Optional<SourceFilter> source) {

    public static UpdateBody parse(JsonValue body) {
        JsonObject root = JsonReads.object(body, m -> new GatewayException(ErrorKind.X_CONTENT_PARSE, m),
                "[UpdateRequest] body");
        Optional<JsonObject> doc = Optional.empty();
        Optional<JsonObject> upsert = Optional.empty();
        boolean docAsUpsert = false;
        boolean detectNoop = true;
        Optional<SourceFilter> source = Optional.empty();
        for (Map.Entry<String, JsonValue> e : root.members().entrySet()) {
            JsonValue v = e.getValue();
            switch (e.getKey()) {
                case "doc" -> doc = Optional.of(object("doc", v));
                case "upsert" -> upsert = Optional.of(object("upsert", v));
                case "doc_as_upsert" -> docAsUpsert = bool("doc_as_upsert", v);
                case "detect_noop" -> detectNoop = bool("detect_noop", v);
                case "_source" -> source = Optional.of(SourceFilter.fromJson(v));
                case "script", "scripted_upsert", "lang", "params" ->
                        throw GatewayException.unsupported("[" + e.getKey() + "] in _update (scripted updates)");
                default -> throw new GatewayException(ErrorKind.X_CONTENT_PARSE,
                        "[UpdateRequest] unknown field [" + e.getKey() + "]");
            }
        }
        if (doc.isEmpty()) {
            throw new GatewayException(ErrorKind.ACTION_REQUEST_VALIDATION,
                    "Validation Failed: 1: script or doc is missing;");
        }
        return new UpdateBody(doc, upsert, docAsUpsert, detectNoop, source);
    }

    private static JsonObject object(String field, JsonValue v) {
        if (v instanceof JsonObject o) {
            return o;
        }
        throw new GatewayException(ErrorKind.X_CONTENT_PARSE, "[UpdateRequest] failed to parse field [" + field
                + "]: expected an object, got [" + v.tokenName() + "]");
    }

    private static boolean bool(String field, JsonValue v) {
        return JsonReads.bool(v).orElseThrow(() -> new GatewayException(ErrorKind.X_CONTENT_PARSE,
                "[UpdateRequest] failed to parse field [" + field + "]: expected a boolean"));
    }
}
