package io.qdrant.esgateway.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * One benchmark client: a JDK {@link HttpClient} on HTTP/1.1 whose connection stays open between requests (each
 * concurrent client has its own, used by one thread at a time). Only {@link #send} is timed by callers; parsing and
 * checking happen after the clock stops.
 */
public final class Http implements AutoCloseable {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private final HttpClient client;
    private final URI base;

    public Http(URI base) {
        this.base = base;
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    /** A raw answer: status and body bytes (parsed later, outside the timed part). */
    public record Raw(int status, byte[] body) {
        public JsonNode json() {
            return Json.parse(body);
        }

        public boolean ok() {
            return status >= 200 && status < 300;
        }

        /** ES's {@code error.type: reason} (or the body) for messages. */
        public String error() {
            JsonNode json = json();
            JsonNode error = json.path("error");
            if (error.isObject()) {
                return status + " " + error.path("type").asText() + ": " + error.path("reason").asText();
            }
            String text = new String(body, StandardCharsets.UTF_8);
            return status + " " + (text.length() > 300 ? text.substring(0, 300) + "…" : text);
        }
    }

    public Raw send(Request request) {
        return send(request.method(), request.path(), request.body(), request.contentType());
    }

    public Raw send(String method, String path, String body, String contentType) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT)
                .header("Accept", "application/json");
        if (body == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            b.header("Content-Type", contentType).method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        try {
            HttpResponse<byte[]> response = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Raw(response.statusCode(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + base + path + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + method + " " + path, e);
        }
    }

    /** Sends and insists on a 2xx answer (set-up requests: anything else stops the run with the engine's error). */
    public JsonNode ok(String method, String path, String body) {
        Raw raw = send(method, path, body, "application/json");
        if (!raw.ok()) {
            throw new IllegalStateException(method + " " + path + " answered " + raw.error());
        }
        return raw.json();
    }

    public URI base() {
        return base;
    }

    /** Ends the client's connections and its selector thread (one client per cell: they would pile up otherwise). */
    @Override
    public void close() {
        client.close();
    }
}
