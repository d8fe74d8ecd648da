package io.qdrant.esgateway.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The gateway-overhead mode in the normal build, so it cannot rot: the packaged gateway on its Qdrant adapter against
 * the canned responder (recorded from FakeQdrant), checked against the embedded gateway (the reference here; the
 * embedded gateway is checked against Elasticsearch by {@link SmokeBenchTest}). Every read cell is valid with backend
 * figures, or unsupported on the Qdrant backend; ingest and writes are skipped by design; nothing else.
 */
class CannedQdrantSmokeTest {
    private static final Set<String> WRITES = Set.of("bulk-ingest", "write-read", "write-refresh-count");

    @Test
    void theGatewayOverheadModeMeasuresEveryReadItCanAndReportsBackendUse() throws Exception {
        Path root = Path.of(System.getProperty("bench.root", ".."));
        Path out = Path.of("target", "bench-smoke-canned");
        BenchOptions options = BenchOptions.parse(new String[] {"--smoke", "--engines", "gateway,gateway-qdrant-canned",
            "--out", out.toString()});
        BenchMain.run(options, root, System.out);

        JsonNode results = Json.MAPPER.readTree(out.resolve("results.json").toFile());
        assertThat(results.path("run").path("reference_engine").asText()).isEqualTo("gateway");
        int valid = 0;
        for (JsonNode cell : results.path("cells")) {
            String engine = cell.path("engine").asText();
            String workload = cell.path("workload").asText();
            String status = cell.path("status").asText();
            String what = engine + " / " + workload + ": " + cell.path("detail").asText();
            if (engine.equals("gateway")) {
                assertThat(status).as(what).isEqualTo("VALID");
                assertThat(cell.path("backend").isNull()).as(what).isTrue();
                continue;
            }
            assertThat(engine).isEqualTo("gateway-qdrant-canned");
            if (WRITES.contains(workload)) {
                assertThat(status).as(what).isEqualTo("SKIPPED");
                continue;
            }
            assertThat(status).as(what).isIn("VALID", "UNSUPPORTED");
            if (status.equals("UNSUPPORTED")) {
                assertThat(cell.path("detail").asText()).as(what).contains("unsupported on this backend");
                continue;
            }
            valid++;
            JsonNode backend = cell.path("backend");
            assertThat(cell.path("p50Ms").asDouble()).as(what).isPositive();
            assertThat(backend.path("backendCallsPerRequest").asDouble()).as(what).isGreaterThanOrEqualTo(1);
            assertThat(backend.path("bytesReadPerRequest").asDouble()).as(what).isPositive();
            assertThat(backend.path("gatewayMsPerRequest").asDouble()).as(what).isPositive();
            assertThat(backend.path("requests").asLong()).as(what).isPositive();
            // the per-request own time's percentiles, from the gateway's histogram (the smoke cells are tiny)
            assertThat(backend.path("ownP50Ms").asDouble()).as(what).isPositive()
                    .isLessThanOrEqualTo(backend.path("ownP95Ms").asDouble());
        }
        // get, sorted-page, cursor-page and terms: what the Qdrant adapter has served since its first version
        assertThat(valid).isGreaterThanOrEqualTo(4);
        assertThat(Files.readString(out.resolve("report.md"))).contains("## Gateway overhead on the Qdrant adapter")
                .contains("own p50 / p95 ms");
    }
}
