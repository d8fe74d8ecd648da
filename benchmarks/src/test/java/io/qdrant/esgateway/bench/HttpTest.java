package io.qdrant.esgateway.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The benchmark's HTTP/1.1 client: one kept-alive connection, whole answers by length or by chunks, stale reconnects. */
class HttpTest {
    private HttpServer server;
    private final Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();
    private final List<String> bodies = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private URI serve() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            clientPorts.add(exchange.getRemoteAddress().getPort());
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            bodies.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
                    + exchange.getRequestHeaders().getFirst("Content-Type") + " " + body);
            String path = exchange.getRequestURI().getPath();
            byte[] answer = ("{\"echo\":" + Json.MAPPER.writeValueAsString(body) + ",\"path\":\"" + path + "\"}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            if (path.startsWith("/chunked")) {
                exchange.sendResponseHeaders(200, 0); // chunked
                OutputStream out = exchange.getResponseBody();
                for (byte b : answer) {
                    out.write(b);
                    out.flush();
                }
                exchange.close();
            } else {
                exchange.sendResponseHeaders(path.startsWith("/missing") ? 404 : 200, answer.length);
                exchange.getResponseBody().write(answer);
                exchange.close();
            }
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Test
    void requestsShareOneConnectionAndBodiesArriveWhole() throws IOException {
        try (Http http = new Http(serve())) {
            Http.Raw first = http.send("POST", "/i/_search", "{\"q\":\"naïve ☃\"}", "application/json");
            Http.Raw second = http.send("GET", "/i/_doc/1", null, null);
            Http.Raw missing = http.send("GET", "/missing", null, null);
            Http.Raw chunked = http.send("PUT", "/chunked/x", "{\"a\":1}", "application/x-ndjson");
            Http.Raw empty = http.send("DELETE", "/i", null, null);

            assertThat(first.status()).isEqualTo(200);
            assertThat(first.json().path("echo").asText()).isEqualTo("{\"q\":\"naïve ☃\"}");
            assertThat(second.json().path("path").asText()).isEqualTo("/i/_doc/1");
            assertThat(missing.status()).isEqualTo(404);
            assertThat(missing.ok()).isFalse();
            assertThat(chunked.json().path("echo").asText()).isEqualTo("{\"a\":1}");
            assertThat(empty.ok()).isTrue();
        }
        assertThat(clientPorts).as("one kept-alive connection").hasSize(1);
        assertThat(bodies).containsExactly("POST /i/_search application/json {\"q\":\"naïve ☃\"}",
                "GET /i/_doc/1 null ", "GET /missing null ", "PUT /chunked/x application/x-ndjson {\"a\":1}",
                "DELETE /i null ");
    }

    /** A server that answers one request per connection and then drops it without saying so (an idle close). */
    @Test
    void aConnectionTheServerDroppedIsReplacedOnce() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread serverThread = Thread.ofPlatform().daemon().start(() -> {
                for (int n = 1; n <= 3; n++) {
                    try (Socket s = listener.accept()) {
                        BufferedReader reader = new BufferedReader(new InputStreamReader(s.getInputStream(),
                                StandardCharsets.ISO_8859_1));
                        while (!reader.readLine().isEmpty()) {
                            // the head of a GET
                        }
                        byte[] body = ("{\"n\":" + n + "}").getBytes(StandardCharsets.US_ASCII);
                        s.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Length: " + body.length + "\r\n\r\n")
                                .getBytes(StandardCharsets.US_ASCII));
                        s.getOutputStream().write(body);
                        s.getOutputStream().flush();
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            try (Http http = new Http(URI.create("http://127.0.0.1:" + listener.getLocalPort()))) {
                assertThat(http.send("GET", "/", null, null).json().path("n").asInt()).isEqualTo(1);
                Thread.sleep(50); // the server has closed that connection by now
                assertThat(http.send("GET", "/", null, null).json().path("n").asInt()).isEqualTo(2);
                assertThat(http.send("GET", "/", null, null).json().path("n").asInt()).isEqualTo(3);
            }
            serverThread.join(5_000);
        }
    }

    @Test
    void nothingListeningIsAnErrorNamingTheRequest() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        try (Http http = new Http(URI.create("http://127.0.0.1:" + port))) {
            assertThatThrownBy(() -> http.send("GET", "/x", null, null)).isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("GET http://127.0.0.1:" + port + "/x failed");
        }
    }
}
