package io.qdrant.esgateway.compat;

import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.qdrant.esgateway.compat.harness.Engine;
import io.qdrant.esgateway.compat.harness.KnownDifferences;
import io.qdrant.esgateway.compat.harness.Oracles;
import io.qdrant.esgateway.compat.harness.Scenario;
import io.qdrant.esgateway.compat.harness.ScenarioLoader;
import io.qdrant.esgateway.compat.harness.ScenarioRunner;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * Every scenario under {@code src/test/resources/scenarios/} against the gateway and each oracle: one container per
 * scenario, one test per case, in file order. The engines start on first use and stay up for the whole run.
 */
class ScenarioTest {
    private static final KnownDifferences KNOWN = KnownDifferences.load();
    /** {@code -Dcompat.scenarios=a,b}: only the scenarios whose id contains one of these (for local iteration). */
    private static final String ONLY = System.getProperty("compat.scenarios", "");
    private static final List<Scenario> SCENARIOS = ScenarioLoader.loadAll().stream()
            .filter(s -> ONLY.isBlank() || java.util.Arrays.stream(ONLY.split(",")).anyMatch(o -> s.id().contains(o)))
            .toList();

    @TestFactory
    Stream<DynamicNode> elasticsearch() {
        return scenarios(Engine.ELASTICSEARCH);
    }

    @TestFactory
    Stream<DynamicNode> opensearch() {
        return scenarios(Engine.OPENSEARCH);
    }

    private Stream<DynamicNode> scenarios(Engine engine) {
        if (!Oracles.enabled().contains(engine)) {
            return Stream.of(dynamicTest(engine.id() + " is not in -Doracle.engines", () -> Assumptions.abort(
                    "-Doracle.engines=" + System.getProperty("oracle.engines") + " leaves out " + engine.id())));
        }
        AtomicReference<ScenarioRunner> runner = new AtomicReference<>();
        Stream<DynamicNode> scenarios = SCENARIOS.stream().filter(s -> s.engines().contains(engine)).map(s -> {
            AtomicBoolean setUp = new AtomicBoolean();
            Stream<DynamicNode> setup = Stream.of(dynamicTest("setup (empty cluster, " + s.setup().size()
                    + " requests)", () -> {
                        runner(engine, runner).setUp(s);
                        setUp.set(true);
                    }));
            Stream<DynamicNode> cases = s.cases().stream().filter(c -> c.engines().contains(engine))
                    .map(c -> dynamicTest(c.name(), () -> {
                        if (!setUp.get()) {
                            throw new AssertionError("not run: the setup of scenario " + s.id() + " failed");
                        }
                        runner(engine, runner).run(s, c);
                    }));
            return (DynamicNode) dynamicContainer(s.id() + (s.description() == null ? "" : " — " + s.description()),
                    Stream.concat(setup, cases));
        });
        Stream<DynamicNode> stale = Stream.of(dynamicTest("every known difference for " + engine.id()
                + " was needed in this run", () -> {
                    List<KnownDifferences.Entry> unused = KNOWN.unused(engine);
                    if (!ONLY.isBlank()) {
                        Assumptions.abort("-Dcompat.scenarios=" + ONLY + " runs a subset");
                    }
                    if (!unused.isEmpty()) {
                        throw new AssertionError("known differences that hid nothing (the gateway or the oracle changed:"
                                + " remove them from known-differences.yaml and docs): " + unused.stream()
                                .map(KnownDifferences.Entry::id).collect(Collectors.joining(", ")));
                    }
                }));
        return Stream.concat(scenarios, stale);
    }

    private static ScenarioRunner runner(Engine engine, AtomicReference<ScenarioRunner> holder) {
        ScenarioRunner r = holder.get();
        if (r == null) {
            r = new ScenarioRunner(Oracles.gateway(), Oracles.engine(engine).target(), engine, KNOWN);
            holder.set(r);
        }
        return r;
    }
}
