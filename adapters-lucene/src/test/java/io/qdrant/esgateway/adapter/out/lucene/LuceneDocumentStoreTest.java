package io.qdrant.esgateway.adapter.out.lucene;

import io.qdrant.esgateway.adapter.out.lucene.engine.IndexEngine;

import static io.qdrant.esgateway.domain.error.Failures.failure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.adapter.out.lucene.engine.IndexEngine.DirectoryFactory;
import io.qdrant.esgateway.application.port.out.DocumentStore.StoreStats;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LuceneDocumentStoreTest {

    @TempDir
    Path temp;

    private Path data;
    private final List<LuceneStores.Handle> stores = new ArrayList<>();

    @BeforeEach
    void dataDirectory() {
        data = temp.resolve("data");
    }

    @AfterEach
    void closeStores() {
        stores.forEach(LuceneStores.Handle::close);
    }

    private LuceneStores.Handle open() {
        return track(LuceneStores.open(data));
    }

    private LuceneStores.Handle track(LuceneStores.Handle store) {
        stores.add(store);
        return store;
    }

    private static IndexMetadata index(String name, String uuid) {
        return new IndexMetadata(name, uuid, Instant.EPOCH, IndexSettings.DEFAULTS, Mappings.EMPTY);
    }

    /** The {@code products} index with uuid {@code u1}. */
    private static IndexMetadata products() {
        return index("products", "u1");
    }

    private Path indices() {
        return data.resolve("indices");
    }

    private Path storageOf(IndexMetadata index) {
        return indices().resolve(index.uuid());
    }

    private static List<Path> entries(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.toList();
        }
    }

    private static long bytesIn(Path directory) throws IOException {
        long total = 0;
        for (Path file : entries(directory)) {
            total += Files.size(file);
        }
        return total;
    }

    private static boolean isLuceneIndex(Path directory) throws IOException {
        try (Directory lucene = FSDirectory.open(directory)) {
            return DirectoryReader.indexExists(lucene);
        }
    }

    /**
     * Writes {@code count} documents with ids 0..count-1 straight into a closed store's index and deletes the first
     * {@code deleted} of them; no merges, so the deletions stay counted.
     */
    private static void writeDocuments(Path storage, int count, int deleted) throws IOException {
        IndexWriterConfig config = new IndexWriterConfig(new StandardAnalyzer())
                .setOpenMode(IndexWriterConfig.OpenMode.APPEND).setMergePolicy(NoMergePolicy.INSTANCE);
        try (Directory lucene = FSDirectory.open(storage); IndexWriter writer = new IndexWriter(lucene, config)) {
            for (int i = 0; i < count; i++) {
                Document doc = new Document();
                doc.add(new StringField("_id", Integer.toString(i), Field.Store.YES));
                writer.addDocument(doc);
            }
            writer.commit();
            for (int i = 0; i < deleted; i++) {
                writer.deleteDocuments(new Term("_id", Integer.toString(i)));
            }
            writer.commit();
        }
    }

    /** A Lucene directory on disk that refuses to write any file, like a full disk. */
    private static final DirectoryFactory DISK_FULL = path -> new FilterDirectory(FSDirectory.open(path)) {
        @Override
        public IndexOutput createOutput(String name, IOContext context) throws IOException {
            throw new IOException("No space left on device");
        }
    };

    @Nested
    class Opening {
        @Test
        void creates_the_data_directory_and_names_itself() {
            LuceneStores.Handle store = open();

            assertThat(indices()).isDirectory();
            assertThat(store.name()).isEqualTo("lucene");
            assertThat(store.dataDirectory()).isEqualTo(data.toAbsolutePath());
        }

        @Test
        void normalises_the_data_directory() {
            LuceneStores.Handle store = track(LuceneStores.open(temp.resolve("elsewhere/../data")));

            assertThat(store.dataDirectory()).isEqualTo(data.toAbsolutePath());
        }

        @Test
        void refuses_a_regular_file_and_leaves_it_alone() throws IOException {
            Files.writeString(data, "not a directory");

            GatewayException e = failure(ErrorKind.BACKEND_UNAVAILABLE, () -> LuceneStores.open(data));

            assertThat(e.reason()).isEqualTo("Lucene data directory [" + data.toAbsolutePath()
                    + "] cannot be opened: it is not a directory");
            assertThat(data).isRegularFile().hasContent("not a directory");
        }

        @Test
        void refuses_a_directory_below_a_regular_file() throws IOException {
            Files.writeString(temp.resolve("file"), "x");

            GatewayException e = failure(ErrorKind.BACKEND_UNAVAILABLE,
                    () -> LuceneStores.open(temp.resolve("file/data")));

            assertThat(e.reason()).startsWith("Lucene data directory [" + temp.resolve("file/data").toAbsolutePath()
                    + "] cannot be opened: ");
        }

        @Test
        void refuses_a_data_directory_another_store_has_open() {
            open();

            GatewayException e = failure(ErrorKind.BACKEND_UNAVAILABLE, () -> LuceneStores.open(data));

            assertThat(e.reason()).isEqualTo("Lucene data directory [" + data.toAbsolutePath()
                    + "] cannot be opened: it is in use by another store of this process");
        }

        @Test
        void can_be_opened_again_after_close() {
            open().close();

            assertThatCode(() -> open().ping()).doesNotThrowAnyException();
        }
    }

    @Nested
    class Creating {
        @Test
        void commits_an_empty_index_in_a_directory_named_by_the_uuid() throws IOException {
            LuceneStores.Handle store = open();

            store.createIndex(products());

            assertThat(storageOf(products())).isDirectory();
            assertThat(isLuceneIndex(storageOf(products()))).isTrue();
            assertThat(entries(indices())).containsExactly(storageOf(products()));
        }

        @Test
        void a_new_index_has_no_documents_and_its_files_size() throws IOException {
            LuceneStores.Handle store = open();
            store.createIndex(products());

            StoreStats stats = store.stats(products());

            assertThat(stats.docCount()).isZero();
            assertThat(stats.deletedDocs()).isZero();
            assertThat(stats.sizeInBytes()).isPositive().isEqualTo(bytesIn(storageOf(products())));
        }

        @Test
        void refuses_an_index_it_already_has() {
            LuceneStores.Handle store = open();
            store.createIndex(products());

            GatewayException e = failure(ErrorKind.RESOURCE_ALREADY_EXISTS, () -> store.createIndex(products()));

            assertThat(e.reason()).isEqualTo("index [products/u1] already exists");
            assertThat(store.stats(products()).docCount()).isZero();
        }

        @Test
        void refuses_a_directory_already_on_disk_and_keeps_its_content() throws IOException {
            open().createIndex(products());
            stores.getLast().close();
            writeDocuments(storageOf(products()), 2, 0);
            LuceneStores.Handle store = open();

            failure(ErrorKind.RESOURCE_ALREADY_EXISTS, () -> store.createIndex(products()));

            assertThat(store.stats(products()).docCount()).isEqualTo(2);
        }

        @Test
        void leaves_nothing_behind_when_lucene_cannot_write() throws IOException {
            LuceneStores.Handle failing = track(LuceneDocumentStore.open(data, DISK_FULL));

            GatewayException e = failure(ErrorKind.BACKEND_UNAVAILABLE, () -> failing.createIndex(products()));

            assertThat(e.reason()).isEqualTo("cannot create the Lucene index of [products/u1] in ["
                    + storageOf(products()).toAbsolutePath() + "]: IOException: No space left on device");
            assertThat(e.metadata()).isEqualTo(Map.of("index_uuid", "u1", "index", "products"));
            assertThat(entries(indices())).isEmpty();
            failing.close();
            LuceneStores.Handle healthy = open();
            healthy.createIndex(products());
            assertThat(healthy.stats(products()).docCount()).isZero();
        }

        @Test
        void leaves_nothing_behind_when_the_index_directory_cannot_be_created() throws IOException {
            LuceneStores.Handle store = open();
            Files.delete(indices());
            Files.writeString(indices(), "in the way");

            GatewayException e = failure(ErrorKind.BACKEND_UNAVAILABLE, () -> store.createIndex(products()));

            assertThat(e.reason()).startsWith("cannot create the Lucene index of [products/u1] in ["
                    + storageOf(products()).toAbsolutePath() + "]: ");
            assertThat(indices()).isRegularFile().hasContent("in the way");
            assertThat(entries(data)).containsExactlyInAnyOrder(indices(), data.resolve("store.lock"));
        }

        @Test
        void refuses_a_uuid_that_is_not_a_plain_directory_name() {
            LuceneStores.Handle store = open();

            assertThatThrownBy(() -> store.createIndex(index("evil", "../../escape")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("index [evil] has uuid [../../escape], which is not URL-safe base64");
            assertThat(temp.resolve("escape")).doesNotExist();
        }
    }

    @Nested
    class Dropping {
        @Test
        void deletes_the_index_directory() {
            LuceneStores.Handle store = open();
            store.createIndex(products());

            store.dropIndex(products());

            assertThat(storageOf(products())).doesNotExist();
            assertThat(indices()).isEmptyDirectory();
        }

        @Test
        void a_missing_index_is_not_an_error() {
            LuceneStores.Handle store = open();
            store.createIndex(products());
            store.dropIndex(products());

            assertThatCode(() -> store.dropIndex(products())).doesNotThrowAnyException();
            assertThatCode(() -> store.dropIndex(index("never", "created"))).doesNotThrowAnyException();
        }

        @Test
        void deletes_an_index_an_earlier_store_created() {
            open().createIndex(products());
            stores.getLast().close();
            LuceneStores.Handle store = open();

            store.dropIndex(products());

            assertThat(storageOf(products())).doesNotExist();
        }

        @Test
        void the_dropped_index_has_no_stats() {
            LuceneStores.Handle store = open();
            store.createIndex(products());
            store.dropIndex(products());

            GatewayException e = failure(ErrorKind.BACKEND_FAILURE, () -> store.stats(products()));

            assertThat(e.reason()).isEqualTo("the Lucene index of [products/u1] is missing from ["
                    + indices().toAbsolutePath() + "]");
            assertThat(storageOf(products())).doesNotExist();
        }

        @Test
        void the_same_uuid_can_be_created_again_empty() throws IOException {
            open().createIndex(products());
            stores.getLast().close();
            writeDocuments(storageOf(products()), 3, 0);
            LuceneStores.Handle store = open();
            store.dropIndex(products());

            store.createIndex(products());

            assertThat(store.stats(products()).docCount()).isZero();
        }
    }

    @Nested
    class Reopening {
        @Test
        void finds_the_indices_of_an_earlier_store_with_their_documents() throws IOException {
            open().createIndex(products());
            stores.getLast().close();
            // 10% deleted: below what Lucene's merge policy reclaims on its own, so the count is stable
            writeDocuments(storageOf(products()), 100, 10);

            StoreStats stats = open().stats(products());

            assertThat(stats.docCount()).isEqualTo(90);
            assertThat(stats.deletedDocs()).isEqualTo(10);
            assertThat(stats.sizeInBytes()).isEqualTo(bytesIn(storageOf(products())));
        }

        @Test
        void indices_with_the_same_name_and_different_uuids_are_isolated() throws IOException {
            IndexMetadata before = index("products", "u1");
            IndexMetadata after = index("products", "u2");
            open().createIndex(before);
            stores.getLast().close();
            writeDocuments(storageOf(before), 2, 0);
            LuceneStores.Handle store = open();

            store.createIndex(after);

            assertThat(store.stats(after).docCount()).isZero();
            assertThat(store.stats(before).docCount()).isEqualTo(2);
            store.dropIndex(before);
            assertThat(storageOf(before)).doesNotExist();
            assertThat(store.stats(after).docCount()).isZero();
            assertThat(entries(indices())).containsExactly(storageOf(after));
        }
    }

    @Nested
    class Health {
        @Test
        void ping_passes_on_a_usable_directory() {
            assertThatCode(() -> open().ping()).doesNotThrowAnyException();
            assertThat(indices()).isEmptyDirectory();
        }

        @Test
        void ping_fails_when_the_indices_directory_is_replaced_by_a_file() throws IOException {
            LuceneStores.Handle store = open();
            Files.delete(indices());
            Files.writeString(indices(), "in the way");

            GatewayException e = failure(ErrorKind.BACKEND_UNAVAILABLE, store::ping);

            assertThat(e.reason()).isEqualTo("Lucene data directory [" + data.toAbsolutePath() + "] is not usable: "
                    + "NotDirectoryException: " + indices().toAbsolutePath());
        }

        @Test
        void ping_fails_when_the_data_directory_is_gone() throws IOException {
            LuceneStores.Handle store = open();
            Files.delete(indices());
            Files.delete(data.resolve("store.lock"));
            Files.delete(data);

            failure(ErrorKind.BACKEND_UNAVAILABLE, store::ping);
        }

        @Test
        void update_mappings_needs_nothing() throws IOException {
            LuceneStores.Handle store = open();
            store.createIndex(products());
            long bytes = bytesIn(storageOf(products()));

            store.updateMappings(products());

            assertThat(bytesIn(storageOf(products()))).isEqualTo(bytes);
            assertThat(store.stats(products()).docCount()).isZero();
        }
    }

    @Nested
    class Closing {
        @Test
        void every_call_fails_as_unavailable_afterwards() {
            LuceneStores.Handle store = open();
            store.createIndex(products());

            store.close();

            String closed = "the Lucene store in [" + data.toAbsolutePath() + "] is closed";
            assertThat(failure(ErrorKind.BACKEND_UNAVAILABLE, store::ping).reason()).isEqualTo(closed);
            assertThat(failure(ErrorKind.BACKEND_UNAVAILABLE, () -> store.stats(products())).reason()).isEqualTo(closed);
            failure(ErrorKind.BACKEND_UNAVAILABLE, () -> store.createIndex(index("other", "u2")));
            failure(ErrorKind.BACKEND_UNAVAILABLE, () -> store.dropIndex(products()));
            failure(ErrorKind.BACKEND_UNAVAILABLE, () -> store.updateMappings(products()));
            assertThat(storageOf(products())).isDirectory();
            assertThat(indices().resolve("u2")).doesNotExist();
        }

        @Test
        void is_idempotent() {
            LuceneStores.Handle store = open();
            store.close();

            assertThatCode(store::close).doesNotThrowAnyException();
        }

        @Test
        void releases_every_index_for_other_writers() throws IOException {
            LuceneStores.Handle store = open();
            store.createIndex(products());
            store.stats(products());

            store.close();

            assertThatCode(() -> writeDocuments(storageOf(products()), 1, 0)).doesNotThrowAnyException();
        }
    }

    @Nested
    class Concurrency {
        @Test
        void creates_reads_and_drops_many_indices_at_once() throws Exception {
            LuceneStores.Handle store = open();
            List<IndexMetadata> all = IntStream.range(0, 24).mapToObj(i -> index("idx-" + i, "uuid-" + i)).toList();
            ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();

            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                for (IndexMetadata index : all) {
                    pool.submit(() -> {
                        try {
                            store.createIndex(index);
                            for (int i = 0; i < 5; i++) {
                                if (store.stats(index).docCount() != 0) {
                                    unexpected.add(new AssertionError("documents in " + index.uuid()));
                                }
                                store.ping();
                            }
                        } catch (Throwable t) {
                            unexpected.add(t);
                        }
                    });
                }
            }
            assertThat(unexpected).isEmpty();
            assertThat(entries(indices())).hasSize(all.size());

            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                for (IndexMetadata index : all) {
                    pool.submit(() -> {
                        try {
                            store.dropIndex(index);
                        } catch (Throwable t) {
                            unexpected.add(t);
                        }
                    });
                    pool.submit(() -> {
                        try {
                            store.stats(index);
                        } catch (GatewayException e) {
                            if (e.kind() != ErrorKind.BACKEND_FAILURE) {
                                unexpected.add(e);
                            }
                        } catch (Throwable t) {
                            unexpected.add(t);
                        }
                    });
                }
            }
            assertThat(unexpected).isEmpty();
            assertThat(indices()).isEmptyDirectory();
        }
    }
}
