package io.qdrant.esgateway.compat;

import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.bootstrap.GatewayForCompat;
import io.qdrant.esgateway.compat.harness.Capabilities;
import io.qdrant.esgateway.compat.harness.HttpTarget;
import io.qdrant.esgateway.compat.harness.Json;
import io.qdrant.esgateway.compat.harness.RequestSpec;
import io.qdrant.esgateway.compat.harness.Scenario;
import io.qdrant.esgateway.compat.harness.ScenarioLoader;
import io.qdrant.esgateway.compat.harness.ScenarioRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The invariant of the coverage rules: a native fast path may change the cost of an answer, never the answer. Every
 * search, count and aggregation case of every scenario runs on a gateway that trusts the Lucene store's native
 * capabilities and on gateways that declare some or all of them absent ({@code QEG_NATIVE_ABSENT}), so that the page,
 * the total and the aggregations take the complete-scan path; the answers must be identical (only {@code took} is
 * masked). No oracle is needed: this runs on the gateway alone.
 */
class NativeVersusScanTest {
    /** The modes compared with the native gateway, by their {@code QEG_NATIVE_ABSENT} value. */
    private static final List<String> MODES = List.of("all", "order", "facet,count");
    private static final Map<String, GatewayForCompat> GATEWAYS = new LinkedHashMap<>();
    private static final List<Path> DIRS = new ArrayList<>();

    @BeforeAll
    static void start() throws IOException {
        start("native", Map.of());
        for (String mode : MODES) {
            start(mode, Map.of("QEG_NATIVE_ABSENT", mode));
        }
    }

    private static void start(String name, Map<String, String> settings) throws IOException {
        Path dir = Files.createTempDirectory("qeg-invariant-" + name.replace(',', '-') + "-");
        DIRS.add(dir);
        GATEWAYS.put(name, GatewayForCompat.start(dir, settings));
    }

    @AfterAll
    static void stop() throws IOException {
        GATEWAYS.values().forEach(GatewayForCompat::close);
        for (Path dir : DIRS) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static HttpTarget target(String name) {
        return new HttpTarget(name, GATEWAYS.get(name).port());
    }

    static boolean isRead(RequestSpec request) {
        String path = request.path();
        return path.contains("_search") || path.contains("_msearch") || path.contains("_count");
    }

    @TestFactory
    Stream<DynamicNode> everySearchCaseAnswersTheSameOnEveryPath() {
        Stream<DynamicNode> scenarios = ScenarioLoader.loadAll().stream().map(s -> {
            List<Scenario.Case> reads = s.cases().stream()
                    // scroll ids and context numbers are each gateway's own (ScrollPagingPropertyTest covers the pages)
                    // mapping-parameters' refusals name each gateway's own index uuid (ScenarioBackendsTest compares it)
                    .filter(c -> Capabilities.gatewayHas(c.requires()) && isRead(c.request())
                            && !c.request().path().contains("scroll") && !s.id().equals("mapping-parameters")).toList();
            AtomicBoolean setUp = new AtomicBoolean();
            Stream<DynamicNode> setup = Stream.of(dynamicTest("setup", () -> {
                for (String name : GATEWAYS.keySet()) {
                    HttpTarget t = target(name);
                    ScenarioRunner.deleteAllIndices(t);
                    for (Scenario.Step step : s.setup()) {
                        if (Capabilities.gatewayHas(step.requires())) {
                            t.send(step.request());
                        }
                    }
                }
                setUp.set(true);
            }));
            Stream<DynamicNode> cases = reads.stream().map(c -> dynamicTest(c.name(), () -> {
                if (!setUp.get()) {
                    throw new AssertionError("setup failed");
                }
                HttpTarget.Exchange expected = target("native").send(c.request());
                for (String mode : MODES) {
                    HttpTarget.Exchange actual = target(mode).send(c.request());
                    assertSameAnswer(c.request(), mode, expected, actual);
                }
            }));
            return (DynamicNode) dynamicContainer(s.id(), Stream.concat(setup, cases));
        });
        // not vacuous: the scan gateways did take the complete-scan path, the native one never did
        Stream<DynamicNode> paths = Stream.of(dynamicTest("each gateway took the paths its mode forces", () -> {
            String all = target("all").send(RequestSpec.of("GET", "/metrics")).body();
            for (String part : List.of("hits", "total", "aggs")) {
                if (!all.matches("(?s).*qeg_plan_path_total\\{part=\"" + part + "\",path=\"scan\"[^}]*} [1-9].*")) {
                    throw new AssertionError("QEG_NATIVE_ABSENT=all never scanned for " + part + ":\n" + all);
                }
            }
            // the embedded store scans only the two shapes it declares not native (float sort modes, keyword missing),
            // and scripts: a [_script] sort and an aggregation's script run in the gateway on every backend
            String nat = target("native").send(RequestSpec.of("GET", "/metrics")).body();
            java.util.regex.Matcher scans = java.util.regex.Pattern.compile("qeg_plan_path_total\\{[^}]*path=\"scan\""
                    + ",reason=\"([a-z_]+)\"").matcher(nat);
            while (scans.find()) {
                if (!List.of("sort_mode", "keyword_missing", "script_sort", "script").contains(scans.group(1))) {
                    throw new AssertionError("the native gateway scanned for " + scans.group(1) + ":\n" + nat);
                }
            }
        }));
        return Stream.concat(scenarios, paths);
    }

    static void assertSameAnswer(RequestSpec request, String mode, HttpTarget.Exchange expected,
                                 HttpTarget.Exchange actual) {
        JsonNode e = withoutIndexUuids(withoutTook(Json.parseOrText(expected.body())));
        JsonNode a = withoutIndexUuids(withoutTook(Json.parseOrText(actual.body())));
        if (expected.status() != actual.status() || !e.equals(a)) {
            throw new AssertionError("native and QEG_NATIVE_ABSENT=" + mode + " answer differently\n  request: "
                    + request.describe() + "\n  native:  " + expected.status() + " " + e + "\n  " + mode + ": "
                    + actual.status() + " " + a);
        }
    }

    /** Every {@code index_uuid} of an error (each gateway names its own index's uuid), at any depth. */
    static JsonNode withoutIndexUuids(JsonNode node) {
        if (node instanceof ObjectNode o) {
            o.remove("index_uuid");
        }
        if (node != null && node.isContainerNode()) {
            node.forEach(NativeVersusScanTest::withoutIndexUuids);
        }
        return node;
    }

    /** {@code took} (the only timing part allowed to differ), at the top and in each {@code _msearch} response. */
    static JsonNode withoutTook(JsonNode node) {
        if (node instanceof ObjectNode o) {
            o.remove("took");
            if (o.get("responses") != null) {
                o.get("responses").forEach(NativeVersusScanTest::withoutTook);
            }
        }
        return node;
    }

    @Test
    void aDifferentAnswerFails() {
        HttpTarget.Exchange one = new HttpTarget.Exchange(200, Map.of(), "{\"took\":1,\"hits\":{\"total\":1}}");
        HttpTarget.Exchange same = new HttpTarget.Exchange(200, Map.of(), "{\"took\":7,\"hits\":{\"total\":1}}");
        HttpTarget.Exchange other = new HttpTarget.Exchange(200, Map.of(), "{\"took\":1,\"hits\":{\"total\":2}}");
        RequestSpec r = RequestSpec.of("GET", "/_search");
        assertSameAnswer(r, "all", one, same);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> assertSameAnswer(r, "all", one, other))
                .isInstanceOf(AssertionError.class).hasMessageContaining("total");
    }
}
