package io.qdrant.esgateway.compat;

import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.qdrant.esgateway.adapter.out.catalog.redis.RedisTestServer;
import io.qdrant.esgateway.adapter.out.qdrant.FakeQdrant;
import io.qdrant.esgateway.bootstrap.GatewayForCompat;
import io.qdrant.esgateway.compat.harness.Engine;
import io.qdrant.esgateway.compat.harness.HttpTarget;
import io.qdrant.esgateway.compat.harness.KnownDifferences;
import io.qdrant.esgateway.compat.harness.Scenario;
import io.qdrant.esgateway.compat.harness.ScenarioLoader;
import io.qdrant.esgateway.compat.harness.ScenarioRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * Every scenario in shared mode: two gateway replicas ({@code QEG_CATALOG=redis}, {@code QEG_RESPONSE_CACHE=on}) over
 * one real Redis/Valkey and one {@link FakeQdrant}, each request sent to the next replica in turn (scroll, point in
 * time and task requests to the first, as a sticky balancer does), compared case by case, with the differential's
 * normalisation, with one gateway process on the Qdrant backend — which {@link ScenarioBackendsTest} and the
 * Qdrant-backend tests compare further. Shared mode must change nothing of an answer. No oracle needed.
 *
 * <p>Both deployments draw their index uuids from one deterministic sequence each, so the same index has the same
 * uuid (and its documents the same point ids) in both. Versions, sequence numbers and deletion tombstones are shared
 * by the replicas, so no scenario is left out ({@link #LEFT_OUT} would name one with its reason).
 */
class ScenarioSharedModeTest {
    /** Scenario ids not compared, with the reason (above). */
    private static final Map<String, String> LEFT_OUT = Map.of();
    private static RedisTestServer redis;
    private static FakeQdrant sharedQdrant;
    private static FakeQdrant ownQdrant;
    private static GatewayForCompat replicaA;
    private static GatewayForCompat replicaB;
    private static GatewayForCompat single;
    private static Path dir;

    @BeforeAll
    static void start() throws IOException {
        dir = Files.createTempDirectory("qeg-scenario-shared-");
        redis = RedisTestServer.start();
        sharedQdrant = new FakeQdrant();
        ownQdrant = new FakeQdrant();
        Map<String, String> shared = Map.of("QEG_BACKEND", "qdrant", "QEG_QDRANT_URL", sharedQdrant.uri().toString(),
                "QEG_CATALOG", "redis", "QEG_REDIS_URL", redis.url(), "QEG_RESPONSE_CACHE", "on");
        java.util.function.Supplier<String> sharedUuids = uuids();
        replicaA = GatewayForCompat.start(dir.resolve("a"), shared, sharedUuids);
        replicaB = GatewayForCompat.start(dir.resolve("b"), shared, sharedUuids);
        single = GatewayForCompat.start(dir.resolve("single"), Map.of("QEG_BACKEND", "qdrant", "QEG_QDRANT_URL",
                ownQdrant.uri().toString()), uuids());
    }

    /** Index uuids as the gateway writes them (20 URL-safe base64 characters), the k-th always the same. */
    private static java.util.function.Supplier<String> uuids() {
        java.util.concurrent.atomic.AtomicLong next = new java.util.concurrent.atomic.AtomicLong();
        return () -> {
            try {
                byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(
                        ("compat-index-" + next.incrementAndGet()).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                        java.util.Arrays.copyOf(digest, 15));
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        };
    }

    @AfterAll
    static void stop() throws IOException {
        for (AutoCloseable c : new AutoCloseable[] {replicaA, replicaB, single, sharedQdrant, ownQdrant, redis}) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception e) {
                    // keep closing the others
                }
            }
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @TestFactory
    Stream<DynamicNode> twoReplicasAnswerAsOneProcess() {
        List<Scenario> all = ScenarioLoader.loadAll();
        if (!all.stream().map(Scenario::id).toList().containsAll(LEFT_OUT.keySet())) {
            throw new AssertionError("a left-out scenario no longer exists: " + LEFT_OUT.keySet());
        }
        List<Scenario> scenarios = all.stream().filter(s -> !LEFT_OUT.containsKey(s.id())).toList();
        ScenarioRunner runner = new ScenarioRunner(
                HttpTarget.replicas("shared", List.of(replicaA.port(), replicaB.port())),
                new HttpTarget("single", single.port()), Engine.ELASTICSEARCH, new KnownDifferences(List.of()));
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
