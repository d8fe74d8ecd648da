package io.qdrant.esgateway.adapter.out.lucene;

import io.qdrant.esgateway.adapter.out.lucene.engine.IndexEngine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

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
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.query.Query;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.qdrant.esgateway.adapter.out.lucene.translog.Translog;

/**
 * Crash recovery from the translog, in process: a crash is simulated by copying the data directory of a store that is
 * still open and has never committed the writes (what a killed process leaves on disk: every byte it wrote, no
 * close), then opening a store on the copy. {@link LuceneDurabilityTest} does the same with a real SIGKILL.
 */
class LuceneTranslogRecoveryTest {

    @TempDir
    Path temp;

    private final List<LuceneStores.Handle> stores = new ArrayList<>();

    private static final IndexMetadata INDEX = new IndexMetadata("logged", "uuid-logged", Instant.EPOCH,
            IndexSettings.DEFAULTS, Mappings.parse(Json.parse("{\"properties\": {\"tag\": {\"type\": \"keyword\"},"
                    + " \"n\": {\"type\": \"long\"}, \"title\": {\"type\": \"text\"}, \"price\": {\"type\": \"double\"},"
                    + " \"ok\": {\"type\": \"boolean\"}, \"at\": {\"type\": \"date\"}, \"f\": {\"type\": \"float\"},"
                    + " \"v\": {\"type\": \"dense_vector\", \"dims\": 3, \"similarity\": \"l2_norm\"}}}")));

    @AfterEach
    void closeStores() {
        stores.forEach(LuceneStores.Handle::close);
    }

    private LuceneStores.Handle open(Path data) {
        return open(data, IndexEngine.FLUSH_THRESHOLD_BYTES);
    }

    private LuceneStores.Handle open(Path data, long flushThreshold) {
        LuceneStores.Handle store = LuceneDocumentStore.open(data, LuceneStores::directory, Translog.Fsync.DEFAULT,
                flushThreshold);
        stores.add(store);
        return store;
    }

    /**
     * A document with a value of every kind, so that replay must rebuild every field; those of even sequence numbers
     * with a routing value, which replay must keep.
     */
    private static IndexableDocument doc(String id, long version, long seqNo) {
        JsonObject source = (JsonObject) Json.parse("{\"tag\": \"t" + (seqNo % 3) + "\", \"n\": " + seqNo
                + ", \"title\": \"quick brown " + id + "\", \"price\": 1.50, \"ok\": true, \"at\": 86400000,"
                + " \"f\": 0.5, \"v\": [" + seqNo + ", 1, 2], \"note\": \"caf\\u00e9 \\ud83d\\ude00\"}");
        return new IndexableDocument(id, new DocumentVersion(version, seqNo, DocumentVersion.PRIMARY_TERM), source,
                List.of(new IndexedValue.Keyword("tag", "t" + (seqNo % 3)), new IndexedValue.LongValue("n", seqNo),
                        new IndexedValue.Text("title", "quick brown " + id), new IndexedValue.DoubleValue("price", 1.5),
                        new IndexedValue.BooleanValue("ok", true), new IndexedValue.DateValue("at", 86_400_000L),
                        new IndexedValue.FloatValue("f", 0.5f), new IndexedValue.Vector("v", new float[] {seqNo, 1, 2})),
                seqNo % 2 == 0 ? Optional.of("r-" + id) : Optional.empty());
    }

    /**
     * What a killed process leaves: a copy of every file as it is now, the store still open and uncommitted. A file
     * that is gone by the time it is copied (a background merge's temporary output, deleted when the merge ends) is
     * left out, as a crash a moment later would have left it out.
     */
    private Path crashCopy(Path data, String name) throws IOException {
        Path copy = temp.resolve(name);
        Files.walkFileTree(data, new java.nio.file.SimpleFileVisitor<>() {
            @Override
            public java.nio.file.FileVisitResult preVisitDirectory(Path dir,
                    java.nio.file.attribute.BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(copy.resolve(data.relativize(dir).toString()));
                return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFile(Path file, java.nio.file.attribute.BasicFileAttributes attrs)
                    throws IOException {
                try {
                    Files.copy(file, copy.resolve(data.relativize(file).toString()));
                } catch (java.nio.file.NoSuchFileException gone) {
                    // deleted since the directory was listed
                }
                return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof java.nio.file.NoSuchFileException) {
                    return java.nio.file.FileVisitResult.CONTINUE; // deleted since the directory was listed
                }
                throw e;
            }
        });
        return copy;
    }

