package io.qdrant.esgateway.adapter.out.catalog.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.application.port.out.Catalog;
import io.qdrant.esgateway.application.port.out.CatalogContract;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.AliasActions;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.Mappings;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The {@link CatalogContract} on a real Valkey/Redis server, and what only a shared catalog must do: two replicas
 * (two catalogs on one server) see each other's changes on their next view, refused records make the whole snapshot
 * unreadable, the size bounds hold, a lost reply is settled and never replayed, and a restarted server is used again
 * without reopening the catalog.
 */
class RedisCatalogTest extends CatalogContract {
    private static final AtomicInteger PREFIXES = new AtomicInteger();
    private static RedisTestServer server;
    private final List<RedisCatalog> opened = new ArrayList<>();
    private String prefix;

    @BeforeAll
    static void startServer() {
        server = RedisTestServer.start(true);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @AfterEach
    void closeOthers() {
        opened.forEach(RedisCatalog::close);
    }

    @Override
    protected Catalog newCatalog() {
        prefix = "t" + PREFIXES.incrementAndGet() + ":";
        return replica(null, CatalogRecords.Limits.DEFAULT);
    }

    /** Another catalog on the same keys: what a second gateway replica opens. */
    private RedisCatalog replica(RedisCatalog.Faults faults, CatalogRecords.Limits limits) {
        RedisCatalog catalog = RedisCatalog.open(new RedisCatalogs.Settings(URI.create(server.url()), prefix,
                Duration.ofSeconds(2), 8), faults, limits);
        opened.add(catalog);
        return catalog;
    }

    private RedisCatalog replica() {
        return replica(null, CatalogRecords.Limits.DEFAULT);
    }

    @Test
    void aUserWithoutInfoIsRefusedNamingIt() {
        server.command("ACL", "SETUSER", "noinfo-catalog", "on", ">pw", "~*", "+@all", "-info");
        try {
            URI url = URI.create("redis://noinfo-catalog:pw@127.0.0.1:" + server.port() + "/0");
            assertThatThrownBy(() -> {
                RedisCatalog refused = RedisCatalog.open(new RedisCatalogs.Settings(url, prefix,
                        Duration.ofSeconds(2), 8));
                opened.add(refused);
                refused.view();
            }).hasMessageContaining("QEG_NO_RUN_ID").hasMessageContaining("INFO server");
        } finally {
            server.command("ACL", "DELUSER", "noinfo-catalog");
        }
    }

    // ---------------------------------------------------------------- replicas

    @Test
    void aChangeAcknowledgedByOneReplicaIsInTheNextViewOfAnother() {
        RedisCatalog a = replica();
        RedisCatalog b = replica();
        a.createIndex(index("blue"), List.of(alias("current", "blue")));
        a.createIndex(index("green"), List.of());
        assertThat(b.view().aliasesOf("blue")).containsExactly(alias("current", "blue"));

        for (int i = 0; i < 20; i++) {
            String from = i % 2 == 0 ? "blue" : "green";
            String to = i % 2 == 0 ? "green" : "blue";
            CatalogView seen = a.view();
            assertThat(a.applyAliasPlan(seen.version(), new AliasActions.Plan(List.of(alias("current", to)),
                    Set.of()))).isTrue();

            CatalogView other = b.view();
            assertThat(other.aliasesOf(to)).as("swap %d seen by the other replica", i)
                    .containsExactly(alias("current", to));
            assertThat(other.aliasesOf(from)).isEmpty();
        }
    }

    @Test
    void everyReplicaReportsTheClusterUuidStoredFirst() {
        assertThat(replica().clusterUuid("first")).isEqualTo("first");
        assertThat(replica().clusterUuid("second")).isEqualTo("first");
    }

    @Test
    void theViewIsReusedWhileTheGenerationDoesNotMove() {
        RedisCatalog a = replica();
        a.createIndex(index("a"), List.of());

        CatalogView first = a.view();
        a.bumpGeneration("a");

        assertThat(a.view()).isSameAs(first);
        replica().createIndex(index("b"), List.of());
        assertThat(a.view()).isNotSameAs(first);
        assertThat(a.view().indices()).containsOnlyKeys("a", "b");
    }

    @Test
    void aViewTheRequestHasCheckedIsUsedWithoutAskingTheServer() {
        RedisCatalog a = replica();
        a.createIndex(index("a"), List.of());
        CatalogView checked = a.view();
        replica().createIndex(index("b"), List.of()); // a change after the request's check

        long before = calls("mget");
        CatalogView inside = ScopedValue.where(io.qdrant.esgateway.application.port.out.Catalog.CHECKED, checked)
                .call(a::view);

        assertThat(inside).isSameAs(checked);
        assertThat(calls("mget")).as("generation reads").isEqualTo(before);
        // outside the request's scope the next view reads the server and sees the change
        assertThat(a.view().indices()).containsOnlyKeys("a", "b");
        assertThat(calls("mget")).isGreaterThan(before);
    }

    /** The server's count of one command ({@code INFO commandstats}). */
    private long calls(String command) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("cmdstat_" + command + ":calls=(\\d+)")
                .matcher(server.bulk("INFO", "commandstats"));
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    @Test
    void concurrentMappingChangesFromTwoReplicasAreBothKeptAndAConflictFailsOne() {
        RedisCatalog a = replica();
        RedisCatalog b = replica();
        a.createIndex(index("m"), List.of());
        // b decides on mappings it read before a's change: its change runs again on a's result
        AtomicBoolean interleaved = new AtomicBoolean();
        Mappings written = b.changeMappings("m", current -> {
            if (interleaved.compareAndSet(false, true)) {
                a.changeMappings("m", c -> c.merge(mappings("{\"properties\":{\"x\":{\"type\":\"long\"}}}")));
            }
            return current.merge(mappings("{\"properties\":{\"y\":{\"type\":\"keyword\"}}}"));
        });

        assertThat(written.field("x")).isPresent();
        assertThat(written.field("y")).isPresent();
        assertThat(a.view().index("m").orElseThrow().mappings()).isEqualTo(written);

        GatewayException conflict = failure(ErrorKind.ILLEGAL_ARGUMENT, () -> b.changeMappings("m",
                c -> c.merge(mappings("{\"properties\":{\"x\":{\"type\":\"text\"}}}"))));
        assertThat(conflict.getMessage()).contains("mapper [x] cannot be changed from type [long] to [text]");
        assertThat(a.view().index("m").orElseThrow().mappings()).isEqualTo(written);
    }

    // ---------------------------------------------------------------- validated on load

    @Test
    void aCorruptRecordMakesTheWholeSnapshotUnreadableUntilItIsRepaired() {
        RedisCatalog a = replica();
        a.createIndex(index("good"), List.of(alias("g", "good")));
        String valid = hget(prefix + "catalog:index", "good");

        hset(prefix + "catalog:index", "good", "{not json");
        server.command("INCR", prefix + "catalog:gen");
        GatewayException e = failure(ErrorKind.BACKEND_UNAVAILABLE, a::view);
        assertThat(e.getMessage()).contains("index record [good] is not JSON");

        hset(prefix + "catalog:index", "good", valid);
        server.command("INCR", prefix + "catalog:gen");
        assertThat(a.view().indices()).containsOnlyKeys("good");
    }

    @Test
    void recordsOfAnUnknownEncodingDuplicatesAndContradictionsAreRefused() {
        RedisCatalog a = replica();
        a.createIndex(index("one"), List.of());
        String one = hget(prefix + "catalog:index", "one");

        hset(prefix + "catalog:index", "one", one.replace("\"v\":1", "\"v\":2"));
        server.command("INCR", prefix + "catalog:gen");
        assertThat(failure(ErrorKind.BACKEND_UNAVAILABLE, a::view).getMessage())
                .contains("encoding version [2]");

        hset(prefix + "catalog:index", "one", one);
        hset(prefix + "catalog:index", "two", one.replace("\"name\":\"one\"", "\"name\":\"two\""));
        server.command("INCR", prefix + "catalog:gen");
        assertThat(failure(ErrorKind.BACKEND_UNAVAILABLE, a::view).getMessage())
                .contains("share the uuid [uuid-one]");

        server.command("HDEL", prefix + "catalog:index", "two");
        hset(prefix + "catalog:index", "three", one);
        server.command("INCR", prefix + "catalog:gen");
        assertThat(failure(ErrorKind.BACKEND_UNAVAILABLE, a::view).getMessage())
                .contains("index record [three] holds index [one]");

        server.command("HDEL", prefix + "catalog:index", "three");
        hset(prefix + "catalog:alias", "gone/x", "{\"v\":1,\"alias\":\"x\",\"index\":\"gone\"}");
        server.command("INCR", prefix + "catalog:gen");
        assertThat(failure(ErrorKind.BACKEND_UNAVAILABLE, a::view).getMessage())
                .contains("alias [x] names index [gone], which does not exist");
    }

    // ---------------------------------------------------------------- bounded

    @Test
    void pastItsBoundsACatalogRefusesTheChangeAndALargerStoredOneIsNotLoaded() {
        RedisCatalog small = replica(null, new CatalogRecords.Limits(2, 3, 2_000, 1L << 20));
        small.createIndex(index("a"), List.of(alias("x", "a")));
        small.createIndex(index("b"), List.of());

        GatewayException full = failure(ErrorKind.ACTION_REQUEST_VALIDATION,
                () -> small.createIndex(index("c"), List.of()));
        assertThat(full.getMessage()).contains("already holds [2] indices, the most it supports [2]");
        failure(ErrorKind.ACTION_REQUEST_VALIDATION, () -> small.applyAliasPlan(small.view().version(),
                new AliasActions.Plan(List.of(alias("p", "a"), alias("q", "a"), alias("r", "a"), alias("s", "b")),
                        Set.of())));
        StringBuilder big = new StringBuilder("{\"properties\":{");
        for (int i = 0; i < 100; i++) {
            big.append(i == 0 ? "" : ",").append("\"field_").append(i).append("\":{\"type\":\"keyword\"}");
        }
        GatewayException tooBig = failure(ErrorKind.ILLEGAL_ARGUMENT,
                () -> small.updateMappings("a", mappings(big + "}}")));
        assertThat(tooBig.getMessage()).contains("more than the [2000] one record may take");

        replica().createIndex(index("c"), List.of());
        GatewayException refused = failure(ErrorKind.BACKEND_UNAVAILABLE, small::view);
        assertThat(refused.getMessage()).contains("larger than this gateway supports")
                .contains("holds 3 records, more than 2");
    }

    // ---------------------------------------------------------------- uncertain outcomes

    @Test
    void aChangeWhoseReplyIsLostIsSettledAsAppliedAndNotReplayed() {
        AtomicInteger lost = new AtomicInteger();
        RedisCatalog a = replica(new RedisCatalog.Faults() {
            @Override
            public void beforeExec(Jedis connection) {
            }

            @Override
            public void afterExec() {
                if (lost.getAndIncrement() == 0) {
                    throw new redis.clients.jedis.exceptions.JedisConnectionException("reply lost (test)");
                }
            }
        }, CatalogRecords.Limits.DEFAULT);
        long before = a.view().version();

        a.createIndex(index("once"), List.of(alias("o", "once")));

        assertThat(lost.get()).isEqualTo(1);
        CatalogView view = replica().view();
        assertThat(view.indices()).containsOnlyKeys("once");
        assertThat(view.aliases()).containsExactly(alias("o", "once"));
        assertThat(view.version()).isEqualTo(before + 1);
    }

    @Test
    void aChangeWhoseRequestIsLostIsFencedThenDecidedAgainAndAppliedOnce() {
        AtomicInteger broken = new AtomicInteger();
        AtomicBoolean armed = new AtomicBoolean();
        RedisCatalog a = replica(new RedisCatalog.Faults() {
            @Override
            public void beforeExec(Jedis connection) {
                if (armed.get() && broken.getAndIncrement() == 0) {
                    connection.getConnection().disconnect();
                }
            }

            @Override
            public void afterExec() {
            }
        }, CatalogRecords.Limits.DEFAULT);
        a.createIndex(index("m"), List.of());
        long before = a.view().version();
        armed.set(true);

        Mappings written = a.changeMappings("m", c -> c.merge(mappings("{\"properties\":{\"f\":{\"type\":\"long\"}}}")));

        assertThat(broken.get()).isGreaterThanOrEqualTo(2);
        assertThat(written.field("f")).isPresent();
        CatalogView view = replica().view();
        assertThat(view.index("m").orElseThrow().mappings()).isEqualTo(written);
        // the fence moved the generation once, the change once
        assertThat(view.version()).isEqualTo(before + 2);
    }

    // ---------------------------------------------------------------- server down

    @Test
    void whileTheServerIsDownCallsFailAsUnavailableAndAfterItReturnsTheSameCatalogWorks() {
        RedisCatalog a = replica();
        a.createIndex(index("kept"), List.of());
        server.stop();
        try {
            GatewayException down = failure(ErrorKind.BACKEND_UNAVAILABLE, a::ping);
            assertThat(down.getMessage()).contains("redis://127.0.0.1:" + server.port());
            failure(ErrorKind.BACKEND_UNAVAILABLE, a::view);
            failure(ErrorKind.BACKEND_UNAVAILABLE, () -> a.createIndex(index("lost"), List.of()));
        } finally {
            server.restart();
        }

        a.ping();
        assertThat(a.view().indices()).containsOnlyKeys("kept");
        a.createIndex(index("after"), List.of());
        assertThat(replica().view().indices()).containsOnlyKeys("after", "kept");
    }

    @Test
    void afterARestartUnnoticedByTheCatalogItsFirstCallsSucceedOnNewConnections() throws Exception {
        RedisCatalog a = replica();
        a.createIndex(index("kept"), List.of());
        // several idle pooled connections, all dead after the restart
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(4)) {
            List<java.util.concurrent.Future<?>> reads = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                reads.add(pool.submit(() -> {
                    for (int j = 0; j < 50; j++) {
                        a.view();
                    }
                }));
            }
            for (var f : reads) {
                f.get();
            }
        }
        server.stop();
        server.restart();

