package io.qdrant.esgateway.bench;

/**
 * One HTTP request of a workload's fixed request set, the same bytes for every engine.
 *
 * @param method      GET, POST, PUT
 * @param path        path and query string
 * @param body        the body, or {@code null}
 * @param contentType the body's media type
 */
public record Request(String method, String path, String body, String contentType) {
    public static Request get(String path) {
        return new Request("GET", path, null, null);
    }

    public static Request json(String method, String path, String body) {
        return new Request(method, path, body, "application/json");
    }

    @Override
    public String toString() {
        return method + " " + path + (body == null ? "" : " " + (body.length() > 400 ? body.substring(0, 400) + "…" : body));
    }
}
