package io.qdrant.esgateway.adapter.out.lucene;

import io.qdrant.esgateway.adapter.out.lucene.engine.IndexEngine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.qdrant.esgateway.adapter.out.lucene.engine.IndexEngine.DirectoryFactory;
import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import io.qdrant.esgateway.adapter.out.lucene.translog.Translog;

/** Lucene-specific behaviour of writes: rollback of failed batches, reads beside writes, restarts, concurrency. */
class LuceneDocumentWritesTest {

    @TempDir
    Path temp;

    private final List<LuceneStores.Handle> stores = new ArrayList<>();

    /** Failures and stalls a test switches on in every Lucene directory the store opens. */
    private final AtomicBoolean failSync = new AtomicBoolean();
    private final AtomicBoolean failOpenInput = new AtomicBoolean();
    private final AtomicReference<CountDownLatch> syncGate = new AtomicReference<>();
    private final CountDownLatch syncParked = new CountDownLatch(1);

    private final DirectoryFactory faulty = path -> new FilterDirectory(FSDirectory.open(path)) {
        @Override
        public void sync(Collection<String> names) throws IOException {
            CountDownLatch gate = syncGate.get();
            if (gate != null) {
                syncParked.countDown();
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted");
                }
            }
            if (failSync.get()) {
                throw new IOException("fsync failed");
            }
            super.sync(names);
        }

