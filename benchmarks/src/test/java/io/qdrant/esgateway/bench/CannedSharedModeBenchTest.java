package io.qdrant.esgateway.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Shared mode over the canned Qdrant responder in the normal build, so it cannot rot: two packaged gateway replicas
 * over one {@link CannedQdrant} (recorded from FakeQdrant) and a real redis-server, requests alternated between the
 * replicas. Cold (the comparison with one gateway over the same responder): every read cell valid, every replayed
 * Qdrant call recorded, every shared search a miss computed once and so not published, never a hit, and each cold
 * search computed at the (canned) Qdrant. Warm: the repeated searches answered from the shared cache. Under {@code CI=true} a missing
 * redis-server fails the run (CI installs it), as it fails the test everywhere else.
 */
class CannedSharedModeBenchTest {
    private static final Pattern CACHE = Pattern.compile("shared response cache, (\\S+) [^:]*: (\\d+) hits, (\\d+) misses,"
            + " (\\d+) published, (\\d+) stale tickets, (\\d+) not admitted");
    private static final Set<String> SEARCHES = Set.of("sorted-page", "cursor-page", "terms", "filter-counts");

    @Test
    void coldReadsOnSharedReplicasOverTheCannedQdrantAreMissesPublishedAndComputed() throws Exception {
        JsonNode results = run("bench-smoke-canned-shared-cold", "--smoke", "--cold", "--engines",
                "gateway-qdrant-canned,gateway-shared-on-canned,gateway-shared-off-canned", "--no-vectors",
                "--workloads", "get,sorted-page,cursor-page,terms,filter-counts");
        assertThat(results.path("run").path("cache_keys").asText()).startsWith("cold");
        Map<String, Integer> readCells = new HashMap<>();
        for (JsonNode cell : results.path("cells")) {
            String engine = cell.path("engine").asText();
            String workload = cell.path("workload").asText();
            String what = engine + " / " + workload + ": " + cell.path("detail").asText();
            if (workload.equals("bulk-ingest")) {
                assertThat(cell.path("status").asText()).as(what).isEqualTo("SKIPPED");
                continue;
            }
            assertThat(cell.path("status").asText()).as(what).isEqualTo("VALID");
            readCells.merge(engine, 1, Integer::sum);
            assertThat(cell.path("cpuMsPerRequest").asDouble()).as(what).isPositive();
            if (SEARCHES.contains(workload)) {
                // a cold search is computed: it reaches the (canned) Qdrant on every request
                assertThat(cell.path("backend").path("backendCallsPerRequest").asDouble()).as(what)
                        .isGreaterThanOrEqualTo(1);
            }
        }
        assertThat(readCells).containsEntry("gateway-qdrant-canned", 5).containsEntry("gateway-shared-on-canned", 5)
                .containsEntry("gateway-shared-off-canned", 5);
        // the same replicas with the cache off: answered right (every cell VALID above), nothing counted by a cache
        String off = engine(results, "gateway-shared-off-canned").path("notes").toString();
        assertThat(off).contains("2 gateway replicas").contains("shared response cache off")
                .doesNotContain("shared response cache, ");

        JsonNode single = engine(results, "gateway-qdrant-canned");
        assertThat(single.path("notes").toString()).contains("request cache off").contains("canned Qdrant responder");
        JsonNode shared = engine(results, "gateway-shared-on-canned");
        String notes = shared.path("notes").toString();
        assertThat(notes).contains("2 gateway replicas").contains("redis-server").contains("shared response cache on")
                .contains("canned Qdrant responder");
        Map<String, long[]> counts = cacheCounts(shared);
        assertThat(counts.keySet()).as(notes).containsAll(SEARCHES);
        for (String search : SEARCHES) {
            long[] c = counts.get(search);
            // smoke: 5 warm-up + 20 measured requests, each under a new key: computed once, so not published
            // (QEG_RESPONSE_CACHE_MIN_USES is 2)
            assertThat(c[0]).as(search + ": " + notes).isZero();
            assertThat(c[1]).as(search + ": " + notes).isGreaterThanOrEqualTo(25);
            assertThat(c[2]).as(search + ": " + notes).isZero();
            assertThat(c[4]).as(search + ": " + notes).isGreaterThanOrEqualTo(25);
        }
    }

