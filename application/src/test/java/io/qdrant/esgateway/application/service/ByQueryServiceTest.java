package io.qdrant.esgateway.application.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.application.port.in.ByQueryOperations.ByQueryRequest;
import io.qdrant.esgateway.application.port.in.ByQueryOperations.ByQueryResult;
import io.qdrant.esgateway.application.port.in.ByQueryOperations.Failure;
import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand;
import io.qdrant.esgateway.application.port.out.InMemoryCatalog;
import io.qdrant.esgateway.application.port.out.InMemoryDocumentStore;
import io.qdrant.esgateway.application.port.out.InMemoryDocumentStore.Operation;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.document.Versioning.Condition;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.CreateIndexRequest;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The by-query operations' accounting against concurrent writes (the store's reads interleaved with other writes
 * through a hook): the snapshot's sequence numbers condition every write, so a document written after it was read is
 * a version conflict — a failure that ends the operation after its batch with {@code conflicts=abort}, a count with
 * {@code proceed}; {@code max_docs} counts successful writes only; batches, totals and versions as Elasticsearch.
 */
class ByQueryServiceTest {
    private final AtomicInteger ids = new AtomicInteger();
    private final InMemoryCatalog catalog = new InMemoryCatalog();
    private final InMemoryDocumentStore store = new InMemoryDocumentStore();
    private final InstantSource clock = () -> Instant.parse("2024-01-01T00:00:00Z");
    private final IndexAdministrationService admin = new IndexAdministrationService(catalog, store,
            () -> "uuid-" + ids.incrementAndGet(), clock);
    private final DocumentService documents = new DocumentService(catalog, store, admin,
            () -> "gen-" + ids.incrementAndGet(), clock);
    private final ByQueryService service = new ByQueryService(catalog, store, documents);
    private final AtomicInteger gets = new AtomicInteger();

    @BeforeEach
    void fiveDocuments() {
        admin.create(CreateIndexRequest.parse("i", Json.parse("{}")));
        for (int n = 1; n <= 5; n++) {
            write(String.valueOf(n), "{\"n\":" + n + "}");
        }
    }

    private void write(String id, String json) {
        documents.write(new WriteCommand.Index("i", Optional.of(id), (JsonObject) Json.parse(json), false,
                Condition.NONE, false));
    }

    private IndexMetadata index() {
        return catalog.view().index("i").orElseThrow();
    }

    private Map<String, StoredDocument> all() {
        return store.get(index(), List.of("1", "2", "3", "4", "5"));
    }

    /** Runs {@code action} once, at the start of the {@code n}-th read by id from now on. */
    private void onRead(int n, Runnable action) {
        gets.set(0);
        store.onCall(Operation.GET, i -> {
            if (gets.incrementAndGet() == n) {
                action.run();
            }
        });
    }

    private static ByQueryRequest request(boolean proceed, OptionalLong maxDocs, int batchSize) {
        return new ByQueryRequest(Optional.empty(), proceed, maxDocs, batchSize);
    }

    @Test
    void deletesEveryMatchInBatches() {
        ByQueryResult r = service.deleteByQuery("i", request(false, OptionalLong.empty(), 2),
                CatalogView.Options.STRICT_EXPAND_OPEN);
        assertThat(r).isEqualTo(new ByQueryResult(5, 0, 5, 3, 0, 0, List.of()));
        assertThat(all()).isEmpty();
        // the ordinary write path: the next write of an id continues after its tombstone's version
        write("1", "{}");
        assertThat(all().get("1").version().version()).isEqualTo(3);
    }

