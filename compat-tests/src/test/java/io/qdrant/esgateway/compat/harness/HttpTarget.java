package io.qdrant.esgateway.compat.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** One HTTP server under test (the gateway or an oracle) on 127.0.0.1, spoken to with the JDK's HTTP client. */
public final class HttpTarget {
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    private final String name;
    private final String base;

    public HttpTarget(String name, int port) {
        this.name = name;
        this.base = "http://127.0.0.1:" + port;
    }

    public String name() {
        return name;
    }

    public String base() {
        return base;
    }

    /** What came back: status, headers (lower-case names, first value) and the body as text. */
    public record Exchange(int status, Map<String, String> headers, String body) {
        @Override
        public String toString() {
            return status + (body.isEmpty() ? "" : " " + body);
        }
    }

    public Exchange send(RequestSpec request) {
        URI uri = URI.create(base + request.path());
        HttpRequest.BodyPublisher publisher = request.body() == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(request.body());
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60))
                .method(request.method(), publisher);
        if (request.body() != null && request.contentType() != null) {
            builder.header("Content-Type", request.contentType());
        }
        request.headers().forEach(builder::header);
        try {
            HttpResponse<String> response = HTTP.send(builder.build(), HttpResponse.BodyHandlers.ofString());
            Map<String, String> headers = new TreeMap<>();
            response.headers().map().forEach((k, v) -> {
                if (!v.isEmpty()) {
                    headers.put(k.toLowerCase(Locale.ROOT), v.getFirst());
                }
            });
            return new Exchange(response.statusCode(), headers, response.body() == null ? "" : response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": " + request.method() + " " + request.path() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public String toString() {
        return name + " (" + base + ")";
    }
}