    @Test
    void warmReadsOnSharedReplicasOverTheCannedQdrantAreServedFromTheSharedCacheInModeOnOnly() throws Exception {
        JsonNode results = run("bench-smoke-canned-shared-warm", "--smoke", "--engines",
                "gateway-shared-on-canned,gateway-shared-coordinate-canned", "--no-vectors", "--workloads",
                "sorted-page,terms");
        for (JsonNode cell : results.path("cells")) {
            String what = cell.path("engine").asText() + " / " + cell.path("workload").asText() + ": "
                    + cell.path("detail").asText();
            assertThat(cell.path("status").asText()).as(what)
                    .isEqualTo(cell.path("workload").asText().equals("bulk-ingest") ? "SKIPPED" : "VALID");
        }
        // on: every distinct request was published while recording, so the cells' repeats are hits, served from the
        // shared cache without a Qdrant call
        assertRepeatsFoundTheirEntries(results, "gateway-shared-on-canned", List.of("sorted-page", "terms"));
        for (double calls : backendCallsPerRequest(results, "gateway-shared-on-canned")) {
            assertThat(calls).isZero();
        }
        // coordinate keeps tickets and publishes, never serves: each repeated search finds its entry (counted as a
        // hit) and is computed all the same, at the (canned) Qdrant
        JsonNode coordinate = engine(results, "gateway-shared-coordinate-canned");
        assertThat(coordinate.path("notes").toString()).contains("shared response cache coordinate");
        assertRepeatsFoundTheirEntries(results, "gateway-shared-coordinate-canned", List.of("sorted-page", "terms"));
        for (double calls : backendCallsPerRequest(results, "gateway-shared-coordinate-canned")) {
            assertThat(calls).isGreaterThanOrEqualTo(1);
        }
    }

    /** Each of {@code searches} on {@code name}: at least its cell's 25 requests found their entry, none missed. */
    private static void assertRepeatsFoundTheirEntries(JsonNode results, String name, List<String> searches) {
        JsonNode engine = engine(results, name);
        Map<String, long[]> counts = cacheCounts(engine);
        for (String search : searches) {
            long[] c = counts.get(search);
            assertThat(c).as(engine.path("notes").toString()).isNotNull();
            assertThat(c[0]).as(search + ": " + engine.path("notes")).isGreaterThanOrEqualTo(25);
            assertThat(c[1]).as(search + ": " + engine.path("notes")).isZero();
        }
    }

    /** The Qdrant calls per request of every read cell of {@code name} (the ingest is skipped on canned engines). */
    private static List<Double> backendCallsPerRequest(JsonNode results, String name) {
        List<Double> calls = new java.util.ArrayList<>();
        for (JsonNode cell : results.path("cells")) {
            if (cell.path("engine").asText().equals(name) && !cell.path("workload").asText().equals("bulk-ingest")) {
                calls.add(cell.path("backend").path("backendCallsPerRequest").asDouble());
            }
        }
        return calls;
    }

    private static JsonNode run(String outName, String... args) throws Exception {
        Path root = Path.of(System.getProperty("bench.root", ".."));
        Path out = Path.of("target", outName);
        String[] all = java.util.Arrays.copyOf(args, args.length + 2);
        all[args.length] = "--out";
        all[args.length + 1] = out.toString();
        BenchMain.run(BenchOptions.parse(all), root, System.out);
        return Json.MAPPER.readTree(out.resolve("results.json").toFile());
    }

    private static JsonNode engine(JsonNode results, String name) {
        for (JsonNode engine : results.path("engines")) {
            if (engine.path("name").asText().equals(name)) {
                return engine;
            }
        }
        throw new AssertionError("no engine " + name + " in " + results.path("engines"));
    }

    /** workload → hits, misses, published, stale tickets, not admitted, from the engine's notes. */
    private static Map<String, long[]> cacheCounts(JsonNode engine) {
        Map<String, long[]> counts = new HashMap<>();
        for (JsonNode note : engine.path("notes")) {
            Matcher m = CACHE.matcher(note.asText());
            if (m.matches()) {
                counts.put(m.group(1), new long[] {Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
                    Long.parseLong(m.group(4)), Long.parseLong(m.group(5)), Long.parseLong(m.group(6))});
            }
        }
        return counts;
    }
}