        @Override
        public IndexInput openInput(String name, IOContext context) throws IOException {
            if (failOpenInput.get()) {
                throw new IOException("cannot read " + name);
            }
            return super.openInput(name, context);
        }
    };

    /** Failures and stalls a test switches on in the translog's fsync. */
    private final AtomicBoolean failLogSync = new AtomicBoolean();
    private final AtomicReference<CountDownLatch> logSyncGate = new AtomicReference<>();
    private final CountDownLatch logSyncParked = new CountDownLatch(1);
    private final AtomicInteger logSyncs = new AtomicInteger();

    private final Translog.Fsync faultyLog = channel -> {
        CountDownLatch gate = logSyncGate.get();
        if (gate != null) {
            logSyncParked.countDown();
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
        }
        if (failLogSync.get()) {
            throw new IOException("fsync failed");
        }
        logSyncs.incrementAndGet();
        channel.force(false);
    };

    @AfterEach
    void closeStores() {
        syncGate.set(null);
        logSyncGate.set(null);
        failLogSync.set(false);
        failSync.set(false);
        failOpenInput.set(false);
        stores.forEach(LuceneStores.Handle::close);
    }

    private LuceneStores.Handle open() {
        LuceneStores.Handle store = LuceneDocumentStore.open(temp, faulty, faultyLog,
                IndexEngine.FLUSH_THRESHOLD_BYTES);
        stores.add(store);
        return store;
    }

    private static IndexMetadata index(String name, int vectorDims) {
        return new IndexMetadata(name, "uuid-" + name, Instant.EPOCH, IndexSettings.DEFAULTS,
                Mappings.parse(Json.parse("{\"properties\": {\"v\": {\"type\": \"dense_vector\", \"dims\": "
                        + vectorDims + ", \"similarity\": \"l2_norm\"}, \"tag\": {\"type\": \"keyword\"}}}")));
    }

    private static final IndexMetadata PRODUCTS = index("products", 3);

    private static IndexableDocument doc(String id, long seqNo, IndexedValue... values) {
        return new IndexableDocument(id, new DocumentVersion(1, seqNo, 1),
                (JsonObject) Json.parse("{\"id\": \"" + id + "\", \"seq\": " + seqNo + "}"), List.of(values));
    }

    private static DocumentWrite upsert(IndexableDocument document) {
        return new DocumentWrite.Upsert(document);
    }

    private static Map<String, StoredDocument> get(LuceneStores.Handle store, IndexMetadata index, String... ids) {
        return store.get(index, List.of(ids));
    }

    @Test
    void anUpsertOfAnAbsentIdIsAddedAndLaterWritesOfTheBatchStillFindIt() {
        LuceneStores.Handle store = open();
        store.createIndex(PRODUCTS);
        store.write(PRODUCTS, List.of(
                new DocumentWrite.Upsert(doc("a", 0), true),
                new DocumentWrite.Upsert(doc("a", 1), false),
                new DocumentWrite.Upsert(doc("b", 2), true),
                new DocumentWrite.Delete("b"),
                new DocumentWrite.Upsert(doc("b", 4), true),
                new DocumentWrite.Upsert(doc("c", 5), true),
                new DocumentWrite.Delete("c")), 6);

        assertThat(store.stats(PRODUCTS).docCount()).isEqualTo(2);
        assertThat(get(store, PRODUCTS, "a", "b", "c").values()).extracting(d -> d.version().seqNo())
                .containsExactly(1L, 4L);

        // the same after a restart, which replays the translog (by replacing, whatever the writes claimed)
        store.close();
        LuceneStores.Handle reopened = open();
        assertThat(reopened.stats(PRODUCTS).docCount()).isEqualTo(2);
        assertThat(get(reopened, PRODUCTS, "a", "b", "c").values()).extracting(d -> d.version().seqNo())
                .containsExactly(1L, 4L);
    }

    @Test
    void theClaimOfAbsenceIsTrusted() {
        // the contract: only a caller that knows the id is absent may claim it; a false claim adds a second document
        LuceneStores.Handle store = open();
        store.createIndex(PRODUCTS);
        store.write(PRODUCTS, List.of(new DocumentWrite.Upsert(doc("a", 0), true)), 0);
        store.write(PRODUCTS, List.of(new DocumentWrite.Upsert(doc("a", 1), true)), 1);
        assertThat(store.stats(PRODUCTS).docCount()).isEqualTo(2);
        store.write(PRODUCTS, List.of(new DocumentWrite.Upsert(doc("a", 2), false)), 2);
        assertThat(store.stats(PRODUCTS).docCount()).isEqualTo(1);
    }

    @Test
    void aBatchLuceneRefusesHalfwayIsRolledBackWhole() {
        LuceneStores.Handle store = open();
        store.createIndex(PRODUCTS);
        store.write(PRODUCTS, List.of(upsert(doc("kept", 0, new IndexedValue.Vector("v", new float[] {1, 2, 3})))), 0);
        // the mapping now claims 4 dimensions: Lucene refuses the third write, after two were applied to the writer
        IndexMetadata inconsistent = index("products", 4);

        GatewayException e = catchThrowableOfType(GatewayException.class, () -> store.write(inconsistent, List.of(
                upsert(doc("new", 1, new IndexedValue.Keyword("tag", "x"))),
                new DocumentWrite.Delete("kept"),
                upsert(doc("refused", 3, new IndexedValue.Vector("v", new float[] {1, 2, 3, 4})))), 3));

        assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_FAILURE);
        assertThat(e.reason()).startsWith("cannot write to the Lucene index of [products/uuid-products] in [")
                .contains("IllegalArgumentException").contains("dimension");
        assertThat(get(store, PRODUCTS, "new", "kept", "refused")).containsOnlyKeys("kept");
        assertThat(store.maxSeqNo(PRODUCTS)).isEqualTo(0);
        assertThat(store.stats(PRODUCTS).docCount()).isEqualTo(1);

        store.write(PRODUCTS, List.of(upsert(doc("after", 4, new IndexedValue.Keyword("tag", "y")))), 4);
        assertThat(get(store, PRODUCTS, "new", "kept", "after")).containsOnlyKeys("kept", "after");

        store.close();
        LuceneStores.Handle reopened = open();
        assertThat(get(reopened, PRODUCTS, "new", "kept", "refused", "after")).containsOnlyKeys("kept", "after");
        assertThat(reopened.maxSeqNo(PRODUCTS)).isEqualTo(4);
    }

    @Test
    void aBatchWhoseTranslogFsyncFailsIsNotAcknowledgedAndTheIndexCarriesOnWithTheBatchWholeOrNotAtAll() {
        LuceneStores.Handle store = open();
        store.createIndex(PRODUCTS);
        store.write(PRODUCTS, List.of(upsert(doc("kept", 0))), 0);
        failLogSync.set(true);

        GatewayException e = catchThrowableOfType(GatewayException.class, () -> store.write(PRODUCTS,
                List.of(upsert(doc("maybe-1", 1)), new DocumentWrite.Delete("kept"), upsert(doc("maybe-2", 2))), 2));

        assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_UNAVAILABLE);
        assertThat(e.reason()).startsWith("cannot write to the Lucene index of [products/uuid-products] in [")
                .endsWith("]: IOException: fsync failed");
        assertThat(e.metadata()).containsEntry("index", "products").containsEntry("index_uuid", "uuid-products");

        failLogSync.set(false);
        // the index is opened again from disk: the unacknowledged batch is there whole or not at all
        Map<String, StoredDocument> after = get(store, PRODUCTS, "kept", "maybe-1", "maybe-2");
        assertThat(after.keySet()).isIn(java.util.Set.of("kept"), java.util.Set.of("maybe-1", "maybe-2"));
        assertThat(store.maxSeqNo(PRODUCTS)).isEqualTo(after.containsKey("kept") ? 0 : 2);
        store.write(PRODUCTS, List.of(upsert(doc("next", 3))), 3);
        Map<String, StoredDocument> before = get(store, PRODUCTS, "kept", "maybe-1", "maybe-2", "next");
        assertThat(before).containsKey("next");

        store.close();
        LuceneStores.Handle reopened = open();
        assertThat(get(reopened, PRODUCTS, "kept", "maybe-1", "maybe-2", "next")).isEqualTo(before);
        assertThat(reopened.maxSeqNo(PRODUCTS)).isEqualTo(3);
    }

    @Test
    void whenEvenTheRollbackFails_theIndexIsOpenedAgainOnceTheDiskRecovers() {
        LuceneStores.Handle store = open();
        store.createIndex(PRODUCTS);
        store.write(PRODUCTS, List.of(upsert(doc("kept", 0, new IndexedValue.Vector("v", new float[] {1, 2, 3})))), 0);
        // Lucene refuses the batch (the mapping now claims 4 dimensions); the rollback's recovery commit cannot fsync
        failSync.set(true);
        IndexMetadata inconsistent = index("products", 4);

        GatewayException write = catchThrowableOfType(GatewayException.class, () -> store.write(inconsistent,
                List.of(upsert(doc("lost", 1, new IndexedValue.Vector("v", new float[] {1, 2, 3, 4})))), 1));
        GatewayException read = catchThrowableOfType(GatewayException.class, () -> get(store, PRODUCTS, "kept"));

        assertThat(write.kind()).isEqualTo(ErrorKind.BACKEND_FAILURE);
        assertThat(write.getSuppressed()).hasSize(1);
        assertThat(read.kind()).isEqualTo(ErrorKind.BACKEND_UNAVAILABLE);
        assertThat(read.reason()).startsWith("cannot open the Lucene index of [products/uuid-products]");

        failSync.set(false);
        assertThat(get(store, PRODUCTS, "kept", "lost")).containsOnlyKeys("kept");
        assertThat(store.maxSeqNo(PRODUCTS)).isEqualTo(0);
        store.write(PRODUCTS, List.of(upsert(doc("next", 2))), 2);
        assertThat(get(store, PRODUCTS, "kept", "lost", "next")).containsOnlyKeys("kept", "next");
    }

    @Test
    @Timeout(60)
    void readsDoNotWaitForAWriteParkedInItsTranslogFsync() throws Exception {
        LuceneStores.Handle store = open();
        store.createIndex(PRODUCTS);
        store.write(PRODUCTS, List.of(upsert(doc("before", 0))), 0);
        CountDownLatch gate = new CountDownLatch(1);
        logSyncGate.set(gate);

        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<?> write = threads.submit(
                    () -> store.write(PRODUCTS, List.of(upsert(doc("in-flight", 1))), 1));
            try {
                // applied and logged, parked in the translog's fsync, without the index's writing lock
                assertThat(logSyncParked.await(10, TimeUnit.SECONDS)).isTrue();
                assertThat(write).isNotDone();
                // not acknowledged yet, but applied: visible, as Elasticsearch's real-time GET sees an operation
                // before its translog sync; a search refreshes without waiting for the fsync either
                Map<String, StoredDocument> read = threads.submit(
                        () -> get(store, PRODUCTS, "before", "in-flight")).get(10, TimeUnit.SECONDS);
                assertThat(read).containsOnlyKeys("before", "in-flight");
                assertThat(threads.submit(() -> store.stats(PRODUCTS)).get(10, TimeUnit.SECONDS).docCount())
                        .isEqualTo(2);
                assertThat(write).isNotDone();
            } finally {
                gate.countDown();
            }
            write.get(10, TimeUnit.SECONDS);
        }
        assertThat(get(store, PRODUCTS, "before", "in-flight")).containsOnlyKeys("before", "in-flight");
        assertThat(store.maxSeqNo(PRODUCTS)).isEqualTo(1);
    }

    @Test
    @Timeout(60)
    void writersQueuedBehindAnFsyncShareTheNextOne() throws Exception {
        LuceneStores.Handle store = open();
        store.createIndex(PRODUCTS);
        CountDownLatch gate = new CountDownLatch(1);
        logSyncGate.set(gate);
        logSyncs.set(0);

        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<?> first = threads.submit(() -> store.write(PRODUCTS, List.of(upsert(doc("a", 0))), 0));
            assertThat(logSyncParked.await(10, TimeUnit.SECONDS)).isTrue();
            logSyncGate.set(null);
            Future<?> second = threads.submit(() -> store.write(PRODUCTS, List.of(upsert(doc("b", 1))), 1));
            Future<?> third = threads.submit(() -> store.write(PRODUCTS, List.of(upsert(doc("c", 2))), 2));
            // both are applied and logged (visible) while the first fsync is still parked
            while (get(store, PRODUCTS, "b", "c").size() < 2) {
                Thread.onSpinWait();
            }
            assertThat(List.of(first, second, third)).noneMatch(Future::isDone);
            gate.countDown();
            first.get(10, TimeUnit.SECONDS);
            second.get(10, TimeUnit.SECONDS);
            third.get(10, TimeUnit.SECONDS);
        }
        // the parked fsync, then one for both writers that queued behind it
        assertThat(logSyncs.get()).isEqualTo(2);
        assertThat(get(store, PRODUCTS, "a", "b", "c")).containsOnlyKeys("a", "b", "c");
    }

    @Test
    void maxSeqNoSurvivesARestartAndNeverGoesDown() {
        LuceneStores.Handle store = open();
        store.createIndex(PRODUCTS);
        store.write(PRODUCTS, List.of(upsert(doc("a", 41))), 41);
        store.close();

        LuceneStores.Handle second = open();
        assertThat(second.maxSeqNo(PRODUCTS)).isEqualTo(41);
        second.write(PRODUCTS, List.of(upsert(doc("b", 3))), 3);
        assertThat(second.maxSeqNo(PRODUCTS)).isEqualTo(41);
        second.write(PRODUCTS, List.of(), 50);
        second.close();

        LuceneStores.Handle third = open();
        assertThat(third.maxSeqNo(PRODUCTS)).isEqualTo(50);
        assertThat(get(third, PRODUCTS, "a", "b")).containsOnlyKeys("a", "b");
    }

    @Test
    void aNewIndexHasMaxSeqNoMinusOneAlsoAfterARestart() {
        LuceneStores.Handle store = open();
        store.createIndex(PRODUCTS);
        assertThat(store.maxSeqNo(PRODUCTS)).isEqualTo(-1);
        store.close();

        assertThat(open().maxSeqNo(PRODUCTS)).isEqualTo(-1);
    }

    @Test
    void aDroppedOrUnknownIndexCannotBeWrittenOrRead() {
        LuceneStores.Handle store = open();
        store.createIndex(PRODUCTS);
        store.dropIndex(PRODUCTS);

        for (Runnable call : List.<Runnable>of(
                () -> store.write(PRODUCTS, List.of(upsert(doc("a", 0))), 0),
                () -> get(store, PRODUCTS, "a"),
                () -> store.maxSeqNo(PRODUCTS),
                () -> store.write(index("never", 3), List.of(), 0))) {
            GatewayException e = catchThrowableOfType(GatewayException.class, call::run);
            assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_FAILURE);
            assertThat(e.reason()).contains("is missing from");
        }
    }

    @Test
    void aClosedStoreRefusesDocumentCalls() {
        LuceneStores.Handle store = open();
        store.createIndex(PRODUCTS);
        store.close();

        for (Runnable call : List.<Runnable>of(
                () -> store.write(PRODUCTS, List.of(upsert(doc("a", 0))), 0),
                () -> get(store, PRODUCTS, "a"),
                () -> store.maxSeqNo(PRODUCTS))) {
            GatewayException e = catchThrowableOfType(GatewayException.class, call::run);
            assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_UNAVAILABLE);
        }
    }

    @Test
    @Timeout(180)
    void concurrentWritersReadersAndDropsOnSeveralIndices() throws Exception {
        LuceneStores.Handle store = open();
        List<IndexMetadata> indices = IntStream.range(0, 4).mapToObj(i -> index("idx-" + i, 3)).toList();
        IndexMetadata doomed = index("doomed", 3);
        indices.forEach(store::createIndex);
        store.createIndex(doomed);
        int writersPerIndex = 3;
        int writesPerWriter = 15;
        AtomicBoolean running = new AtomicBoolean(true);
        ConcurrentLinkedQueue<Throwable> problems = new ConcurrentLinkedQueue<>();
        // platform threads: busy readers on virtual threads could starve the writers of carriers on a small machine
        try (ExecutorService pool = Executors.newFixedThreadPool(indices.size() * writersPerIndex + 5)) {
            List<Future<?>> writers = new ArrayList<>();
            for (IndexMetadata index : indices) {
                for (int w = 0; w < writersPerIndex; w++) {
                    int writer = w;
                    writers.add(pool.submit(() -> {
                        for (int i = 0; i < writesPerWriter; i++) {
                            long seqNo = (long) writer * writesPerWriter + i;
                            String id = writer + "-" + i;
                            store.write(index, List.of(upsert(doc(id, seqNo,
                                    new IndexedValue.Vector("v", new float[] {writer, i, 1})))), seqNo);
                            if (!get(store, index, id).containsKey(id)) {
                                problems.add(new AssertionError(id + " not visible in " + index.name()));
                            }
                        }
                        return null;
                    }));
                }
            }
            for (int r = 0; r < 4; r++) {
                pool.submit(() -> {
                    try {
                        while (running.get()) {
                            for (IndexMetadata index : indices) {
                                long before = store.stats(index).docCount();
                                long seen = get(store, index, "0-0", "1-0", "2-0").size();
                                if (store.stats(index).docCount() < before || seen > 3) {
                                    problems.add(new AssertionError("counts went back in " + index.name()));
                                }
                            }
                            Thread.sleep(1);
                        }
                    } catch (Throwable t) {
                        problems.add(t);
                    }
                });
            }
            pool.submit(() -> {
                try {
                    store.write(doomed, List.of(upsert(doc("x", 0))), 0);
                    store.dropIndex(doomed);
                } catch (Throwable t) {
                    problems.add(t);
                }
            });
            try {
                for (Future<?> w : writers) {
                    w.get();
                }
            } finally {
                running.set(false);
            }
        }
        assertThat(problems).isEmpty();
        for (IndexMetadata index : indices) {
            assertThat(store.stats(index).docCount()).isEqualTo(writersPerIndex * writesPerWriter);
            assertThat(store.maxSeqNo(index)).isEqualTo(writersPerIndex * writesPerWriter - 1);
        }
        store.close();
        LuceneStores.Handle reopened = open();
        for (IndexMetadata index : indices) {
            assertThat(reopened.stats(index).docCount()).isEqualTo(writersPerIndex * writesPerWriter);
        }
    }
}
