package io.qdrant.esgateway.adapter.out.cache.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.adapter.out.catalog.redis.RedisTestServer;
import io.qdrant.esgateway.application.port.out.SharedResponseCache;
import io.qdrant.esgateway.application.port.out.SharedResponseCacheContract;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shared response cache contract on a real Redis/Valkey server (one per class, a fresh key prefix per test); two
 * handles on it stand for two replicas. Then what only the server shows: TTL, the key prefix, a server restart.
 */
class RedisResponseCacheTest extends SharedResponseCacheContract {
    private static RedisTestServer server;
    private static int tests;
    private String prefix;
    private final List<RedisResponseCaches.Handle> opened = new ArrayList<>();

    @BeforeAll
    static void startServer() {
        server = RedisTestServer.start();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private static RedisResponseCaches.Settings settings(String prefix, Duration ttl, int maxEntryBytes) {
        return new RedisResponseCaches.Settings(URI.create(server.url()), prefix, ttl, maxEntryBytes, 8,
                Duration.ofSeconds(2));
    }

    private static long reply(String line) {
        return Long.parseLong(line.substring(1).trim());
    }

    @Override
    protected SharedResponseCache newCache(int maxEntryBytes) {
        // a fresh key space per test: its own prefix
        prefix = "t" + (++tests) + ":";
        RedisResponseCaches.Handle handle = RedisResponseCaches.open(settings(prefix, Duration.ofMinutes(1),
                maxEntryBytes));
        opened.add(handle);
        return handle;
    }

    @Override
    protected SharedResponseCache otherReplica() {
        RedisResponseCaches.Handle handle = RedisResponseCaches.open(settings(prefix, Duration.ofMinutes(1),
                MAX_ENTRY_BYTES));
        opened.add(handle);
        return handle;
    }

    @AfterEach
    void closeAll() {
        opened.forEach(RedisResponseCaches.Handle::close);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void entriesExpireAfterTheirTtl() throws Exception {
        try (RedisResponseCaches.Handle shortLived = RedisResponseCaches.open(settings(prefix + "ttl:",
                Duration.ofMillis(200), MAX_ENTRY_BYTES))) {
            SharedResponseCache.Lookup miss = shortLived.lookup("k", List.of("u"));
            shortLived.publish(miss.ticket(), bytes("a"));
            assertThat(shortLived.lookup("k", List.of("u")).answer()).isPresent();
            long pttl = reply(server.command("PTTL", prefix + "ttl:rc:e:k"));
            assertThat(pttl).isBetween(1L, 200L);
            Thread.sleep(400);
            assertThat(shortLived.lookup("k", List.of("u")).answer()).isEmpty();
            // the generation has no TTL: it must outlive every entry
            shortLived.bump(List.of("u"));
            assertThat(reply(server.command("PTTL", prefix + "ttl:rc:g:u"))).isEqualTo(-1L);
        }
    }

    @Test
    void twoPrefixesOnOneServerDoNotSeeEachOther() {
        SharedResponseCache.Lookup miss = cache.lookup("k", List.of("u"));
        cache.publish(miss.ticket(), bytes("a"));
        try (RedisResponseCaches.Handle other = RedisResponseCaches.open(settings(prefix + "other:",
                Duration.ofMinutes(1), MAX_ENTRY_BYTES))) {
            assertThat(other.lookup("k", List.of("u")).answer()).isEmpty();
            other.bump(List.of("u"));
        }
        assertThat(cache.lookup("k", List.of("u")).answer()).isPresent();
    }

    @Test
    void aServerThatLostItsScriptsStillAnswers() {
        SharedResponseCache.Lookup miss = cache.lookup("k", List.of("u"));
        server.command("SCRIPT", "FLUSH");
        assertThat(cache.publish(miss.ticket(), bytes("a"))).isEqualTo(SharedResponseCache.Published.PUBLISHED);
        server.command("SCRIPT", "FLUSH");
        assertThat(cache.lookup("k", List.of("u")).answer()).isPresent();
    }

    @Test
    void aServerThatIsDownIsUnavailableAndTheCacheRecoversWhenItReturns() {
        server.stop();
        try {
            assertThatThrownBy(() -> cache.lookup("k", List.of("u"))).isInstanceOfSatisfying(GatewayException.class,
                    e -> assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_UNAVAILABLE));
            assertThatThrownBy(() -> cache.bump(List.of("u"))).isInstanceOfSatisfying(GatewayException.class,
                    e -> assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_UNAVAILABLE));
        } finally {
            server.restart();
        }
        SharedResponseCache.Lookup miss = cache.lookup("k", List.of("u"));
        assertThat(cache.publish(miss.ticket(), bytes("a"))).isEqualTo(SharedResponseCache.Published.PUBLISHED);
    }

    @Test
    void afterAServerRestartThePooledConnectionsAreReplacedWithoutFailingAnOperation() {
        cache.bump(List.of("u"));
        cache.lookup("k", List.of("u")); // the pool now holds connections to the old server process
        server.stop();
        server.restart();

        cache.bump(List.of("u"));
        SharedResponseCache.Lookup miss = cache.lookup("k", List.of("u"));
        assertThat(cache.publish(miss.ticket(), bytes("a"))).isEqualTo(SharedResponseCache.Published.PUBLISHED);
        cache.ping();
    }