    private static Path indexDirectory(Path data) {
        return data.resolve(LuceneDocumentStore.INDICES).resolve(INDEX.uuid());
    }

    private static TreeMap<Long, Path> translogs(Path data) throws IOException {
        return Translog.files(indexDirectory(data));
    }

    /** Writes 30 single-document batches and one batch of several operations; returns the ids it touched. */
    private static List<String> writeHistory(LuceneStores.Handle store) {
        long seqNo = 0;
        for (int i = 0; i < 30; i++, seqNo++) {
            store.write(INDEX, List.of(new DocumentWrite.Upsert(doc("d" + (i % 20), 1 + i / 20, seqNo))), seqNo);
        }
        store.write(INDEX, List.of(new DocumentWrite.Delete("d3"), new DocumentWrite.Upsert(doc("d4", 3, seqNo)),
                new DocumentWrite.Upsert(doc("d20", 1, seqNo + 1)), new DocumentWrite.Delete("absent")), seqNo + 2);
        return IntStream.rangeClosed(0, 20).mapToObj(i -> "d" + i).toList();
    }

    private static long count(LuceneStores.Handle store, String tag) {
        return store.count(INDEX, Optional.of(new Query.Term("tag", new JsonValue.JsonString(tag), false, 1f)));
    }

    @Test
    void everyAcknowledgedWriteIsRecoveredWithItsVersionSeqNoAndIndexedFields() throws IOException {
        Path data = temp.resolve("data");
        LuceneStores.Handle live = open(data);
        live.createIndex(INDEX);
        List<String> ids = writeHistory(live);
        Map<String, StoredDocument> expected = live.get(INDEX, ids);
        long[] counts = {count(live, "t0"), count(live, "t1"), count(live, "t2")};
        // nothing but the creation was committed: the writes are in the translog only
        assertThat(translogs(data)).hasSize(1);
        assertThat(Files.size(translogs(data).firstEntry().getValue())).isGreaterThan(Translog.HEADER_BYTES);

        LuceneStores.Handle recovered = open(crashCopy(data, "crash"));

        assertThat(recovered.get(INDEX, ids)).isEqualTo(expected).doesNotContainKey("d3").hasSize(20);
        assertThat(recovered.get(INDEX, List.of("d4")).get("d4").version()).isEqualTo(new DocumentVersion(3, 30, 1));
        assertThat(expected.get("d4").routing()).contains("r-d4");
        assertThat(recovered.get(INDEX, List.of("d4")).get("d4").routing()).contains("r-d4");
        assertThat(recovered.get(INDEX, List.of("d20")).get("d20").routing()).isEmpty();
        assertThat(recovered.maxSeqNo(INDEX)).isEqualTo(32);
        assertThat(new long[] {count(recovered, "t0"), count(recovered, "t1"), count(recovered, "t2")})
                .isEqualTo(counts);
        assertThat(recovered.stats(INDEX).docCount()).isEqualTo(20);
    }

    @Test
    void recoveryCommitsAndStartsANewGenerationSoASecondCrashLosesNothing() throws IOException {
        Path data = temp.resolve("data");
        LuceneStores.Handle live = open(data);
        live.createIndex(INDEX);
        List<String> ids = writeHistory(live);
        Map<String, StoredDocument> expected = live.get(INDEX, ids);

        Path first = crashCopy(data, "first");
        LuceneStores.Handle recovered = open(first);
        assertThat(recovered.maxSeqNo(INDEX)).isEqualTo(32);
        assertThat(translogs(first).keySet()).containsExactly(2L);
        recovered.write(INDEX, List.of(new DocumentWrite.Upsert(doc("after", 1, 33))), 33);

        LuceneStores.Handle again = open(crashCopy(first, "second"));
        Map<String, StoredDocument> all = again.get(INDEX, Stream.concat(ids.stream(), Stream.of("after")).toList());
        assertThat(all).containsAllEntriesOf(expected).containsKey("after").hasSize(21);
        assertThat(again.maxSeqNo(INDEX)).isEqualTo(33);
    }

