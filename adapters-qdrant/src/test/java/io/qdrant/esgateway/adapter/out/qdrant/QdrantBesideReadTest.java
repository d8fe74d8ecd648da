package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.qdrant.esgateway.adapter.out.qdrant.transport.HttpTransportTest.Scripted;
import io.qdrant.esgateway.application.port.out.BackendObserver;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import io.qdrant.esgateway.adapter.out.qdrant.transport.HttpTransport;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;
import io.qdrant.esgateway.adapter.out.qdrant.transport.StreamedJsonNodes;
import io.qdrant.esgateway.adapter.out.qdrant.transport.HttpTransportTest;

/**
 * A read sent beside another call ({@link QdrantClient.Beside}, {@link HttpTransport#send}): written after the call's
 * request and before its answer is read, its answer read right after the call's on the same thread; its errors,
 * retries, timeouts, the pool and the backend time it reports.
 */
@Timeout(60)
class QdrantBesideReadTest {
    private static final byte[] NO_HEADERS = new byte[0];
    private final List<Reported> reported = new CopyOnWriteArrayList<>();
    private final List<Long> sleeps = new ArrayList<>();
    private final CountDownLatch teardown = new CountDownLatch(1);
    private Scripted server;

    /** A reported call with when it was reported and on which thread. */
    private record Reported(BackendObserver.Call call, long end, Thread thread) {
        long start() {
            return end - call.nanos();
        }
    }

    @AfterEach
    void stop() throws IOException {
        teardown.countDown();
        if (server != null) {
            server.close();
        }
    }

    private QdrantClient http(int poolSize, Duration requestTimeout) {
        QdrantStores.Settings settings = new QdrantStores.Settings(server.uri(), Optional.empty(), Duration.ofSeconds(5),
                requestTimeout, QdrantStores.Settings.DEFAULT_PREFIX, poolSize);
        QdrantClient http = new QdrantClient(settings, call -> reported.add(new Reported(call, System.nanoTime(),
                Thread.currentThread())));
        http.sleeper = sleeps::add;
        return http;
    }

