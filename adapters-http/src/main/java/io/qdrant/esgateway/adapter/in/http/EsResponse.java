package io.qdrant.esgateway.adapter.in.http;

import io.qdrant.esgateway.domain.json.JsonValue;

/**
 * What an endpoint answers: a status and a JSON body (a tree, or {@code compactJson}: the compact bytes a large answer
 * wrote directly, never for a {@code ?pretty} request), a plain-text body (cat APIs), or no body (HEAD).
 */
record EsResponse(int status, JsonValue json, String text, String contentType, byte[] compactJson) {

    EsResponse(int status, JsonValue json, String text, String contentType) {
        this(status, json, text, contentType, null);
    }

    static EsResponse json(int status, JsonValue body) {
        return new EsResponse(status, body, null, null);
    }

    /** A JSON answer already written as compact bytes ({@link JsonCodec#write(JsonCodec.Streamed)}). */
    static EsResponse compactJson(int status, byte[] body) {
        return new EsResponse(status, null, null, null, body);
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
