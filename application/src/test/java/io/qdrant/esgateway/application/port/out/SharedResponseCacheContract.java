package io.qdrant.esgateway.application.port.out;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.application.port.out.SharedResponseCache.Lookup;
import io.qdrant.esgateway.application.port.out.SharedResponseCache.Published;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What every {@link SharedResponseCache} must do. An adapter's test extends this class and returns a fresh, empty
 * cache from {@link #newCache(int)} (two calls may return two clients of one shared store: {@link #otherReplica()});
 * a cache that is {@link AutoCloseable} is closed after each test.
 */
public abstract class SharedResponseCacheContract {
    protected static final int MAX_ENTRY_BYTES = 64 * 1024;

    /** A fresh, empty cache that keeps entries of at most {@code maxEntryBytes}. */
    protected abstract SharedResponseCache newCache(int maxEntryBytes);

    /** A second client of the store {@link #newCache} returned last (another replica); the same one by default. */
    protected SharedResponseCache otherReplica() {
        return cache;
    }

    protected SharedResponseCache cache;

    @BeforeEach
    void open() {
        cache = newCache(MAX_ENTRY_BYTES);
    }

    @AfterEach
    void close() throws Exception {
        if (cache instanceof AutoCloseable c) {
            c.close();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(Lookup lookup) {
        return lookup.answer().map(b -> new String(b, StandardCharsets.UTF_8)).orElse(null);
    }

    @Test
    void aMissThenPublishThenHit() {
        Lookup miss = cache.lookup("k1", List.of("u1", "u2"));
        assertThat(miss.answer()).isEmpty();
        assertThat(miss.ticket().generations()).hasSize(2);
        assertThat(cache.publish(miss.ticket(), bytes("answer one"))).isEqualTo(Published.PUBLISHED);
        Lookup hit = cache.lookup("k1", List.of("u1", "u2"));
        assertThat(text(hit)).isEqualTo("answer one");
        assertThat(hit.ticket()).isEqualTo(miss.ticket());
        assertThat(cache.lookup("k2", List.of("u1", "u2")).answer()).isEmpty();
    }

    @Test
    void anotherReplicaSeesWhatOnePublishedAndWhatOneBumped() {
        SharedResponseCache other = otherReplica();
        Lookup miss = cache.lookup("k", List.of("u"));
        assertThat(cache.publish(miss.ticket(), bytes("a"))).isEqualTo(Published.PUBLISHED);
        assertThat(text(other.lookup("k", List.of("u")))).isEqualTo("a");
        other.bump(List.of("u"));
        assertThat(cache.lookup("k", List.of("u")).answer()).isEmpty();
    }

    @Test
    void aBumpOfAnIndexTheRequestReadsHidesTheEntryAndOfAnotherDoesNot() {
        Lookup miss = cache.lookup("k", List.of("u1", "u2"));
        cache.publish(miss.ticket(), bytes("a"));
        cache.bump(List.of("unrelated"));
        assertThat(text(cache.lookup("k", List.of("u1", "u2")))).isEqualTo("a");
        cache.bump(List.of("u2"));
        Lookup after = cache.lookup("k", List.of("u1", "u2"));
        assertThat(after.answer()).isEmpty();
        assertThat(after.ticket().generations()).isNotEqualTo(miss.ticket().generations());
        assertThat(cache.publish(after.ticket(), bytes("b"))).isEqualTo(Published.PUBLISHED);
        assertThat(text(cache.lookup("k", List.of("u1", "u2")))).isEqualTo("b");
    }

    @Test
    void oneBumpMovesEveryIndexItNames() {
        Lookup one = cache.lookup("k1", List.of("u1"));
        Lookup two = cache.lookup("k2", List.of("u2"));
        cache.publish(one.ticket(), bytes("1"));
        cache.publish(two.ticket(), bytes("2"));
        cache.bump(List.of("u1", "u2"));
        assertThat(cache.lookup("k1", List.of("u1")).answer()).isEmpty();
        assertThat(cache.lookup("k2", List.of("u2")).answer()).isEmpty();
    }

    /** The ticket race, step by step: a slow read takes its ticket, a write is acknowledged, the read finishes. */
    @Test
    void aReadThatStartedBeforeAnAcknowledgedWriteDoesNotPublish() {
        Lookup slowRead = cache.lookup("k", List.of("u"));
        // the write: applied to the store, then its generation moved, then acknowledged
        otherReplica().bump(List.of("u"));
        assertThat(cache.publish(slowRead.ticket(), bytes("pre-write answer"))).isEqualTo(Published.STALE_TICKET);
        Lookup later = cache.lookup("k", List.of("u"));
        assertThat(later.answer()).isEmpty();
        assertThat(cache.publish(later.ticket(), bytes("post-write answer"))).isEqualTo(Published.PUBLISHED);
        assertThat(text(cache.lookup("k", List.of("u")))).isEqualTo("post-write answer");
    }

    @Test
    void aStaleTicketDoesNotReplaceACurrentEntry() {
        Lookup old = cache.lookup("k", List.of("u"));
        cache.bump(List.of("u"));
        Lookup fresh = cache.lookup("k", List.of("u"));
        cache.publish(fresh.ticket(), bytes("current"));
        assertThat(cache.publish(old.ticket(), bytes("old"))).isEqualTo(Published.STALE_TICKET);
        assertThat(text(cache.lookup("k", List.of("u")))).isEqualTo("current");
    }

    @Test
    void anEntryOverTheSizeLimitIsNotKept() {
        Lookup miss = cache.lookup("k", List.of("u"));
        assertThat(cache.publish(miss.ticket(), new byte[MAX_ENTRY_BYTES + 1])).isEqualTo(Published.TOO_LARGE);
        assertThat(cache.lookup("k", List.of("u")).answer()).isEmpty();
        assertThat(cache.publish(miss.ticket(), new byte[MAX_ENTRY_BYTES])).isEqualTo(Published.PUBLISHED);
        assertThat(cache.lookup("k", List.of("u")).answer()).get().extracting(b -> b.length)
                .isEqualTo(MAX_ENTRY_BYTES);
    }

    @Test
    void aRequestOverNoIndexIsCachedUntilNothing() {
        Lookup miss = cache.lookup("k", List.of());
        assertThat(cache.publish(miss.ticket(), bytes("empty"))).isEqualTo(Published.PUBLISHED);
        cache.bump(List.of("u"));
        assertThat(text(cache.lookup("k", List.of()))).isEqualTo("empty");
    }

    @Test
    void binaryAnswersComeBackByteForByte() {
        byte[] all = new byte[256];
        for (int i = 0; i < all.length; i++) {
            all[i] = (byte) i;
        }
        Lookup miss = cache.lookup("k", List.of("u"));
        cache.publish(miss.ticket(), all);
        assertThat(cache.lookup("k", List.of("u")).answer()).get().isEqualTo(all);
    }

    /**
     * Writers and readers at once, with real threads: a writer makes its write visible (a counter), moves the
     * generation, then acknowledges (a second counter); a reader notes the acknowledged count before its lookup and
     * publishes the visible count it read after. No reader may ever be served an answer older than a write
     * acknowledged before its lookup started.
     */
    @Test
    @Timeout(60)
    void underConcurrentWritesNoAcknowledgedWriteIsHiddenByAServedAnswer() throws Exception {
        AtomicLong visible = new AtomicLong();
        AtomicLong acknowledged = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        List<String> violations = new ArrayList<>();
        Set<Published> outcomes = ConcurrentHashMap.newKeySet();
        AtomicLong hits = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> running = new ArrayList<>();
            running.add(pool.submit(() -> {
                SharedResponseCache writer = otherReplica();
                for (int i = 0; i < 300 && !stop.get(); i++) {
                    long v = visible.incrementAndGet();
                    writer.bump(List.of("u"));
                    acknowledged.set(v);
                    java.util.concurrent.locks.LockSupport.parkNanos(200_000);
                }
                stop.set(true);
                return null;
            }));
            for (int r = 0; r < 3; r++) {
                running.add(pool.submit(() -> {
                    while (!stop.get()) {
                        long ackedBefore = acknowledged.get();
                        Lookup lookup = cache.lookup("k", List.of("u"));
                        if (lookup.answer().isPresent()) {
                            hits.incrementAndGet();
                            long served = Long.parseLong(new String(lookup.answer().get(), StandardCharsets.UTF_8));
                            if (served < ackedBefore) {
                                synchronized (violations) {
                                    violations.add("served " + served + " after write " + ackedBefore + " was acked");
                                }
                            }
                        } else {
                            long computed = visible.get();
                            outcomes.add(cache.publish(lookup.ticket(), bytes(Long.toString(computed))));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get(50, TimeUnit.SECONDS);
            }
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
        assertThat(violations).isEmpty();
        assertThat(outcomes).contains(Published.PUBLISHED);
        // after the last acknowledged write, the next answer served is the final one
        Lookup last = cache.lookup("k", List.of("u"));
        last.answer().ifPresent(b -> assertThat(new String(b, StandardCharsets.UTF_8))
                .isEqualTo(Long.toString(visible.get())));
    }

    /** A deterministic interleaving with two threads: the slow read's publish waits for the write's acknowledgement. */
    @Test
    @Timeout(30)
    void aSlowReadOnOneThreadInterleavedWithAWriteOnAnotherDoesNotPublish() throws Exception {
        CountDownLatch ticketTaken = new CountDownLatch(1);
        CountDownLatch writeAcknowledged = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Published> read = pool.submit(() -> {
                Lookup lookup = cache.lookup("k", List.of("u"));
                ticketTaken.countDown();
                writeAcknowledged.await();
                return cache.publish(lookup.ticket(), bytes("pre-write"));
            });
            Future<?> write = pool.submit(() -> {
                ticketTaken.await();
                otherReplica().bump(List.of("u"));
                writeAcknowledged.countDown();
                return null;
            });
            write.get(20, TimeUnit.SECONDS);
            assertThat(read.get(20, TimeUnit.SECONDS)).isEqualTo(Published.STALE_TICKET);
        } finally {
            pool.shutdownNow();
        }
        assertThat(cache.lookup("k", List.of("u")).answer()).isEmpty();
    }
}
