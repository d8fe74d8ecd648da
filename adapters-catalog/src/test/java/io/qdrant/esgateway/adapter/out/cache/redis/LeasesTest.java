package io.qdrant.esgateway.adapter.out.cache.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.adapter.out.catalog.redis.RedisCatalogs;
import io.qdrant.esgateway.adapter.out.catalog.redis.RedisTestServer;
import io.qdrant.esgateway.application.port.out.Catalog;
import io.qdrant.esgateway.application.port.out.SharedResponseCache.Ticket;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.Jedis;

/**
 * The replicas' leases on a real Redis/Valkey server: two cache handles with a lease each stand for two replicas. What
 * a replica knows without asking the server is never of before a change another replica has acknowledged.
 */
@Timeout(60)
class LeasesTest {
    private static final Duration TERM = Duration.ofMillis(600);
    private static final List<String> NONE = List.of();
    private static RedisTestServer server;
    private static int tests;
    private String prefix;
    private final List<AutoCloseable> opened = new ArrayList<>();

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

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : opened) {
            c.close();
        }
    }

    private RedisResponseCache replica() {
        if (prefix == null) {
            prefix = "lease" + (++tests) + ":";
        }
        RedisResponseCache cache = (RedisResponseCache) RedisResponseCaches.open(new RedisResponseCaches.Settings(
                URI.create(server.url()), prefix, Duration.ofMinutes(1), 1 << 20, 8, Duration.ofSeconds(2), TERM));
        opened.add(cache);
        return cache;
    }

    /** Looks up until the lease runs and what the lookup read is known; the known ticket. */
    private static Ticket knownAfterLookingUp(RedisResponseCache cache, String key, List<String> indices,
                                             List<String> checked, List<String> values) throws InterruptedException {
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() - giveUp < 0) {
            cache.lookupIf(key, indices, checked, values).orElseThrow();
            Optional<Ticket> known = cache.knownTicket(key, indices, checked, values);
            if (known.isPresent()) {
                return known.get();
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the lease never ran");
    }

    /** How long until {@code cache} no longer knows what it learned of {@code u1} (it must, within 5 s). */
    private static long millisUntilForgotten(RedisResponseCache cache) throws InterruptedException {
        long start = System.nanoTime();
        while (cache.knownTicket("k", List.of("u1"), NONE, NONE).isPresent()
                && System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5)) {
            Thread.sleep(5);
        }
        assertThat(cache.knownTicket("k", List.of("u1"), NONE, NONE)).as("forgotten").isEmpty();
        return millisSince(start);
    }

    private static long millisSince(long start) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    @Test
    void aReplicaKnowsOnlyWhatItReadAndOnlyTheValuesItRead() throws Exception {
        RedisResponseCache a = replica();
        assertThat(knownAfterLookingUp(a, "k", List.of("u1"), NONE, NONE).generations()).containsExactly(0L);
        assertThat(a.knownTicket("k", List.of("u1", "u2"), NONE, NONE)).as("u2 never read").isEmpty();
        assertThat(a.knownTicket("k", List.of("u1"), List.of(prefix + "other"), List.of("0")))
                .as("a key never read").isEmpty();
        a.lookupIf("k", List.of("u1"), List.of(prefix + "other"), List.of("0")).orElseThrow();
        assertThat(a.knownTicket("k", List.of("u1"), List.of(prefix + "other"), List.of("7")))
                .as("a checked key that holds another value").isEmpty();
        assertThat(a.knownTicket("k", List.of("u1"), List.of(prefix + "other"), List.of("0"))).isPresent();
    }

    @Test
    void aWriteOnAnotherReplicaIsAcknowledgedOnlyAfterThisReplicaForgotTheGenerationItKnew() throws Exception {
        RedisResponseCache a = replica();
        RedisResponseCache b = replica();
        knownAfterLookingUp(b, "k", List.of("u1"), NONE, NONE);
        knownAfterLookingUp(a, "k", List.of("u1"), NONE, NONE);
        b.leases().beforeForgetting = () -> sleep(300); // b is slow to act on announcements

        long start = System.nanoTime();
        a.bump(List.of("u1"));

        assertThat(b.knownTicket("k", List.of("u1"), NONE, NONE)).as("b forgot before the write was acknowledged")
                .isEmpty();
        assertThat(millisSince(start)).as("the writer waited for b").isGreaterThanOrEqualTo(250);
        assertThat(a.knownTicket("k", List.of("u1"), NONE, NONE)).as("the writer forgot too").isEmpty();
        b.leases().beforeForgetting = () -> { };
        assertThat(knownAfterLookingUp(b, "k", List.of("u1"), NONE, NONE).generations()).containsExactly(1L);
    }

    @Test
    void aReplicaThatStopsActingOnAnnouncementsHoldsAWriteAtMostAboutALeaseTermAndNoLongerUsesWhatItKnew()
            throws Exception {
        RedisResponseCache a = replica();
        RedisResponseCache b = replica();
        knownAfterLookingUp(b, "k", List.of("u1"), NONE, NONE);
        knownAfterLookingUp(a, "k", List.of("u2"), NONE, NONE);
        Thread.sleep(TERM.toMillis()); // past the new registry's grace
        CountDownLatch stuck = new CountDownLatch(1);
        b.leases().beforeForgetting = () -> {
            try {
                stuck.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        try {
            long start = System.nanoTime();
            a.bump(List.of("u1"));
            long waited = millisSince(start);

            assertThat(waited).as("waited for b's lease to end").isGreaterThanOrEqualTo(TERM.toMillis() / 2)
                    .isLessThan(3 * TERM.toMillis() + 1000);
            assertThat(b.knownTicket("k", List.of("u1"), NONE, NONE)).as("b no longer answers from what it knew")
                    .isEmpty();
        } finally {
            stuck.countDown();
        }
        // b subscribes again, takes a lease anew and learns the moved generation
        assertThat(knownAfterLookingUp(b, "k", List.of("u1"), NONE, NONE).generations()).containsExactly(1L);
    }

    @Test
    void aReplicaWhoseSubscriptionBreaksForgetsWhatItKnewAndTakesItsLeaseAgain() throws Exception {
        RedisResponseCache b = replica();
        knownAfterLookingUp(b, "k", List.of("u1"), NONE, NONE);
        try (Jedis admin = new Jedis(URI.create(server.url()))) {
            admin.clientKill(new redis.clients.jedis.params.ClientKillParams().type(
                    redis.clients.jedis.args.ClientType.PUBSUB));
        }
        millisUntilForgotten(b);
        assertThat(b.leases().size()).as("everything forgotten").isZero();
        assertThat(knownAfterLookingUp(b, "k", List.of("u1"), NONE, NONE).generations()).containsExactly(0L);
    }

    @Test
    void aFlushOfTheServersDataMakesEveryReplicaForgetWhatItKnewAtItsNextRenewal() throws Exception {
        RedisResponseCache b = replica();
        knownAfterLookingUp(b, "k", List.of("u1"), NONE, NONE);
        try (Jedis admin = new Jedis(URI.create(server.url()))) {
            admin.flushDB(); // no connection breaks: only the lost registry tells
        }
        // renewals come every quarter term; three terms leave room for a loaded machine (without the check: never)
        assertThat(millisUntilForgotten(b)).as("forgotten at a renewal").isLessThan(3 * TERM.toMillis());
    }

    @Test
    void theFirstWriteOnANewRegistryWaitsALeaseTermAndLaterOnesDoNot() {
        prefix = "lease" + (++tests) + ":";
        long start = System.nanoTime();
        RedisResponseCache a = replica();
        a.bump(List.of("u1"));
        assertThat(millisSince(start)).as("a lease from before the registry ends within a term")
                .isGreaterThanOrEqualTo(TERM.toMillis() - 50);
        long again = System.nanoTime();
        a.bump(List.of("u1"));
        assertThat(millisSince(again)).as("nobody else holds a lease: no wait").isLessThan(TERM.toMillis() * 3 / 4);
    }

    @Test
    void aCatalogChangeIsAcknowledgedOnlyAfterEveryLeaseForgotTheCatalogGeneration() throws Exception {
        RedisResponseCache b = replica();
        RedisCatalogs.Handle catalog = RedisCatalogs.open(new RedisCatalogs.Settings(URI.create(server.url()), prefix,
                Duration.ofSeconds(5), 4, TERM));
        opened.add(catalog);
        catalog.createIndex(index("one"), List.of());
        catalog.view();
        Catalog.Pinned pinned = catalog.pinned().orElseThrow();
        knownAfterLookingUp(b, "k", List.of("uuid-one"), pinned.keys(), pinned.values());
        b.leases().beforeForgetting = () -> sleep(300);

        catalog.createIndex(index("two"), List.of());

        assertThat(b.knownTicket("k", List.of("uuid-one"), pinned.keys(), pinned.values()))
                .as("the catalog generation b knew is forgotten before the change is acknowledged").isEmpty();
    }

    @Test
    void aCatalogReadUnderTheLeaseSendsNothingAndStillSeesEveryAcknowledgedChange() throws Exception {
        RedisResponseCache b = replica();
        RedisCatalogs.Handle onB = RedisCatalogs.open(new RedisCatalogs.Settings(URI.create(server.url()), prefix,
                Duration.ofSeconds(5), 4, TERM));
        RedisCatalogs.Handle onA = RedisCatalogs.open(new RedisCatalogs.Settings(URI.create(server.url()), prefix,
                Duration.ofSeconds(5), 4, TERM));
        opened.add(onB);
        opened.add(onA);
        onB.useKnownValues(b.knownValues());
        onA.createIndex(index("one"), List.of());
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!b.knownValues().current(new String[] {prefix + "catalog:gen", prefix + "catalog:epoch"},
                new String[] {Long.toString(onB.view().version()), epoch()}) && System.nanoTime() - giveUp < 0) {
            Thread.sleep(20); // until b's lease runs and a read of the catalog taught it the generation
        }
        long before = mgets();
        for (int i = 0; i < 100; i++) {
            assertThat(onB.view().index("one")).isPresent();
        }
        assertThat(mgets() - before).as("catalog reads that asked the server").isZero();
        b.leases().beforeForgetting = () -> sleep(200);

        onA.deleteIndices(List.of("one"));

        assertThat(onB.view().index("one")).as("a deletion acknowledged on another replica").isEmpty();
    }

    private String epoch() {
        try (Jedis admin = new Jedis(URI.create(server.url()))) {
            return admin.get(prefix + "catalog:epoch");
        }
    }

    private static long mgets() {
        try (Jedis admin = new Jedis(URI.create(server.url()))) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("cmdstat_mget:calls=(\\d+)")
                    .matcher(admin.info("commandstats"));
            return m.find() ? Long.parseLong(m.group(1)) : 0;
        }
    }

    private static IndexMetadata index(String name) {
        return new IndexMetadata(name, "uuid-" + name, Instant.EPOCH, IndexSettings.DEFAULTS, Mappings.EMPTY);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
