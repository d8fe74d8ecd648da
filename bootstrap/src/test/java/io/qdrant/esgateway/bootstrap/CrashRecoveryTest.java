package io.qdrant.esgateway.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.qdrant.esgateway.adapter.out.catalog.redis.RedisTestServer;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SIGKILL at random points of a bulk ingest, repeated, on the Qdrant backend (SQLite catalog in the gateway's data
 * directory) and in shared mode (Valkey/Redis catalog): the fake Qdrant runs as a process of its own and survives the
 * gateway; after each kill a new gateway process on the same data directory, catalog and Qdrant must hold every
 * document the killed one acknowledged. (The embedded store's version is {@code LuceneDurabilityTest}.)
 */
class CrashRecoveryTest {
    private static final int ROUNDS = 3;

    @ParameterizedTest
    @ValueSource(strings = {"qdrant", "shared"})
    void everyAcknowledgedDocumentSurvivesKillsAtRandomPoints(String mode, @TempDir Path dir) throws Exception {
        RedisTestServer redis = null;
        Process qdrant = null;
        Process gateway = null;
        Random random = new Random(26);
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        int verified = 0;
        try {
            if (mode.equals("shared")) {
                redis = RedisTestServer.start(true);
            }
            Path qdrantLog = dir.resolve("qdrant.log");
            qdrant = ChildProcesses.fakeQdrant(qdrantLog);
            int qdrantPort = ChildProcesses.awaitPort(qdrant, qdrantLog, ChildProcesses.QDRANT_READY);
            List<String> args = new ArrayList<>(List.of(Main.class.getName(), "--port", "0", "--data",
                    dir.resolve("data").toString(), "--backend", "qdrant", "--qdrant-url",
                    "http://127.0.0.1:" + qdrantPort));
            if (redis != null) {
                args.addAll(List.of("--catalog", "redis", "--redis-url", redis.url(5)));
            }
            for (int round = 0; round < ROUNDS; round++) {
                Path log = dir.resolve("gateway-" + round + ".log");
                gateway = ChildProcesses.java(List.of("-Xmx256m", "-XX:+UseSerialGC"), args, log,
                        Map.of("QEG_WARM_UP", "off", "QEG_REDIS_PREFIX", "crash:"));
                EsClient es = new EsClient(ChildProcesses.awaitPort(gateway, log, ChildProcesses.GATEWAY_READY));
                // what every earlier gateway acknowledged is here
                verified += missingOf(es, acknowledged).isEmpty() ? acknowledged.size() : failMissing(es, acknowledged);
                if (round == 0) {
                    assertThat(es.put("/crash").status()).isEqualTo(200);
                }
                int r = round;
                int before = acknowledged.size();
                try (ExecutorService pool = Executors.newSingleThreadExecutor()) {
                    Future<?> loader = pool.submit(() -> load(es, r, acknowledged));
                    // once the ingest runs (a first bulk acknowledged), at a random point of the next ones
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                    while (acknowledged.size() == before && System.nanoTime() < deadline && !loader.isDone()) {
                        Thread.sleep(10);
                    }
                    Thread.sleep(random.nextInt(1_500));
                    gateway.destroyForcibly(); // SIGKILL to this PID only
                    assertThat(gateway.waitFor(20, TimeUnit.SECONDS)).isTrue();
                    loader.get(60, TimeUnit.SECONDS);
                }
            }
            Path log = dir.resolve("gateway-last.log");
            gateway = ChildProcesses.java(List.of("-Xmx256m", "-XX:+UseSerialGC"), args, log,
                    Map.of("QEG_WARM_UP", "off", "QEG_REDIS_PREFIX", "crash:"));
            EsClient es = new EsClient(ChildProcesses.awaitPort(gateway, log, ChildProcesses.GATEWAY_READY));
            assertThat(missingOf(es, acknowledged)).as("acknowledged, then not found after a restart").isEmpty();
            verified += acknowledged.size();
            assertThat(acknowledged).hasSizeGreaterThan(ROUNDS * 10);
            assertThat(es.post("/crash/_refresh", null).status()).isEqualTo(200);
            assertThat(es.get("/crash/_count").json().path("count").asInt())
                    .isGreaterThanOrEqualTo(acknowledged.size());
            System.out.println("[crash] " + mode + ": " + ROUNDS + " SIGKILLs mid-bulk, " + acknowledged.size()
                    + " acknowledged documents, " + verified + " checks after restarts, 0 lost");
        } finally {
            ChildProcesses.stop(gateway);
            ChildProcesses.stop(qdrant);
            if (redis != null) {
                redis.close();
            }
        }
    }

    /** Bulks of 20 documents until the gateway dies; each acknowledged item is recorded. */
    private static Void load(EsClient es, int round, Set<String> acknowledged) {
        for (int batch = 0; ; batch++) {
            StringBuilder body = new StringBuilder();
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                String id = "r" + round + "-" + batch + "-" + i;
                ids.add(id);
                body.append("{\"index\":{\"_id\":\"").append(id).append("\"}}\n{\"round\":").append(round)
                        .append(",\"batch\":").append(batch).append(",\"text\":\"doc ").append(i).append("\"}\n");
            }
            EsClient.Reply reply;
            try {
                reply = es.post("/crash/_bulk", body.toString());
            } catch (UncheckedIOException | IllegalStateException killed) {
                return null;
            }
            if (reply.status() == 200) {
                JsonNode items = reply.json().path("items");
                for (int i = 0; i < items.size(); i++) {
                    if (items.get(i).path("index").path("status").asInt() / 100 == 2) {
                        acknowledged.add(ids.get(i));
                    }
                }
            }
        }
    }

    private static Set<String> missingOf(EsClient es, Set<String> ids) {
        Set<String> missing = new TreeSet<>();
        List<String> all = List.copyOf(ids);
        for (int from = 0; from < all.size(); from += 200) {
            List<String> page = all.subList(from, Math.min(all.size(), from + 200));
            JsonNode docs = es.post("/crash/_mget", "{\"ids\":" + page.stream().map(i -> "\"" + i + "\"")
                    .toList() + "}").json().path("docs");
            for (int i = 0; i < page.size(); i++) {
                if (!docs.path(i).path("found").asBoolean()) {
                    missing.add(page.get(i));
                }
            }
        }
        return missing;
    }

    private static int failMissing(EsClient es, Set<String> ids) {
        throw new AssertionError("acknowledged, then not found after a kill: " + missingOf(es, ids));
    }
}
