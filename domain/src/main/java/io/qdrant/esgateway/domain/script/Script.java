package io.qdrant.esgateway.domain.script;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import java.util.Map;
import java.util.Optional;

/**
 * A {@code script} of a request: inline ({@code source}) or stored ({@code id}), with its {@code params}. Written
 * as a string it is an inline Painless script without params.
 */
public record Script(Optional<String> source, Optional<String> id, JsonObject params) {

    /** Parses the value of a {@code script} field. */
    public static Script parse(JsonValue value) {
        if (value instanceof JsonString s) {
            return new Script(Optional.of(s.value()), Optional.empty(), JsonObject.of());
        }
        if (!(value instanceof JsonObject o)) {
            throw new GatewayException(ErrorKind.X_CONTENT_PARSE, "[script] expected a string or an object, got ["
                    + value.tokenName() + "]");
        }
        Optional<String> source = Optional.empty();
        Optional<String> id = Optional.empty();
        Optional<String> lang = Optional.empty();
        JsonObject params = JsonObject.of();
        for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
            JsonValue v = e.getValue();
            switch (e.getKey()) {
                case "source" -> source = Optional.of(text("source", v));
                case "id" -> id = Optional.of(text("id", v));
                case "lang" -> lang = Optional.of(text("lang", v));
                case "params" -> {
                    if (!(v instanceof JsonObject p)) {
                        throw new GatewayException(ErrorKind.X_CONTENT_PARSE, "[script] failed to parse field [params]");
                    }
                    params = p;
                }
                case "options" -> {
                    if (!(v instanceof JsonObject)) {
                        throw new GatewayException(ErrorKind.X_CONTENT_PARSE, "[script] failed to parse field [options]");
                    }
                }
                default -> throw new GatewayException(ErrorKind.X_CONTENT_PARSE, "[script] unknown field ["
                        + e.getKey() + "]");
            }
        }
        if (source.isPresent() == id.isPresent()) {
            throw GatewayException.illegalArgument("must specify either [source] for an inline script or [id] for a"
                    + " stored script");
        }
        if (id.isPresent() && lang.isPresent()) {
            throw GatewayException.illegalArgument("illegally specified [lang] for stored script [" + id.get()
                    + "]; only inline scripts have a language");
        }
        if (lang.isPresent() && !lang.get().equals(PainlessScript.LANG)) {
            throw GatewayException.unsupported("[lang] [" + lang.get() + "] (only painless scripts)");
        }
        return new Script(source, id, params);
    }

    private static String text(String field, JsonValue v) {
        if (v instanceof JsonString s) {
            return s.value();
        }
        throw new GatewayException(ErrorKind.X_CONTENT_PARSE, "[script] failed to parse field [" + field
                + "]: expected a string, got [" + v.tokenName() + "]");
    }

    /** The params as the script sees them (a fresh map per run: a script may change its params). */
    public Map<String, Object> paramsForRun() {
        return ScriptValues.toScriptMap(params, false);
    }
}
