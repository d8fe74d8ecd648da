package io.qdrant.esgateway.compat;

import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.qdrant.esgateway.adapter.out.qdrant.FakeQdrant;
import io.qdrant.esgateway.compat.harness.Engine;
import io.qdrant.esgateway.compat.harness.HttpTarget;
import io.qdrant.esgateway.compat.harness.KnownDifferences;
import io.qdrant.esgateway.compat.harness.Scenario;
import io.qdrant.esgateway.compat.harness.ScenarioLoader;
import io.qdrant.esgateway.compat.harness.ScenarioRunner;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * Scenarios whose features touch document parsing and indexing (mapping parameters, dynamic templates) run on a
 * gateway with {@code QEG_BACKEND=qdrant} (on the spec-checked {@link FakeQdrant}) and compared, case by case and with
 * the differential's normalisation, with a gateway on the embedded Lucene store — which {@link ScenarioTest} compares
 * with Elasticsearch. No known difference applies between the two backends. No oracle needed.
 */
class ScenarioBackendsTest {
    /** The scenarios run on both backends. */
    private static final Set<String> ON_BOTH = Set.of("mapping-parameters", "index-templates", "routing-required",
            "keyword-normalizer", "keyword-normalizer-custom", "analysis-highlight", "analysis-files",
            "similarity", "filtered-aliases",
            "filtered-aliases-by-query", "query-analyzer", "routing-values", "index-blocks",
            "external-versioning", "analysis-empty-clauses", "analysis-text-params",
            "index-close-open", "analysis-synonym-graph", "script-sort-fields", "script-aggs", "hidden-indices",
            "document-parsing-errors", "source-disabled", "ignored-metadata", "vector-index-options",
            "analysis-index-phrases", "expand-wildcards-closed", "parse-positions", "metadata-fields");
    private static BackendPair backends;

    @BeforeAll
    static void start() throws IOException {
        backends = BackendPair.start("qeg-scenario-backends-", Map.of());
    }

    @AfterAll
    static void stop() throws IOException {
        if (backends != null) {
            backends.close();
        }
    }

    @TestFactory
    Stream<DynamicNode> theQdrantBackendAnswersAsTheLuceneBackend() {
        List<Scenario> scenarios = ScenarioLoader.loadAll().stream().filter(s -> ON_BOTH.contains(s.id())).toList();
        if (scenarios.size() != ON_BOTH.size()) {
            throw new AssertionError("scenarios not found: " + ON_BOTH);
        }
        ScenarioRunner runner = new ScenarioRunner(new HttpTarget("qdrant", backends.onQdrant.port()),
                new HttpTarget("lucene", backends.onLucene.port()), Engine.ELASTICSEARCH,
                new KnownDifferences(List.of()));
        return scenarios.stream().map(s -> {
            AtomicBoolean setUp = new AtomicBoolean();
            Stream<DynamicNode> setup = Stream.of(dynamicTest("setup", () -> {
                runner.setUp(s);
                setUp.set(true);
            }));
            Stream<DynamicNode> cases = s.cases().stream().map(c -> dynamicTest(c.name(), () -> {
                if (!setUp.get()) {
                    throw new AssertionError("not run: the setup of scenario " + s.id() + " failed");
                }
                runner.run(s, c);
            }));
            return dynamicContainer(s.id(), Stream.concat(setup, cases));
        });
    }
}
