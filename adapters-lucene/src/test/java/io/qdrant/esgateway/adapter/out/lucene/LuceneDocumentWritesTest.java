package io.qdrant.esgateway.adapter.out.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.qdrant.esgateway.adapter.out.lucene.LuceneDocumentStore.DirectoryFactory;
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

    @AfterEach
    void closeStores() {
        syncGate.set(null);
        failSync.set(false);
        failOpenInput.set(false);
        stores.forEach(LuceneStores.Handle::close);
    }

    private LuceneStores.Handle open() {
        LuceneStores.Handle store = LuceneDocumentStore.open(temp, faulty);
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
    void aBatchWhoseCommitFailsIsRolledBackWholeAndTheIndexCarriesOn() {
        LuceneStores.Handle store = open();
        store.createIndex(PRODUCTS);
        store.write(PRODUCTS, List.of(upsert(doc("kept", 0))), 0);
        failSync.set(true);

        GatewayException e = catchThrowableOfType(GatewayException.class, () -> store.write(PRODUCTS,
                List.of(upsert(doc("lost-1", 1)), new DocumentWrite.Delete("kept"), upsert(doc("lost-2", 2))), 2));

        assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_UNAVAILABLE);
        assertThat(e.reason()).startsWith("cannot write to the Lucene index of [products/uuid-products] in [")
                .endsWith("]: IOException: fsync failed");
        assertThat(e.metadata()).containsEntry("index", "products").containsEntry("index_uuid", "uuid-products");
        assertThat(get(store, PRODUCTS, "kept", "lost-1", "lost-2")).containsOnlyKeys("kept");
        assertThat(store.maxSeqNo(PRODUCTS)).isEqualTo(0);

        failSync.set(false);
        store.write(PRODUCTS, List.of(upsert(doc("next", 3))), 3);
        assertThat(get(store, PRODUCTS, "kept", "lost-1", "lost-2", "next")).containsOnlyKeys("kept", "next");

        store.close();
        LuceneStores.Handle reopened = open();
        assertThat(get(reopened, PRODUCTS, "kept", "lost-1", "lost-2", "next")).containsOnlyKeys("kept", "next");
        assertThat(reopened.maxSeqNo(PRODUCTS)).isEqualTo(3);
    }

    @Test
    void whenEvenTheRollbackFails_theIndexIsOpenedAgainOnceTheDiskRecovers() {
        LuceneStores.Handle store = open();
        store.createIndex(PRODUCTS);
        store.write(PRODUCTS, List.of(upsert(doc("kept", 0))), 0);
        failSync.set(true);
        failOpenInput.set(true);

        GatewayException write = catchThrowableOfType(GatewayException.class,
                () -> store.write(PRODUCTS, List.of(upsert(doc("lost", 1))), 1));
        GatewayException read = catchThrowableOfType(GatewayException.class, () -> get(store, PRODUCTS, "kept"));

        assertThat(write.kind()).isEqualTo(ErrorKind.BACKEND_UNAVAILABLE);
        assertThat(write.getSuppressed()).hasSize(1);
        assertThat(read.kind()).isEqualTo(ErrorKind.BACKEND_UNAVAILABLE);
        assertThat(read.reason()).startsWith("cannot open the Lucene index of [products/uuid-products]");

        failSync.set(false);
        failOpenInput.set(false);
        assertThat(get(store, PRODUCTS, "kept", "lost")).containsOnlyKeys("kept");
        assertThat(store.maxSeqNo(PRODUCTS)).isEqualTo(0);
        store.write(PRODUCTS, List.of(upsert(doc("next", 2))), 2);
        assertThat(get(store, PRODUCTS, "kept", "lost", "next")).containsOnlyKeys("kept", "next");
    }

    @Test
    @Timeout(60)
    void readsDoNotWaitForAWriteInFlightNorSeeIt() throws Exception {
        LuceneStores.Handle store = open();
        store.createIndex(PRODUCTS);
        store.write(PRODUCTS, List.of(upsert(doc("before", 0))), 0);
        assertThat(get(store, PRODUCTS, "before")).hasSize(1); // refreshes now, so the reads below need no refresh
        CountDownLatch gate = new CountDownLatch(1);
        syncGate.set(gate);

        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<?> write = threads.submit(
                    () -> store.write(PRODUCTS, List.of(upsert(doc("in-flight", 1))), 1));
            try {
                // the write is applied to the writer and parked in its commit's fsync, holding the index's writing lock
                assertThat(syncParked.await(10, TimeUnit.SECONDS)).isTrue();
                assertThat(write).isNotDone();
                Map<String, StoredDocument> read = threads.submit(
                        () -> get(store, PRODUCTS, "before", "in-flight")).get(10, TimeUnit.SECONDS);
                assertThat(read).containsOnlyKeys("before");
                assertThat(threads.submit(() -> store.stats(PRODUCTS)).get(10, TimeUnit.SECONDS).docCount())
                        .isEqualTo(1);
                assertThat(store.maxSeqNo(PRODUCTS)).isEqualTo(0);
            } finally {
                gate.countDown();
            }
            write.get(10, TimeUnit.SECONDS);
        }
        assertThat(get(store, PRODUCTS, "before", "in-flight")).containsOnlyKeys("before", "in-flight");
        assertThat(store.maxSeqNo(PRODUCTS)).isEqualTo(1);
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
