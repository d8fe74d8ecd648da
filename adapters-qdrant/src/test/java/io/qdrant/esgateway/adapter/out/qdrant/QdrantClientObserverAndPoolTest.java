package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.qdrant.esgateway.application.port.out.BackendObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;

/** Every call to Qdrant reaches the {@link BackendObserver} (bounded operation label, status, bytes); the pool caps the calls in flight. */
class QdrantClientObserverAndPoolTest {
    private static QdrantStores.Settings settings(URI uri, int poolSize) {
        return new QdrantStores.Settings(uri, Optional.empty(), Duration.ofSeconds(5), Duration.ofSeconds(30),
                QdrantStores.Settings.DEFAULT_PREFIX, poolSize);
    }

    @Test
    void everyCallIsReportedWithItsTemplateStatusAndBodyBytes() {
        List<BackendObserver.Call> calls = new CopyOnWriteArrayList<>();
        try (FakeQdrant fake = new FakeQdrant(); QdrantClient http = new QdrantClient(settings(fake.uri(), 4), calls::add)) {
            JsonNode body = QdrantClient.MAPPER.createObjectNode().set("vectors", QdrantClient.MAPPER.createObjectNode());
            int sent = QdrantClient.MAPPER.writeValueAsBytes(body).length;
            http.call("PUT", "/collections/qeg-observed", Map.of(), body, false, "create");
            http.call("GET", "/collections", Map.of(), null, true, "list");
            assertThatThrownBy(() -> http.call("POST", "/collections/qeg-missing/points/count", Map.of(),
                    QdrantClient.MAPPER.createObjectNode().put("exact", true), true, "count"))
                    .isInstanceOf(QdrantClient.QdrantError.class);

            assertThat(calls).extracting(BackendObserver.Call::operation).containsExactly(
                    "PUT /collections/{name}", "GET /collections", "POST /collections/{name}/points/count");
            assertThat(calls).extracting(BackendObserver.Call::outcome).containsExactly("200", "200", "404");
            assertThat(calls).allSatisfy(c -> assertThat(c.backend()).isEqualTo("qdrant"));
            assertThat(calls.get(0).bytesSent()).isEqualTo(sent);
            assertThat(calls.get(1).bytesSent()).isZero();
            assertThat(calls.get(1).bytesReceived()).isGreaterThan(20); // {"result":{"collections":[…]},…}
            assertThat(calls).allSatisfy(c -> assertThat(c.nanos()).isPositive());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aRefusedConnectionIsReportedAsAnError() throws IOException {
        List<BackendObserver.Call> calls = new ArrayList<>();
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (QdrantClient http = new QdrantClient(settings(URI.create("http://127.0.0.1:" + port), 1), calls::add)) {
            assertThatThrownBy(() -> http.call("GET", "/collections", Map.of(), null, false, "list"))
                    .hasMessageContaining("connection refused");
        }
        assertThat(calls).singleElement().satisfies(c -> {
            assertThat(c.outcome()).isEqualTo("error");
            assertThat(c.bytesReceived()).isZero();
        });
    }

    @Test
    void operationLabelsNeverCarryNames() {
        assertThat(QdrantClient.operation("PUT", "/collections/qeg-abc%20d/index")).isEqualTo("PUT /collections/{name}/index");
        assertThat(QdrantClient.operation("DELETE", "/collections/qeg-x/index/price.amount"))
                .isEqualTo("DELETE /collections/{name}/index/{field}");
        assertThat(QdrantClient.operation("POST", "/collections/qeg-x/points/scroll"))
                .isEqualTo("POST /collections/{name}/points/scroll");
        assertThat(QdrantClient.operation("GET", "/collections")).isEqualTo("GET /collections");
    }

    @Test
    void operationLabelsAreWhatSplittingThePathGives() {
        for (String path : new String[] {"", "/", "//", "/collections", "/collections/", "/collections//index/x",
            "/collections/c/index", "/collections/c/index/", "/collections/c/indexes/f", "/collection/c/index/f",
            "/a/b/c/d/e/f", "x/collections/c", "/collections/c/points/scroll?x", "/aliases"}) {
            String[] parts = path.split("/", -1);
            StringBuilder expected = new StringBuilder("POST ");
            for (int i = 1; i < parts.length; i++) {
                expected.append('/').append(i == 2 && parts[1].equals("collections") ? "{name}"
                        : i == 4 && parts[3].equals("index") ? "{field}" : parts[i]);
            }
            assertThat(QdrantClient.operation("POST", path)).as(path).isEqualTo(expected.toString());
        }
    }

    @Test
    void thePoolSizeCapsTheRequestsInFlightAndTheOthersWait() throws Exception {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.createContext("/", exchange -> {
            try (exchange) {
                most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                release.await(20, TimeUnit.SECONDS);
                inFlight.decrementAndGet();
                byte[] answer = "{\"result\":{\"collections\":[]},\"status\":\"ok\",\"time\":0.0}"
                        .getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, answer.length);
                exchange.getResponseBody().write(answer);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        server.start();
        try (QdrantClient http = new QdrantClient(settings(URI.create("http://127.0.0.1:" + server.getAddress().getPort()),
                2))) {
            List<Thread> callers = new ArrayList<>();
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            for (int i = 0; i < 5; i++) {
                callers.add(Thread.ofPlatform().start(() -> {
                    try {
                        http.call("GET", "/collections", Map.of(), null, true, "list");
                    } catch (RuntimeException e) {
                        failures.add(e);
                    }
                }));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while ((http.waitingForSlot() < 3 || inFlight.get() < 2) && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(http.waitingForSlot()).as("callers waiting for a slot").isEqualTo(3);
            assertThat(inFlight.get()).as("requests Qdrant sees at once").isEqualTo(2);
            release.countDown();
            for (Thread t : callers) {
                t.join();
            }
            assertThat(failures).isEmpty();
            assertThat(most.get()).isEqualTo(2);
        } finally {
            release.countDown();
            server.stop(0);
        }
    }

    @Test
    void thePoolSizeIsBounded() {
        assertThatThrownBy(() -> settings(URI.create("http://127.0.0.1:6333"), 0))
                .hasMessageContaining("pool size must be from 1 to 1024");
    }
}
