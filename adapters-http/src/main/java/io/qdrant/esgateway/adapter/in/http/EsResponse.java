package io.qdrant.esgateway.adapter.in.http;

import io.qdrant.esgateway.domain.json.JsonValue;

/** What an endpoint answers: a status and a JSON body, a plain-text body (cat APIs), or no body (HEAD). */
record EsResponse(int status, JsonValue json, String text, String contentType) {

    static EsResponse json(int status, JsonValue body) {
        return new EsResponse(status, body, null, null);
    }

    static EsResponse ok(JsonValue body) {
        return json(200, body);
    }

    static EsResponse text(int status, String body, String contentType) {
        return new EsResponse(status, null, body, contentType);
    }

    /**
     * The answer of a HEAD request: the status only. Elasticsearch sends HEAD answers as JSON answers without their
     * body, so the {@code Content-Type: application/json} header is there too.
     */
    static EsResponse empty(int status) {
        return new EsResponse(status, io.qdrant.esgateway.domain.json.JsonObjectBuilder.object().build(), null, null);
    }
}
