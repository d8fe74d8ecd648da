package io.qdrant.esgateway.application.port.out;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite;
import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite.Delete;
import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite.Upsert;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What every {@link DocumentStore} must do with documents. An adapter's test extends this class and returns a fresh,
 * empty store from {@link #newStore()}; a store that is {@link AutoCloseable} is closed after each test. A store
 * that keeps its documents across a restart also implements {@link #reopen}, and then every write must survive it.
 *
 * <p>Decisions the port leaves open and this contract fixes: {@code get} answers in the order of the ids asked, once
 * per id, and ignores duplicates; a batch without writes still records its {@code maxSeqNo}; {@code maxSeqNo} never
 * goes down (a lower value than the recorded one is ignored); {@code stats().docCount()} counts the live documents
 * once every acknowledged write is applied; a dropped index that is created again (same name and uuid) starts empty
 * with {@code maxSeqNo} -1. Sources round-trip exactly as the domain's {@link Json} models them (including integers
 * beyond 64 bits and strings with lone surrogates).
 */
public abstract class DocumentStoreContract {

    /** A mapping with a field of every indexed kind. */
    protected static final String MAPPINGS = """
            {
              "properties": {
                "title": {"type": "text", "fields": {"raw": {"type": "keyword"}}},
                "tag": {"type": "keyword"},
                "count": {"type": "long"},
                "price": {"type": "double"},
                "ratio": {"type": "float"},
                "active": {"type": "boolean"},
                "published": {"type": "date"},
                "embedding": {"type": "dense_vector", "dims": 3, "similarity": "cosine", "index": true},
                "author": {"properties": {"name": {"type": "text"}}}
              }
            }
            """;

    /** A source using every kind of value of {@link #MAPPINGS}, and JSON edge cases besides. */
    protected static final String RICH_SOURCE = """
            {"title": "Ünïcode title – 日本語 🚀", "tag": ["red", "blue", "red"], "count": 42, "price": 9.99,
             "ratio": 0.5, "active": true, "published": "2024-05-06T07:08:09.123Z", "embedding": [0.1, 0.2, 0.3],
             "author": {"name": "Jane \\"JD\\" Doe\\n\\t\\\\ \\u0001"}, "big": 123456789012345678901234567890,
             "negative": -9223372036854775808, "exp": 1.5E300, "nothing": null, "empty": {}, "list": [],
             "mixed": [1, "two", 3.0, false, null, {"deep": [[]]}]}
            """;

    protected static final Instant CREATED = Instant.parse("2024-05-06T07:08:09.123Z");

    protected DocumentStore store;

    /** A new, empty store; called once per test. */
    protected abstract DocumentStore newStore();

    @BeforeEach
    void openStore() {
        store = newStore();
    }

    @AfterEach
    void closeStore() throws Exception {
        if (store instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }

    // ---------------------------------------------------------------- fixtures

    protected static IndexMetadata index(String name) {
        return index(name, "uuid-" + name);
    }

    protected static IndexMetadata index(String name, String uuid) {
        return new IndexMetadata(name, uuid, CREATED, IndexSettings.DEFAULTS, Mappings.parse(Json.parse(MAPPINGS)));
    }

    /** Creates {@code name} in the store and returns it. */
    protected IndexMetadata created(String name) {
        IndexMetadata index = index(name);
        store.createIndex(index);
        return index;
    }

    protected static JsonObject source(String json) {
        return (JsonObject) Json.parse(json);
    }

    /** A document with one keyword value, {@code {"n": <n>, "tag": <tag>}}. */
    protected static IndexableDocument doc(String id, long version, long seqNo, long n) {
        return new IndexableDocument(id, new DocumentVersion(version, seqNo, DocumentVersion.PRIMARY_TERM),
                source("{\"n\": " + n + ", \"tag\": \"t" + n + "\"}"),
                List.of(new IndexedValue.Keyword("tag", "t" + n)));
    }

    /** {@link #RICH_SOURCE} with a value of every {@link IndexedValue} kind, multi-valued keywords included. */
    protected static IndexableDocument richDoc(String id, long version, long seqNo) {
        List<IndexedValue> values = List.of(
                new IndexedValue.Text("title", "Ünïcode title – 日本語 🚀"),
                new IndexedValue.Keyword("title.raw", "Ünïcode title – 日本語 🚀"),
                new IndexedValue.Keyword("tag", "red"),
                new IndexedValue.Keyword("tag", "blue"),
                new IndexedValue.Keyword("tag", "red"),
                new IndexedValue.LongValue("count", 42),
                new IndexedValue.DoubleValue("price", 9.99),
                new IndexedValue.FloatValue("ratio", 0.5f),
                new IndexedValue.BooleanValue("active", true),
                new IndexedValue.DateValue("published", CREATED.toEpochMilli()),
                new IndexedValue.Vector("embedding", new float[] {0.1f, 0.2f, 0.3f}),
                new IndexedValue.Text("author.name", "Jane \"JD\" Doe\n\t\\ \u0001"));
        return new IndexableDocument(id, new DocumentVersion(version, seqNo, DocumentVersion.PRIMARY_TERM),
                source(RICH_SOURCE), values);
    }

    protected static Upsert upsert(IndexableDocument document) {
        return new Upsert(document);
    }

    protected static Delete delete(String id) {
        return new Delete(id);
    }

    protected Optional<StoredDocument> get(IndexMetadata index, String id) {
        return Optional.ofNullable(store.get(index, List.of(id)).get(id));
    }

    /** Replaces the store under test (used by {@link DurableDocumentStoreContract} after a restart). */
    protected void replaceStore(DocumentStore reopened) {
        store = reopened;
    }

    // ---------------------------------------------------------------- a new index

    @Test
    void aNewIndexHasNoDocumentsAndNoSequenceNumber() {
        IndexMetadata index = created("products");

        assertThat(store.get(index, List.of("1", "2"))).isEmpty();
        assertThat(store.maxSeqNo(index)).isEqualTo(-1);
        assertThat(store.stats(index).docCount()).isZero();
    }

    @Test
    void getOfNoIdsIsEmpty() {
        IndexMetadata index = created("products");
        store.write(index, List.of(upsert(doc("1", 1, 0, 1))), 0);

        assertThat(store.get(index, List.of())).isEmpty();
    }

    // ---------------------------------------------------------------- write then get

    @Test
    void givenUpsert_whenGet_thenIdVersionTripleAndSourceRoundTripExactly() {
        IndexMetadata index = created("products");
        IndexableDocument written = richDoc("doc-1", 3, 17);

        store.write(index, List.of(upsert(written)), 17);

        StoredDocument read = get(index, "doc-1").orElseThrow();
        assertThat(read.id()).isEqualTo("doc-1");
        assertThat(read.version()).isEqualTo(new DocumentVersion(3, 17, 1));
        assertThat(read.source()).isEqualTo(source(RICH_SOURCE));
        assertThat(Json.write(read.source())).isEqualTo(Json.write(source(RICH_SOURCE)));
        assertThat(read).isEqualTo(written.stored());
    }

    @Test
    void sourceNumbersKeepTheirJavaTypes() {
        IndexMetadata index = created("products");

        store.write(index, List.of(upsert(richDoc("1", 1, 0))), 0);

        JsonObject read = get(index, "1").orElseThrow().source();
        assertThat(((JsonValue.JsonNumber) read.get("count")).value()).isEqualTo(42L);
        assertThat(((JsonValue.JsonNumber) read.get("price")).value()).isEqualTo(9.99);
        assertThat(((JsonValue.JsonNumber) read.get("big")).value())
                .isEqualTo(new java.math.BigInteger("123456789012345678901234567890"));
        assertThat(((JsonValue.JsonNumber) read.get("negative")).value()).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void aSourceWithLoneSurrogatesRoundTrips() {
        IndexMetadata index = created("products");
        JsonObject source = new JsonObject(Map.of("high", JsonValue.string("a\uD800b"),
                "low\uDC00key", JsonValue.string("\uDFFF"), "pair", JsonValue.string("\uD83D\uDE80")));

        store.write(index, List.of(upsert(new IndexableDocument("1", new DocumentVersion(1, 0, 1), source,
                List.of()))), 0);

        assertThat(get(index, "1").orElseThrow().source()).isEqualTo(source);
    }

    @Test
    void anEmptySourceAndADocumentWithoutValuesAreKept() {
        IndexMetadata index = created("products");

        store.write(index, List.of(upsert(new IndexableDocument("empty", new DocumentVersion(1, 0, 1),
                JsonObject.of(), List.of()))), 0);

        assertThat(get(index, "empty").orElseThrow().source()).isEqualTo(JsonObject.of());
    }

    @Test
    void idsAreExact_unicodeSlashesSpacesAndFiveHundredTwelveBytes() {
        IndexMetadata index = created("products");
        String ascii512 = "x".repeat(512);
        String multibyte512 = "é".repeat(256); // 2 UTF-8 bytes each
        String fourByte512 = "🚀".repeat(128); // 4 UTF-8 bytes each
        List<String> ids = List.of("ünï-cødé-日本", "a/b/c", "/leading", "trailing/", "with space", "%2F", "a+b",
                "..", "*", "_id", "?q=1&x", ascii512, multibyte512, fourByte512, "1", "01", "A", "a");
        assertThat(ascii512.getBytes(StandardCharsets.UTF_8)).hasSize(512);
        assertThat(multibyte512.getBytes(StandardCharsets.UTF_8)).hasSize(512);
        assertThat(fourByte512.getBytes(StandardCharsets.UTF_8)).hasSize(512);
        List<DocumentWrite> writes = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            writes.add(upsert(doc(ids.get(i), 1, i, i)));
        }

        store.write(index, writes, ids.size() - 1);

        Map<String, StoredDocument> read = store.get(index, ids);
        assertThat(read.keySet()).containsExactlyElementsOf(ids);
        for (int i = 0; i < ids.size(); i++) {
            assertThat(read.get(ids.get(i)).id()).isEqualTo(ids.get(i));
            assertThat(read.get(ids.get(i)).source()).isEqualTo(doc(ids.get(i), 1, i, i).source());
        }
        assertThat(store.get(index, List.of("x".repeat(511), "A/", "ünï"))).isEmpty();
        assertThat(store.stats(index).docCount()).isEqualTo(ids.size());
    }

    @Test
    void getOfSeveralIdsAnswersThePresentOnesInTheOrderAsked() {
        IndexMetadata index = created("products");
        store.write(index, List.of(upsert(doc("a", 1, 0, 0)), upsert(doc("b", 1, 1, 1)), upsert(doc("c", 1, 2, 2))),
                2);

        Map<String, StoredDocument> read = store.get(index, List.of("c", "missing", "a", "c", "other"));

        assertThat(read.keySet()).containsExactly("c", "a");
        assertThat(read.get("c")).isEqualTo(doc("c", 1, 2, 2).stored());
        assertThat(read.get("a")).isEqualTo(doc("a", 1, 0, 0).stored());
    }

    @Test
    void aBigBatchIsWrittenWhole() {
        IndexMetadata index = created("products");
        List<DocumentWrite> writes = IntStream.range(0, 2_000).<DocumentWrite>mapToObj(
                i -> upsert(i % 2 == 0 ? doc("d" + i, 1, i, i) : richDoc("d" + i, 1, i))).toList();

        store.write(index, writes, 1_999);

        List<String> ids = IntStream.range(0, 2_000).mapToObj(i -> "d" + i).toList();
        Map<String, StoredDocument> read = store.get(index, ids);
        assertThat(read).hasSize(2_000);
        assertThat(read.get("d1234")).isEqualTo(doc("d1234", 1, 1234, 1234).stored());
        assertThat(read.get("d1999")).isEqualTo(richDoc("d1999", 1, 1999).stored());
        assertThat(store.stats(index).docCount()).isEqualTo(2_000);
        assertThat(store.maxSeqNo(index)).isEqualTo(1_999);
    }

    // ---------------------------------------------------------------- overwrite and delete

    @Test
    void givenExistingDocument_whenUpsertedAgain_thenTheNewOneReplacesIt() {
        IndexMetadata index = created("products");
        store.write(index, List.of(upsert(richDoc("1", 1, 0))), 0);

        store.write(index, List.of(upsert(doc("1", 2, 1, 7))), 1);

        assertThat(get(index, "1")).contains(doc("1", 2, 1, 7).stored());
        assertThat(store.stats(index).docCount()).isEqualTo(1);
    }

    @Test
    void givenExistingDocument_whenDeleted_thenItIsGone() {
        IndexMetadata index = created("products");
        store.write(index, List.of(upsert(doc("1", 1, 0, 1)), upsert(doc("2", 1, 1, 2))), 1);

        store.write(index, List.of(delete("1")), 2);

        assertThat(get(index, "1")).isEmpty();
        assertThat(get(index, "2")).contains(doc("2", 1, 1, 2).stored());
        assertThat(store.stats(index).docCount()).isEqualTo(1);
        assertThat(store.maxSeqNo(index)).isEqualTo(2);
    }

    @Test
    void deletingAMissingDocumentIsNotAnError() {
        IndexMetadata index = created("products");

        assertThatCode(() -> store.write(index, List.of(delete("never")), 0)).doesNotThrowAnyException();

        assertThat(get(index, "never")).isEmpty();
        assertThat(store.maxSeqNo(index)).isEqualTo(0);
        assertThat(store.stats(index).docCount()).isZero();
    }

    @Test
    void givenDeletedDocument_whenUpsertedAgain_thenItIsBack() {
        IndexMetadata index = created("products");
        store.write(index, List.of(upsert(doc("1", 1, 0, 1))), 0);
        store.write(index, List.of(delete("1")), 1);

        store.write(index, List.of(upsert(doc("1", 3, 2, 5))), 2);

        assertThat(get(index, "1")).contains(doc("1", 3, 2, 5).stored());
        assertThat(store.stats(index).docCount()).isEqualTo(1);
    }

    // ---------------------------------------------------------------- order within a batch

    @Test
    void writesOfABatchApplyInOrder() {
        IndexMetadata index = created("products");
        store.write(index, List.of(upsert(doc("existing", 1, 0, 0))), 0);

        store.write(index, List.of(
                upsert(doc("a", 1, 1, 1)), delete("a"),
                delete("b"), upsert(doc("b", 1, 3, 3)),
                upsert(doc("c", 1, 4, 4)), upsert(doc("c", 2, 5, 5)), upsert(doc("c", 3, 6, 6)),
                delete("existing"), upsert(doc("existing", 2, 8, 8)), delete("existing"),
                upsert(doc("d", 1, 10, 10)), delete("d"), upsert(doc("d", 2, 12, 12))), 12);

        Map<String, StoredDocument> read = store.get(index, List.of("a", "b", "c", "d", "existing"));
        assertThat(read.keySet()).containsExactly("b", "c", "d");
        assertThat(read.get("b")).isEqualTo(doc("b", 1, 3, 3).stored());
        assertThat(read.get("c")).isEqualTo(doc("c", 3, 6, 6).stored());
        assertThat(read.get("d")).isEqualTo(doc("d", 2, 12, 12).stored());
        assertThat(store.stats(index).docCount()).isEqualTo(3);
    }

    // ---------------------------------------------------------------- maxSeqNo

    @Test
    void maxSeqNoIsTheRecordedValueAndNeverGoesDown() {
        IndexMetadata index = created("products");
        assertThat(store.maxSeqNo(index)).isEqualTo(-1);

        store.write(index, List.of(upsert(doc("1", 1, 0, 1))), 0);
        assertThat(store.maxSeqNo(index)).isEqualTo(0);

        store.write(index, List.of(upsert(doc("2", 1, 5, 2))), 5);
        assertThat(store.maxSeqNo(index)).isEqualTo(5);

        store.write(index, List.of(upsert(doc("3", 1, 3, 3))), 3);
        assertThat(store.maxSeqNo(index)).isEqualTo(5);
        assertThat(get(index, "3")).isPresent();
    }

    @Test
    void aBatchWithoutWritesStillRecordsItsMaxSeqNo() {
        IndexMetadata index = created("products");

        store.write(index, List.of(), 4);

        assertThat(store.maxSeqNo(index)).isEqualTo(4);
        assertThat(store.stats(index).docCount()).isZero();
    }

    // ---------------------------------------------------------------- isolation

    @Test
    void indicesAreIsolated() {
        IndexMetadata a = created("a");
        IndexMetadata b = created("b");

        store.write(a, List.of(upsert(doc("same", 1, 0, 1)), upsert(doc("only-a", 1, 1, 2))), 1);
        store.write(b, List.of(upsert(doc("same", 7, 9, 9))), 9);

        assertThat(get(a, "same")).contains(doc("same", 1, 0, 1).stored());
        assertThat(get(b, "same")).contains(doc("same", 7, 9, 9).stored());
        assertThat(get(b, "only-a")).isEmpty();
        assertThat(store.maxSeqNo(a)).isEqualTo(1);
        assertThat(store.maxSeqNo(b)).isEqualTo(9);
        assertThat(store.stats(a).docCount()).isEqualTo(2);
        assertThat(store.stats(b).docCount()).isEqualTo(1);

        store.write(b, List.of(delete("same")), 10);
        assertThat(get(a, "same")).isPresent();
        store.dropIndex(b);
        assertThat(store.get(a, List.of("same", "only-a"))).hasSize(2);
    }

    @Test
    void indicesWithTheSameNameAndDifferentUuidsAreIsolated() {
        IndexMetadata before = index("products", "uuid-1");
        IndexMetadata after = index("products", "uuid-2");
        store.createIndex(before);
        store.write(before, List.of(upsert(doc("1", 1, 0, 1))), 0);

        store.createIndex(after);

        assertThat(get(after, "1")).isEmpty();
        assertThat(store.maxSeqNo(after)).isEqualTo(-1);
        store.dropIndex(before);
        assertThat(store.stats(after).docCount()).isZero();
    }

    @Test
    void givenDroppedIndex_whenCreatedAgain_thenItStartsEmpty() {
        IndexMetadata index = created("products");
        store.write(index, List.of(upsert(doc("1", 1, 0, 1))), 0);
        store.dropIndex(index);

        store.createIndex(index);

        assertThat(get(index, "1")).isEmpty();
        assertThat(store.maxSeqNo(index)).isEqualTo(-1);
        assertThat(store.stats(index).docCount()).isZero();
    }

    // ---------------------------------------------------------------- concurrency

    @Test
    @Timeout(120)
    void concurrentWritersEachSeeTheirOwnAcknowledgedWritesAndNoneIsLost() throws Exception {
        IndexMetadata index = created("products");
        int threads = 8;
        int perThread = 40;
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        String id = thread + "-" + i;
                        long seqNo = (long) thread * perThread + i;
                        store.write(index, List.of(upsert(doc(id, 1, seqNo, seqNo))), seqNo);
                        if (!store.get(index, List.of(id)).containsKey(id)) {
                            problems.add("acknowledged " + id + " not visible");
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get();
            }
        }
        assertThat(problems).isEmpty();
        assertThat(store.stats(index).docCount()).isEqualTo(threads * perThread);
        assertThat(store.maxSeqNo(index)).isEqualTo(threads * perThread - 1);
    }

    @Test
    @Timeout(120)
    void readersNeverSeeHalfABatch() throws Exception {
        IndexMetadata index = created("products");
        List<String> ids = List.of("a", "b", "c", "d");
        store.write(index, ids.stream().<DocumentWrite>map(id -> upsert(doc(id, 1, 0, 0))).toList(), 0);
        int batches = 100;
        AtomicBoolean writing = new AtomicBoolean(true);
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            Future<?> writer = pool.submit(() -> {
                try {
                    for (long n = 1; n <= batches; n++) {
                        long generation = n;
                        store.write(index, ids.stream().<DocumentWrite>map(
                                id -> upsert(doc(id, generation + 1, generation, generation))).toList(), generation);
                    }
                } finally {
                    writing.set(false);
                }
                return null;
            });
            List<Future<?>> readers = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                readers.add(pool.submit(() -> {
                    long last = 0;
                    while (writing.get()) {
                        Map<String, StoredDocument> read = store.get(index, ids);
                        long[] seqNos = ids.stream().mapToLong(id -> read.get(id).version().seqNo()).toArray();
                        if (Arrays.stream(seqNos).distinct().count() != 1) {
                            problems.add("half a batch: " + Arrays.toString(seqNos));
                        }
                        if (seqNos[0] < last) {
                            problems.add("went back from " + last + " to " + seqNos[0]);
                        }
                        last = seqNos[0];
                    }
                    return null;
                }));
            }
            writer.get();
            for (Future<?> f : readers) {
                f.get();
            }
        }
        assertThat(problems).isEmpty();
        assertThat(store.get(index, ids).values()).allSatisfy(d -> assertThat(d.version().seqNo()).isEqualTo(batches));
    }
}
