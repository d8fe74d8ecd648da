package io.qdrant.esgateway.adapter.out.qdrant.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import io.qdrant.esgateway.adapter.out.qdrant.QdrantStores;

/**
 * The adapter's own HTTP/1.1 client against a scripted loopback server: bodies by length, chunks and connection end,
 * keep-alive reuse, a server closing a pooled connection, timeouts, refused connections, the request's bytes.
 */
public class HttpTransportTest {
    private static final byte[] NO_HEADERS = new byte[0];
    private Scripted server;

    /** What the scripted server does with the n-th request (0-based, over all connections) on a connection. */
    public interface Script {
        /** Writes the answer; returns whether to keep the connection open for another request. */
        boolean answer(int n, String head, byte[] body, OutputStream out) throws IOException;
    }

    /** A loopback server that reads HTTP/1.1 requests (Content-Length bodies) and answers by a script. */
    public static final class Scripted implements AutoCloseable {
        final ServerSocket socket;
        public final AtomicInteger connections = new AtomicInteger();
        public final AtomicInteger requests = new AtomicInteger();
        public final List<String> heads = new CopyOnWriteArrayList<>();
        public final List<Socket> open = new CopyOnWriteArrayList<>();

        public Scripted(Script script) throws IOException {
            socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread.ofVirtual().start(() -> {
                while (!socket.isClosed()) {
                    try {
                        Socket s = socket.accept();
                        open.add(s);
                        connections.incrementAndGet();
                        Thread.ofVirtual().start(() -> serve(s, script));
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
        }

        private void serve(Socket s, Script script) {
            try (s) {
                InputStream in = s.getInputStream();
                while (true) {
                    ByteArrayOutputStream head = new ByteArrayOutputStream();
                    int b;
                    while ((b = in.read()) >= 0) {
                        head.write(b);
                        byte[] h = head.toByteArray();
                        int n = h.length;
                        if (n >= 4 && h[n - 4] == '\r' && h[n - 3] == '\n' && h[n - 2] == '\r' && h[n - 1] == '\n') {
                            break;
                        }
                    }
                    if (b < 0) {
                        return;
                    }
                    String text = head.toString(StandardCharsets.US_ASCII);
                    int length = 0;
                    for (String line : text.split("\r\n")) {
                        if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                            length = Integer.parseInt(line.substring(15).trim());
                        }
                    }
                    byte[] body = in.readNBytes(length);
                    heads.add(text);
                    if (!script.answer(requests.getAndIncrement(), text, body, s.getOutputStream())) {
                        return;
                    }
                }
            } catch (IOException gone) {
                // the client went away
            }
        }

        public URI uri() {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort());
        }

        @Override
        public void close() throws IOException {
            socket.close();
            for (Socket s : open) {
                s.close();
            }
        }
    }

    public static boolean json(OutputStream out, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length
                + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
        out.flush();
        return true;
    }

    private HttpTransport transport(Duration requestTimeout) {
        return new HttpTransport(server.uri(), Duration.ofSeconds(5), requestTimeout);
    }

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aChunkedAnswerIsReassembledAndTheConnectionKept() throws Exception {
        server = new Scripted((n, head, body, out) -> {
            out.write(("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\n{\"res\r\n" + "b;ext=1\r\nult\":[1,2,3\r\n" + "2\r\n]}\r\n" + "0\r\nX-Trailer: t\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return true;
        });
        try (HttpTransport t = transport(Duration.ofSeconds(10))) {
            for (int i = 0; i < 3; i++) {
                HttpTransport.Response r = t.exchange("POST", "/collections/c/points/scroll",
                        "{}".getBytes(StandardCharsets.UTF_8), NO_HEADERS, true);
                assertThat(r.status()).isEqualTo(200);
                assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("{\"result\":[1,2,3]}");
            }
            assertThat(t.opened()).isEqualTo(1);
            assertThat(server.connections.get()).isEqualTo(1);
        }
    }

    @Test
    void sequentialCallsReuseOneKeepAliveConnectionAndTheRequestIsWellFormed() throws Exception {
        server = new Scripted((n, head, body, out) -> json(out, "{\"result\":" + n + ",\"body\":"
                + new String(body, StandardCharsets.UTF_8) + "}"));
        byte[] key = "api-key: secret\r\n".getBytes(StandardCharsets.US_ASCII);
        try (HttpTransport t = transport(Duration.ofSeconds(10))) {
            for (int i = 0; i < 5; i++) {
                HttpTransport.Response r = t.exchange("PUT", "/collections/c/points?wait=true",
                        ("{\"i\":" + i + "}").getBytes(StandardCharsets.UTF_8), key, false);
                assertThat(new String(r.body(), StandardCharsets.UTF_8))
                        .isEqualTo("{\"result\":" + i + ",\"body\":{\"i\":" + i + "}}");
            }
            HttpTransport.Response get = t.exchange("GET", "/collections", null, NO_HEADERS, true);
            assertThat(get.status()).isEqualTo(200);
            assertThat(t.opened()).isEqualTo(1);
            assertThat(t.idleCount()).isEqualTo(1);
        }
        assertThat(server.heads.getFirst()).startsWith("PUT /collections/c/points?wait=true HTTP/1.1\r\n")
                .contains("Host: 127.0.0.1:" + server.socket.getLocalPort() + "\r\n", "api-key: secret\r\n",
                        "Content-Type: application/json\r\n", "Content-Length: 7\r\n");
        assertThat(server.heads.getLast()).startsWith("GET /collections HTTP/1.1\r\n")
                .doesNotContain("Content-Length", "Content-Type", "api-key");
    }

    @Test
    void headerNamesAreCaseInsensitiveAndALongHeaderSpansReads() throws Exception {
        String longValue = "v".repeat(40_000);
        server = new Scripted((n, head, body, out) -> {
            out.write(("HTTP/1.1 503 Service Unavailable\r\nX-Long: " + longValue + "\r\nRETRY-after: 7\r\n"
                    + "content-LENGTH: 2\r\n\r\n{}").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return true;
        });
        try (HttpTransport t = transport(Duration.ofSeconds(10))) {
            HttpTransport.Response r = t.exchange("GET", "/", null, NO_HEADERS, true);
            assertThat(r.status()).isEqualTo(503);
            assertThat(r.retryAfter()).contains("7");
            assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("{}");
            assertThat(t.exchange("GET", "/", null, NO_HEADERS, true).status()).isEqualTo(503);
            assertThat(t.opened()).isEqualTo(1);
        }
    }

    @Test
    void anAnswerWithoutLengthEndsWithTheConnectionWhichIsNotReused() throws Exception {
        server = new Scripted((n, head, body, out) -> {
            out.write("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n{\"result\":true}".getBytes(StandardCharsets.US_ASCII));
            return false;
        });
        try (HttpTransport t = transport(Duration.ofSeconds(10))) {
            for (int i = 0; i < 2; i++) {
                HttpTransport.Response r = t.exchange("GET", "/", null, NO_HEADERS, true);
                assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("{\"result\":true}");
            }
            assertThat(t.opened()).isEqualTo(2);
            assertThat(t.idleCount()).isZero();
        }
    }

    @Test
    void aReadOnAConnectionTheServerClosedIsRetriedOnceOnAFreshOne() throws Exception {
        // the server answers one request per connection, keeps the connection open as if for keep-alive, then
        // closes it before the next request: the next exchange finds it closed before any answer
        CountDownLatch answered = new CountDownLatch(1);
        server = new Scripted((n, head, body, out) -> {
            json(out, "{\"result\":" + n + "}");
            answered.countDown();
            return false;
        });
        try (HttpTransport t = transport(Duration.ofSeconds(10))) {
            assertThat(new String(t.exchange("GET", "/a", null, NO_HEADERS, true).body(), StandardCharsets.UTF_8))
                    .isEqualTo("{\"result\":0}");
            assertThat(answered.await(10, TimeUnit.SECONDS)).isTrue();
            awaitClosedByServer();
            assertThat(t.idleCount()).isEqualTo(1); // the client still holds the (now dead) connection
            assertThat(new String(t.exchange("GET", "/b", null, NO_HEADERS, true).body(), StandardCharsets.UTF_8))
                    .isEqualTo("{\"result\":1}");
            assertThat(t.opened()).isEqualTo(2);
            assertThat(server.requests.get()).isEqualTo(2);
        }
    }

    @Test
    void aWriteOnAConnectionTheServerClosedIsNotRetried() throws Exception {
        server = new Scripted((n, head, body, out) -> {
            json(out, "{\"result\":" + n + "}");
            return false;
        });
        try (HttpTransport t = transport(Duration.ofSeconds(10))) {
            t.exchange("GET", "/a", null, NO_HEADERS, true);
            awaitClosedByServer();
            assertThatThrownBy(() -> t.exchange("PUT", "/collections/c/points", "{}".getBytes(StandardCharsets.UTF_8),
                    NO_HEADERS, false)).isInstanceOf(IOException.class);
            assertThat(t.opened()).isEqualTo(1);
            assertThat(server.requests.get()).isEqualTo(1);
            // the pool is not poisoned: the next call opens a fresh connection
            assertThat(t.exchange("GET", "/b", null, NO_HEADERS, true).status()).isEqualTo(200);
        }
    }

    /** Waits until the server has closed every socket it accepted (the scripted server closes after answering). */
    private void awaitClosedByServer() throws InterruptedException {
        for (int i = 0; i < 2000 && !server.open.stream().allMatch(Socket::isClosed); i++) {
            Thread.sleep(5);
        }
        assertThat(server.open).allMatch(Socket::isClosed);
    }

    @Test
    void noAnswerWithinTheRequestTimeoutIsATimeoutAndTheConnectionIsDropped() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        server = new Scripted((n, head, body, out) -> {
            if (n == 1) {
                // the head, then a body that stalls
                out.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"res".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
            try {
                never.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return false;
        });
        try (HttpTransport t = transport(Duration.ofMillis(200))) {
            assertThatThrownBy(() -> t.exchange("GET", "/slow", null, NO_HEADERS, true))
                    .isInstanceOfSatisfying(HttpTransport.Timeout.class, e -> assertThat(e.connecting).isFalse());
            assertThatThrownBy(() -> t.exchange("GET", "/slow-body", null, NO_HEADERS, true))
                    .isInstanceOf(HttpTransport.Timeout.class);
            assertThat(t.idleCount()).isZero();
        } finally {
            never.countDown();
        }
    }

    @Test
    // without the watchdog the write would block for ever: fail instead of hanging the build
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aLargeRequestTheServerDoesNotReadIsCutAtTheDeadline() throws Exception {
        // accepted by the kernel, never read: the write blocks once both socket buffers are full
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             HttpTransport t = new HttpTransport(URI.create("http://127.0.0.1:" + silent.getLocalPort()),
                     Duration.ofSeconds(5), Duration.ofMillis(300))) {
            byte[] body = new byte[64 * 1024 * 1024];
            java.util.Arrays.fill(body, (byte) ' ');
            assertThatThrownBy(() -> t.exchange("PUT", "/collections/c/points", body, NO_HEADERS, false))
                    .isInstanceOfSatisfying(HttpTransport.Timeout.class, e -> assertThat(e.connecting).isFalse());
            assertThat(t.idleCount()).isZero();
        }
    }

    @Test
    void aRefusedConnectionIsAConnectException() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        try (HttpTransport t = new HttpTransport(URI.create("http://127.0.0.1:" + port), Duration.ofSeconds(5),
                Duration.ofSeconds(5))) {
            assertThatThrownBy(() -> t.exchange("GET", "/", null, NO_HEADERS, true))
                    .isInstanceOf(ConnectException.class);
        }
    }

    @Test
    void throughTheAdapterATimeoutIsA504AndARefusedConnectionA502() throws Exception {
        server = new Scripted((n, head, body, out) -> {
            try {
                Thread.sleep(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return false;
        });
        QdrantStores.Settings slow = new QdrantStores.Settings(server.uri(), Optional.empty(), Duration.ofSeconds(5),
                Duration.ofMillis(200));
        try (QdrantClient http = new QdrantClient(slow)) {
            assertThatThrownBy(() -> http.call("GET", "/collections", Map.of(), null, true, "list collections"))
                    .isInstanceOfSatisfying(GatewayException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_TIMEOUT);
                        assertThat(e.getMessage()).contains("did not answer within 200ms");
                    });
        }
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        QdrantStores.Settings refused = new QdrantStores.Settings(URI.create("http://127.0.0.1:" + port),
                Optional.of("k"), Duration.ofSeconds(5), Duration.ofSeconds(5));
        try (QdrantClient http = new QdrantClient(refused)) {
            assertThatThrownBy(() -> http.call("GET", "/collections", Map.of(), null, true, "list collections"))
                    .isInstanceOfSatisfying(GatewayException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_FAILURE);
                        assertThat(e.getMessage()).contains("connection refused");
                    });
        }
    }

    @Test
    void aCallerInterruptedWhileWaitingForTheAnswerGetsAnUnavailableError() throws Exception {
        CountDownLatch received = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        server = new Scripted((n, head, body, out) -> {
            received.countDown();
            try {
                never.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return false;
        });
        QdrantStores.Settings settings = new QdrantStores.Settings(server.uri(), Optional.empty(), Duration.ofSeconds(5),
                Duration.ofSeconds(30));
        try (QdrantClient http = new QdrantClient(settings)) {
            java.util.concurrent.atomic.AtomicReference<Throwable> thrown = new java.util.concurrent.atomic.AtomicReference<>();
            Thread caller = Thread.ofVirtual().start(() -> {
                try {
                    http.call("GET", "/collections", Map.of(), null, true, "list collections");
                } catch (RuntimeException e) {
                    thrown.set(e);
                }
            });
            assertThat(received.await(10, TimeUnit.SECONDS)).isTrue();
            caller.interrupt();
            caller.join(TimeUnit.SECONDS.toMillis(20));
            assertThat(caller.isAlive()).isFalse();
            assertThat(thrown.get()).isInstanceOfSatisfying(GatewayException.class,
                    e -> assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_UNAVAILABLE));
        } finally {
            never.countDown();
        }
    }

    @Test
    void anApiKeyThatCouldSplitTheHeadIsRefused() {
        QdrantStores.Settings bad = new QdrantStores.Settings(URI.create("http://127.0.0.1:6333"),
                Optional.of("k\r\nx: y"), Duration.ofSeconds(1), Duration.ofSeconds(1));
        assertThatThrownBy(() -> new QdrantClient(bad)).hasMessageContaining("printable ASCII")
                .hasMessageNotContaining("x: y");
    }
}
