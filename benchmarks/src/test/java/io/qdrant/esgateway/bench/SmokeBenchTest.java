package io.qdrant.esgateway.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The smoke profile of {@code ./qeg bench} in the normal build, so the runner cannot rot: the packaged gateway and a
 * real Elasticsearch 8.15 (child JVMs), 200 documents, one trial, one client. It asserts the run's shape, not its
 * speed: the three files are written, every workload has a cell for each engine, and every cell is valid or
 * explicitly unsupported. An engine that cannot start fails this test (nothing is skipped).
 */
class SmokeBenchTest {
    @Test
    void theSmokeProfileRunsEndToEndAndEveryCellIsValidOrUnsupported() throws Exception {
        Path root = Path.of(System.getProperty("bench.root", ".."));
        Path out = Path.of("target", "bench-smoke");
        BenchOptions options = BenchOptions.parse(new String[] {"--smoke", "--out", out.toString()});
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream tee = new PrintStream(new java.io.OutputStream() {
            @Override
            public void write(int b) {
                log.write(b);
                System.out.write(b);
            }
        }, true, StandardCharsets.UTF_8);

        long t0 = System.nanoTime();
        BenchMain.run(options, root, tee);
        System.out.printf("bench smoke: %.1f s%n", (System.nanoTime() - t0) / 1e9);

        assertThat(out.resolve("report.md")).isNotEmptyFile();
        assertThat(out.resolve("p50-ratios.svg")).content().startsWith("<svg").endsWith("</svg>\n");
        // well-formed XML, or no browser shows it
        javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(out.resolve("p50-ratios.svg").toFile());
        JsonNode results = Json.MAPPER.readTree(out.resolve("results.json").toFile());
        Set<String> workloads = new HashSet<>();
        results.path("workloads").fieldNames().forEachRemaining(workloads::add);
        assertThat(workloads).contains("bulk-ingest", "get", "sorted-page", "cursor-page", "terms", "filter-counts",
                "match", "knn", "scroll-10k", "write-read", "write-refresh-count");
        JsonNode cells = results.path("cells");
        assertThat(cells).hasSize(workloads.size() * 2);
        for (JsonNode cell : cells) {
            assertThat(cell.path("status").asText())
                    .as("%s / %s: %s", cell.path("engine").asText(), cell.path("workload").asText(),
                            cell.path("detail").asText())
                    .isIn("VALID", "UNSUPPORTED");
            if (cell.path("status").asText().equals("VALID")) {
                assertThat(cell.path("p50Ms").asDouble()).isPositive();
                // both engines are started by the runner: their CPU per request is known (ticks: may round to 0)
                assertThat(cell.path("cpuMsPerRequest").isNumber()).as("CPU of %s", cell).isTrue();
                assertThat(cell.path("cpuMsPerRequest").asDouble()).isGreaterThanOrEqualTo(0);
            }
        }
        // Elasticsearch is the reference: every workload is valid there
        for (JsonNode cell : cells) {
            if (cell.path("engine").asText().equals("elasticsearch")) {
                assertThat(cell.path("status").asText()).as(cell.path("workload").asText()).isEqualTo("VALID");
            }
        }
        for (JsonNode engine : results.path("engines")) {
            assertThat(engine.path("rssKib").asLong()).as("RSS of " + engine.path("name")).isPositive();
            assertThat(engine.path("rssAfterLoadKib").asLong()).as("RSS under load of " + engine.path("name"))
                    .isPositive();
        }
        // the per-request breakdown: every timed read cell, every distinct request measured
        JsonNode requests = results.path("requests");
        int reads = 0;
        for (JsonNode cell : cells) {
            String w = cell.path("workload").asText();
            if (cell.path("status").asText().equals("VALID") && !w.startsWith("write") && !w.equals("bulk-ingest")) {
                reads++;
            }
        }
        assertThat(reads).isGreaterThanOrEqualTo(12);
        assertThat(requests).hasSize(reads);
        for (JsonNode costs : requests) {
            assertThat(costs.path("medianMs")).as(costs.path("workload").asText()).isNotEmpty()
                    .allSatisfy(m -> assertThat(m.asDouble()).isPositive());
        }
        // the gateway (not the reference) ingests once untimed before its timed trials, as the reference did
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("gateway: warm-up ingest (untimed)")
                .doesNotContain("elasticsearch: warm-up ingest");
        assertThat(Files.readString(out.resolve("report.md")))
                .contains("## Machine", "## 1 client", "Ratios", "## Latency per distinct request",
                        "Engine CPU per request");
    }
}
