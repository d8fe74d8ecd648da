package io.qdrant.esgateway.domain.document;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.Position;
import io.qdrant.esgateway.domain.script.Script;
import java.util.Map;
import java.util.Optional;

/**
 * The body of {@code POST /{index}/_update/{id}} (and of a bulk {@code update} item): {@code doc}, {@code upsert},
 * {@code doc_as_upsert}, {@code detect_noop}, {@code _source}, or a {@code script} (with {@code upsert} and
 * {@code scripted_upsert}).
 */
public record UpdateBody(Optional<JsonObject> doc, Optional<JsonObject> upsert, boolean docAsUpsert, boolean detectNoop,
                         Optional<SourceFilter> source, Optional<Script> script, boolean scriptedUpsert) {

    public UpdateBody(Optional<JsonObject> doc, Optional<JsonObject> upsert, boolean docAsUpsert, boolean detectNoop,
                      Optional<SourceFilter> source) {
        this(doc, upsert, docAsUpsert, detectNoop, source, Optional.empty(), false);
    }

    public static UpdateBody parse(JsonValue body) {
        JsonObject root = JsonReads.object(body, m -> new GatewayException(ErrorKind.X_CONTENT_PARSE, m),
                "[UpdateRequest] body");
        Optional<JsonObject> doc = Optional.empty();
        Optional<JsonObject> upsert = Optional.empty();
        boolean docAsUpsert = false;
        boolean detectNoop = true;
        Optional<SourceFilter> source = Optional.empty();
        Optional<Script> script = Optional.empty();
        boolean scriptedUpsert = false;
        for (Map.Entry<String, JsonValue> e : root.members().entrySet()) {
            JsonValue v = e.getValue();
            switch (e.getKey()) {
                case "doc" -> doc = Optional.of(object("doc", v));
                case "upsert" -> upsert = Optional.of(object("upsert", v));
                case "doc_as_upsert" -> docAsUpsert = bool("doc_as_upsert", v);
                case "detect_noop" -> detectNoop = bool("detect_noop", v);
                case "_source" -> source = Optional.of(SourceFilter.fromJson(v));
                case "script" -> script = Optional.of(Script.parse(v));
                case "scripted_upsert" -> scriptedUpsert = bool("scripted_upsert", v);
                default -> throw new GatewayException(ErrorKind.X_CONTENT_PARSE,
                        Position.prefix(root.keyAt(e.getKey())) + "[UpdateRequest] unknown field [" + e.getKey() + "]");
            }
        }
        if (doc.isEmpty() && script.isEmpty()) {
            throw new GatewayException(ErrorKind.ACTION_REQUEST_VALIDATION,
                    "Validation Failed: 1: script or doc is missing;");
        }
        if (doc.isPresent() && script.isPresent()) {
            throw new GatewayException(ErrorKind.ACTION_REQUEST_VALIDATION,
                    "Validation Failed: 1: can't provide both script and doc;");
        }
        if (docAsUpsert && doc.isEmpty()) {
            throw new GatewayException(ErrorKind.ACTION_REQUEST_VALIDATION,
                    "Validation Failed: 1: doc must be specified if doc_as_upsert is enabled;");
        }
        return new UpdateBody(doc, upsert, docAsUpsert, detectNoop, source, script, scriptedUpsert);
    }

    private static JsonObject object(String field, JsonValue v) {
        if (v instanceof JsonObject o) {
            return o;
        }
        throw new GatewayException(ErrorKind.X_CONTENT_PARSE, Position.prefix(v) + "[UpdateRequest] " + field
                + " doesn't support values of type: " + v.tokenName());
    }

    private static boolean bool(String field, JsonValue v) {
        return JsonReads.bool(v).orElseThrow(() -> new GatewayException(ErrorKind.X_CONTENT_PARSE,
                "[UpdateRequest] failed to parse field [" + field + "]: expected a boolean"));
    }
}