    @Test
    void replayingOperationsTheCommitAlreadyHoldsChangesNothing() throws IOException {
        Path data = temp.resolve("data");
        LuceneStores.Handle live = open(data);
        live.createIndex(INDEX);
        List<String> ids = writeHistory(live);
        Map<String, StoredDocument> expected = live.get(INDEX, ids);
        Path crash = crashCopy(data, "crash");
        byte[] log = Files.readAllBytes(translogs(crash).firstEntry().getValue());

        LuceneStores.Handle recovered = open(crash);
        assertThat(recovered.stats(INDEX).docCount()).isEqualTo(20);
        recovered.close();
        // the same operations again, in the generation the commit points to: as after a crash during recovery
        Files.write(Translog.file(indexDirectory(crash), translogs(crash).lastKey()), log);

        LuceneStores.Handle replayedTwice = open(crash);
        assertThat(replayedTwice.get(INDEX, ids)).isEqualTo(expected);
        assertThat(replayedTwice.maxSeqNo(INDEX)).isEqualTo(32);
        assertThat(replayedTwice.stats(INDEX).docCount()).isEqualTo(20);
        assertThat(count(replayedTwice, "t0") + count(replayedTwice, "t1") + count(replayedTwice, "t2")).isEqualTo(20);
    }

    @Test
    void aTornLastRecordIsIgnoredAndTheIndexCarriesOn() throws IOException {
        Path data = temp.resolve("data");
        LuceneStores.Handle live = open(data);
        live.createIndex(INDEX);
        live.write(INDEX, List.of(new DocumentWrite.Upsert(doc("a", 1, 0))), 0);
        live.write(INDEX, List.of(new DocumentWrite.Upsert(doc("b", 1, 1))), 1);
        Path log = translogs(data).firstEntry().getValue();
        long beforeLast = Files.size(log);
        live.write(INDEX, List.of(new DocumentWrite.Upsert(doc("c", 1, 2)), new DocumentWrite.Delete("a")), 2);
        long full = Files.size(log);

        for (long cut : new long[] {beforeLast + 3, beforeLast + 8, beforeLast + 20, full - 1}) {
            Path crash = crashCopy(data, "cut-" + cut);
            try (FileChannel channel = FileChannel.open(translogs(crash).firstEntry().getValue(),
                    StandardOpenOption.WRITE)) {
                channel.truncate(cut);
            }
            LuceneStores.Handle recovered = open(crash);
            assertThat(recovered.get(INDEX, List.of("a", "b", "c"))).as("cut at %d", cut).containsOnlyKeys("a", "b");
            assertThat(recovered.maxSeqNo(INDEX)).isEqualTo(1);
            recovered.write(INDEX, List.of(new DocumentWrite.Upsert(doc("d", 1, 2))), 2);
            recovered.close();
            LuceneStores.Handle reopened = open(crash);
            assertThat(reopened.get(INDEX, List.of("a", "b", "c", "d"))).containsOnlyKeys("a", "b", "d");
            assertThat(reopened.maxSeqNo(INDEX)).isEqualTo(2);
        }
    }

    @Test
    void aLastRecordWithABadChecksumOrAZeroFilledTailIsTornToo() throws IOException {
        Path data = temp.resolve("data");
        LuceneStores.Handle live = open(data);
        live.createIndex(INDEX);
        live.write(INDEX, List.of(new DocumentWrite.Upsert(doc("a", 1, 0))), 0);
        live.write(INDEX, List.of(new DocumentWrite.Upsert(doc("b", 1, 1))), 1);

        Path flipped = crashCopy(data, "flipped");
        Path log = translogs(flipped).firstEntry().getValue();
        byte[] bytes = Files.readAllBytes(log);
        bytes[bytes.length - 1] ^= 0x5a;
        Files.write(log, bytes);
        assertThat(open(flipped).get(INDEX, List.of("a", "b"))).containsOnlyKeys("a");

        Path zeros = crashCopy(data, "zeros");
        Files.write(translogs(zeros).firstEntry().getValue(), new byte[4096], StandardOpenOption.APPEND);
        assertThat(open(zeros).get(INDEX, List.of("a", "b"))).containsOnlyKeys("a", "b");
    }

