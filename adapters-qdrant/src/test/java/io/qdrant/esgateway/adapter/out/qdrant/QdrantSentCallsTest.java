package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.qdrant.esgateway.application.port.out.BackendObserver;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Calls sent now and answered later ({@link QdrantHttp#send}): the same result as a whole call, reported once, the
 * pool's slot held until the answer is read — and never held while its thread waits for another slot.
 */
class QdrantSentCallsTest {
    private static final String COUNT = "/collections/qeg-sent/points/count";

    private static QdrantStores.Settings settings(URI uri, int poolSize) {
        // a short request timeout: a thread stuck waiting for a slot it holds itself would fail fast, not hang
        return new QdrantStores.Settings(uri, Optional.empty(), Duration.ofSeconds(2), Duration.ofSeconds(2),
                QdrantStores.Settings.DEFAULT_PREFIX, poolSize);
    }

    private static ObjectNode countBody() {
        return QdrantHttp.object().put("exact", true);
    }

    private static void collection(QdrantHttp http) {
        ObjectNode create = QdrantHttp.object();
        create.putObject("vectors");
        http.call("PUT", "/collections/qeg-sent", Map.of(), create, false, "create");
    }

    @Test
    void aSentCallGivesTheCallsResultAndIsReportedOnceWhenItsAnswerIsRead() {
        List<BackendObserver.Call> calls = new CopyOnWriteArrayList<>();
        try (FakeQdrant fake = new FakeQdrant(); QdrantHttp http = new QdrantHttp(settings(fake.uri(), 4), calls::add)) {
            collection(http);
            calls.clear();
            QdrantHttp.Sent<Long> sent = http.send("POST", COUNT, Map.of(), countBody(), "count", AnswerNodes.count());
            assertThat(calls).as("not reported before its answer is read").isEmpty();
            long meanwhile = http.call("POST", COUNT, Map.of(), countBody(), true, "count", AnswerNodes.count());
            assertThat(sent.result()).isEqualTo(meanwhile).isEqualTo(0L);
            assertThat(sent.result()).as("read once, kept").isEqualTo(0L);
            assertThat(calls).hasSize(2).allSatisfy(c -> {
                assertThat(c.operation()).isEqualTo("POST /collections/{name}/points/count");
                assertThat(c.outcome()).isEqualTo("200");
                assertThat(c.nanos()).isPositive();
            });
            assertThat(fake.requests("POST", "/points/count")).hasSize(2);
            assertThat(fake.violations).isEmpty();
        }
    }

    @Test
    void anErrorAnswerIsThrownWhenTheResultIsAskedFor() {
        try (FakeQdrant fake = new FakeQdrant(); QdrantHttp http = new QdrantHttp(settings(fake.uri(), 2))) {
            QdrantHttp.Sent<Long> sent = http.send("POST", COUNT, Map.of(), countBody(), "count", AnswerNodes.count());
            assertThatThrownBy(sent::result).isInstanceOf(QdrantHttp.QdrantError.class)
                    .satisfies(e -> assertThat(((QdrantHttp.QdrantError) e).status).isEqualTo(404));
        }
    }

    @Test
    void aThreadHoldingTheOnlySlotReadsItsSentAnswersBeforeWaitingForAnother() {
        try (FakeQdrant fake = new FakeQdrant(); QdrantHttp http = new QdrantHttp(settings(fake.uri(), 1))) {
            collection(http);
            QdrantHttp.Sent<Long> first = http.send("POST", COUNT, Map.of(), countBody(), "count", AnswerNodes.count());
            // no free slot now: this one is made whole when its result is asked for
            QdrantHttp.Sent<Long> second = http.send("POST", COUNT, Map.of(), countBody(), "count",
                    AnswerNodes.count());
            // a whole call needs the slot the first sent call holds: it reads that answer first instead of waiting
            long whole = http.call("POST", COUNT, Map.of(), countBody(), true, "count", AnswerNodes.count());
            assertThat(whole).isEqualTo(0L);
            assertThat(second.result()).isEqualTo(0L);
            assertThat(first.result()).isEqualTo(0L);
            assertThat(http.waitingForSlot()).isZero();
        }
    }

    @Test
    void busyAnswersAreRetriedAsForAWholeCall() throws Exception {
        AtomicInteger seen = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                boolean busy = seen.incrementAndGet() < 3;
                byte[] answer = (busy ? "{\"status\":{\"error\":\"busy\"}}" : "{\"result\":{\"count\":7},\"status\":\"ok\"}")
                        .getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(busy ? 503 : 200, answer.length);
                exchange.getResponseBody().write(answer);
            }
        });
        server.start();
        List<BackendObserver.Call> calls = new CopyOnWriteArrayList<>();
        try (QdrantHttp http = new QdrantHttp(settings(URI.create("http://127.0.0.1:" + server.getAddress().getPort()),
                2), calls::add)) {
            http.sleeper = millis -> { };
            QdrantHttp.Sent<Long> sent = http.send("POST", COUNT, Map.of(), countBody(), "count", AnswerNodes.count());
            assertThat(sent.result()).isEqualTo(7L);
            assertThat(calls).extracting(BackendObserver.Call::outcome).containsExactly("503", "503", "200");
            // three attempts in all, as a whole read gets: the third 503 is the caller's
            seen.set(0);
            calls.clear();
            server.removeContext("/");
            server.createContext("/", exchange -> {
                try (exchange) {
                    exchange.getRequestBody().readAllBytes();
                    seen.incrementAndGet();
                    byte[] answer = "{\"status\":{\"error\":\"busy\"}}".getBytes(StandardCharsets.UTF_8);
                    exchange.sendResponseHeaders(503, answer.length);
                    exchange.getResponseBody().write(answer);
                }
            });
            QdrantHttp.Sent<Long> busy = http.send("POST", COUNT, Map.of(), countBody(), "count", AnswerNodes.count());
            assertThatThrownBy(busy::result).isInstanceOf(QdrantHttp.QdrantError.class);
            assertThat(seen.get()).isEqualTo(QdrantHttp.READ_ATTEMPTS);
        } finally {
            server.stop(0);
        }
    }
}
