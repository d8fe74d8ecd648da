package io.qdrant.esgateway.adapter.in.http;

import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code error_trace=true}: an error answer's {@code error}, each of its {@code root_cause} entries and each
 * {@code caused_by} get a {@code stack_trace} (the failure's Java stack trace as text), where Elasticsearch puts its
 * own.
 */
final class ErrorTrace {
    private ErrorTrace() {
    }

    static EsResponse add(EsResponse response, Throwable failure) {
        if (!(response.json() instanceof JsonObject body) || !(body.members().get("error") instanceof JsonObject)) {
            return response;
        }
        StringWriter text = new StringWriter();
        failure.printStackTrace(new PrintWriter(text));
        JsonValue trace = JsonValue.string(text.toString());
        Map<String, JsonValue> out = new LinkedHashMap<>(body.members());
        out.put("error", traced((JsonObject) body.members().get("error"), trace));
        return EsResponse.json(response.status(), new JsonObject(out));
    }

    private static JsonObject traced(JsonObject error, JsonValue trace) {
        Map<String, JsonValue> out = new LinkedHashMap<>();
        error.members().forEach((key, value) -> {
            if (key.equals("root_cause") && value instanceof JsonArray causes) {
                out.put(key, new JsonArray(causes.elements().stream()
                        .map(c -> c instanceof JsonObject o ? (JsonValue) with(o, trace) : c).toList()));
            } else if (key.equals("caused_by") && value instanceof JsonObject cause) {
                out.put(key, traced(cause, trace));
            } else {
                out.put(key, value);
            }
        });
        out.put("stack_trace", trace);
        return new JsonObject(out);
    }

    private static JsonObject with(JsonObject o, JsonValue trace) {
        Map<String, JsonValue> out = new LinkedHashMap<>(o.members());
        out.put("stack_trace", trace);
        return new JsonObject(out);
    }

    static boolean wanted(Map<String, String> params) {
        String v = params.get("error_trace");
        return v != null && !v.equals("false");
    }
}