    private static boolean answer(OutputStream out, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        out.write(("HTTP/1.1 " + status + " X\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length
                + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
        out.flush();
        return true;
    }

    private static final String PAGE = "{\"result\":[1,2,3],\"status\":\"ok\",\"time\":0.0}";
    private static final String COUNT = "{\"result\":{\"count\":42},\"status\":\"ok\",\"time\":0.0}";

    private static JsonNode page(QdrantClient http, QdrantClient.Beside<?> beside, long[] decoded) {
        return http.call("POST", "/q", Map.of(), QdrantClient.object(), true, "read the page", parser -> {
            decoded[0] = System.nanoTime();
            return parser.readValueAsTree();
        }, beside);
    }

    private static QdrantClient.Beside<Long> count(QdrantClient http) {
        return http.beside("POST", "/c", Map.of(), QdrantClient.object().put("exact", true), "count the documents",
                StreamedJsonNodes.count());
    }

    @Test
    void theBesideRequestIsWrittenBeforeTheCallsAnswerIsReadAndReadRightAfterIt() throws Exception {
        // the page is answered only once the count's request has arrived: one after the other, it would never be
        AtomicBoolean overlapped = new AtomicBoolean();
        CountDownLatch countArrived = new CountDownLatch(1);
        server = new Scripted((n, head, body, out) -> {
            if (head.startsWith("POST /c ")) {
                countArrived.countDown();
                return answer(out, 200, COUNT);
            }
            try {
                overlapped.set(countArrived.await(20, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return answer(out, 200, PAGE);
        });
        try (QdrantClient http = http(4, Duration.ofSeconds(30))) {
            long[] decoded = new long[1];
            QdrantClient.Beside<Long> count = count(http);
            assertThat(page(http, count, decoded).toString()).isEqualTo("[1,2,3]");
            assertThat(overlapped).as("the count's request reached the server before the page was answered").isTrue();
            assertThat(count.result()).isEqualTo(42L);
            assertThat(server.requests.get()).isEqualTo(2);

            // reported once each, on the caller's thread; the count's span holds no decoding of the page (own time)
            assertThat(reported).extracting(r -> r.call().operation()).containsExactly("POST /q", "POST /c");
            assertThat(reported).extracting(r -> r.call().outcome()).containsExactly("200", "200");
            assertThat(reported).allSatisfy(r -> assertThat(r.thread()).isSameAs(Thread.currentThread()));
            Reported pageCall = reported.get(0);
            Reported countCall = reported.get(1);
            assertThat(countCall.start()).isGreaterThanOrEqualTo(pageCall.start());
            assertThat(countCall.end()).isLessThanOrEqualTo(decoded[0]);
            assertThat(countCall.call().bytesReceived()).isEqualTo(COUNT.length());

            // both connections went back to the pool: the next pair reuses them
            QdrantClient.Beside<Long> again = count(http);
            page(http, again, decoded);
            assertThat(again.result()).isEqualTo(42L);
            assertThat(server.connections.get()).isEqualTo(2);
        }
    }

    @Test
    void anErrorAnswerBesideIsThrownByItsResultAndTheCallAndTheConnectionsAreUnharmed() throws Exception {
        server = new Scripted((n, head, body, out) -> head.startsWith("POST /c ")
                ? answer(out, 500, "{\"status\":{\"error\":\"count broke\"},\"time\":0.0}")
                : answer(out, 200, PAGE));
        try (QdrantClient http = http(4, Duration.ofSeconds(30))) {
            for (int i = 0; i < 5; i++) {
                QdrantClient.Beside<Long> count = count(http);
                assertThat(page(http, count, new long[1]).size()).isEqualTo(3);
                assertThatThrownBy(count::result).isInstanceOfSatisfying(QdrantClient.QdrantError.class, e -> {
                    assertThat(e.status).isEqualTo(500);
                    assertThat(e.qdrantMessage).isEqualTo("count broke");
                });
            }
            assertThat(server.connections.get()).isEqualTo(2);
            assertThat(server.requests.get()).isEqualTo(10);
        }
    }

    @Test
    void theCallsFailureDoesNotLoseTheBesideAnswer() throws Exception {
        server = new Scripted((n, head, body, out) -> head.startsWith("POST /c ") ? answer(out, 200, COUNT)
                : answer(out, 400, "{\"status\":{\"error\":\"bad page\"},\"time\":0.0}"));
        try (QdrantClient http = http(4, Duration.ofSeconds(30))) {
            QdrantClient.Beside<Long> count = count(http);
            assertThatThrownBy(() -> page(http, count, new long[1])).isInstanceOfSatisfying(
                    QdrantClient.QdrantError.class, e -> assertThat(e.qdrantMessage).isEqualTo("bad page"));
            assertThat(count.result()).isEqualTo(42L);
            assertThat(server.requests.get()).isEqualTo(2);
        }
    }

    @Test
    void aBesideAnsweredWith429IsRetriedAsACallOfItsOwn() throws Exception {
        AtomicBoolean limited = new AtomicBoolean();
        server = new Scripted((n, head, body, out) -> {
            if (head.startsWith("POST /c ") && limited.compareAndSet(false, true)) {
                return answer(out, 429, "{\"status\":{\"error\":\"slow down\"},\"time\":0.0}");
            }
            return answer(out, 200, head.startsWith("POST /c ") ? COUNT : PAGE);
        });
        try (QdrantClient http = http(4, Duration.ofSeconds(30))) {
            QdrantClient.Beside<Long> count = count(http);
            page(http, count, new long[1]);
            assertThat(count.result()).isEqualTo(42L);
            assertThat(sleeps).containsExactly(100L);
            assertThat(reported).extracting(r -> r.call().outcome()).containsExactly("200", "429", "200");
        }
    }

    @Test
    void withNoFreeSlotTheBesideIsNotSentAndIsMadeWholeWhenItsResultIsAskedFor() throws Exception {
        server = new Scripted((n, head, body, out) -> answer(out, 200, head.startsWith("POST /c ") ? COUNT : PAGE));
        try (QdrantClient http = http(1, Duration.ofSeconds(30))) {
            QdrantClient.Beside<Long> count = count(http);
            page(http, count, new long[1]);
            assertThat(server.requests.get()).as("the page's call held the only slot").isEqualTo(1);
            assertThat(count.result()).isEqualTo(42L);
            assertThat(server.requests.get()).isEqualTo(2);
            assertThat(server.heads.get(1)).startsWith("POST /c ");
        }
    }

    @Test
    void aBesideThatIsNeverSentIsMadeWholeWhenItsResultIsAskedFor() throws Exception {
        server = new Scripted((n, head, body, out) -> answer(out, 200, COUNT));
        try (QdrantClient http = http(4, Duration.ofSeconds(30))) {
            QdrantClient.Beside<Long> count = count(http);
            assertThat(count.result()).isEqualTo(42L);
            assertThat(server.requests.get()).isEqualTo(1);
        }
    }

    @Test
    void aBesideWithoutAnAnswerInTimeIsABackendTimeoutAndTheNextCallsWork() throws Exception {
        AtomicBoolean first = new AtomicBoolean(true);
        server = new Scripted((n, head, body, out) -> {
            if (head.startsWith("POST /c ") && first.compareAndSet(true, false)) {
                try {
                    teardown.await(30, TimeUnit.SECONDS); // never answers while the test runs
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return false;
            }
            return answer(out, 200, head.startsWith("POST /c ") ? COUNT : PAGE);
        });
        try (QdrantClient http = http(4, Duration.ofMillis(300))) {
            QdrantClient.Beside<Long> count = count(http);
            assertThat(page(http, count, new long[1]).size()).isEqualTo(3);
            assertThatThrownBy(count::result).isInstanceOfSatisfying(GatewayException.class, e -> {
                assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_TIMEOUT);
                assertThat(e.getMessage()).contains("count the documents").contains("did not answer within 300ms");
            });
            assertThat(reported).extracting(r -> r.call().outcome()).containsExactly("200", "timeout");
            QdrantClient.Beside<Long> again = count(http);
            assertThat(page(http, again, new long[1]).size()).isEqualTo(3);
            assertThat(again.result()).isEqualTo(42L);
        }
    }

    @Test
    void aSentRequestOnAConnectionTheServerClosedIsRetriedOnceOnAFreshOneForReadsOnly() throws Exception {
        // one answer per connection, then the server closes it: the next request finds a dead pooled connection
        server = new Scripted((n, head, body, out) -> {
            HttpTransportTest.json(out, "{\"result\":" + n + "}");
            return false;
        });
        try (HttpTransport t = new HttpTransport(server.uri(), Duration.ofSeconds(5), Duration.ofSeconds(10))) {
            t.exchange("GET", "/a", null, NO_HEADERS, true);
            awaitClosedByServer();
            HttpTransport.Sent sent = t.send("GET", "/b", null, NO_HEADERS, true);
            assertThat(new String(sent.answer().body(), StandardCharsets.UTF_8)).isEqualTo("{\"result\":1}");
            assertThat(t.opened()).isEqualTo(2);

            awaitClosedByServer();
            assertThatThrownBy(() -> t.send("GET", "/c", null, NO_HEADERS, false).answer())
                    .isInstanceOf(IOException.class);
            assertThat(server.requests.get()).isEqualTo(2);
            // the pool is not poisoned
            assertThat(t.send("GET", "/d", null, NO_HEADERS, true).answer().status()).isEqualTo(200);
        }
    }

    private void awaitClosedByServer() throws InterruptedException {
        for (int i = 0; i < 2000 && !server.open.stream().allMatch(Socket::isClosed); i++) {
            Thread.sleep(5);
        }
        assertThat(server.open).allSatisfy(s -> assertThat(s.isClosed()).isTrue());
    }
}
