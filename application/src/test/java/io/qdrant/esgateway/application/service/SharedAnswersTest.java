package io.qdrant.esgateway.application.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand;
import io.qdrant.esgateway.application.port.in.ResponseCaching;
import io.qdrant.esgateway.application.port.in.ResponseCaching.Mode;
import io.qdrant.esgateway.application.port.out.Catalog;
import io.qdrant.esgateway.application.port.out.InMemoryCatalog;
import io.qdrant.esgateway.application.port.out.InMemoryDocumentStore;
import io.qdrant.esgateway.application.port.out.InMemorySharedResponseCache;
import io.qdrant.esgateway.application.port.out.SharedResponseCache;
import io.qdrant.esgateway.domain.document.Versioning.Condition;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.AliasActions;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.CreateIndexRequest;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shared response cache in front of real services (in-memory catalog, store and cache): two replicas are two
 * {@link SharedAnswers} and two {@link DocumentService}s over one catalog, one store and one cache.
 */
class SharedAnswersTest {
    private static final CatalogView.Options OPTIONS = CatalogView.Options.STRICT_EXPAND_OPEN;
    private static final ResponseCaching.Codec<Long> LONGS = new ResponseCaching.Codec<>() {
        @Override
        public Optional<byte[]> encode(Long answer) {
            return answer < 0 ? Optional.empty() : Optional.of(Long.toString(answer).getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public Long decode(byte[] bytes) {
            return Long.parseLong(new String(bytes, StandardCharsets.UTF_8));
        }
    };

    /** A shared cache that passes every call on to {@code to}; a test overrides what it watches or changes. */
    private static class Forwarding implements SharedResponseCache {
        private final SharedResponseCache to;

        Forwarding(SharedResponseCache to) {
            this.to = to;
        }

        @Override
        public Lookup lookup(String key, List<String> indices) {
            return to.lookup(key, indices);
        }

        @Override
        public Optional<Lookup> lookupIf(String key, List<String> indices, List<String> checked, List<String> values) {
            return to.lookupIf(key, indices, checked, values);
        }

        @Override
        public Published publish(Ticket ticket, byte[] answer) {
            return to.publish(ticket, answer);
        }

        @Override
        public void bump(Collection<String> indices) {
            to.bump(indices);
        }

        @Override
        public void ping() {
            to.ping();
        }

        @Override
        public Optional<Generations> knownGenerations(List<String> indices, List<String> checked,
                                                      List<String> values) {
            return to.knownGenerations(indices, checked, values);
        }
    }

    /** {@code to}, counting in {@code publications} every publication sent to it. */
    private static SharedResponseCache countingPublications(SharedResponseCache to, AtomicInteger publications) {
        return new Forwarding(to) {
            @Override
            public Published publish(Ticket ticket, byte[] answer) {
                publications.incrementAndGet();
                return super.publish(ticket, answer);
            }
        };
    }

    private final AtomicInteger ids = new AtomicInteger();
    private final InMemoryCatalog catalog = new InMemoryCatalog();
    private final InMemoryDocumentStore store = new InMemoryDocumentStore();
    private final InMemorySharedResponseCache shared = new InMemorySharedResponseCache(1 << 20);
    private final IndexAdministrationService admin = new IndexAdministrationService(catalog, store,
            () -> "uuid-" + ids.incrementAndGet(), () -> Instant.EPOCH);
    private final SearchService search = new SearchService(catalog, store);
    private final AtomicInteger computed = new AtomicInteger();

    private DocumentService writer(SharedResponseCache cache) {
        return new DocumentService(catalog, store, admin, () -> "id-" + ids.incrementAndGet(), () -> Instant.EPOCH,
                cache);
    }

    private Supplier<Long> count(String target) {
        return () -> {
            computed.incrementAndGet();
            return search.count(target, Optional.empty(), OPTIONS).count();
        };
    }

    private static WriteCommand index(String target, String id) {
        return new WriteCommand.Index(target, Optional.of(id), (JsonObject) Json.parse("{\"n\":1}"), false,
                Condition.NONE, false);
    }

    @Test
    void onServesTheSecondReadFromTheCacheAndAWriteOnAnotherReplicaInvalidatesIt() {
        admin.create(CreateIndexRequest.parse("i", null));
        SharedAnswers a = new SharedAnswers(catalog, shared, Mode.ON);
        SharedAnswers b = new SharedAnswers(catalog, shared, Mode.ON);
        writer(shared).write(index("i", "1"));
        assertThat(a.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(1L);
        assertThat(b.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(1L);
        assertThat(computed).hasValue(1);
        assertThat(b.counts().hits()).isEqualTo(1);
        writer(shared).write(index("i", "2"));
        assertThat(b.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(2L);
        assertThat(computed).hasValue(2);
        assertThat(a.counts().published() + b.counts().published()).isEqualTo(2);
    }

    @Test
    void aWriterWithoutTheSharedCacheWouldLeaveTheOldAnswerServed() {
        // shows the write path's bump is what invalidates: without it the pre-write answer is served
        admin.create(CreateIndexRequest.parse("i", null));
        writer(shared).write(index("i", "1"));
        SharedAnswers a = new SharedAnswers(catalog, shared, Mode.ON);
        a.read("i", OPTIONS, "count", count("i"), LONGS);
        writer(null).write(index("i", "2"));
        assertThat(a.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(1L);
    }

    @Test
    void coordinateTakesTicketsAndPublishesButNeverServes() {
        admin.create(CreateIndexRequest.parse("i", null));
        SharedAnswers on = new SharedAnswers(catalog, shared, Mode.ON);
        SharedAnswers coordinate = new SharedAnswers(catalog, shared, Mode.COORDINATE);
        coordinate.read("i", OPTIONS, "count", count("i"), LONGS);
        coordinate.read("i", OPTIONS, "count", count("i"), LONGS);
        assertThat(computed).hasValue(2);
        assertThat(coordinate.counts().hits()).isEqualTo(1);
        assertThat(coordinate.counts().published()).isEqualTo(1);
        on.read("i", OPTIONS, "count", count("i"), LONGS);
        assertThat(computed).hasValue(2);
    }

    @Test
    void coordinatePublishesOnlyWhenTheEntryIsMissingOrStale() {
        admin.create(CreateIndexRequest.parse("i", null));
        SharedAnswers a = new SharedAnswers(catalog, shared, Mode.COORDINATE);
        SharedAnswers b = new SharedAnswers(catalog, shared, Mode.COORDINATE);
        AtomicInteger publications = new AtomicInteger();
        SharedResponseCache counting = countingPublications(shared, publications);
        SharedAnswers c = new SharedAnswers(catalog, counting, Mode.COORDINATE);
        for (int i = 0; i < 10; i++) {
            c.read("i", OPTIONS, "count", count("i"), LONGS);
            (i % 2 == 0 ? a : b).read("i", OPTIONS, "count", count("i"), LONGS);
        }
        assertThat(computed).hasValue(20);
        assertThat(publications).hasValue(1);
        assertThat(a.counts().published() + b.counts().published() + c.counts().published()).isEqualTo(1);
        assertThat(a.counts().hits() + b.counts().hits() + c.counts().hits()).isEqualTo(19);
        writer(shared).write(index("i", "1"));
        c.read("i", OPTIONS, "count", count("i"), LONGS);
        c.read("i", OPTIONS, "count", count("i"), LONGS);
        assertThat(publications).hasValue(2);
        assertThat(c.counts().misses()).isEqualTo(2);
        SharedAnswers on = new SharedAnswers(catalog, shared, Mode.ON);
        assertThat(on.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(1L);
        assertThat(computed).hasValue(22);
    }

    @Test
    void withTwoUsesARequestIsPublishedOnItsSecondComputationOnAReplicaAndServedFromTheCacheAfterThat() {
        admin.create(CreateIndexRequest.parse("i", null));
        writer(shared).write(index("i", "1"));
        SharedAnswers a = new SharedAnswers(catalog, shared, Mode.ON, Runnable::run, 2);
        SharedAnswers b = new SharedAnswers(catalog, shared, Mode.ON, Runnable::run, 2);
        assertThat(a.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(1L);
        assertThat(b.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(1L);
        assertThat(computed).hasValue(2);
        assertThat(a.counts().published() + b.counts().published()).as("each computed it once").isZero();
        assertThat(a.counts().notAdmitted() + b.counts().notAdmitted()).isEqualTo(2);
        assertThat(shared.lookup(SharedAnswers.key("i", OPTIONS, catalog.view().version(), List.of("uuid-1"), "count"),
                List.of("uuid-1")).answer()).as("nothing in the cache").isEmpty();

        assertThat(a.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(1L);
        assertThat(computed).hasValue(3);
        assertThat(a.counts().published()).as("a's second computation").isEqualTo(1);
        assertThat(b.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(1L);
        assertThat(a.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(1L);
        assertThat(computed).as("served from the cache").hasValue(3);
        assertThat(a.counts().hits() + b.counts().hits()).isEqualTo(2);

        // a write makes a new answer: computed once more by a replica that has computed the request before
        writer(shared).write(index("i", "2"));
        assertThat(b.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(2L);
        assertThat(b.counts().published()).isEqualTo(1);
        assertThat(a.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(2L);
        assertThat(computed).hasValue(4);
    }

    /** A replica on a snapshot of the catalog now, over {@code cache}, publishing on a request's second computation. */
    private SharedAnswers twoUsesOn(SharedResponseCache cache) {
        return new SharedAnswers(pinnedTo(catalog.view(), new AtomicInteger()), cache, Mode.ON, Runnable::run, 2);
    }

    @Test
    void withTwoUsesARequestComputedUnderAKnownTicketIsPublishedTheSecondTime() {
        admin.create(CreateIndexRequest.parse("i", null));
        writer(shared).write(index("i", "1"));
        AtomicInteger lookups = new AtomicInteger();
        AtomicInteger publications = new AtomicInteger();
        SharedResponseCache leased = countingPublications(leased(lookups, new AtomicBoolean(true)), publications);
        SharedAnswers b = twoUsesOn(leased);
        b.read("i", OPTIONS, "count", count("i"), LONGS);
        assertThat(lookups).as("computed with no lookup").hasValue(0);
        assertThat(publications).as("and not published").hasValue(0);
        b.read("i", OPTIONS, "count", count("i"), LONGS);
        assertThat(lookups).as("looked up the second time").hasValue(1);
        assertThat(publications).hasValue(1);
        assertThat(computed).hasValue(2);
        for (int i = 0; i < 3; i++) {
            assertThat(b.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(1L);
        }
        assertThat(computed).as("held after its lookup").hasValue(2);

        SharedAnswers c = new SharedAnswers(catalog, leased, Mode.COORDINATE, Runnable::run, 2);
        c.read("i", OPTIONS, "count2", count("i"), LONGS);
        c.read("i", OPTIONS, "count2", count("i"), LONGS);
        assertThat(publications).as("coordinate admits the same way").hasValue(2);
        assertThat(c.counts().notAdmitted()).isEqualTo(1);
    }

    @Test
    void theKeyIsTheSha256OfTheTargetOptionsCatalogVersionUuidsAndRequest() throws Exception {
        // replicas of different versions share entries only while this text and its hash stay the same
        String text = "logs-*\u0000" + OPTIONS + "\u00007\u0000u1,u2,\u0000{\"query\":{\"term\":{\"t\":\"é\"}}}";
        String expected = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(StandardCharsets.UTF_8)));
        String request = "{\"query\":{\"term\":{\"t\":\"é\"}}}";
        assertThat(SharedAnswers.key("logs-*", OPTIONS, 7, List.of("u1", "u2"), request)).isEqualTo(expected);
    }

    @Test
    void usesBeforePublishingAreOneToSeven() {
        assertThatThrownBy(() -> new SharedAnswers(catalog, shared, Mode.ON, Runnable::run, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SharedAnswers(catalog, shared, Mode.ON, Runnable::run, 8))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRequestThatMentionsNowIsNeverCached() {
        admin.create(CreateIndexRequest.parse("i", null));
        SharedAnswers a = new SharedAnswers(catalog, shared, Mode.ON);
        a.read("i", OPTIONS, "{\"range\":{\"t\":{\"gte\":\"now-1d\"}}}", count("i"), LONGS);
        a.read("i", OPTIONS, "{\"range\":{\"t\":{\"gte\":\"now-1d\"}}}", count("i"), LONGS);
        assertThat(computed).hasValue(2);
        assertThat(a.counts().uncacheable()).isEqualTo(2);
    }

    @Test
    void anAnswerTheCodecRefusesAndAnErrorAreNotKept() {
        admin.create(CreateIndexRequest.parse("i", null));
        SharedAnswers a = new SharedAnswers(catalog, shared, Mode.ON);
        a.read("i", OPTIONS, "partial", () -> -1L, LONGS);
        assertThat(a.read("i", OPTIONS, "partial", () -> -2L, LONGS)).isEqualTo(-2L);
        assertThatThrownBy(() -> a.read("missing", OPTIONS, "count", count("missing"), LONGS))
                .isInstanceOf(GatewayException.class);
        assertThat(a.counts().published()).isZero();
    }

    @Test
    void anAliasSwapIsSeenByTheNextRead() {
        admin.create(CreateIndexRequest.parse("old", null));
        admin.create(CreateIndexRequest.parse("new", null));
        writer(shared).write(index("new", "1"));
        admin.updateAliases(List.of(AliasActions.add("old", "current", null)));
        SharedAnswers a = new SharedAnswers(catalog, shared, Mode.ON);
        assertThat(a.read("current", OPTIONS, "count", count("current"), LONGS)).isEqualTo(0L);
        admin.updateAliases(List.of(AliasActions.add("new", "current", null),
                new AliasActions.Action.Remove(List.of("old"), List.of("current"), Optional.empty())));
        assertThat(a.read("current", OPTIONS, "count", count("current"), LONGS)).isEqualTo(1L);
    }

    /**
     * The catalog as a shared one shows it to {@link SharedAnswers}: {@code pinned()} gives the local snapshot
     * {@code snapshot} (current while the live catalog's version is the snapshot's); {@code view()} reads are counted.
     */
    private Catalog pinnedTo(CatalogView snapshot, AtomicInteger views) {
        return (Catalog) java.lang.reflect.Proxy.newProxyInstance(Catalog.class.getClassLoader(),
                new Class<?>[] {Catalog.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "pinned" -> {
                            return Optional.of(new Catalog.Pinned(snapshot, List.of("catalog-version"),
                                    List.of(Long.toString(snapshot.version()))));
                        }
                        case "view" -> views.incrementAndGet();
                        default -> {
                        }
                    }
                    try {
                        return method.invoke(catalog, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** The shared cache, whose conditional lookup checks {@code catalog-version} against the live catalog. */
    private SharedResponseCache checkingTheCatalog(AtomicInteger conditional) {
        return new Forwarding(shared) {
            @Override
            public Optional<Lookup> lookupIf(String key, List<String> indices, List<String> checked,
                                             List<String> values) {
                conditional.incrementAndGet();
                assertThat(checked).containsExactly("catalog-version");
                return Long.toString(catalog.view().version()).equals(values.get(0))
                        ? Optional.of(shared.lookup(key, indices)) : Optional.empty();
            }
        };
    }

    @Test
    void aCurrentLocalSnapshotIsCheckedInTheLookupAndAHitReadsNothingElse() {
        admin.create(CreateIndexRequest.parse("i", null));
        writer(shared).write(index("i", "1"));
        new SharedAnswers(catalog, shared, Mode.ON).read("i", OPTIONS, "count", count("i"), LONGS);
        AtomicInteger views = new AtomicInteger();
        AtomicInteger conditional = new AtomicInteger();
        SharedAnswers b = new SharedAnswers(pinnedTo(catalog.view(), views), checkingTheCatalog(conditional),
                Mode.ON);

        assertThat(b.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(1L);

        assertThat(computed).hasValue(1);
        assertThat(b.counts().hits()).isEqualTo(1);
        assertThat(conditional).hasValue(1);
        assertThat(views).as("catalog reads besides the lookup").hasValue(0);
    }

    @Test
    void aMissComputesWithTheViewItsLookupFoundCurrent() {
        admin.create(CreateIndexRequest.parse("i", null));
        writer(shared).write(index("i", "1"));
        CatalogView snapshot = catalog.view();
        AtomicInteger views = new AtomicInteger();
        SharedAnswers b = new SharedAnswers(pinnedTo(snapshot, views), checkingTheCatalog(new AtomicInteger()),
                Mode.ON);
        java.util.concurrent.atomic.AtomicReference<CatalogView> seen = new java.util.concurrent.atomic.AtomicReference<>();

        assertThat(b.read("i", OPTIONS, "count", () -> {
            seen.set(Catalog.CHECKED.isBound() ? Catalog.CHECKED.get() : null);
            return count("i").get();
        }, LONGS)).isEqualTo(1L);

        assertThat(b.counts().misses()).isEqualTo(1);
        assertThat(seen.get()).as("the view the computation may use without reading the catalog").isSameAs(snapshot);
        assertThat(views).as("catalog reads besides the lookup").hasValue(0);
        assertThat(Catalog.CHECKED.isBound()).as("bound only around the computation").isFalse();

        // without a local snapshot the read takes the view it read itself
        AtomicInteger unpinned = new AtomicInteger();
        seen.set(null);
        new SharedAnswers(catalog, shared, Mode.ON).read("i", OPTIONS, "count2", () -> {
            unpinned.incrementAndGet();
            seen.set(Catalog.CHECKED.isBound() ? Catalog.CHECKED.get() : null);
            return 1L;
        }, LONGS);
        assertThat(unpinned).hasValue(1);
        assertThat(seen.get()).isNotNull();
        assertThat(seen.get().version()).isEqualTo(catalog.view().version());
    }

    @Test
    void aLocalSnapshotFromBeforeAnAliasSwapIsNeverUsed() {
        admin.create(CreateIndexRequest.parse("old", null));
        admin.create(CreateIndexRequest.parse("new", null));
        writer(shared).write(index("new", "1"));
        admin.updateAliases(List.of(AliasActions.add("old", "current", null)));
        CatalogView beforeTheSwap = catalog.view();
        // the pre-swap answer is in the cache, under the pre-swap snapshot's key
        assertThat(new SharedAnswers(catalog, shared, Mode.ON).read("current", OPTIONS, "count", count("current"),
                LONGS)).isEqualTo(0L);
        admin.updateAliases(List.of(AliasActions.add("new", "current", null),
                new AliasActions.Action.Remove(List.of("old"), List.of("current"), Optional.empty())));
        AtomicInteger views = new AtomicInteger();
        SharedAnswers b = new SharedAnswers(pinnedTo(beforeTheSwap, views), checkingTheCatalog(new AtomicInteger()),
                Mode.ON);

        assertThat(b.read("current", OPTIONS, "count", count("current"), LONGS)).isEqualTo(1L);
        assertThat(views.get()).as("the catalog read again").isPositive();
    }

    /**
     * The ticket race through the services: a slow read takes its ticket and reads the store, a write on another
     * replica is acknowledged, then the read finishes; its answer is not published and the next read sees the write.
     */
    @Test
    @Timeout(30)
    void aSlowReadInterleavedWithAWriteDoesNotPublishThePreWriteAnswer() throws Exception {
        admin.create(CreateIndexRequest.parse("i", null));
        SharedAnswers replicaA = new SharedAnswers(catalog, shared, Mode.ON);
        DocumentService replicaB = writer(shared);
        CountDownLatch storeRead = new CountDownLatch(1);
        CountDownLatch writeAcknowledged = new CountDownLatch(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Long> slow = pool.submit(() -> replicaA.read("i", OPTIONS, "count", () -> {
                long n = search.count("i", Optional.empty(), OPTIONS).count();
                storeRead.countDown();
                try {
                    writeAcknowledged.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return n;
            }, LONGS));
            storeRead.await();
            replicaB.write(index("i", "1"));
            writeAcknowledged.countDown();
            assertThat(slow.get(20, TimeUnit.SECONDS)).isEqualTo(0L);
        } finally {
            pool.shutdownNow();
        }
        assertThat(replicaA.counts().staleTickets()).isEqualTo(1);
        assertThat(replicaA.counts().published()).isZero();
        assertThat(replicaA.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(1L);
    }

    /** Runs each task on a new virtual thread, as the gateway does. */
    private static final java.util.concurrent.Executor VIRTUAL = work -> Thread.ofVirtual().start(work);

    /** {@link #checkingTheCatalog}, whose conditional lookups first run {@code before} (in the lookup's thread). */
    private SharedResponseCache lookingUpAfter(Runnable before, AtomicInteger conditional) {
        return new Forwarding(checkingTheCatalog(conditional)) {
            @Override
            public Optional<Lookup> lookupIf(String key, List<String> indices, List<String> checked,
                                             List<String> values) {
                before.run();
                return super.lookupIf(key, indices, checked, values);
            }
        };
    }

    /** Waits until {@code answers} has published {@code n} answers (in the background) or found them stale. */
    private static void awaitPublications(SharedAnswers answers, long n) {
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (answers.counts().published() + answers.counts().staleTickets() < n) {
            if (System.nanoTime() - giveUp > 0) {
                throw new AssertionError("not published within 10 s: " + answers.counts());
            }
            Thread.onSpinWait();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("timed out waiting");
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A request this replica has not looked up computes while its lookup is on the way; the computation's store read
     * comes first, then a write on another replica is acknowledged, then the lookup reads the moved generation. The
     * answer, computed before the write, is not published: its ticket is the generations read before it computed, not
     * the lookup's.
     */
    @Test
    @Timeout(30)
    void anOverlappedLookupThatReadsAWriteAfterTheComputationDoesNotPublishThePreWriteAnswer() throws Exception {
        admin.create(CreateIndexRequest.parse("i", null));
        writer(shared).write(index("i", "0"));
        CountDownLatch storeRead = new CountDownLatch(1);
        CountDownLatch writeAcknowledged = new CountDownLatch(1);
        AtomicBoolean gate = new AtomicBoolean();
        SharedAnswers a = new SharedAnswers(pinnedTo(catalog.view(), new AtomicInteger()), lookingUpAfter(() -> {
            if (gate.get()) {
                await(writeAcknowledged);
            }
        }, new AtomicInteger()), Mode.ON, VIRTUAL);
        a.read("i", OPTIONS, "another request", count("i"), LONGS); // the index's generation, known here now
        awaitPublications(a, 1); // published in the background: before the write below, not after it

        gate.set(true);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Long> slow = pool.submit(() -> a.read("i", OPTIONS, "count", () -> {
                long n = search.count("i", Optional.empty(), OPTIONS).count();
                storeRead.countDown();
                return n;
            }, LONGS));
            await(storeRead);
            writer(shared).write(index("i", "1"));
            writeAcknowledged.countDown();
            assertThat(slow.get(20, TimeUnit.SECONDS)).isEqualTo(1L);
        } finally {
            pool.shutdownNow();
        }

        assertThat(new SharedAnswers(catalog, shared, Mode.ON).read("i", OPTIONS, "count", count("i"), LONGS))
                .as("the answer after the write").isEqualTo(2L);
        assertThat(a.counts().misses()).isEqualTo(2);
        assertThat(a.counts().staleTickets()).isEqualTo(1);
    }

    @Test
    @Timeout(30)
    void aRequestNotLookedUpHereComputesWhileItLooksUpAndOneLookedUpHereLooksUpFirst() {
        admin.create(CreateIndexRequest.parse("i", null));
        writer(shared).write(index("i", "1"));
        new SharedAnswers(catalog, shared, Mode.ON).read("i", OPTIONS, "count", count("i"), LONGS); // published
        CountDownLatch computing = new CountDownLatch(1);
        AtomicBoolean lookedUpWhileComputing = new AtomicBoolean();
        AtomicBoolean gate = new AtomicBoolean();
        SharedAnswers b = new SharedAnswers(pinnedTo(catalog.view(), new AtomicInteger()), lookingUpAfter(() -> {
            if (gate.get()) {
                try {
                    lookedUpWhileComputing.set(computing.await(10, TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
        }, new AtomicInteger()), Mode.ON, VIRTUAL);
        b.read("i", OPTIONS, "another request", count("i"), LONGS);
        int before = computed.get();

        gate.set(true);
        assertThat(b.read("i", OPTIONS, "count", () -> {
            computing.countDown();
            return count("i").get();
        }, LONGS)).isEqualTo(1L);
        assertThat(lookedUpWhileComputing).as("the lookup ran while the request computed").isTrue();
        assertThat(computed.get()).isEqualTo(before + 1);
        assertThat(b.counts().hits()).isEqualTo(1);

        gate.set(false);
        assertThat(b.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(1L);
        assertThat(computed.get()).as("looked up first: served").isEqualTo(before + 1);
        assertThat(b.counts().hits()).isEqualTo(2);
    }

    @Test
    @Timeout(30)
    void aRequestRepeatedHereWhileItsPublicationRunsWaitsForItAndIsServed() throws Exception {
        admin.create(CreateIndexRequest.parse("i", null));
        writer(shared).write(index("i", "1"));
        CountDownLatch publishing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        SharedResponseCache slowPublish = new Forwarding(shared) {
            @Override
            public Published publish(Ticket ticket, byte[] answer) {
                publishing.countDown();
                await(release);
                return super.publish(ticket, answer);
            }
        };
        SharedAnswers a = new SharedAnswers(catalog, slowPublish, Mode.ON, VIRTUAL);

        assertThat(a.read("i", OPTIONS, "count", count("i"), LONGS)).as("answered before it is published")
                .isEqualTo(1L);
        await(publishing);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Long> again = pool.submit(() -> a.read("i", OPTIONS, "count", count("i"), LONGS));
            Thread.sleep(100);
            release.countDown();
            assertThat(again.get(20, TimeUnit.SECONDS)).isEqualTo(1L);
        } finally {
            pool.shutdownNow();
        }
        assertThat(computed).as("the repeated request served from the cache").hasValue(1);
        assertThat(a.counts().hits()).isEqualTo(1);
        assertThat(a.counts().published()).isEqualTo(1);
    }

    @Test
    @Timeout(30)
    void anOverlappedComputationOnASnapshotFromBeforeAnAliasSwapIsDropped() {
        admin.create(CreateIndexRequest.parse("old", null));
        admin.create(CreateIndexRequest.parse("new", null));
        writer(shared).write(index("new", "1"));
        admin.updateAliases(List.of(AliasActions.add("old", "current", null)));
        CatalogView beforeTheSwap = catalog.view();
        admin.updateAliases(List.of(AliasActions.add("new", "current", null),
                new AliasActions.Action.Remove(List.of("old"), List.of("current"), Optional.empty())));
        AtomicInteger conditional = new AtomicInteger();
        SharedAnswers b = new SharedAnswers(pinnedTo(beforeTheSwap, new AtomicInteger()),
                checkingTheCatalog(conditional), Mode.ON, VIRTUAL);
        b.read("old", OPTIONS, "count", count("old"), LONGS); // the old index's generation, known here now
        AtomicInteger onTheSnapshot = new AtomicInteger();

        assertThat(b.read("current", OPTIONS, "count", () -> {
            if (Catalog.CHECKED.isBound() && Catalog.CHECKED.get() == beforeTheSwap) {
                onTheSnapshot.incrementAndGet();
            }
            return count("current").get();
        }, LONGS)).isEqualTo(1L);
        assertThat(onTheSnapshot).as("computed on the snapshot while looking up, then dropped").hasValue(1);
        assertThat(conditional).hasValue(2);
    }

    @Test
    void anOverlappedLookupThatFailsLeavesTheAnswerComputedWithoutTheCache() {
        admin.create(CreateIndexRequest.parse("i", null));
        writer(shared).write(index("i", "1"));
        AtomicBoolean down = new AtomicBoolean();
        SharedAnswers a = new SharedAnswers(pinnedTo(catalog.view(), new AtomicInteger()), lookingUpAfter(() -> {
            if (down.get()) {
                throw new GatewayException(ErrorKind.BACKEND_UNAVAILABLE, "cache down");
            }
        }, new AtomicInteger()), Mode.ON, VIRTUAL);
        a.read("i", OPTIONS, "another request", count("i"), LONGS);
        down.set(true);
        AtomicInteger withoutASnapshot = new AtomicInteger();

        assertThat(a.read("i", OPTIONS, "count", () -> {
            if (!Catalog.CHECKED.isBound()) {
                withoutASnapshot.incrementAndGet();
            }
            return count("i").get();
        }, LONGS)).isEqualTo(1L);
        assertThat(a.counts().errors()).isEqualTo(1);
        assertThat(withoutASnapshot).as("computed again on the catalog's own view").hasValue(1);
    }

    @Test
    void anOverlappedComputationsOwnErrorIsTheAnswerComputedOnce() {
        admin.create(CreateIndexRequest.parse("i", null));
        writer(shared).write(index("i", "1"));
        SharedAnswers a = new SharedAnswers(pinnedTo(catalog.view(), new AtomicInteger()),
                checkingTheCatalog(new AtomicInteger()), Mode.ON, VIRTUAL);
        a.read("i", OPTIONS, "another request", count("i"), LONGS); // the index's generation, known here now
        AtomicInteger runs = new AtomicInteger();

        assertThatThrownBy(() -> a.read("i", OPTIONS, "bad request", () -> {
            runs.incrementAndGet();
            throw new GatewayException(ErrorKind.ILLEGAL_ARGUMENT, "no such query");
        }, LONGS)).isInstanceOfSatisfying(GatewayException.class,
                e -> assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT));
        assertThat(runs).as("computed once").hasValue(1);
        assertThat(a.counts().errors()).as("not a failure of the cache").isZero();
    }

    @Test
    void aRequestThatRefersToAStoredScriptIsNeverCached() {
        admin.create(CreateIndexRequest.parse("i", null));
        SharedAnswers a = new SharedAnswers(catalog, shared, Mode.ON);
        String stored = "{\"query\":{\"script_score\":{\"script\":{\"id\":\"boost\"}}}}";
        a.read("i", OPTIONS, stored, count("i"), LONGS);
        a.read("i", OPTIONS, stored, count("i"), LONGS);
        assertThat(computed).hasValue(2);
        assertThat(a.counts().uncacheable()).isEqualTo(2);
        String inline = "{\"query\":{\"script_score\":{\"script\":{\"source\":\"1\"}}}}";
        a.read("i", OPTIONS, inline, count("i"), LONGS);
        a.read("i", OPTIONS, inline, count("i"), LONGS);
        assertThat(computed).as("an inline script is part of the request").hasValue(3);
    }

    /**
     * {@link #checkingTheCatalog} with a lease: while {@code knows}, it knows the current generations without a lookup
     * (here: reads them from the in-memory cache unseen) when the checked catalog version is the live one.
     */
    private SharedResponseCache leased(AtomicInteger lookups, AtomicBoolean knows) {
        return new Forwarding(checkingTheCatalog(lookups)) {
            @Override
            public Optional<Generations> knownGenerations(List<String> indices, List<String> checked,
                                                          List<String> values) {
                if (!knows.get() || !Long.toString(catalog.view().version()).equals(values.get(0))) {
                    return Optional.empty();
                }
                Ticket read = shared.lookup("any", indices).ticket();
                return Optional.of(new Generations(read.indices(), read.generations(), read.epoch()));
            }
        };
    }

    @Test
    void aHeldAnswerIsServedWithoutALookupWhileTheCacheKnowsItsGenerationsCurrent() {
        admin.create(CreateIndexRequest.parse("i", null));
        writer(shared).write(index("i", "1"));
        AtomicInteger lookups = new AtomicInteger();
        AtomicBoolean knows = new AtomicBoolean(true);
        SharedResponseCache leased = leased(lookups, knows);
        SharedAnswers b = new SharedAnswers(pinnedTo(catalog.view(), new AtomicInteger()), leased, Mode.ON);
        assertThat(b.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(1L); // computed and published
        int first = lookups.get();

        for (int i = 0; i < 3; i++) {
            assertThat(b.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(1L);
        }
        assertThat(computed).hasValue(1);
        assertThat(b.counts().hits()).isEqualTo(3);
        assertThat(lookups).as("the first repeat looked up and held; the others served from what is held")
                .hasValue(first + 1);

        writer(shared).write(index("i", "2")); // another replica's write: the known generation moves
        assertThat(b.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(2L);
        assertThat(computed).hasValue(2);
        assertThat(lookups).as("the held answer is out of date: looked up again").hasValue(first + 2);

        knows.set(false); // the lease lapsed: the cache is asked
        assertThat(b.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(2L);
        assertThat(lookups).hasValue(first + 3);
        assertThat(computed).as("served by the shared cache").hasValue(2);

        // coordinate never serves, held or not
        SharedAnswers c = new SharedAnswers(pinnedTo(catalog.view(), new AtomicInteger()), leased, Mode.COORDINATE);
        c.read("i", OPTIONS, "count", count("i"), LONGS);
        knows.set(true);
        c.read("i", OPTIONS, "count", count("i"), LONGS);
        assertThat(computed).hasValue(4);
    }

    @Test
    void aRequestNotSeenHereUnderAKnownTicketIsComputedWithoutALookupAndPublishedUnderThatTicket() {
        admin.create(CreateIndexRequest.parse("i", null));
        writer(shared).write(index("i", "1"));
        AtomicInteger lookups = new AtomicInteger();
        SharedResponseCache leased = leased(lookups, new AtomicBoolean(true));
        SharedAnswers b = new SharedAnswers(pinnedTo(catalog.view(), new AtomicInteger()), leased, Mode.ON);

        assertThat(b.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(1L);
        assertThat(lookups).as("no lookup").hasValue(0);
        assertThat(b.counts().misses()).isEqualTo(1);
        assertThat(b.counts().published()).isEqualTo(1);
        SharedAnswers a = new SharedAnswers(catalog, shared, Mode.ON);
        assertThat(a.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(1L);
        assertThat(computed).as("another replica is served what it published").hasValue(1);

        // a write acknowledged while the computation runs: its answer is not published under the older ticket
        assertThat(b.read("i", OPTIONS, "count2", () -> {
            long n = count("i").get();
            writer(shared).write(index("i", "2"));
            return n;
        }, LONGS)).isEqualTo(1L);
        assertThat(b.counts().staleTickets()).isEqualTo(1);
        assertThat(a.read("i", OPTIONS, "count2", count("i"), LONGS)).as("read on another replica").isEqualTo(2L);
    }

    /** A request given by its text and hint, counting in {@code texts} how often its text is asked for. */
    private static ResponseCaching.Request request(String text, long hint, AtomicInteger texts) {
        ResponseCaching.Request of = ResponseCaching.Request.of(text);
        return new ResponseCaching.Request() {
            @Override
            public String text() {
                texts.incrementAndGet();
                return text;
            }

            @Override
            public long hint() {
                return hint;
            }

            @Override
            public boolean dependsOnNow() {
                return of.dependsOnNow();
            }

            @Override
            public boolean dependsOnStoredScripts() {
                return of.dependsOnStoredScripts();
            }
        };
    }

    @Test
    void aRequestComputedUnderAKnownTicketAndNotPublishedNeverMakesItsKey() {
        admin.create(CreateIndexRequest.parse("i", null));
        writer(shared).write(index("i", "1"));
        AtomicInteger lookups = new AtomicInteger();
        AtomicInteger publications = new AtomicInteger();
        SharedResponseCache leased = countingPublications(leased(lookups, new AtomicBoolean(true)), publications);
        SharedAnswers b = twoUsesOn(leased);
        AtomicInteger texts = new AtomicInteger();

        assertThat(b.read("i", OPTIONS, request("count", 42, texts), count("i"), LONGS)).isEqualTo(1L);
        assertThat(b.counts().notAdmitted()).isEqualTo(1);
        assertThat(texts).as("computed, not published: neither the text nor the key made").hasValue(0);
        assertThat(lookups).hasValue(0);

        assertThat(b.read("i", OPTIONS, request("count", 42, texts), count("i"), LONGS)).isEqualTo(1L);
        assertThat(texts).as("repeated: looked up and published under its key").hasPositiveValue();
        assertThat(lookups).hasValue(1);
        assertThat(publications).hasValue(1);
        SharedAnswers a = new SharedAnswers(catalog, shared, Mode.ON);
        assertThat(a.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(1L);
        assertThat(computed).as("published under the key of its text").hasValue(2);
    }

    @Test
    void twoRequestsWithOneHintAreToldApartByTheirKeys() {
        admin.create(CreateIndexRequest.parse("i", null));
        writer(shared).write(index("i", "1"));
        SharedAnswers b = twoUsesOn(leased(new AtomicInteger(), new AtomicBoolean(true)));
        AtomicInteger texts = new AtomicInteger();
        for (int i = 0; i < 4; i++) { // computed twice, published, then served and held
            assertThat(b.read("i", OPTIONS, request("count", 7, texts), count("i"), LONGS)).isEqualTo(1L);
        }
        assertThat(computed).hasValue(2);
        assertThat(b.counts().hits()).isEqualTo(2);

        AtomicInteger other = new AtomicInteger();
        assertThat(b.read("i", OPTIONS, request("other", 7, texts), () -> {
            other.incrementAndGet();
            return 99L;
        }, LONGS)).as("the held answer's key is not this request's").isEqualTo(99L);
        assertThat(other).hasValue(1);
        assertThat(b.read("i", OPTIONS, request("count", 7, texts), count("i"), LONGS)).isEqualTo(1L);
        assertThat(computed).as("still held for its own request").hasValue(2);
    }

    @Test
    void whenTheCacheFailsReadsAreComputedAndWritesAreNotAcknowledged() {
        admin.create(CreateIndexRequest.parse("i", null));
        AtomicBoolean down = new AtomicBoolean(true);
        SharedResponseCache failing = new Forwarding(shared) {
            private void check() {
                if (down.get()) {
                    throw new GatewayException(ErrorKind.BACKEND_UNAVAILABLE, "cache down");
                }
            }

            @Override
            public Lookup lookup(String key, List<String> indices) {
                check();
                return super.lookup(key, indices);
            }

            @Override
            public Published publish(Ticket ticket, byte[] answer) {
                check();
                return super.publish(ticket, answer);
            }

            @Override
            public void bump(Collection<String> indices) {
                check();
                super.bump(indices);
            }

            @Override
            public void ping() {
                check();
            }
        };
        SharedAnswers a = new SharedAnswers(catalog, failing, Mode.ON);
        assertThat(a.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(0L);
        assertThat(a.counts().errors()).isEqualTo(1);
        assertThatThrownBy(() -> writer(failing).write(index("i", "1")))
                .isInstanceOfSatisfying(GatewayException.class,
                        e -> assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_UNAVAILABLE));
        down.set(false);
        assertThat(a.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(1L);
        assertThat(a.read("i", OPTIONS, "count", count("i"), LONGS)).isEqualTo(1L);
        assertThat(a.counts().hits()).isEqualTo(1);
    }

    @Test
    void oneBulkOverTwoIndicesMovesBothGenerationsInOneRoundTripBeforeItAnswers() {
        admin.create(CreateIndexRequest.parse("a", null));
        admin.create(CreateIndexRequest.parse("b", null));
        List<Collection<String>> bumps = new java.util.ArrayList<>();
        SharedResponseCache counting = new Forwarding(shared) {
            @Override
            public void bump(Collection<String> indices) {
                bumps.add(List.copyOf(indices));
                super.bump(indices);
            }
        };
        List<io.qdrant.esgateway.application.port.in.DocumentOperations.WriteOutcome> outcomes = writer(counting)
                .bulk(List.of(index("a", "1"), index("b", "1"), index("a", "2"), index("b", "2")));
        assertThat(outcomes).allSatisfy(o -> assertThat(o).isInstanceOf(
                io.qdrant.esgateway.application.port.in.DocumentOperations.Written.class));
        assertThat(bumps).hasSize(1);
        assertThat(bumps.get(0)).containsExactlyInAnyOrder(
                catalog.view().index("a").orElseThrow().uuid(), catalog.view().index("b").orElseThrow().uuid());
        // a request whose items all failed to plan wrote nothing: no round trip
        writer(counting).bulk(List.of(new WriteCommand.Delete("missing", "1", Condition.NONE, false)));
        assertThat(bumps).hasSize(1);
    }
}
