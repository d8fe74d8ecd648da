package io.qdrant.esgateway.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The shared-mode engine profile in the normal build, so it cannot rot: two packaged gateway replicas over the fake
 * Qdrant as a process and a real redis-server (all started and stopped by PID by the runner), requests alternated
 * between the replicas, checked against the embedded gateway. Every cell valid — reads, the ingest, a write on one
 * replica read back on the other — and the repeated searches answered from the shared cache. Under {@code CI=true} a
 * missing redis-server fails the run (CI installs it), as it fails the test everywhere else.
 */
class SharedModeBenchTest {
    private static final Pattern CACHE = Pattern.compile("shared response cache, (\\S+) [^:]*: (\\d+) hits, (\\d+) misses,"
            + " (\\d+) published, \\d+ stale tickets, \\d+ not admitted");

    @Test
    void twoReplicasOverOneQdrantAndOneRedisAnswerEveryWorkloadRightAndServeRepeatsFromTheSharedCache()
            throws Exception {
        Path root = Path.of(System.getProperty("bench.root", ".."));
        Path out = Path.of("target", "bench-smoke-shared");
        BenchOptions options = BenchOptions.parse(new String[] {"--smoke", "--engines", "gateway,gateway-shared-on",
            "--no-vectors", "--workloads", "get,sorted-page,terms,write-read,write-refresh-count",
            "--out", out.toString()});
        BenchMain.run(options, root, System.out);

        JsonNode results = Json.MAPPER.readTree(out.resolve("results.json").toFile());
        assertThat(results.path("run").path("reference_engine").asText()).isEqualTo("gateway");
        List<String> sharedCells = new ArrayList<>();
        for (JsonNode cell : results.path("cells")) {
            String what = cell.path("engine").asText() + " / " + cell.path("workload").asText() + ": "
                    + cell.path("detail").asText();
            assertThat(cell.path("status").asText()).as(what).isEqualTo("VALID");
            if (cell.path("engine").asText().equals("gateway-shared-on")) {
                sharedCells.add(cell.path("workload").asText());
                assertThat(cell.path("cpuMsPerRequest").asDouble()).as(what).isPositive();
            }
        }
        assertThat(sharedCells).containsExactlyInAnyOrder("bulk-ingest", "get", "sorted-page", "terms", "write-read",
                "write-refresh-count");

        JsonNode shared = null;
        for (JsonNode engine : results.path("engines")) {
            if (engine.path("name").asText().equals("gateway-shared-on")) {
                shared = engine;
            }
        }
        assertThat(shared).isNotNull();
        String notes = shared.path("notes").toString();
        assertThat(notes).contains("2 gateway replicas").contains("redis-server").contains("shared response cache on");
        long searchHits = 0;
        long searchPublished = 0;
        for (JsonNode note : shared.path("notes")) {
            Matcher m = CACHE.matcher(note.asText());
            if (m.matches() && (m.group(1).equals("terms") || m.group(1).equals("sorted-page"))) {
                searchHits += Long.parseLong(m.group(2));
                searchPublished += Long.parseLong(m.group(4));
            }
        }
        // 10 distinct requests per workload, 25 sent: the repeats are answered from what the first ones published
        assertThat(searchPublished).as(notes).isPositive();
        assertThat(searchHits).as(notes).isPositive();
    }
}
