package io.qdrant.esgateway.compat.harness;

import java.util.Map;

/**
 * One HTTP request of a scenario: method, path with query string, the body exactly as sent (JSON text, NDJSON or
 * deliberately malformed text; {@code null} for none), its content type and any extra headers.
 */
public record RequestSpec(String method, String path, String body, String contentType, Map<String, String> headers) {
    public RequestSpec {
        headers = Map.copyOf(headers);
    }

    public static RequestSpec of(String method, String path) {
        return new RequestSpec(method, path, null, null, Map.of());
    }

    public static RequestSpec json(String method, String path, String body) {
        return new RequestSpec(method, path, body, "application/json", Map.of());
    }

    /** How the request reads in a failure message. */
    public String describe() {
        StringBuilder s = new StringBuilder(method).append(' ').append(path);
        headers.forEach((k, v) -> s.append("\n    ").append(k).append(": ").append(v));
        if (body != null) {
            if (contentType != null) {
                s.append("\n    Content-Type: ").append(contentType);
            }
            s.append("\n    ").append(body.length() > 2000 ? body.substring(0, 2000) + " …" : body);
        }
        return s.toString();
    }
}
