package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.qdrant.esgateway.adapter.out.catalog.redis.RedisTestServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Shared mode as deployed: three gateway processes (each its own JVM, loopback ports) over one real Redis (the
 * shared catalog and the shared response cache in mode {@code on}, with its append-only file so a restart keeps
 * them) and one Qdrant stand-in (the fake Qdrant as a process). Every process is stopped by its PID.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SharedReplicasTest {
    private static final Pattern READY = Pattern.compile("on http://127\\.0\\.0\\.1:(\\d+) .* ready in");
    private static final Pattern QDRANT = Pattern.compile("fake-qdrant on (\\d+)");

    private static Path dir;
    private static RedisTestServer redis;
    private static Process qdrant;
    private static final List<Process> replicas = new ArrayList<>();
    private static EsClient a;
    private static EsClient b;
    private static EsClient c;

    @BeforeAll
    static void startTheCluster() throws Exception {
        dir = Files.createTempDirectory("qeg-replicas-");
        redis = RedisTestServer.start(true);
        Path qdrantLog = dir.resolve("qdrant.log");
        qdrant = java(List.of(FakeQdrantProcess.class.getName()), qdrantLog, java.util.Map.of());
        int qdrantPort = awaitPort(qdrant, qdrantLog, QDRANT);
        List<Path> logs = new ArrayList<>();
        for (String name : List.of("a", "b", "c")) {
            Path log = dir.resolve(name + ".log");
            logs.add(log);
            replicas.add(java(List.of(Main.class.getName(), "--port", "0", "--backend", "qdrant", "--qdrant-url",
                    "http://127.0.0.1:" + qdrantPort, "--catalog", "redis", "--redis-url", redis.url(3),
                    "--data", dir.resolve(name).toString()), log, java.util.Map.of("QEG_WARM_UP", "off",
                    "QEG_REDIS_PREFIX", "replicas:", "QEG_RESPONSE_CACHE", "on",
                    // every computed answer published: the tests read what a replica published at once
                    "QEG_RESPONSE_CACHE_MIN_USES", "1")));
        }
        a = new EsClient(awaitPort(replicas.get(0), logs.get(0), READY));
        b = new EsClient(awaitPort(replicas.get(1), logs.get(1), READY));
        c = new EsClient(awaitPort(replicas.get(2), logs.get(2), READY));
    }

    @AfterAll
    static void stopTheCluster() throws Exception {
        for (Process p : replicas) {
            stop(p);
        }
        if (qdrant != null) {
            stop(qdrant);
        }
        if (redis != null) {
            redis.close();
        }
        if (dir != null) {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    // ---------------------------------------------------------------- the catalog guarantee

    @Test
    @Order(0)
    void theReplicasAreOneClusterWithOneUuid() {
        String uuid = a.get("/").json().path("cluster_uuid").asText();
        assertThat(uuid).isNotBlank();
        assertThat(b.get("/").json().path("cluster_uuid").asText()).isEqualTo(uuid);
        assertThat(c.get("/").json().path("cluster_uuid").asText()).isEqualTo(uuid);
    }

    @Test
    @Order(1)
    void afterAnAliasSwapOnOneReplicaEveryRequestOnTheOthersSeesOnlyTheNewIndex() {
        for (String index : List.of("swap-old", "swap-new")) {
            assertThat(a.put("/" + index).status()).isEqualTo(200);
            assertThat(a.put("/" + index + "/_doc/1?refresh=true", json("{'from':'" + index + "'}")).status())
                    .isEqualTo(201);
        }
        assertThat(a.post("/_aliases", json("{'actions':[{'add':{'index':'swap-old','alias':'current'}}]}"))
                .status()).isEqualTo(200);
        assertThat(onlyIndex(b.get("/current/_search"))).isEqualTo("swap-old");
        assertThat(onlyIndex(c.get("/current/_search"))).isEqualTo("swap-old");

        assertThat(a.post("/_aliases", json("{'actions':[{'remove':{'index':'swap-old','alias':'current'}},"
                + "{'add':{'index':'swap-new','alias':'current'}}]}")).status()).isEqualTo(200);

        List<String> seen = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            seen.add(onlyIndex((i % 2 == 0 ? b : c).get("/current/_search")));
        }
        assertThat(seen).containsOnly("swap-new");
    }

    @Test
    @Order(2)
    void aWriteAcknowledgedOnOneReplicaIsReadOnAnotherAndADeletedIndexIsGoneEverywhere() {
        assertThat(a.put("/wr").status()).isEqualTo(200);
        long hitsBefore = cacheHits(b) + cacheHits(c);
        for (int i = 0; i < 2; i++) { // the second answers come from the shared cache
            assertThat(b.get("/wr/_count").json().path("count").asLong()).isZero();
            assertThat(c.post("/wr/_search", json("{'size':0}")).json().at("/hits/total/value").asLong()).isZero();
        }
        assertThat(cacheHits(b) + cacheHits(c)).as("answers served from the shared cache").isGreaterThan(hitsBefore);

        // every round: B and C have the pre-write answer cached; a write on A; the next reads never return it
        for (int n = 1; n <= 20; n++) {
            assertThat(a.put("/wr/_doc/" + n + "?refresh=true", json("{'n':" + n + "}")).status()).isEqualTo(201);
            assertThat(b.get("/wr/_count").json().path("count").asLong()).as("count on B after write %d", n)
                    .isEqualTo(n);
            assertThat(c.post("/wr/_search", json("{'size':0}")).json().at("/hits/total/value").asLong())
                    .as("total on C after write %d", n).isEqualTo(n);
            assertThat(b.get("/wr/_count").json().path("count").asLong()).isEqualTo(n);
        }

        assertThat(b.get("/wr/_doc/1").json().at("/_source/n").asInt()).isEqualTo(1);
        assertThat(c.get("/wr/_search?q=n:1").json().at("/hits/hits/0/_id").asText()).isEqualTo("1");

        assertThat(c.delete("/wr").status()).isEqualTo(200);
        EsClient.Reply gone = b.get("/wr/_doc/1");
        assertThat(gone.status()).isEqualTo(404);
        assertThat(gone.errorType()).isEqualTo("index_not_found_exception");
        assertThat(a.get("/wr/_count").status()).isEqualTo(404);
        assertThat(b.get("/wr/_count").status()).isEqualTo(404);
    }

    @Test
    @Order(3)
    void concurrentDynamicMappingsFromTwoReplicasAreMergedAndAConflictFailsOneWriteCleanly() throws Exception {
        assertThat(a.put("/dyn").status()).isEqualTo(200);
        int rounds = 8;
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            List<Future<List<EsClient.Reply>>> writers = new ArrayList<>();
            for (EsClient replica : List.of(a, b)) {
                String side = replica == a ? "a" : "b";
                writers.add(pool.submit(() -> {
                    start.await();
                    List<EsClient.Reply> replies = new ArrayList<>();
                    for (int r = 0; r < rounds; r++) {
                        replies.add(replica.post("/dyn/_bulk?refresh=true", json(
                                "{'index':{'_id':'" + side + r + "'}}\n{'" + side + "_" + r + "':" + r + "}\n")));
                        // both write the same new field: one type wins, a value that does not fit it fails alone
                        String value = side.equals("a") ? "7" : "'word'";
                        replies.add(replica.post("/dyn/_doc/" + side + "-c" + r + "?refresh=true",
                                json("{'c_" + r + "':" + value + "}")));
                    }
                    return replies;
                }));
            }
            start.countDown();
            List<EsClient.Reply> all = new ArrayList<>();
            for (Future<List<EsClient.Reply>> w : writers) {
                all.addAll(w.get());
            }
            for (EsClient.Reply reply : all) {
                if (reply.status() >= 300) {
                    assertThat(reply.status()).as("%s", reply).isEqualTo(400);
                    assertThat(reply.errorType()).as("%s", reply).isIn("document_parsing_exception",
                            "mapper_parsing_exception", "illegal_argument_exception");
                } else {
                    assertThat(reply.json().path("errors").asBoolean(false)).as("%s", reply).isFalse();
                }
            }
        }

        JsonNode fromC = c.get("/dyn/_mapping").json().at("/dyn/mappings/properties");
        assertThat(a.get("/dyn/_mapping").json().at("/dyn/mappings/properties")).isEqualTo(fromC);
        assertThat(b.get("/dyn/_mapping").json().at("/dyn/mappings/properties")).isEqualTo(fromC);
        for (int r = 0; r < rounds; r++) {
            assertThat(fromC.path("a_" + r).path("type").asText()).isEqualTo("long");
            assertThat(fromC.path("b_" + r).path("type").asText()).isEqualTo("long");
            String type = fromC.path("c_" + r).path("type").asText();
            assertThat(type).isIn("long", "text");
            // a document acknowledged with the field is found by a query on it, on every replica
            int found = c.post("/dyn/_count", json("{'query':{'exists':{'field':'c_" + r + "'}}}")).json()
                    .path("count").asInt();
            int acknowledged = (a.get("/dyn/_doc/a-c" + r).status() == 200 ? 1 : 0)
                    + (b.get("/dyn/_doc/b-c" + r).status() == 200 ? 1 : 0);
            assertThat(found).as("round %d (%s)", r, type).isEqualTo(acknowledged).isPositive();
        }
    }

    // ---------------------------------------------------------------- Redis down, a replica killed

    @Test
    @Order(4)
    void whileRedisRestartsAnswersAreRightOrEsShapedErrorsAndTheReplicasRecoverWithoutARestart() throws Exception {
        assertThat(a.put("/load/_doc/seed?refresh=true", json("{'n':0}")).status()).isEqualTo(201);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger unavailable = new AtomicInteger();
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        List<String> wrong = Collections.synchronizedList(new ArrayList<>());
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            List<Future<?>> loaders = new ArrayList<>();
            for (EsClient replica : List.of(a, b)) {
                String side = replica == a ? "a" : "b";
                loaders.add(pool.submit(() -> {
                    int n = 0;
                    AtomicInteger mine = new AtomicInteger();
                    while (running.get()) {
                        String id = side + (n++);
                        check(replica.put("/load/_doc/" + id + "?refresh=true", json("{'n':" + n + "}")), 201,
                                wrong, unavailable, () -> {
                                    acknowledged.add(id);
                                    mine.incrementAndGet();
                                });
                        // a count (cached between writes) never misses a write this replica acknowledged
                        EsClient.Reply count = replica.get("/load/_count");
                        check(count, 200, wrong, unavailable, () -> {
                            if (count.json().path("count").asInt() < mine.get() + 1) {
                                wrong.add("stale count: " + count + " after " + mine.get() + " writes");
                            }
                        });
                        EsClient.Reply seed = replica.get("/load/_doc/seed");
                        check(seed, 200, wrong, unavailable, () -> {
                            if (seed.json().at("/_source/n").asInt() != 0) {
                                wrong.add("wrong seed: " + seed);
                            }
                        });
                    }
                    return null;
                }));
            }
            try {
                loadThroughARestart(running, acknowledged);
            } finally {
                running.set(false);
            }
            for (Future<?> f : loaders) {
                f.get();
            }
        }

        assertThat(wrong).isEmpty();
        assertThat(unavailable.get()).as("requests refused while Redis was down").isPositive();
        assertThat(a.get("/readyz").status()).isEqualTo(200);
        for (String id : acknowledged) {
            assertThat(c.get("/load/_doc/" + id).status()).as("acknowledged %s", id).isEqualTo(200);
        }
    }

    /** Stops Redis for 1.5 s under the running load, starts it again, and waits for both replicas to be ready. */
    private static void loadThroughARestart(AtomicBoolean running, Set<String> acknowledged) throws Exception {
        Thread.sleep(700);
        redis.stop();
        try {
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1500);
            EsClient.Reply ready = a.get("/readyz");
            assertThat(ready.status()).as("%s", ready).isEqualTo(503);
            assertThat(ready.body()).contains("catalog");
            assertThat(ready.json().at("/dependencies/catalog/status").asText()).isEqualTo("down");
            assertThat(ready.json().at("/dependencies/response cache/status").asText()).isEqualTo("down");
            assertThat(ready.json().at("/dependencies/qdrant/status").asText()).isEqualTo("up");
            while (System.nanoTime() < until) {
                Thread.sleep(50);
            }
        } finally {
            redis.restart();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while ((a.get("/readyz").status() != 200 || b.get("/readyz").status() != 200)
                && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        int before = acknowledged.size();
        Thread.sleep(700);
        assertThat(running.get()).isTrue();
        assertThat(acknowledged.size()).as("writes acknowledged after the restart").isGreaterThan(before);
    }

    @Test
    @Order(5)
    void aReplicaKilledWithSigkillMidBulkLosesNothingItAcknowledged() throws Exception {
        assertThat(a.put("/killed").status()).isEqualTo(200);
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        List<String> refused = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger batches = new AtomicInteger();
        Process victim = replicas.get(2);
        try (ExecutorService pool = Executors.newSingleThreadExecutor()) {
            Future<?> loader = pool.submit(() -> {
                for (int batch = 0; ; batch++) {
                    StringBuilder body = new StringBuilder();
                    List<String> ids = new ArrayList<>();
                    for (int i = 0; i < 25; i++) {
                        String id = "k" + batch + "-" + i;
                        ids.add(id);
                        body.append(json("{'index':{'_id':'" + id + "'}}\n{'batch':" + batch + ",'field_"
                                + (batch % 7) + "':'v'}\n"));
                    }
                    EsClient.Reply reply;
                    try {
                        reply = c.post("/killed/_bulk", body.toString());
                    } catch (UncheckedIOException | IllegalStateException killed) {
                        return null;
                    }
                    if (reply.status() == 200) {
                        JsonNode items = reply.json().path("items");
                        for (int i = 0; i < items.size(); i++) {
                            if (items.get(i).path("index").path("status").asInt() == 201) {
                                acknowledged.add(ids.get(i));
                            } else {
                                refused.add(items.get(i).toString());
                            }
                        }
                    } else {
                        refused.add(reply.toString());
                    }
                    batches.incrementAndGet();
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (batches.get() < 6 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            victim.destroyForcibly(); // SIGKILL to this PID only
            assertThat(victim.waitFor(20, TimeUnit.SECONDS)).isTrue();
            loader.get(60, TimeUnit.SECONDS);
        }

        assertThat(refused).as("refused before the kill").isEmpty();
        assertThat(acknowledged).hasSizeGreaterThanOrEqualTo(6 * 25);
        Set<String> missing = new TreeSet<>();
        for (String id : acknowledged) {
            if (a.get("/killed/_doc/" + id).status() != 200) {
                missing.add(id);
            }
        }
        assertThat(missing).as("acknowledged, then not found").isEmpty();
        JsonNode mapping = b.get("/killed/_mapping").json().at("/killed/mappings/properties");
        assertThat(mapping.path("batch").path("type").asText()).isEqualTo("long");
        assertThat(a.get("/_cat/indices/killed?format=json").json().get(0).path("index").asText())
                .isEqualTo("killed");
    }

    @Test
    @Order(6)
    void sequenceNumbersContinueAcrossReplicasAndIfSeqNoSeesTheOthersWrites() {
        assertThat(a.put("/seq").status()).isEqualTo(200);
        for (int i = 0; i < 6; i++) {
            EsClient.Reply written = (i % 2 == 0 ? a : b).put("/seq/_doc/1", json("{'n':" + i + "}"));
            assertThat(written.status()).as("%s", written).isIn(200, 201);
            assertThat(written.json().path("_seq_no").asLong()).as("write %d", i).isEqualTo(i);
            assertThat(written.json().path("_version").asLong()).isEqualTo(i + 1);
        }
        EsClient.Reply stale = a.put("/seq/_doc/1?if_seq_no=4&if_primary_term=1", json("{'n':9}"));
        assertThat(stale.status()).as("%s", stale).isEqualTo(409);
        assertThat(stale.errorType()).isEqualTo("version_conflict_engine_exception");
        EsClient.Reply current = a.put("/seq/_doc/1?if_seq_no=5&if_primary_term=1", json("{'n':9}"));
        assertThat(current.status()).as("%s", current).isEqualTo(200);
        assertThat(current.json().path("_seq_no").asLong()).isEqualTo(6);
        assertThat(b.get("/seq/_doc/1").json().path("_seq_no").asLong()).isEqualTo(6);
    }

    /** One acknowledged write: its document, {@code _version}, {@code _seq_no}, and when it was acknowledged. */
    private record Acked(String id, long version, long seqNo, int phase) {
    }

    @Test
    @Order(7)
    void concurrentWritesOnTwoReplicasGetUniqueSequenceNumbersThatNeverGoBackAcrossARedisRestart() throws Exception {
        assertThat(a.put("/race").status()).isEqualTo(200);
        String uuid = a.get("/race/_settings").json().at("/race/settings/index/uuid").asText();
        assertThat(uuid).isNotBlank();
        // 0: before the restart; 1: while it runs (not judged); 2: after both replicas are ready again
        AtomicInteger phase = new AtomicInteger();
        AtomicBoolean running = new AtomicBoolean(true);
        List<Acked> acked = Collections.synchronizedList(new ArrayList<>());
        List<String> wrong = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger unavailable = new AtomicInteger();
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<?>> writers = new ArrayList<>();
            for (EsClient replica : List.of(a, b, a, b)) {
                writers.add(pool.submit(() -> {
                    int n = 0;
                    while (running.get()) {
                        String id = "d" + (n++ % 5); // five documents shared by every writer
                        int before = phase.get();
                        EsClient.Reply reply = replica.put("/race/_doc/" + id, json("{'n':" + n + "}"));
                        int after = phase.get();
                        if (reply.status() == 200 || reply.status() == 201) {
                            acked.add(new Acked(id, reply.json().path("_version").asLong(),
                                    reply.json().path("_seq_no").asLong(), before == after ? before : 1));
                        } else {
                            check(reply, 200, wrong, unavailable, () -> { });
                        }
                    }
                    return null;
                }));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (acked.size() < 40 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            phase.set(1);
            // the server comes back with the counter far behind what it handed out (a persisted copy older than
            // its last increments): the replicas must not trust it
            redis.command("HSET", "replicas:seq:" + uuid, "max", "0");
            redis.stop();
            Thread.sleep(300);
            redis.restart();
            long ready = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while ((a.get("/readyz").status() != 200 || b.get("/readyz").status() != 200)
                    && System.nanoTime() < ready) {
                Thread.sleep(50);
            }
            phase.set(2);
            int at = acked.size();
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (acked.size() < at + 40 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            running.set(false);
            for (Future<?> f : writers) {
                f.get();
            }
        }
        assertThat(wrong).isEmpty();
        List<Acked> all = new ArrayList<>(acked);
        assertThat(all.stream().filter(w -> w.phase() == 0)).hasSizeGreaterThanOrEqualTo(40);
        assertThat(all.stream().filter(w -> w.phase() == 2)).hasSizeGreaterThanOrEqualTo(40);
        Set<Long> seqNos = new TreeSet<>();
        List<Long> twice = new ArrayList<>();
        for (Acked w : all) {
            if (!seqNos.add(w.seqNo())) {
                twice.add(w.seqNo());
            }
        }
        assertThat(twice).as("sequence numbers acknowledged twice").isEmpty();
        // per document: the versions are distinct and the sequence numbers grow with them
        java.util.Map<String, java.util.TreeMap<Long, Long>> byDocument = new java.util.TreeMap<>();
        for (Acked w : all) {
            Long other = byDocument.computeIfAbsent(w.id(), k -> new java.util.TreeMap<>()).put(w.version(), w.seqNo());
            assertThat(other).as("version %d of %s acknowledged twice", w.version(), w.id()).isNull();
        }
        byDocument.forEach((id, versions) -> assertThat(new ArrayList<>(versions.values())).as(id).isSorted());
        long highestBefore = all.stream().filter(w -> w.phase() == 0).mapToLong(Acked::seqNo).max().orElseThrow();
        long lowestAfter = all.stream().filter(w -> w.phase() == 2).mapToLong(Acked::seqNo).min().orElseThrow();
        assertThat(lowestAfter).as("after the restart, above everything acknowledged before it")
                .isGreaterThan(highestBefore);
        // what a reader sees agrees with the last acknowledged write of each document
        byDocument.forEach((id, versions) -> {
            JsonNode doc = b.get("/race/_doc/" + id).json();
            assertThat(doc.path("_version").asLong()).as(id).isEqualTo(versions.lastKey());
            assertThat(doc.path("_seq_no").asLong()).as(id).isEqualTo(versions.lastEntry().getValue());
        });
    }

    @Test
    @Order(8)
    void twoReplicasRacingToUpdateOneDocumentWithTheSameIfSeqNoExactlyOneWins() throws Exception {
        assertThat(a.put("/cas/_doc/1", json("{'n':0}")).status()).isEqualTo(201);
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            for (int round = 1; round <= 20; round++) {
                JsonNode current = (round % 2 == 0 ? a : b).get("/cas/_doc/1").json();
                long seqNo = current.path("_seq_no").asLong();
                long term = current.path("_primary_term").asLong();
                String path = "/cas/_doc/1?if_seq_no=" + seqNo + "&if_primary_term=" + term;
                CountDownLatch go = new CountDownLatch(1);
                int n = round;
                Future<EsClient.Reply> onA = pool.submit(() -> {
                    go.await();
                    return a.put(path, json("{'n':" + n + ",'by':'a'}"));
                });
                Future<EsClient.Reply> onB = pool.submit(() -> {
                    go.await();
                    return b.put(path, json("{'n':" + n + ",'by':'b'}"));
                });
                go.countDown();
                List<EsClient.Reply> replies = List.of(onA.get(30, TimeUnit.SECONDS), onB.get(30, TimeUnit.SECONDS));
                List<EsClient.Reply> won = replies.stream().filter(r -> r.status() == 200).toList();
                List<EsClient.Reply> lost = replies.stream().filter(r -> r.status() == 409).toList();
                assertThat(won).as("round %d: %s", round, replies).hasSize(1);
                assertThat(lost).as("round %d: %s", round, replies).hasSize(1);
                assertThat(lost.get(0).errorType()).isEqualTo("version_conflict_engine_exception");
                String winner = won.get(0) == replies.get(0) ? "a" : "b";
                JsonNode after = (round % 2 == 0 ? b : a).get("/cas/_doc/1").json(); // C was killed above
                assertThat(after.at("/_source/by").asText()).as("round %d", round).isEqualTo(winner);
                assertThat(after.path("_seq_no").asLong()).isEqualTo(won.get(0).json().path("_seq_no").asLong())
                        .isGreaterThan(seqNo);
                assertThat(after.path("_version").asLong()).isEqualTo(round + 1);
            }
        }
    }

    // ---------------------------------------------------------------- helpers

    /** {@code qeg_response_cache_total{outcome="hit"}} of one replica. */
    private static long cacheHits(EsClient replica) {
        Matcher m = Pattern.compile("qeg_response_cache_total\\{[^}]*outcome=\"hit\"[^}]*} ([0-9.E]+)")
                .matcher(replica.get("/metrics").body());
        assertThat(m.find()).as("the hit counter on /metrics").isTrue();
        return (long) Double.parseDouble(m.group(1));
    }

    /** The one index the hits of a search come from. */
    private static String onlyIndex(EsClient.Reply reply) {
        assertThat(reply.status()).as("%s", reply).isEqualTo(200);
        Set<String> indices = new TreeSet<>();
        reply.json().at("/hits/hits").forEach(hit -> indices.add(hit.path("_index").asText()));
        assertThat(indices).as("%s", reply).hasSize(1);
        return indices.iterator().next();
    }

    /** A right answer ({@code ok} status, then {@code then}), or an ES-shaped 503; anything else is wrong. */
    private static void check(EsClient.Reply reply, int ok, List<String> wrong, AtomicInteger unavailable,
                              Runnable then) {
        if (reply.status() == ok) {
            then.run();
            return;
        }
        JsonNode body;
        try {
            body = reply.json();
        } catch (UncheckedIOException e) {
            wrong.add("not JSON: " + reply);
            return;
        }
        if (reply.status() == 503 && body.at("/error/type").asText().equals("backend_unavailable_exception")
                && body.path("status").asInt() == 503) {
            unavailable.incrementAndGet();
        } else {
            wrong.add(reply.toString());
        }
    }

    private static Process java(List<String> mainAndArgs, Path log, java.util.Map<String, String> env)
            throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "--enable-native-access=ALL-UNNAMED",
                "--add-modules=jdk.incubator.vector", "-Dorg.jooq.no-logo=true",
                "-cp", System.getProperty("java.class.path")));
        cmd.addAll(mainAndArgs);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(env);
        return pb.start();
    }

    private static int awaitPort(Process process, Path log, Pattern line) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            Matcher m = line.matcher(Files.readString(log));
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            if (!process.isAlive()) {
                break;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("no [" + line + "] from the process; its output:\n" + Files.readString(log));
    }

    private static void stop(Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
