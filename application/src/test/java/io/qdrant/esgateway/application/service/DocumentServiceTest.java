package io.qdrant.esgateway.application.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.application.port.in.DocumentOperations.Failed;
import io.qdrant.esgateway.application.port.in.DocumentOperations.Result;
import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand;
import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteOutcome;
import io.qdrant.esgateway.application.port.in.DocumentOperations.Written;
import io.qdrant.esgateway.application.port.out.InMemoryCatalog;
import io.qdrant.esgateway.application.port.out.InMemoryDocumentStore;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.document.Versioning;
import io.qdrant.esgateway.domain.document.Versioning.Condition;
import io.qdrant.esgateway.domain.document.Versioning.VersionType;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.CreateIndexRequest;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class DocumentServiceTest {
    private final AtomicInteger ids = new AtomicInteger();
    private final InMemoryCatalog catalog = new InMemoryCatalog();
    private final InMemoryDocumentStore store = new InMemoryDocumentStore();
    private Instant now = Instant.parse("2024-01-01T00:00:00Z");
    private final InstantSource clock = () -> now;
    private final IndexAdministrationService admin = new IndexAdministrationService(catalog, store,
            () -> "uuid-" + ids.incrementAndGet(), clock);
    private final DocumentService service = new DocumentService(catalog, store, admin,
            () -> "gen-" + ids.incrementAndGet(), clock);

    private static JsonObject doc(String json) {
        return (JsonObject) Json.parse(json.replace('\'', '"'));
    }

    private static WriteCommand index(String target, String id, String json) {
        return new WriteCommand.Index(target, Optional.ofNullable(id), doc(json), false, Condition.NONE, false);
    }

    private static WriteCommand create(String target, String id, String json) {
        return new WriteCommand.Index(target, Optional.of(id), doc(json), true, Condition.NONE, false);
    }

    private static WriteCommand delete(String target, String id) {
        return new WriteCommand.Delete(target, id, Condition.NONE, false);
    }

    private static WriteCommand update(String target, String id, String partial) {
        return new WriteCommand.Update(target, id, Optional.of(doc(partial)), Optional.empty(), false, true,
                Condition.NONE, Optional.empty(), false);
    }

    private void createIndex(String name, String body) {
        admin.create(CreateIndexRequest.parse(name, Json.parse(body.replace('\'', '"'))));
    }

    @Test
    void versionsAndSequenceNumbersMoveOnEveryWrite() {
        createIndex("i", "{}");
        Written a = service.write(index("i", "1", "{'n':1}"));
        Written b = service.write(index("i", "1", "{'n':2}"));
        Written c = service.write(index("i", "2", "{'n':3}"));
        assertThat(List.of(a.result(), b.result(), c.result())).containsExactly(Result.CREATED, Result.UPDATED,
                Result.CREATED);
        assertThat(List.of(a.version().version(), b.version().version(), c.version().version()))
                .containsExactly(1L, 2L, 1L);
        assertThat(List.of(a.version().seqNo(), b.version().seqNo(), c.version().seqNo())).containsExactly(0L, 1L, 2L);
        assertThat(store.maxSeqNo(catalog.view().index("i").orElseThrow())).isEqualTo(2);
        assertThat(catalog.generation("i")).isEqualTo(3);
    }

    @Test
    void theStoreWritesABatchWithTheMappingItsOwnDynamicFieldsAreIn() {
        List<IndexMetadata> written = new java.util.concurrent.CopyOnWriteArrayList<>();
        store.onCall(InMemoryDocumentStore.Operation.WRITE, written::add);
        service.bulk(List.of(index("auto", "1", "{'brand':'Acme Tools'}"), index("auto", "2", "{'brand':'acme'}")));
        service.bulk(List.of(index("auto", "3", "{'brand':'x','qty':3}")));
        service.bulk(List.of(index("auto", "4", "{'brand':'y'}")));

        assertThat(written).hasSize(3);
        assertThat(written.get(0).mappings().field("brand")).containsInstanceOf(FieldMapping.TextField.class);
        assertThat(written.get(0).mappings().field("brand.keyword"))
                .containsInstanceOf(FieldMapping.KeywordField.class);
        assertThat(written.get(1).mappings().field("qty")).containsInstanceOf(FieldMapping.NumberField.class);
        assertThat(written.get(2).mappings()).isEqualTo(catalog.view().index("auto").orElseThrow().mappings());
    }

    @Test
    void anUpsertClaimsItsIdAbsentExactlyWhenNoDocumentHasItAtItsPlaceInTheBatch() {
        createIndex("i", "{}");
        service.write(index("i", "old", "{'n':1}"));
        List<WriteOutcome> out = service.bulk(List.of(index("i", "new", "{'n':1}"), index("i", "new", "{'n':2}"),
                index("i", "old", "{'n':2}"), delete("i", "old"), index("i", "old", "{'n':3}"),
                update("i", "new", "{'n':4}"), create("i", "fresh", "{}"), index("i", null, "{}")));
        assertThat(out).allMatch(o -> o instanceof Written);
        assertThat(store.upserts()).containsExactly("old absent", "new absent", "new may replace",
                "old may replace", "old absent", "new may replace", "fresh absent", "gen-2 absent");
        // the fake refuses a claim of absence that is false (every test of this class checks it)
        assertThat(service.get("i", "old").document().orElseThrow().source()).isEqualTo(doc("{'n':3}"));
    }

    @Test
    void aBulkThatAddsAFieldParsesTheRestWithTheNewMapping() {
        createIndex("i", "{'mappings':{'properties':{'n':{'type':'integer'}}}}");
        List<WriteCommand> commands = new java.util.ArrayList<>();
        for (int k = 0; k < 300; k++) {
            String json = switch (k) {
                case 5, 250 -> "{'n':'not a number'}";
                case 100 -> "{'n':1,'extra':7}"; // maps [extra] as long: the rest must be parsed with that mapping
                case 150 -> "{'n':1,'extra':'text'}"; // with the index's first mapping this would map [extra] as text
                default -> "{'n':" + k + "}";
            };
            commands.add(index("i", "d" + k, json));
        }
        List<WriteOutcome> out = service.bulk(commands);
        for (int position = 0; position < 300; position++) {
            int k = position;
            if (k == 5 || k == 250 || k == 150) {
                assertThat(out.get(k)).as("item %d", k).isInstanceOfSatisfying(Failed.class, f -> {
                    assertThat(f.error().kind()).isEqualTo(ErrorKind.DOCUMENT_PARSING);
                    assertThat(f.error().reason()).startsWith("failed to parse field [" + (k == 150 ? "extra" : "n")
                            + "] of type [" + (k == 150 ? "long" : "integer") + "] in document with id 'd" + k + "'");
                });
            } else {
                assertThat(out.get(k)).as("item %d", k).isInstanceOf(Written.class);
            }
        }
        assertThat(catalog.view().index("i").orElseThrow().mappings().field("extra").orElseThrow().toString())
                .contains("LONG");
    }

    @Test
    void aDeletedDocumentsVersionLivesOnForSixtySeconds() {
        createIndex("i", "{}");
        service.write(index("i", "1", "{}"));
        Written deleted = service.write(delete("i", "1"));
        assertThat(deleted.version().version()).isEqualTo(2);
        assertThat(service.write(index("i", "1", "{}")).version().version()).isEqualTo(3);
        service.write(delete("i", "1"));
        now = now.plus(DocumentService.GC_DELETES).plusSeconds(1);
        assertThat(service.write(index("i", "1", "{}")).version().version()).isEqualTo(1);
    }

    @Test
    void indexGcDeletesSetsHowLongADeletedDocumentsVersionLivesOn() {
        createIndex("i", "{'settings': {'index': {'gc_deletes': '5s'}}}");
        service.write(index("i", "1", "{}"));
        service.write(delete("i", "1"));
        now = now.plusSeconds(4);
        assertThat(service.write(index("i", "1", "{}")).version().version()).isEqualTo(3);
        service.write(delete("i", "1"));
        now = now.plusSeconds(6);
        assertThat(service.write(index("i", "1", "{}")).version().version()).isEqualTo(1);
    }

    private static WriteCommand external(String id, long version, VersionType type) {
        return new WriteCommand.Index("i", Optional.of(id), doc("{'n':1}"), false,
                Condition.NONE.withVersion(version, type), false);
    }

    @Test
    void anExternalVersionIsTakenWhenHigherThanTheCurrentOneOrItsTombstones() {
        createIndex("i", "{}");
        assertThat(service.write(external("1", 5, VersionType.EXTERNAL)).version().version()).isEqualTo(5);
        assertThatThrownBy(() -> service.write(external("1", 5, VersionType.EXTERNAL)))
                .hasMessage("[1]: version conflict, current version [5] is higher or equal to the one provided [5]");
        assertThat(service.write(external("1", 5, VersionType.EXTERNAL_GTE)).result()).isEqualTo(Result.UPDATED);
        assertThatThrownBy(() -> service.write(external("1", 4, VersionType.EXTERNAL_GTE)))
                .hasMessage("[1]: version conflict, current version [5] is higher than the one provided [4]");
        assertThat(service.write(index("i", "1", "{}")).version().version()).isEqualTo(6);
        Written deleted = service.write(new WriteCommand.Delete("i", "1",
                Condition.NONE.withVersion(20, VersionType.EXTERNAL), false));
        assertThat(deleted.result()).isEqualTo(Result.DELETED);
        assertThat(deleted.version().version()).isEqualTo(20);
        assertThatThrownBy(() -> service.write(external("1", 20, VersionType.EXTERNAL)))
                .hasMessageContaining("current version [20]");
        assertThat(service.write(external("1", 21, VersionType.EXTERNAL)).result()).isEqualTo(Result.CREATED);
        assertThat(service.get("i", "1").document().orElseThrow().version().version()).isEqualTo(21);
        assertThat(store.maxSeqNo(catalog.view().index("i").orElseThrow())).isEqualTo(4);
    }

    @Test
    void versionMinusFourCreatesOnlyAndAGetChecksItsVersion() {
        createIndex("i", "{}");
        assertThat(service.write(external("1", Versioning.MATCH_DELETED, VersionType.INTERNAL)).result())
                .isEqualTo(Result.CREATED);
        assertThatThrownBy(() -> service.write(external("1", Versioning.MATCH_DELETED, VersionType.INTERNAL)))
                .hasMessage("[1]: version conflict, document already exists (current version [1])");
        assertThat(service.get("i", "1", Optional.empty(), 1).document()).isPresent();
        assertThatThrownBy(() -> service.get("i", "1", Optional.empty(), 2))
                .hasMessage("[1]: version conflict, current version [1] is different than the one provided [2]");
        assertThat(service.get("i", "2", Optional.empty(), 2).document()).isEmpty();
    }

    @Test
    void deletingAMissingDocumentIsNotFoundButStillConsumesASequenceNumber() {
        createIndex("i", "{}");
        Written w = service.write(delete("i", "ghost"));
        assertThat(w.result()).isEqualTo(Result.NOT_FOUND);
        assertThat(w.version().seqNo()).isEqualTo(0);
        assertThat(w.version().version()).isEqualTo(1);
    }

    @Test
    void createOnlyAndConditionalWritesConflictWithoutWriting() {
        createIndex("i", "{}");
        Written first = service.write(index("i", "1", "{'n':1}"));
        assertThatThrownBy(() -> service.write(create("i", "1", "{'n':2}")))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ErrorKind.VERSION_CONFLICT);
                    assertThat(e.metadata()).containsEntry("index", "i").containsEntry("shard", "0");
                });
        WriteCommand stale = new WriteCommand.Index("i", Optional.of("1"), doc("{'n':3}"), false,
                new Condition(OptionalLong.of(first.version().seqNo() + 1), OptionalLong.of(1)), false);
        assertThatThrownBy(() -> service.write(stale)).hasMessageContaining("required seqNo [1]");
        assertThat(service.get("i", "1").document().orElseThrow().source()).isEqualTo(doc("{'n':1}"));
        assertThat(store.maxSeqNo(catalog.view().index("i").orElseThrow())).isEqualTo(0);
    }

    @Test
    void aBatchIsPlannedInOrderAndWrittenOnce() {
        createIndex("i", "{}");
        AtomicInteger writes = new AtomicInteger();
        store.onCall(InMemoryDocumentStore.Operation.WRITE, index -> writes.incrementAndGet());
        List<WriteOutcome> out = service.bulk(List.of(index("i", "a", "{'n':1}"), delete("i", "a"),
                create("i", "a", "{'n':2}"), create("i", "a", "{'n':3}"), update("i", "a", "{'n':2}")));
        assertThat(writes).hasValue(1);
        assertThat(out.get(0)).isInstanceOfSatisfying(Written.class, w -> assertThat(w.version().version()).isEqualTo(1));
        assertThat(out.get(1)).isInstanceOfSatisfying(Written.class, w -> assertThat(w.result()).isEqualTo(Result.DELETED));
        assertThat(out.get(2)).isInstanceOfSatisfying(Written.class, w -> assertThat(w.version().version()).isEqualTo(3));
        assertThat(out.get(3)).isInstanceOfSatisfying(Failed.class,
                f -> assertThat(f.error().kind()).isEqualTo(ErrorKind.VERSION_CONFLICT));
        assertThat(out.get(4)).isInstanceOfSatisfying(Written.class, w -> assertThat(w.result()).isEqualTo(Result.NOOP));
    }

    @Test
    void updatesMergeUpsertAndReportMissingDocuments() {
        createIndex("i", "{}");
        service.write(index("i", "1", "{'a':{'x':1,'y':2},'list':[1,2]}"));
        service.write(update("i", "1", "{'a':{'y':3},'list':[9]}"));
        assertThat(service.get("i", "1").document().orElseThrow().source())
                .isEqualTo(doc("{'a':{'x':1,'y':3},'list':[9]}"));
        assertThatThrownBy(() -> service.write(update("i", "missing", "{'a':1}")))
                .isInstanceOfSatisfying(GatewayException.class,
                        e -> assertThat(e.kind()).isEqualTo(ErrorKind.DOCUMENT_MISSING));
        Written upserted = service.write(new WriteCommand.Update("i", "u", Optional.of(doc("{'b':1}")),
                Optional.of(doc("{'b':0}")), false, true, Condition.NONE, Optional.empty(), false));
        assertThat(upserted.result()).isEqualTo(Result.CREATED);
        assertThat(service.get("i", "u").document().orElseThrow().source()).isEqualTo(doc("{'b':0}"));
    }

    @Test
    void missingIndicesAreCreatedForWritesButNotForDeletes() {
        assertThatThrownBy(() -> service.write(delete("auto", "1"))).isInstanceOfSatisfying(GatewayException.class,
                e -> assertThat(e.kind()).isEqualTo(ErrorKind.INDEX_NOT_FOUND));
        assertThat(catalog.view().index("auto")).isEmpty();
        service.write(index("auto", "1", "{'n':1}"));
        assertThat(catalog.view().index("auto")).isPresent();
    }

    @Test
    void theDynamicMappingIsInTheCatalogBeforeTheDocumentIsWritten() {
        createIndex("i", "{}");
        AtomicReference<String> mappingAtWrite = new AtomicReference<>();
        store.onCall(InMemoryDocumentStore.Operation.WRITE, index -> mappingAtWrite.set(
                Json.write(catalog.view().index("i").orElseThrow().mappings().toJson())));
        service.write(index("i", "1", "{'fresh':7}"));
        assertThat(mappingAtWrite.get()).contains("\"fresh\":{\"type\":\"long\"}");
    }

    @Test
    void aFailedBackendWriteFailsEveryItemOfItsIndexAndKeepsNothing() {
        createIndex("i", "{}");
        createIndex("j", "{}");
        store.failOn(InMemoryDocumentStore.Operation.WRITE,
                GatewayException.backendUnavailable("disk on fire", null));
        List<WriteOutcome> out = service.bulk(List.of(index("i", "1", "{}"), index("i", "2", "{}")));
        assertThat(out).allSatisfy(o -> assertThat(o).isInstanceOfSatisfying(Failed.class,
                f -> assertThat(f.error().kind()).isEqualTo(ErrorKind.BACKEND_UNAVAILABLE)));
        store.heal(InMemoryDocumentStore.Operation.WRITE);
        assertThat(service.get("i", "1").document()).isEmpty();
        assertThat(service.write(index("i", "1", "{}")).version().seqNo()).as("no sequence number was used up")
                .isEqualTo(0);
    }

    @Test
    void generatedIdsAreUsedOnce() {
        createIndex("i", "{}");
        Written a = service.write(index("i", null, "{}"));
        Written b = service.write(index("i", null, "{}"));
        assertThat(a.id()).startsWith("gen-").isNotEqualTo(b.id());
        assertThat(service.get("i", a.id()).document()).isPresent();
    }

    @Test
    void readsThroughAnAliasNeedExactlyOneIndex() {
        createIndex("one", "{'aliases':{'both':{}}}");
        createIndex("two", "{'aliases':{'both':{}}}");
        assertThatThrownBy(() -> service.get("both", "1")).hasMessageContaining("more than one index");
        assertThatThrownBy(() -> service.get("nothing", "1")).isInstanceOfSatisfying(GatewayException.class,
                e -> assertThat(e.kind()).isEqualTo(ErrorKind.INDEX_NOT_FOUND));
    }

    /** A store whose wait for durability ({@code apply}'s second step) runs what the test sets. */
    private static final class AwaitingStore extends InMemoryDocumentStore {
        final AtomicReference<Runnable> onAwait = new AtomicReference<>(() -> { });

        @Override
        public Durability apply(IndexMetadata index, List<io.qdrant.esgateway.application.port.out.DocumentStore
                .DocumentWrite> writes, long maxSeqNo) {
            write(index, writes, maxSeqNo);
            return () -> onAwait.get().run();
        }
    }

    @Test
    void aBatchThatCannotBeMadeDurableFailsEveryItemThatWroteButNotItsNoops() {
        AwaitingStore awaiting = new AwaitingStore();
        IndexAdministrationService admin2 = new IndexAdministrationService(catalog, awaiting,
                () -> "uuid-" + ids.incrementAndGet(), clock);
        DocumentService service2 = new DocumentService(catalog, awaiting, admin2, () -> "gen-" + ids.incrementAndGet(),
                clock);
        service2.write(index("i", "1", "{'a': 1}"));
        awaiting.onAwait.set(() -> {
            throw GatewayException.backendUnavailable("fsync failed", null);
        });

        List<WriteOutcome> out = service2.bulk(List.of(update("i", "1", "{'a': 1}"), index("i", "2", "{}"),
                delete("i", "1")));

        assertThat(out.get(0)).isInstanceOfSatisfying(Written.class,
                w -> assertThat(w.result()).isEqualTo(Result.NOOP));
        assertThat(out.subList(1, 3)).allSatisfy(o -> assertThat(o).isInstanceOfSatisfying(Failed.class,
                f -> assertThat(f.error().reason()).isEqualTo("fsync failed")));
    }

    @Test
    void theIndexLockIsReleasedBeforeTheWaitForDurability() throws Exception {
        AwaitingStore awaiting = new AwaitingStore();
        IndexAdministrationService admin2 = new IndexAdministrationService(catalog, awaiting,
                () -> "uuid-" + ids.incrementAndGet(), clock);
        DocumentService service2 = new DocumentService(catalog, awaiting, admin2, () -> "gen-" + ids.incrementAndGet(),
                clock);
        service2.write(index("i", "1", "{}"));
        AtomicReference<Written> second = new AtomicReference<>();
        try (ExecutorService other = Executors.newSingleThreadExecutor()) {
            // the first write's wait runs a second write of the same index on another thread and waits for it: with
            // the index's lock still held this would never finish (the 30 s only turn that deadlock into a failure)
            awaiting.onAwait.set(() -> {
                awaiting.onAwait.set(() -> { });
                Future<Written> write = other.submit(() -> service2.write(index("i", "1", "{'n': 2}")));
                try {
                    second.set(write.get(30, TimeUnit.SECONDS));
                } catch (Exception e) {
                    throw new AssertionError("the second write did not get the index's lock", e);
                }
            });
            Written first = service2.write(index("i", "1", "{'n': 1}"));

            assertThat(first.version().version()).isEqualTo(2);
            assertThat(second.get().version().version()).isEqualTo(3);
            assertThat(second.get().version().seqNo()).isEqualTo(first.version().seqNo() + 1);
        }
        assertThat(service2.get("i", "1").document().orElseThrow().source()).isEqualTo(doc("{'n': 2}"));
    }
}
