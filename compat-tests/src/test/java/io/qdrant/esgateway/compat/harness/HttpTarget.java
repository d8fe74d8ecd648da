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

/**
 * One HTTP server under test (the gateway or an oracle) on 127.0.0.1, spoken to with the JDK's HTTP client; or
 * several replicas of one gateway behind it, as a load balancer spreads requests ({@link #replicas}).
 */
public final class HttpTarget {
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    private final String name;
    private final String base;
    private final java.util.List<String> replicas;
    private final java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();

    public HttpTarget(String name, int port) {
        this.name = name;
        this.base = "http://127.0.0.1:" + port;
        this.replicas = java.util.List.of(base);
    }

    private HttpTarget(String name, java.util.List<Integer> ports) {
        this.name = name;
        this.replicas = ports.stream().map(p -> "http://127.0.0.1:" + p).toList();
        this.base = replicas.getFirst();
    }

    /**
     * Gateway replicas on {@code ports} as one target: each request goes to the next replica in turn, except those
     * about state a replica keeps for itself — scroll and point-in-time contexts, tasks — which go to the first, as
     * a balancer's stickiness sends them (docs/deployment.md).
     */
    public static HttpTarget replicas(String name, java.util.List<Integer> ports) {
        return new HttpTarget(name, ports);
    }

    private String baseFor(RequestSpec request) {
        if (replicas.size() == 1 || sticky(request.path()) || request.body() != null && sticky(request.body())) {
            return base;
        }
        return replicas.get(Math.floorMod(next.getAndIncrement(), replicas.size()));
    }

    private static boolean sticky(String text) {
        return text.contains("scroll") || text.contains("pit") || text.contains("_tasks")
                || text.contains("wait_for_completion");
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
        URI uri = URI.create(baseFor(request) + request.path());
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
