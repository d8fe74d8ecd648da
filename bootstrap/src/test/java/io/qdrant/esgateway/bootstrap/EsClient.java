package io.qdrant.esgateway.bootstrap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A plain HTTP client for the gateway under test: every call returns status, headers and the parsed body. */
final class EsClient {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    /** The {@code Authorization} header every request carries, or null. */
    private final String authorization;

    EsClient(int port) {
        this("http://127.0.0.1:" + port, null);
    }

    private EsClient(String base, String authorization) {
        this.base = base;
        this.authorization = authorization;
    }

    /** This client sending {@code Authorization: <value>} on every request. */
    EsClient withAuthorization(String value) {
        return new EsClient(base, value);
    }

    /** This client sending HTTP Basic credentials. */
    EsClient as(String user, String password) {
        return withAuthorization("Basic " + java.util.Base64.getEncoder().encodeToString(
                (user + ":" + password).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    record Reply(int status, HttpResponse<String> raw) {
        JsonNode json() {
            try {
                return MAPPER.readTree(raw.body());
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON: " + raw.body(), e);
            }
        }

        String body() {
            return raw.body();
        }

        String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }

        /** The {@code error.type} of an ES error body. */
        String errorType() {
            return json().path("error").path("type").asText();
        }

        String errorReason() {
            return json().path("error").path("reason").asText();
        }

        @Override
        public String toString() {
            return status + " " + raw.body();
        }
    }

    Reply get(String path) {
        return send("GET", path, null, "application/json");
    }

    Reply head(String path) {
        return send("HEAD", path, null, "application/json");
    }

    Reply delete(String path) {
        return send("DELETE", path, null, "application/json");
    }

    Reply put(String path, String json) {
        return send("PUT", path, json, "application/json");
    }

    Reply put(String path) {
        return send("PUT", path, null, "application/json");
    }

    Reply post(String path, String json) {
        return send("POST", path, json, "application/json");
    }

    Reply send(String method, String path, String body, String contentType) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null && body != null) {
            b.header("Content-Type", contentType);
        }
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(r.statusCode(), r);
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Single quotes in test JSON become double quotes, so bodies stay readable in Java strings. */
    static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }
}
