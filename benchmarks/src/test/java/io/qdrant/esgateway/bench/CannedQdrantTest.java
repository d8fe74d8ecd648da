package io.qdrant.esgateway.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The canned responder replays exactly what it recorded, and a call it never saw is a reported 500, never a guess. */
class CannedQdrantTest {
    @Test
    void recordsByMethodPathAndBodyThenReplaysWithoutTheUpstreamAndReportsMisses() throws Exception {
        AtomicInteger upstreamCalls = new AtomicInteger();
        HttpServer upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        upstream.createContext("/", exchange -> {
            try (exchange) {
                upstreamCalls.incrementAndGet();
                String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                byte[] answer = ("{\"result\":\"" + exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
                        + body.replace("\"", "'") + "\"}").getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(body.contains("missing") ? 404 : 200, answer.length);
                exchange.getResponseBody().write(answer);
            }
        });
        upstream.start();
        URI up = URI.create("http://127.0.0.1:" + upstream.getAddress().getPort());
        try (CannedQdrant canned = new CannedQdrant(up); Http http = new Http(canned.uri())) {
            assertThat(http.send("POST", "/collections/c/points/scroll", "{\"limit\":1}", "application/json").status())
                    .isEqualTo(200);
            assertThat(http.send("POST", "/collections/c/points/scroll", "{\"limit\":2}", "application/json").status())
                    .isEqualTo(200);
            assertThat(http.send("POST", "/collections/c/points?x=1", "{\"missing\":1}", "application/json").status())
                    .isEqualTo(404);
            assertThat(canned.recorded()).isEqualTo(3);
            canned.replay();
            int before = upstreamCalls.get();

            Http.Raw two = http.send("POST", "/collections/c/points/scroll", "{\"limit\":2}", "application/json");
            assertThat(two.status()).isEqualTo(200);
            assertThat(two.json().path("result").asText()).isEqualTo("POST /collections/c/points/scroll {'limit':2}");
            assertThat(http.send("POST", "/collections/c/points?x=1", "{\"missing\":1}", "application/json").status())
                    .isEqualTo(404);
            assertThat(canned.misses()).isEmpty();

            Http.Raw unknown = http.send("POST", "/collections/c/points/scroll", "{\"limit\":3}", "application/json");
            assertThat(unknown.status()).isEqualTo(500);
            assertThat(unknown.json().path("status").path("error").asText()).contains("no recorded answer");
            assertThat(http.send("POST", "/collections/c/points", "{\"missing\":1}", "application/json").status())
                    .as("the query string is part of the key").isEqualTo(500);
            assertThat(canned.misses()).hasSize(2);
            assertThat(canned.misses().getFirst()).contains("POST /collections/c/points/scroll", "{\"limit\":3}");
            assertThat(upstreamCalls.get()).as("replay never asks the stand-in").isEqualTo(before);
        } finally {
            upstream.stop(0);
        }
    }

    @Test
    void forgetDropsTheRecordings() throws Exception {
        HttpServer upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        upstream.createContext("/", exchange -> {
            try (exchange) {
                exchange.sendResponseHeaders(200, 2);
                exchange.getResponseBody().write("{}".getBytes(StandardCharsets.UTF_8));
            }
        });
        upstream.start();
        try (CannedQdrant canned = new CannedQdrant(URI.create("http://127.0.0.1:" + upstream.getAddress().getPort()));
             Http http = new Http(canned.uri())) {
            http.send("PUT", "/collections/c/points", "{}", "application/json");
            canned.forget();
            canned.replay();
            assertThat(http.send("PUT", "/collections/c/points", "{}", "application/json").status()).isEqualTo(500);
            assertThat(canned.missCount()).isEqualTo(1);
        } finally {
            upstream.stop(0);
        }
    }

    @Test
    void gatewayMetricsAreSummedOverLabelsAndTheScrapeItselfIsLeftOut() {
        String text = """
                # HELP qeg_backend_requests_total x
                qeg_backend_requests_total{backend="qdrant",operation="POST /collections/{name}/points/scroll",status="200"} 3.0
                qeg_backend_requests_total{backend="qdrant",operation="POST /collections/{name}/points/count",status="200"} 2.0
                qeg_backend_bytes_received_total{backend="qdrant",operation="a"} 1000.0
                qeg_backend_bytes_sent_total{backend="qdrant",operation="a"} 100.0
                qeg_backend_request_seconds_sum{backend="qdrant",operation="a",status="200"} 0.004
                es_requests_seconds_sum{api="search",method="POST",status="200"} 0.010
                es_requests_seconds_count{api="search",method="POST",status="200"} 5
                es_requests_seconds_sum{api="gateway.metrics",method="GET",status="200"} 7.0
                es_requests_seconds_count{api="gateway.metrics",method="GET",status="200"} 9
                """;
        GatewayMetrics after = GatewayMetrics.parse(text);
        assertThat(after).isEqualTo(new GatewayMetrics(5, 1000, 100, 0.004, 0.010, 5));
        Results.BackendUse use = after.perRequestSince(new GatewayMetrics(0, 0, 0, 0, 0, 0), 5);
        assertThat(use.backendCallsPerRequest()).isEqualTo(1.0);
        assertThat(use.bytesReadPerRequest()).isEqualTo(200.0);
        assertThat(use.gatewayMsPerRequest()).isEqualTo(2.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(use.ownMsPerRequest()).isEqualTo(1.2, org.assertj.core.data.Offset.offset(1e-9));
    }
    @Test
    void theMeanOwnTimeIsTheOwnMetricsMeanWhenCallsOverlap() {
        // two calls per request sent side by side: their summed time (0.012 s) exceeds the requests' time (0.010 s)
        String text = """
                qeg_backend_requests_total{backend="qdrant",operation="a",status="200"} 10.0
                qeg_backend_request_seconds_sum{backend="qdrant",operation="a",status="200"} 0.012
                es_requests_seconds_sum{api="search",method="POST",status="200"} 0.010
                es_requests_seconds_count{api="search",method="POST",status="200"} 5
                qeg_request_own_seconds_bucket{api="search",le="+Inf"} 5
                qeg_request_own_seconds_sum{api="search"} 0.0015
                qeg_request_own_seconds_count{api="search"} 5
                qeg_request_own_seconds_sum{api="gateway.metrics"} 3.0
                qeg_request_own_seconds_count{api="gateway.metrics"} 9
                """;
        Results.BackendUse use = GatewayMetrics.parse(text).perRequestSince(new GatewayMetrics(0, 0, 0, 0, 0, 0), 5);
        assertThat(use.backendMsPerRequest()).isEqualTo(2.4, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(use.ownMsPerRequest()).isEqualTo(0.3, org.assertj.core.data.Offset.offset(1e-9));
    }
}