    @Test
    void aDocumentWrittenAfterTheSnapshotIsAConflictThatEndsTheOperationAfterItsBatch() {
        // the snapshot reads 1,2 then 3,4 then 5: doc 3 changes while 5 is read
        onRead(3, () -> write("3", "{\"n\":33}"));
        ByQueryResult r = service.deleteByQuery("i", request(false, OptionalLong.empty(), 2),
                CatalogView.Options.STRICT_EXPAND_OPEN);
        assertThat(r.total()).isEqualTo(5);
        assertThat(r.deleted()).as("batch 2 is written whole: 4 is deleted beside the conflict").isEqualTo(3);
        assertThat(r.batches()).isEqualTo(2);
        assertThat(r.versionConflicts()).isEqualTo(1);
        assertThat(r.failures()).extracting(Failure::id).containsExactly("3");
        Failure f = r.failures().get(0);
        assertThat(f.cause().kind()).isEqualTo(ErrorKind.VERSION_CONFLICT);
        assertThat(f.cause().reason()).isEqualTo("[3]: version conflict, required seqNo [2], primary term [1]."
                + " current document has seqNo [5] and primary term [1]");
        assertThat(all().keySet()).containsExactlyInAnyOrder("3", "5");
        assertThat(all().get("3").source()).isEqualTo(Json.parse("{\"n\":33}"));
    }

    @Test
    void proceedCountsConflictsAndMaxDocsCountsOnlySuccessfulWrites() {
        onRead(3, () -> write("3", "{\"n\":33}"));
        ByQueryResult r = service.deleteByQuery("i", request(true, OptionalLong.of(4), 2),
                CatalogView.Options.STRICT_EXPAND_OPEN);
        assertThat(r).isEqualTo(new ByQueryResult(4, 0, 4, 3, 1, 0, List.of()));
        assertThat(all().keySet()).containsExactly("3");
    }

    @Test
    void maxDocsStopsAfterThatManyAndShortensTheLastBatch() {
        ByQueryResult r = service.deleteByQuery("i", request(false, OptionalLong.of(3), 2),
                CatalogView.Options.STRICT_EXPAND_OPEN);
        assertThat(r).isEqualTo(new ByQueryResult(3, 0, 3, 2, 0, 0, List.of()));
        assertThat(all().keySet()).containsExactlyInAnyOrder("4", "5");
    }

    @Test
    void aDocumentDeletedBeforeItsSequenceNumberWasReadIsNotInTheSnapshot() {
        onRead(1, () -> documents.write(new WriteCommand.Delete("i", "2", Condition.NONE, false)));
        ByQueryResult r = service.deleteByQuery("i", request(false, OptionalLong.empty(), 10),
                CatalogView.Options.STRICT_EXPAND_OPEN);
        assertThat(r).isEqualTo(new ByQueryResult(4, 0, 4, 1, 0, 0, List.of()));
    }

    @Test
    void updateByQueryReindexesEachDocumentWithItsOwnSourceAndNewVersion() {
        ByQueryResult r = service.updateByQuery("i", request(false, OptionalLong.empty(), 3),
                CatalogView.Options.STRICT_EXPAND_OPEN);
        assertThat(r).isEqualTo(new ByQueryResult(5, 5, 0, 2, 0, 0, List.of()));
        Map<String, StoredDocument> after = all();
        assertThat(after).hasSize(5);
        after.values().forEach(d -> assertThat(d.version().version()).isEqualTo(2));
        assertThat(after.get("4").source()).isEqualTo(Json.parse("{\"n\":4}"));
    }

    @Test
    void updateByQueryNeverRecreatesADocumentDeletedSinceTheSnapshot() {
        // snapshot reads (1,2), (3,4), (5); then batch 1 reads the sources of 1,2: doc 2 is deleted before that
        onRead(4, () -> documents.write(new WriteCommand.Delete("i", "2", Condition.NONE, false)));
        ByQueryResult r = service.updateByQuery("i", request(true, OptionalLong.empty(), 2),
                CatalogView.Options.STRICT_EXPAND_OPEN);
        assertThat(r).isEqualTo(new ByQueryResult(5, 4, 0, 3, 1, 0, List.of()));
        assertThat(all()).doesNotContainKey("2");
    }
}