    @Test
    void aConditionalLookupHappensOnlyWhileTheCheckedKeysHoldTheirValues() {
        SharedResponseCache.Lookup miss = cache.lookup("k", List.of("u"));
        assertThat(cache.publish(miss.ticket(), bytes("a"))).isEqualTo(SharedResponseCache.Published.PUBLISHED);
        String version = prefix + "catalog:gen";
        server.command("SET", version, "7");

        assertThat(cache.lookupIf("k", List.of("u"), List.of(version), List.of("7"))).hasValueSatisfying(hit -> {
            assertThat(hit.answer()).hasValueSatisfying(b -> assertThat(new String(b, StandardCharsets.UTF_8))
                    .isEqualTo("a"));
            assertThat(hit.ticket()).isEqualTo(miss.ticket());
        });
        assertThat(cache.lookupIf("k", List.of("u"), List.of(version), List.of("6"))).isEmpty();
        assertThat(cache.lookupIf("k", List.of("u"), List.of(version, prefix + "absent"), List.of("7", "0")))
                .as("an absent key reads as 0").isPresent();
        assertThat(cache.lookupIf("other", List.of("u"), List.of(version), List.of("7")))
                .hasValueSatisfying(m -> assertThat(m.answer()).isEmpty());
    }

    @Test
    void aServerRestoredFromAnOlderSnapshotUnderLoadNeverServesAnAnswerOlderThanAnAcknowledgedWrite() throws Exception {
        try (RedisTestServer own = RedisTestServer.start()) {
            RedisResponseCaches.Settings settings = new RedisResponseCaches.Settings(URI.create(own.url()), "r:",
                    Duration.ofMinutes(1), MAX_ENTRY_BYTES, 8, Duration.ofSeconds(2));
            RedisResponseCaches.Handle a = RedisResponseCaches.open(settings);
            RedisResponseCaches.Handle b = RedisResponseCaches.open(settings);
            opened.add(a);
            opened.add(b);
            // before the write: an answer cached, and a slow read's ticket taken, both in the snapshot's state
            a.bump(List.of("u"));
            assertThat(a.publish(a.lookup("k", List.of("u")).ticket(), bytes("before")))
                    .isEqualTo(SharedResponseCache.Published.PUBLISHED);
            SharedResponseCache.Ticket slow = b.lookup("slow", List.of("u")).ticket();
            assertThat(own.command("SAVE")).isEqualTo("+OK"); // the snapshot the server comes back from
            // the write, acknowledged after its generation moved; the snapshot does not have that move
            a.bump(List.of("u"));
            assertThat(b.lookup("k", List.of("u")).answer()).isEmpty();
            assertThat(b.publish(b.lookup("k", List.of("u")).ticket(), bytes("after")))
                    .isEqualTo(SharedResponseCache.Published.PUBLISHED);

            java.util.concurrent.atomic.AtomicBoolean restored = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicInteger servedOld = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicInteger answered = new java.util.concurrent.atomic.AtomicInteger();
            List<Thread> load = new ArrayList<>();
            for (RedisResponseCaches.Handle replica : List.of(a, b, a, b)) {
                load.add(Thread.ofPlatform().start(() -> {
                    while (!stop.get()) {
                        try {
                            SharedResponseCache.Lookup l = replica.lookup("k", List.of("u"));
                            if (restored.get()) {
                                answered.incrementAndGet();
                                if (l.answer().map(x -> new String(x, StandardCharsets.UTF_8)).orElse("")
                                        .equals("before")) {
                                    servedOld.incrementAndGet();
                                }
                            }
                        } catch (GatewayException e) {
                            // the server is down for a moment: an error, never an old answer
                        }
                    }
                }));
            }
            Thread.sleep(200);
            own.kill(); // SIGKILL: no save on the way down, dump.rdb is the older snapshot
            own.restart();
            restored.set(true);
            long until = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            while (System.nanoTime() < until && answered.get() < 200) {
                Thread.sleep(20);
            }
            stop.set(true);
            for (Thread t : load) {
                t.join(10_000);
            }
            assertThat(own.command("INCRBY", "r:rc:g:u", "0")).as("the server came back with the older generation")
                    .isEqualTo(":1");
            assertThat(answered.get()).as("lookups answered after the restore").isPositive();
            assertThat(servedOld.get()).as("lookups served the answer cached before the write").isZero();
            assertThat(a.lookup("k", List.of("u")).answer()).isEmpty();
            assertThat(b.publish(slow, bytes("slow"))).as("a ticket taken before the restart")
                    .isEqualTo(SharedResponseCache.Published.STALE_TICKET);
            // and the cache works on in the new epoch
            SharedResponseCache.Lookup miss = b.lookup("k", List.of("u"));
            assertThat(a.publish(miss.ticket(), bytes("now"))).isEqualTo(SharedResponseCache.Published.PUBLISHED);
            assertThat(b.lookup("k", List.of("u")).answer()).hasValueSatisfying(x ->
                    assertThat(new String(x, StandardCharsets.UTF_8)).isEqualTo("now"));
        }
    }

    @Test
    void aUserWithoutInfoIsRefusedAtStartNamingIt() {
        server.command("ACL", "SETUSER", "noinfo", "on", ">pw", "~*", "+@all", "-info");
        try {
            URI url = URI.create("redis://noinfo:pw@127.0.0.1:" + server.port() + "/0");
            assertThatThrownBy(() -> RedisResponseCaches.open(new RedisResponseCaches.Settings(url, prefix,
                    Duration.ofMinutes(1), MAX_ENTRY_BYTES, 8, Duration.ofSeconds(2))))
                    .hasMessageContaining("INFO server");
        } finally {
            server.command("ACL", "DELUSER", "noinfo");
        }
    }

    @Test
    void anEvictionPolicyThatMayDropGenerationsIsRefused() {
        server.command("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
        try {
            assertThatThrownBy(() -> RedisResponseCaches.open(settings(prefix, Duration.ofMinutes(1),
                    MAX_ENTRY_BYTES))).isInstanceOf(IllegalStateException.class).hasMessageContaining("volatile-lru");
        } finally {
            server.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
        }
    }
}