    @Test
    void aDamagedRecordBeforeTheLastOneIsCorruptionNotATornTail() throws IOException {
        Path data = temp.resolve("data");
        LuceneStores.Handle live = open(data);
        live.createIndex(INDEX);
        live.write(INDEX, List.of(new DocumentWrite.Upsert(doc("a", 1, 0))), 0);
        live.write(INDEX, List.of(new DocumentWrite.Upsert(doc("b", 1, 1))), 1);

        Path crash = crashCopy(data, "crash");
        Path log = translogs(crash).firstEntry().getValue();
        byte[] bytes = Files.readAllBytes(log);
        bytes[Translog.HEADER_BYTES + 20] ^= 0x5a;
        Files.write(log, bytes);

        GatewayException e = catchThrowableOfType(GatewayException.class,
                () -> open(crash).get(INDEX, List.of("a")));
        assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_FAILURE);
        assertThat(e.reason()).startsWith("cannot open the Lucene index of [logged/uuid-logged]")
                .contains("CorruptIndexException").contains("checksum");
    }

    @Test
    void pastTheFlushThresholdEachWriteCommitsAndTheOldGenerationsAreDeleted() throws IOException {
        Path data = temp.resolve("data");
        LuceneStores.Handle live = open(data, 1);
        live.createIndex(INDEX);
        List<String> ids = writeHistory(live);
        Map<String, StoredDocument> expected = live.get(INDEX, ids);

        TreeMap<Long, Path> files = translogs(data);
        assertThat(files).hasSize(1);
        assertThat(files.firstKey()).isEqualTo(32L); // generation 1, then one roll per batch
        assertThat(Files.size(files.firstEntry().getValue())).isEqualTo(Translog.HEADER_BYTES);

        LuceneStores.Handle recovered = open(crashCopy(data, "crash"));
        assertThat(recovered.get(INDEX, ids)).isEqualTo(expected);
        assertThat(recovered.maxSeqNo(INDEX)).isEqualTo(32);
    }

    @Test
    void gettingManyFreshWritesPastTheRecentLimitStillSeesEveryOne() {
        LuceneStores.Handle store = open(temp.resolve("data"));
        store.createIndex(INDEX);
        int n = IndexEngine.RECENT_LIMIT + 5;
        List<DocumentWrite> batch = IntStream.range(0, n)
                .<DocumentWrite>mapToObj(i -> new DocumentWrite.Upsert(doc("m" + i, 1, i))).toList();
        store.write(INDEX, batch, n - 1);
        store.write(INDEX, List.of(new DocumentWrite.Delete("m0")), n);

        List<String> ids = IntStream.range(0, n).mapToObj(i -> "m" + i).toList();
        assertThat(store.get(INDEX, ids)).hasSize(n - 1).doesNotContainKey("m0");
        assertThat(store.count(INDEX, Optional.empty())).isEqualTo(n - 1);
    }

    @Test
    void aCleanCloseCommitsSoNothingIsReplayed() throws IOException {
        Path data = temp.resolve("data");
        LuceneStores.Handle live = open(data);
        live.createIndex(INDEX);
        List<String> ids = writeHistory(live);
        Map<String, StoredDocument> expected = live.get(INDEX, ids);
        live.close();

        TreeMap<Long, Path> files = translogs(data);
        assertThat(files).hasSize(1);
        assertThat(Files.size(files.firstEntry().getValue())).isEqualTo(Translog.HEADER_BYTES);
        LuceneStores.Handle reopened = open(data);
        assertThat(reopened.get(INDEX, ids)).isEqualTo(expected);
        assertThat(reopened.maxSeqNo(INDEX)).isEqualTo(32);
    }

    @Test
    void thePeriodicFlushCommitsAnIndexWhoseTranslogHoldsWritesAndLeavesTheOthers() throws IOException {
        Path data = temp.resolve("data");
        LuceneDocumentStore live = (LuceneDocumentStore) open(data);
        live.createIndex(INDEX);
        live.flushLogged();
        assertThat(translogs(data).keySet()).as("nothing logged: no commit").containsExactly(1L);
        List<String> ids = writeHistory(live);
        Map<String, StoredDocument> expected = live.get(INDEX, ids);

        live.flushLogged();

        assertThat(translogs(data).keySet()).containsExactly(2L);
        assertThat(Files.size(translogs(data).get(2L))).isEqualTo(Translog.HEADER_BYTES);
        // the commit alone holds everything now: a crash copy without any translog recovers it all
        Path crash = crashCopy(data, "crash");
        Files.delete(translogs(crash).get(2L));
        LuceneStores.Handle recovered = open(crash);
        assertThat(recovered.get(INDEX, ids)).isEqualTo(expected);
        assertThat(recovered.maxSeqNo(INDEX)).isEqualTo(32);
        live.write(INDEX, List.of(new DocumentWrite.Upsert(doc("later", 1, 33))), 33);
        assertThat(live.get(INDEX, List.of("later"))).containsKey("later");
    }

    @Test
    @org.junit.jupiter.api.Timeout(180)
    void concurrentWritersReadersAndFlushesLoseNothingAndTheCrashCopyAgrees() throws Exception {
        Path data = temp.resolve("data");
        LuceneDocumentStore live = (LuceneDocumentStore) open(data, 4096); // rolls every few batches too
        live.createIndex(INDEX);
        int writers = 4;
        int batches = 40;
        java.util.concurrent.atomic.AtomicLong seqNos = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicBoolean running = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.ConcurrentLinkedQueue<String> problems = new java.util.concurrent.ConcurrentLinkedQueue<>();
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(writers + 2)) {
            List<java.util.concurrent.Future<?>> writing = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                writing.add(pool.submit(() -> {
                    for (int b = 1; b <= batches; b++) {
                        // the seq nos are only unique here, not ordered across writers: the store keeps the maximum
                        long seqNo = seqNos.getAndIncrement();
                        List<DocumentWrite> batch = new ArrayList<>();
                        for (int i = 0; i < 3; i++) {
                            batch.add(new DocumentWrite.Upsert(doc("w" + writer + "-" + i, b, seqNo)));
                        }
                        live.write(INDEX, batch, seqNo);
                        Map<String, StoredDocument> read = live.get(INDEX, List.of("w" + writer + "-0",
                                "w" + writer + "-1", "w" + writer + "-2"));
                        for (StoredDocument d : read.values()) {
                            if (d.version().version() != b) {
                                problems.add(d.id() + " at version " + d.version().version() + " after batch " + b);
                            }
                        }
                    }
                    return null;
                }));
            }
            var flushing = pool.submit(() -> {
                while (running.get()) {
                    live.flushLogged();
                    live.count(INDEX, Optional.empty());
                }
                return null;
            });
            for (var f : writing) {
                f.get();
            }
            running.set(false);
            flushing.get();
        }
        assertThat(problems).isEmpty();
        List<String> ids = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            for (int i = 0; i < 3; i++) {
                ids.add("w" + w + "-" + i);
            }
        }
        Map<String, StoredDocument> expected = live.get(INDEX, ids);
        assertThat(expected).hasSize(writers * 3)
                .allSatisfy((id, d) -> assertThat(d.version().version()).isEqualTo(batches));
        assertThat(live.maxSeqNo(INDEX)).isEqualTo(writers * batches - 1);

        LuceneStores.Handle recovered = open(crashCopy(data, "crash"));
        assertThat(recovered.get(INDEX, ids)).isEqualTo(expected);
        assertThat(recovered.maxSeqNo(INDEX)).isEqualTo(writers * batches - 1);
        assertThat(recovered.stats(INDEX).docCount()).isEqualTo(writers * 3);
    }
}
