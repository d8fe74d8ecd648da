package io.qdrant.esgateway.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The canned Qdrant of the gateway-overhead mode: an HTTP server on loopback (port 0) in the runner's JVM that first
 * <em>records</em> — forwards every call to a stand-in Qdrant (the spec-checked {@code FakeQdrant}) and keeps its
 * answer under the call's method, path with query string and body bytes — and then <em>replays</em>: answers every
 * call at once from the kept bytes, without parsing anything. In replay, a call that was never recorded is answered
 * with a 500 in Qdrant's error shape and counted in {@link #misses()}: the run reports it, a wrong answer is never
 * made up.
 */
public final class CannedQdrant implements AutoCloseable {
    private static final byte[] NO_BODY = new byte[0];

    static {
        noDelay();
    }

    /**
     * The JDK's HTTP server writes the head and the body of an answer separately and leaves Nagle's algorithm on by
     * default; with the client's delayed ACKs that costs milliseconds per call, which would be charged to the gateway.
     * Its setting is read once per JVM, when the first server (also the {@code FakeQdrant}'s) starts: call this first.
     */
    static void noDelay() {
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    /** A recorded answer. */
    private record Answer(int status, String contentType, byte[] body) {
    }

    private final URI upstream;
    private final HttpServer server;
    private final ExecutorService executor;
    private final HttpClient client;
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final List<String> misses = new CopyOnWriteArrayList<>();
    private volatile boolean replaying;

    /** Starts recording: every call goes to {@code upstream} until {@link #replay()}. */
    public CannedQdrant(URI upstream) {
        this.upstream = upstream;
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // Replay answers on the server's dispatcher thread (no hand-off per call: a lookup and a write); recording
        // forwards, which blocks, so it runs on a pool.
        executor = Executors.newFixedThreadPool(16, Thread.ofPlatform().name("canned-qdrant-", 0).daemon().factory());
        server.setExecutor(task -> {
            if (replaying) {
                task.run();
            } else {
                executor.execute(task);
            }
        });
        server.createContext("/", this::handle);
        server.start();
    }

    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Drops what was recorded so far (e.g. the answers to the ingest's writes). */
    public void forget() {
        answers.clear();
    }

    /** From now on every call is answered from the recordings, and the stand-in is never asked again. */
    public void replay() {
        replaying = true;
    }

    public boolean replaying() {
        return replaying;
    }

    /** Distinct calls recorded. */
    public int recorded() {
        return answers.size();
    }

    /** The calls that had no recorded answer during replay, in arrival order (method, path, start of the body). */
    public List<String> misses() {
        return List.copyOf(misses);
    }

    public int missCount() {
        return misses.size();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String target = exchange.getRequestURI().getRawPath()
                    + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery());
            String key = exchange.getRequestMethod() + " " + target + "\n" + new String(body, StandardCharsets.UTF_8);
            Answer answer = replaying ? answers.get(key) : forward(exchange.getRequestMethod(), target, body, key);
            if (answer == null) {
                String text = key.replace('\n', ' ');
                misses.add(text.length() > 300 ? text.substring(0, 300) + "…" : text);
                answer = new Answer(500, "application/json", ("{\"status\":{\"error\":\"canned responder: no "
                        + "recorded answer for this call\"},\"time\":0.0}").getBytes(StandardCharsets.UTF_8));
            }
            exchange.getResponseHeaders().set("Content-Type", answer.contentType());
            exchange.sendResponseHeaders(answer.status(), answer.body().length == 0 ? -1 : answer.body().length);
            if (answer.body().length > 0) {
                exchange.getResponseBody().write(answer.body());
            }
        }
    }

    private Answer forward(String method, String target, byte[] body, String key) throws IOException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(upstream + target))
                .timeout(Duration.ofSeconds(120))
                .method(method, body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        if (body.length > 0) {
            request.header("Content-Type", "application/json");
        }
        try {
            HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            Answer answer = new Answer(response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse("application/json"),
                    response.body() == null ? NO_BODY : response.body());
            answers.put(key, answer);
            return answer;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while recording " + method + " " + target, e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        client.close();
    }
}
