package io.qdrant.esgateway.adapter.out.catalog.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.application.port.out.Catalog.WriteTurn;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Write turns and sequence numbers on a real Valkey/Redis server, two catalogs on one server being two replicas:
 * turns of one index exclude each other, the numbers handed out are unique and increasing, unused ones go back, and a
 * server restart (with or without persistence, with a counter behind what was handed out) never hands out a number
 * again: the counter is seeded from the store's highest recorded number.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RedisWriteTurnTest {
    private static final AtomicInteger PREFIXES = new AtomicInteger();
    private final List<RedisCatalog> opened = new ArrayList<>();
    private final List<RedisTestServer> servers = new ArrayList<>();
    private final String prefix = "w" + PREFIXES.incrementAndGet() + ":";

    @AfterEach
    void close() {
        opened.forEach(RedisCatalog::close);
        servers.forEach(RedisTestServer::close);
    }

    private RedisTestServer server(boolean persistent) {
        RedisTestServer server = RedisTestServer.start(persistent);
        servers.add(server);
        return server;
    }

    private RedisCatalog replica(RedisTestServer server) {
        RedisCatalog catalog = RedisCatalog.open(new RedisCatalogs.Settings(URI.create(server.url()), prefix,
                Duration.ofSeconds(2), 8));
        opened.add(catalog);
        return catalog;
    }

    private static IndexMetadata index(String name) {
        return new IndexMetadata(name, "uuid-" + name, Instant.EPOCH, IndexSettings.DEFAULTS, Mappings.EMPTY);
    }

    private static WriteTurn turn(RedisCatalog catalog, IndexMetadata index, int reserve, long stored) {
        return catalog.writeTurn(index, reserve, () -> stored).orElseThrow();
    }

    @Test
    void twoReplicasTakeTurnsOneAtATimeAndHandOutEveryNumberOnce() throws Exception {
        RedisTestServer server = server(false);
        RedisCatalog a = replica(server);
        RedisCatalog b = replica(server);
        IndexMetadata index = index("i");
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicLong stored = new AtomicLong(-1); // what the store would record: the last number of each turn
        Set<Long> handedOut = ConcurrentHashMap.newKeySet();
        List<Long> duplicates = new ArrayList<>();
        AtomicInteger seeds = new AtomicInteger();
        int turnsPerThread = 60;
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> writers = new ArrayList<>();
            for (RedisCatalog replica : List.of(a, b, a, b)) {
                writers.add(pool.submit(() -> {
                    start.await();
                    for (int t = 0; t < turnsPerThread; t++) {
                        int reserve = 1 + ThreadLocalRandom.current().nextInt(4);
                        try (WriteTurn turn = replica.writeTurn(index, reserve, () -> {
                            seeds.incrementAndGet();
                            return stored.get();
                        }).orElseThrow()) {
                            if (inside.incrementAndGet() != 1) {
                                overlaps.incrementAndGet();
                            }
                            int used = ThreadLocalRandom.current().nextInt(reserve + 1);
                            long last = turn.seqNoBefore();
                            for (int n = 0; n < used; n++) {
                                long seqNo = ++last;
                                if (!handedOut.add(seqNo)) {
                                    synchronized (duplicates) {
                                        duplicates.add(seqNo);
                                    }
                                }
                            }
                            stored.set(last);
                            inside.decrementAndGet();
                            turn.end(last);
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : writers) {
                f.get();
            }
        }
        assertThat(overlaps).as("turns held at once").hasValue(0);
        assertThat(duplicates).as("numbers handed out twice").isEmpty();
        assertThat(seeds).as("the counter is seeded once").hasValue(1);
        // unused numbers went back: the numbers are dense, 0 to the highest
        TreeSet<Long> sorted = new TreeSet<>(handedOut);
        if (!sorted.isEmpty()) {
            assertThat(sorted.first()).isZero();
            assertThat(sorted.last()).isEqualTo(sorted.size() - 1L);
        }
    }

    @Test
    void theCounterIsSeededFromTheStoreAndUnusedNumbersGoBack() {
        RedisCatalog a = replica(server(false));
        IndexMetadata index = index("s");
        try (WriteTurn turn = turn(a, index, 3, 41)) {
            assertThat(turn.seqNoBefore()).isEqualTo(41);
            turn.end(42); // one used
        }
        try (WriteTurn turn = turn(a, index, 2, -1)) {
            assertThat(turn.seqNoBefore()).isEqualTo(42);
            turn.end(42); // none used
        }
        try (WriteTurn turn = turn(a, index, 1, -1)) {
            assertThat(turn.seqNoBefore()).isEqualTo(42);
            // given up without end: its number may have been used (a failed write), it is not given back
        }
        try (WriteTurn turn = turn(a, index, 1, -1)) {
            assertThat(turn.seqNoBefore()).isEqualTo(43);
            turn.end(44);
        }
    }

    @Test
    void aServerThatLostItsDataIsSeededAgainFromTheStore() {
        RedisTestServer server = server(false);
        RedisCatalog a = replica(server);
        IndexMetadata index = index("r");
        long last;
        try (WriteTurn turn = turn(a, index, 10, -1)) {
            last = turn.seqNoBefore() + 10;
            turn.end(last);
        }
        server.restart(); // no persistence: the counter is gone
        try (WriteTurn turn = turn(a, index, 1, last)) {
            assertThat(turn.seqNoBefore()).isEqualTo(last);
        }
    }

    @Test
    void aRestartedServerWhoseCounterIsBehindIsSeededAgainAndNeverGoesBack() {
        RedisTestServer server = server(true);
        RedisCatalog a = replica(server);
        RedisCatalog b = replica(server);
        IndexMetadata index = index("p");
        long last;
        try (WriteTurn turn = turn(a, index, 20, -1)) {
            last = turn.seqNoBefore() + 20;
            turn.end(last);
        }
        // a persisted copy older than the last increments (an fsync that did not happen, a restored snapshot)
        server.command("HSET", prefix + "seq:" + index.uuid(), "max", "5");
        server.restart();
        try (WriteTurn turn = turn(b, index, 1, last)) {
            assertThat(turn.seqNoBefore()).as("seeded from the store after the restart").isEqualTo(last);
            turn.end(last + 1);
        }
        // the same run of the server: the counter is trusted, the store is not read
        try (WriteTurn turn = a.writeTurn(index, 1, () -> {
            throw new AssertionError("read the store although the counter is current");
        }).orElseThrow()) {
            assertThat(turn.seqNoBefore()).isEqualTo(last + 1);
        }
    }

    @Test
    void aSecondTurnWaitsForTheFirstAndALostTurnCannotEnd() throws Exception {
        RedisTestServer server = server(false);
        RedisCatalog a = replica(server);
        RedisCatalog b = replica(server);
        IndexMetadata index = index("x");
        WriteTurn first = turn(a, index, 1, -1);
        try (ExecutorService pool = Executors.newSingleThreadExecutor()) {
            Future<Long> second = pool.submit(() -> {
                try (WriteTurn turn = turn(b, index, 1, -1)) {
                    long before = turn.seqNoBefore();
                    turn.end(before + 1);
                    return before;
                }
            });
            Thread.sleep(200);
            assertThat(second).as("waiting while the first turn is held").isNotDone();
            first.end(0);
            assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo(0);
        }
        // another turn on another index is not held up
        try (WriteTurn other = turn(b, index("y"), 1, -1)) {
            assertThat(other.seqNoBefore()).isEqualTo(-1);
        }

        WriteTurn lost = turn(a, index, 1, -1);
        server.command("DEL", prefix + "turn:" + index.uuid()); // as if its lease had expired
        assertThatThrownBy(() -> lost.end(lost.seqNoBefore() + 1)).isInstanceOfSatisfying(GatewayException.class,
                e -> assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_UNAVAILABLE));
    }

    @Test
    void aLiveHolderKeepsItsTurnPastTheLeaseAndAKilledOneBlocksOthersForAtMostTheLease() throws Exception {
        RedisTestServer server = server(false);
        IndexMetadata index = index("k");
        String javaBin = ProcessHandle.current().info().command().orElse("java");
        Process holder = new ProcessBuilder(javaBin, "-cp", System.getProperty("java.class.path"),
                WriteTurnHolder.class.getName(), server.url(), prefix, index.name())
                .redirectErrorStream(true).start();
        try {
            var out = new java.io.BufferedReader(new java.io.InputStreamReader(holder.getInputStream(),
                    java.nio.charset.StandardCharsets.UTF_8));
            String line;
            while ((line = out.readLine()) != null && !line.equals("HELD")) {
                // JVM warnings before the turn is taken
            }
            assertThat(line).as("the holder process took the turn").isEqualTo("HELD");
            RedisCatalog other = replica(server);
            try (ExecutorService pool = Executors.newSingleThreadExecutor()) {
                Future<Long> waiting = pool.submit(() -> {
                    try (WriteTurn turn = turn(other, index, 1, -1)) {
                        long before = turn.seqNoBefore();
                        turn.end(before + 1);
                        return System.nanoTime();
                    }
                });
                // the holder renews its lease while it lives: twice the lease later, the turn is still its own
                Thread.sleep(2 * RedisCatalog.WRITE_TURN_LEASE_MILLIS);
                assertThat(waiting).as("waiting while a live holder keeps its turn").isNotDone();
                assertThat(server.command("PTTL", prefix + "turn:" + index.uuid())).startsWith(":")
                        .isNotEqualTo(":-2");
                long killed = System.nanoTime();
                Process kill = new ProcessBuilder("kill", "-KILL", Long.toString(holder.pid())).start();
                assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
                assertThat(kill.exitValue()).isZero();
                long taken = waiting.get(20, TimeUnit.SECONDS);
                assertThat(Duration.ofNanos(taken - killed))
                        .as("the killed holder's turn passes on within its lease (plus scheduling slack)")
                        .isLessThan(Duration.ofMillis(RedisCatalog.WRITE_TURN_LEASE_MILLIS + 700));
            }
        } finally {
            holder.destroyForcibly();
            holder.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aTurnWhoseLeaseLapsedRefusesToWriteAndCannotEnd() throws Exception {
        RedisTestServer server = server(false);
        RedisCatalog a = replica(server);
        RedisCatalog b = replica(server);
        IndexMetadata index = index("l");
        WriteTurn first = turn(a, index, 1, -1);
        first.checkHeld();
        server.command("DEL", prefix + "turn:" + index.uuid()); // as if its lease had run out while a was cut off
        try (WriteTurn second = turn(b, index, 1, -1)) {
            // a's next renewal finds the turn gone: a writes nothing more and acknowledges nothing
            Thread.sleep(3 * RedisCatalog.WRITE_TURN_RENEW_MILLIS);
            assertThatThrownBy(first::checkHeld).isInstanceOfSatisfying(GatewayException.class,
                    e -> assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_UNAVAILABLE));
            assertThatThrownBy(() -> first.end(first.seqNoBefore() + 1)).isInstanceOf(GatewayException.class);
            second.checkHeld();
            second.end(second.seqNoBefore() + 1);
        }
    }

    @Test
    void tombstonesRecordedInOneReplicasTurnAreReadInAnothersUntilTheyExpire() throws Exception {
        RedisTestServer server = server(false);
        RedisCatalog a = replica(server);
        RedisCatalog b = replica(server);
        IndexMetadata index = index("d");
        try (WriteTurn turn = turn(a, index, 2, -1)) {
            assertThat(turn.tombstones(List.of("1", "2"))).isEmpty();
            turn.recordTombstones(java.util.Map.of("1", 4L, "x:y", 7L), Duration.ofMillis(1_500));
            turn.end(turn.seqNoBefore() + 2);
        }
        try (WriteTurn turn = turn(b, index, 1, -1)) {
            assertThat(turn.tombstones(List.of("1", "2", "x:y"))).containsExactlyInAnyOrderEntriesOf(
                    java.util.Map.of("1", 4L, "x:y", 7L));
            turn.end(turn.seqNoBefore());
        }
        // another index's turn sees none of them
        try (WriteTurn turn = turn(b, index("e"), 1, -1)) {
            assertThat(turn.tombstones(List.of("1", "x:y"))).isEmpty();
            turn.end(turn.seqNoBefore());
        }
        Thread.sleep(1_700); // past their keep time (index.gc_deletes)
        try (WriteTurn turn = turn(b, index, 1, -1)) {
            assertThat(turn.tombstones(List.of("1", "x:y"))).isEmpty();
            turn.end(turn.seqNoBefore());
        }
    }

    @Test
    void aTurnTakenBeforeARestartDoesNotHoldAfterItAndCannotEnd() {
        RedisTestServer server = server(true);
        RedisCatalog a = replica(server);
        RedisCatalog b = replica(server);
        IndexMetadata index = index("t");
        WriteTurn before = turn(a, index, 1, -1);
        server.restart(); // the turn's key is persisted, with its lease
        try (WriteTurn after = turn(b, index, 1, 0)) {
            assertThat(after.seqNoBefore()).isEqualTo(0);
            assertThatThrownBy(() -> before.end(0)).isInstanceOfSatisfying(GatewayException.class,
                    e -> assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_UNAVAILABLE));
            after.end(1);
        }
    }

    @Test
    void deletingAnIndexDropsItsCounter() {
        RedisTestServer server = server(false);
        RedisCatalog a = replica(server);
        IndexMetadata index = index("d");
        a.createIndex(index, List.of());
        try (WriteTurn turn = turn(a, index, 1, -1)) {
            turn.end(0);
        }
        assertThat(server.command("EXISTS", prefix + "seq:" + index.uuid())).isEqualTo(":1");
        a.deleteIndices(List.of("d"));
        assertThat(server.command("EXISTS", prefix + "seq:" + index.uuid())).isEqualTo(":0");
    }
}
