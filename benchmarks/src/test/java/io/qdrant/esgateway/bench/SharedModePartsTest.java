package io.qdrant.esgateway.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The pieces of the shared-mode profile that need no engine: turns over replicas, cold keys, cache counters. */
class SharedModePartsTest {
    private final List<HttpServer> servers = new ArrayList<>();
    private final List<String> seen = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        servers.forEach(s -> s.stop(0));
    }

    private URI serve(String name) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            seen.add(name + " " + exchange.getRequestMethod() + " " + exchange.getRequestURI());
            byte[] answer = ("{\"from\":\"" + name + "\"}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
        servers.add(server);
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Test
    void aClientOfSeveralUrlsTakesTurnsStartingWithTheFirst() throws Exception {
        URI a = serve("a");
        URI b = serve("b");
        try (Http http = Http.to(List.of(a, b))) {
            List<String> from = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                from.add(http.send("GET", "/x" + i, null, null).json().path("from").asText());
            }
            assertThat(from).containsExactly("a", "b", "a", "b", "a");
        }
        assertThat(seen).containsExactly("a GET /x0", "b GET /x1", "a GET /x2", "b GET /x3", "a GET /x4");
        try (Http one = Http.to(List.of(a))) {
            assertThat(one.send("GET", "/y", null, null).json().path("from").asText()).isEqualTo("a");
            assertThat(one.send("GET", "/y", null, null).json().path("from").asText()).isEqualTo("a");
        }
    }

    @Test
    void aColdVariantIsTheSameRequestUnderAKeyNeverUsedBefore() {
        Request search = Request.json("POST", "/bench/_search", "{\"size\":0,\"track_total_hits\":true}");
        Request sourceless = Request.json("POST", "/vectors/_search", "{\"size\":10,\"_source\":false}");
        Request get = Request.get("/bench/_doc/7?_source=false");
        Set<String> seenKeys = new HashSet<>();
        for (int i = 0; i < 90; i++) {
            Request original = i % 3 == 0 ? search : i % 3 == 1 ? sourceless : get;
            Request cold = Runner.coldVariant(original);
            assertThat(cold.method()).isEqualTo(original.method());
            assertThat(cold.body()).isEqualTo(original.body());
            if (original == search) {
                // a search without _source: a source filter on a field no document has, part of the cache key; never
                // a timeout (an answer that may be cut short bypasses the cache)
                assertThat(cold.path()).matches("/bench/_search\\?_source_excludes=cold_[a-z0-9]+_\\d+");
            } else {
                // _source in the body (a URL filter would override it) or a GET: a preference, which changes no answer
                assertThat(cold.path()).matches(java.util.regex.Pattern.quote(original.path())
                        + "[?&]preference=cold_[a-z0-9]+_\\d+");
            }
            seenKeys.add(cold.path());
            assertThat(cold.path() + cold.body()).doesNotContain("now").doesNotContain("timeout");
        }
        assertThat(seenKeys).hasSize(90);
    }

    @Test
    void eachReplicaGetsTheWholeWarmUp() throws Exception {
        URI a = serve("a");
        URI b = serve("b");
        Measurement.Step step = new Measurement.Step() {
            @Override
            public long run(Http http, int client, int iteration) {
                http.send("GET", "/w", null, null);
                return 1;
            }

            @Override
            public int key(int client, int iteration) {
                return 0;
            }
        };
        Measurement.Outcome two = Measurement.run(List.of(a, b), 1, 10, 4, step, () -> -1);
        assertThat(two.status()).isEqualTo(Status.VALID);
        assertThat(seen).hasSize(24); // 10 warm-up requests per replica, then 4 measured
        assertThat(seen.stream().filter(s -> s.startsWith("a ")).count()).isEqualTo(12);
        seen.clear();
        Measurement.run(List.of(a), 2, 10, 4, step, () -> -1);
        assertThat(seen).hasSize(14);
    }

    @Test
    void theSharedCacheCountersAreReadFromTheGatewaysMetrics() {
        String text = """
                # HELP qeg_response_cache_total shared response cache outcomes
                qeg_response_cache_total{mode="on",outcome="hit"} 12.0
                qeg_response_cache_total{mode="on",outcome="miss"} 5.0
                qeg_response_cache_total{mode="on",outcome="publish"} 4.0
                qeg_response_cache_total{mode="on",outcome="stale_ticket"} 1.0
                qeg_response_cache_total{mode="on",outcome="uncacheable"} 9.0
                qeg_response_cache_total{mode="on",outcome="not_admitted"} 6.0
                qeg_backend_requests_total{backend="qdrant",operation="x",status="200"} 77.0
                """;
        SharedCacheCounts counts = SharedCacheCounts.parse(text);
        assertThat(counts).isEqualTo(new SharedCacheCounts(12, 5, 4, 1, 6));
        assertThat(counts.minus(new SharedCacheCounts(2, 5, 1, 0, 2))).isEqualTo(new SharedCacheCounts(10, 0, 3, 1, 4));
        assertThat(counts.toString()).isEqualTo("12 hits, 5 misses, 4 published, 1 stale tickets, 6 not admitted");
        assertThat(SharedCacheCounts.parse("es_requests_seconds_count 3.0\n")).isEqualTo(SharedCacheCounts.ZERO);
    }

    @Test
    void theSharedEnginesAreNamedAndAreNotBaselines() {
        List<EngineSpec> specs = EngineSpec.parseList("gateway-qdrant,gateway-shared-on,gateway-shared-coordinate");
        assertThat(specs).extracting(EngineSpec::kind).containsExactly(EngineSpec.Kind.GATEWAY_QDRANT,
                EngineSpec.Kind.GATEWAY_SHARED_ON, EngineSpec.Kind.GATEWAY_SHARED_COORDINATE);
        assertThat(specs).noneMatch(EngineSpec::isNative);
        assertThat(EngineSpec.Kind.GATEWAY_SHARED_COORDINATE.cacheMode()).isEqualTo("coordinate");
        assertThat(EngineSpec.Kind.GATEWAY_SHARED_ON.cacheMode()).isEqualTo("on");
        assertThat(specs).extracting(s -> s.kind().sharedMode()).containsExactly(false, true, true);
        assertThatThrownBy(EngineSpec.Kind.GATEWAY_QDRANT::cacheMode).isInstanceOf(IllegalStateException.class);
        List<EngineSpec> canned = EngineSpec.parseList("gateway-shared-on-canned,gateway-shared-coordinate-canned");
        assertThat(canned).extracting(EngineSpec::kind).containsExactly(EngineSpec.Kind.GATEWAY_SHARED_ON_CANNED,
                EngineSpec.Kind.GATEWAY_SHARED_COORDINATE_CANNED);
        assertThat(canned).noneMatch(EngineSpec::isNative);
        assertThat(canned).allMatch(s -> CannedEngine.starts(s.kind()) && s.kind().sharedMode()
                && !QdrantProcessEngine.starts(s.kind()));
        assertThat(EngineSpec.Kind.GATEWAY_QDRANT_CANNED.sharedMode()).isFalse();
        assertThat(EngineSpec.Kind.GATEWAY_SHARED_ON_CANNED.cacheMode()).isEqualTo("on");
        assertThat(EngineSpec.Kind.GATEWAY_SHARED_COORDINATE_CANNED.cacheMode()).isEqualTo("coordinate");
        EngineSpec off = EngineSpec.parse("gateway-shared-off-canned");
        assertThat(off.kind()).isEqualTo(EngineSpec.Kind.GATEWAY_SHARED_OFF_CANNED);
        assertThat(off.kind().sharedMode()).isTrue();
        assertThat(off.kind().cacheMode()).isEqualTo("off");
        assertThat(CannedEngine.starts(off.kind())).isTrue();
        assertThat(off.kind().countsSharedCache()).as("no cache outcomes to count").isFalse();
        assertThat(canned).allMatch(s -> s.kind().countsSharedCache());
        assertThat(BenchOptions.parse(new String[] {"--cold"}).cold()).isTrue();
        assertThat(BenchOptions.parse(new String[] {}).cold()).isFalse();
    }
}
