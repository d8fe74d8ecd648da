package io.qdrant.esgateway.adapter.out.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.adapter.out.lucene.engine.IndexEngine;
import io.qdrant.esgateway.adapter.out.lucene.translog.Translog;
import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.document.StoredDocument;
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
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded store with an {@link IOException} injected at each write step — the translog's fsync, a new file
 * (segment or commit point), a file's sync, the commit's rename, a file's deletion — as a full or failing disk gives
 * them: each failed write is a {@link GatewayException} (an ES-shaped 5xx at the edge, never a 500), every write
 * the store acknowledged is read back in the live store and after a restart, and once the disk works again the same
 * store writes without being reopened.
 */
class LuceneWriteFaultsTest {
    @TempDir
    Path temp;

    enum Step { TRANSLOG_FSYNC, CREATE_OUTPUT, SYNC, RENAME, DELETE }

    /** Which steps fail now; how many failures were injected. */
    private final Set<Step> failing = EnumSet.noneOf(Step.class);
    private final AtomicInteger injected = new AtomicInteger();

    private static final IndexMetadata INDEX = new IndexMetadata("faulty", "uuid-faulty", Instant.EPOCH,
            IndexSettings.DEFAULTS, Mappings.parse(Json.parse("{\"properties\": {\"n\": {\"type\": \"long\"}}}")));

    private void maybeFail(Step step) throws IOException {
        if (failing.contains(step)) {
            injected.incrementAndGet();
            throw new IOException("injected: No space left on device (" + step + ")");
        }
    }

    private LuceneStores.Handle open(Path data) {
        IndexEngine.DirectoryFactory directories = path -> new FilterDirectory(LuceneStores.directory(path)) {
            @Override
            public IndexOutput createOutput(String name, IOContext context) throws IOException {
                maybeFail(Step.CREATE_OUTPUT);
                return super.createOutput(name, context);
            }

            @Override
            public void sync(Collection<String> names) throws IOException {
                maybeFail(Step.SYNC);
                super.sync(names);
            }

            @Override
            public void rename(String source, String dest) throws IOException {
                maybeFail(Step.RENAME);
                super.rename(source, dest);
            }

            @Override
            public void deleteFile(String name) throws IOException {
                maybeFail(Step.DELETE);
                super.deleteFile(name);
            }
        };
        Translog.Fsync fsync = channel -> {
            maybeFail(Step.TRANSLOG_FSYNC);
            channel.force(false);
        };
        // a flush threshold of one byte: every write also commits, so each write passes every step
        return LuceneDocumentStore.open(data, directories, fsync, 1);
    }

    private static IndexableDocument doc(String id, long seqNo) {
        JsonObject source = (JsonObject) Json.parse("{\"n\": " + seqNo + "}");
        return new IndexableDocument(id, new DocumentVersion(1, seqNo, DocumentVersion.PRIMARY_TERM), source,
                List.of(new IndexedValue.LongValue("n", seqNo)));
    }

    @Test
    void aFailureAtEveryWriteStepIsAGatewayErrorAndNothingAcknowledgedIsLost() {
        Path data = temp.resolve("data");
        Map<String, Long> acknowledged = new LinkedHashMap<>();
        List<String> outcomes = new ArrayList<>();
        long seqNo = 0;
        try (LuceneStores.Handle store = open(data)) {
            store.createIndex(INDEX);
            for (Step step : Step.values()) {
                for (int attempt = 0; attempt < 3; attempt++) {
                    String id = step + "-" + attempt;
                    failing.add(step);
                    long s = seqNo++;
                    try {
                        store.write(INDEX, List.of(new DocumentWrite.Upsert(doc(id, s))), s);
                        acknowledged.put(id, s);
                        outcomes.add(id + ": acknowledged");
                    } catch (GatewayException e) {
                        outcomes.add(id + ": " + e.kind());
                    } finally {
                        failing.clear();
                    }
                    // the disk works again: the same store writes and reads without a restart
                    String after = id + "-after";
                    long t = seqNo++;
                    store.write(INDEX, List.of(new DocumentWrite.Upsert(doc(after, t))), t);
                    acknowledged.put(after, t);
                    Map<String, StoredDocument> read = store.get(INDEX, List.copyOf(acknowledged.keySet()));
                    assertThat(read.keySet()).as("after " + id + " (" + outcomes + ")")
                            .containsAll(acknowledged.keySet());
                }
            }
        }
        assertThat(injected.get()).as("faults injected").isGreaterThanOrEqualTo(Step.values().length);
        try (LuceneStores.Handle reopened = open(data)) {
            Map<String, StoredDocument> read = reopened.get(INDEX, List.copyOf(acknowledged.keySet()));
            assertThat(read.keySet()).as("after a restart").containsAll(acknowledged.keySet());
            acknowledged.forEach((id, s) -> assertThat(read.get(id).version().seqNo()).as(id).isEqualTo(s));
        }
        System.out.println("[faults] lucene: " + injected.get() + " IOExceptions injected at " + Step.values().length
                + " write steps, " + acknowledged.size() + " acknowledged writes verified after a restart, 0 lost; "
                + outcomes);
    }
}
