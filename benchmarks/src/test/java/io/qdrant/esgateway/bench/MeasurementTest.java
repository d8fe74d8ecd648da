package io.qdrant.esgateway.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every measured response is checked: a stub engine answers right, then wrong once (or refuses), and the cell must
 * come out valid, invalid or unsupported accordingly — never timed when an answer was wrong.
 */
class MeasurementTest {
    private static final String RIGHT = "{\"hits\":{\"total\":{\"value\":2,\"relation\":\"eq\"},\"hits\":["
            + "{\"_id\":\"a\",\"_source\":{\"n\":1},\"sort\":[1]},{\"_id\":\"b\",\"_source\":{\"n\":2},\"sort\":[2]}]}}";
    private static final String WRONG = RIGHT.replace("\"_id\":\"a\"", "\"_id\":\"z\"");

    private HttpServer server;
    private final AtomicInteger served = new AtomicInteger();
    /** Which answer number (1-based) is wrong; 0 for none. */
    private final AtomicInteger wrongAt = new AtomicInteger();
    private final AtomicReference<Integer> status = new AtomicReference<>(200);

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            int n = served.incrementAndGet();
            String body = status.get() != 200
                    ? "{\"error\":{\"type\":\"unsupported_operation_exception\",\"reason\":\"no\"},\"status\":400}"
                    : n == wrongAt.get() ? WRONG : RIGHT;
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status.get(), bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private Measurement.Outcome run(int clients) {
        Workload w = new Workload("w", "test", Workload.Kind.READ, Answers.Shape.SEARCH,
                List.of(Request.json("POST", "/i/_search", "{}")));
        List<com.fasterxml.jackson.databind.JsonNode> expected = List.of(
                Answers.canonical(Answers.Shape.SEARCH, Json.parse(RIGHT)));
        return Measurement.run(URI.create("http://127.0.0.1:" + server.getAddress().getPort()), clients, 4, 40,
                Runner.readStep(w, expected));
    }

    @Test
    void rightAnswersAreTimed() {
        Measurement.Outcome outcome = run(2);
        assertThat(outcome.status()).isEqualTo(Status.VALID);
        assertThat(outcome.latencies()).hasSize(40);
        assertThat(outcome.keys()).hasSize(40).containsOnly(0);
        assertThat(outcome.p(0.5)).isPositive();
        assertThat(outcome.throughput()).isPositive();
    }

    @Test
    void oneWrongMeasuredAnswerMakesTheCellInvalidAndUntimed() {
        wrongAt.set(30);
        Measurement.Outcome outcome = run(1);
        assertThat(outcome.status()).isEqualTo(Status.INVALID);
        assertThat(outcome.detail()).contains("/hits/0/_id").contains("\"a\"").contains("\"z\"");
        assertThat(outcome.latencies()).isEmpty();
    }

    @Test
    void aWrongWarmUpAnswerAlsoCounts() {
        wrongAt.set(2);
        assertThat(run(1).status()).isEqualTo(Status.INVALID);
    }

    @Test
    void aRefusalIsUnsupportedNotACrash() {
        status.set(400);
        Measurement.Outcome outcome = run(2);
        assertThat(outcome.status()).isEqualTo(Status.UNSUPPORTED);
        assertThat(outcome.detail()).contains("400 unsupported_operation_exception: no");
    }

    @Test
    void aServerErrorIsAnError() {
        status.set(500);
        assertThat(run(1).status()).isEqualTo(Status.ERROR);
    }
}
