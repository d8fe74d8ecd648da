package io.qdrant.esgateway.domain.script;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import java.util.Map;

/** A script kept in the catalog under an id ({@code PUT _scripts/{id}}): its language and source. */
public record StoredScript(String lang, String source) {

    /**
     * Parses the body of {@code PUT _scripts/{id}} ({@code {"script": {"lang": "painless", "source": …}}}). The
     * source is compiled when a request uses it, not here.
     */
    public static StoredScript parseBody(JsonValue body) {
        if (!(body instanceof JsonObject root) || !(root.get("script") instanceof JsonObject script)) {
            throw GatewayException.illegalArgument("unable to parse stored script: no [script] object");
        }
        String lang = null;
        String source = null;
        for (Map.Entry<String, JsonValue> e : script.members().entrySet()) {
            switch (e.getKey()) {
                case "lang" -> lang = text("lang", e.getValue());
                case "source" -> source = text("source", e.getValue());
                case "options", "params" -> {
                    // accepted and not kept (Elasticsearch keeps only compiler options, which Painless has none of)
                }
                default -> throw new GatewayException(ErrorKind.X_CONTENT_PARSE, "[script] unknown field ["
                        + e.getKey() + "]");
            }
        }
        if (lang == null) {
            throw GatewayException.illegalArgument("must specify lang for stored script");
        }
        if (source == null) {
            throw GatewayException.illegalArgument("must specify source for stored script");
        }
        if (!lang.equals(PainlessScript.LANG)) {
            throw GatewayException.unsupported("[lang] [" + lang + "] (only painless scripts)");
        }
        return new StoredScript(lang, source);
    }

    private static String text(String field, JsonValue v) {
        if (v instanceof JsonString s) {
            return s.value();
        }
        throw new GatewayException(ErrorKind.X_CONTENT_PARSE, "[script] failed to parse field [" + field + "]");
    }
}