        assertThat(a.view().indices()).containsOnlyKeys("kept");
        a.createIndex(index("next"), List.of());
        assertThat(a.generation("next")).isZero();
        assertThat(a.bumpGeneration("next")).isEqualTo(1);
    }

    @Test
    void aServerBackFromAnOlderSnapshotIsReadAgainEvenWhenItsGenerationCatchesUp() {
        try (RedisTestServer own = RedisTestServer.start()) {
            RedisCatalogs.Settings settings = new RedisCatalogs.Settings(URI.create(own.url()), "s:",
                    Duration.ofSeconds(2), 8);
            RedisCatalog a = RedisCatalog.open(settings);
            RedisCatalog b = RedisCatalog.open(settings);
            opened.add(a);
            opened.add(b);
            a.createIndex(index("x"), List.of());
            assertThat(own.command("SAVE")).isEqualTo("+OK");
            a.createIndex(index("lost"), List.of());
            assertThat(b.view().indices()).containsOnlyKeys("x", "lost");
            own.kill(); // no save on the way down: it comes back from the snapshot, without "lost"
            own.restart();
            // a change on the restored catalog brings its generation back to the value b's snapshot has
            a.createIndex(index("later"), List.of());
            assertThat(b.view().indices()).as("b reads the catalog again, never its snapshot of another state")
                    .containsOnlyKeys("x", "later");
        }
    }

    @Test
    void thePinnedSnapshotNamesTheKeysThatHoldItsVersionUntilAnotherReplicaChangesTheCatalog() {
        RedisCatalog a = replica();
        RedisCatalog b = replica();
        b.createIndex(index("before"), List.of());
        assertThat(a.pinned()).as("nothing read yet").isEmpty();
        CatalogView view = a.view();

        Catalog.Pinned pinned = a.pinned().orElseThrow();
        assertThat(pinned.view()).isSameAs(view);
        assertThat(pinned.keys()).hasSize(2);
        try (Jedis jedis = new Jedis(URI.create(server.url()))) {
            for (int i = 0; i < pinned.keys().size(); i++) {
                assertThat(jedis.get(pinned.keys().get(i))).isEqualTo(pinned.values().get(i));
            }
            b.createIndex(index("after"), List.of());
            assertThat(jedis.get(pinned.keys().get(0))).isNotEqualTo(pinned.values().get(0));
        }
    }

    @Test
    void settingsRefuseAnUrlThatIsNotRedisAndNeverShowItsPassword() {
        RedisCatalogs.Settings settings = RedisCatalogs.Settings.of(URI.create("rediss://user:secret@cache:6380/2"));
        assertThat(settings.displayUrl()).isEqualTo("rediss://cache:6380/2");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(
                () -> RedisCatalogs.Settings.of(URI.create("http://cache:6379")))).isInstanceOf(
                IllegalArgumentException.class);
    }

    private static String hget(String key, String field) {
        try (Jedis jedis = new Jedis(URI.create(server.url()))) {
            return jedis.hget(key, field);
        }
    }

    private static void hset(String key, String field, String value) {
        try (Jedis jedis = new Jedis(URI.create(server.url()))) {
            jedis.hset(key, field, value);
        }
    }
}
