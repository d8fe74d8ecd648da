package io.qdrant.esgateway.application.service;

import static io.qdrant.esgateway.application.port.out.InMemoryDocumentStore.Operation.CREATE;
import static io.qdrant.esgateway.application.port.out.InMemoryDocumentStore.Operation.DROP;
import static io.qdrant.esgateway.application.port.out.InMemoryDocumentStore.Operation.UPDATE_MAPPINGS;
import static io.qdrant.esgateway.domain.error.Failures.failure;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.application.port.in.IndexAdministration.IndexDescription;
import io.qdrant.esgateway.application.port.out.InMemoryCatalog;
import io.qdrant.esgateway.application.port.out.InMemoryDocumentStore;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.AliasActions;
import io.qdrant.esgateway.domain.index.AliasMetadata;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.CreateIndexRequest;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class IndexAdministrationServiceTest {
    private static final Instant NOW = Instant.parse("2024-03-04T05:06:07.890Z");
    /** Held strongly so the level set here sticks; the service logs orphaned storage, which several tests cause. */
    private static final Logger SERVICE_LOG = Logger.getLogger(IndexAdministrationService.class.getName());
    private static Level previousLevel;

    @BeforeAll
    static void quietExpectedWarnings() {
        previousLevel = SERVICE_LOG.getLevel();
        SERVICE_LOG.setLevel(Level.OFF);
    }

    @AfterAll
    static void restoreLogLevel() {
        SERVICE_LOG.setLevel(previousLevel);
    }

    private final AtomicInteger ids = new AtomicInteger();
    private InMemoryCatalog catalog = new InMemoryCatalog();
    private final InMemoryDocumentStore store = new InMemoryDocumentStore();
    private IndexAdministrationService service = serviceOver(catalog);

    private IndexAdministrationService serviceOver(InMemoryCatalog c) {
        catalog = c;
        return new IndexAdministrationService(c, store, () -> "id-" + ids.incrementAndGet(), InstantSource.fixed(NOW));
    }

    private static CreateIndexRequest request(String name, String body) {
        return CreateIndexRequest.parse(name, body == null ? null : Json.parse(body));
    }

    private static Mappings mappings(String json) {
        return Mappings.parse(Json.parse(json));
    }

    private static List<AliasActions.Action> actions(String json) {
        return AliasActions.parse(Json.parse(json));
    }

    private IndexMetadata create(String name, String body) {
        return service.create(request(name, body));
    }

    @Nested
    class Create {

        @Test
        void givenAValidRequest_whenCreated_thenTheCatalogAndTheStorageHoldTheIndex() {
            IndexMetadata created = create("products", """
                    {"settings": {"number_of_shards": 2, "index.max_result_window": 500},
                     "mappings": {"properties": {"title": {"type": "text"}}}}""");

            assertThat(created.name()).isEqualTo("products");
            assertThat(created.uuid()).isEqualTo("id-1");
            assertThat(created.creationDate()).isEqualTo(NOW);
            assertThat(created.settings().numberOfShards()).isEqualTo(2);
            assertThat(created.settings().maxResultWindow()).isEqualTo(500);
            assertThat(created.mappings().field("title")).containsInstanceOf(FieldMapping.TextField.class);
            assertThat(catalog.view().index("products")).contains(created);
            assertThat(store.storages()).containsExactly("products/id-1");
        }

        @Test
        void givenAliasesInTheRequest_whenCreated_thenTheyAreInTheCatalogWithTheIndex() {
            create("logs-1", """
                    {"aliases": {"logs": {"is_write_index": true}, "all": {}}}""");

            assertThat(catalog.view().aliasesOf("logs-1")).containsExactly(
                    AliasMetadata.plain("all", "logs-1"),
                    new AliasMetadata("logs", "logs-1", Optional.empty(), Optional.empty(), Optional.of(true),
                            Optional.empty()));
        }

        @Test
        void givenTheStorageCannotBeCreated_whenCreated_thenTheCatalogHasNoEntry() {
            GatewayException down = GatewayException.backendUnavailable("storage is down", null);
            store.failOn(CREATE, down);
            long version = catalog.view().version();

            GatewayException thrown = failure(ErrorKind.BACKEND_UNAVAILABLE, () -> create("products", null));

            assertThat(thrown).isSameAs(down);
            assertThat(catalog.view().indices()).isEmpty();
            assertThat(catalog.view().version()).isEqualTo(version);
        }

        @Test
        void givenTheCatalogRefusesTheEntry_whenCreated_thenTheNewStorageIsDroppedAgain() {
            IndexMetadata otherReplicas = new IndexMetadata("products", "other-replica", NOW, IndexSettings.DEFAULTS,
                    Mappings.EMPTY);
            // another replica registers the same name between our check and our write
            store.onCall(CREATE, index -> catalog.createIndex(otherReplicas, List.of()));

            failure(ErrorKind.RESOURCE_ALREADY_EXISTS, () -> create("products", null));

            assertThat(store.calls()).containsExactly("CREATE products/id-1", "DROP products/id-1");
            assertThat(store.storages()).isEmpty();
            assertThat(catalog.view().index("products")).contains(otherReplicas);
        }

        @Test
        void givenTheCatalogRefusesAndTheDropFailsToo_thenTheCatalogErrorIsThrownWithTheDropFailureSuppressed() {
            store.onCall(CREATE, index -> catalog.createIndex(new IndexMetadata("products", "other", NOW,
                    IndexSettings.DEFAULTS, Mappings.EMPTY), List.of()));
            RuntimeException dropFailure = new IllegalStateException("disk gone");
            store.failOn(DROP, dropFailure);

            GatewayException thrown = failure(ErrorKind.RESOURCE_ALREADY_EXISTS, () -> create("products", null));

            assertThat(thrown.getSuppressed()).containsExactly(dropFailure);
        }

        @Test
        void givenAnExistingIndex_whenCreatedAgain_thenResourceAlreadyExistsAndNoStorageIsTouched() {
            IndexMetadata first = create("products", null);

            GatewayException e = failure(ErrorKind.RESOURCE_ALREADY_EXISTS, () -> create("products", null));

            assertThat(e.metadata()).containsEntry("index_uuid", first.uuid());
            assertThat(store.calls()).containsExactly("CREATE products/id-1");
        }

        @Test
        void givenAnExistingAlias_whenAnIndexOfThatNameIsCreated_thenInvalidIndexName() {
            create("logs-1", "{\"aliases\": {\"logs\": {}}}");

            failure(ErrorKind.INVALID_INDEX_NAME, () -> create("logs", null));

            assertThat(catalog.view().indices()).containsOnlyKeys("logs-1");
            assertThat(store.storages()).containsExactly("logs-1/id-1");
        }

        @Test
        void givenAnAliasNamedLikeAnExistingIndex_whenCreated_thenInvalidAliasNameAndNothingIsCreated() {
            create("a", null);

            failure(ErrorKind.INVALID_ALIAS_NAME, () -> create("b", "{\"aliases\": {\"a\": {}}}"));

            assertThat(catalog.view().indices()).containsOnlyKeys("a");
            assertThat(store.storages()).containsExactly("a/id-1");
        }

        @Test
        void givenAnAliasThatWouldGetASecondWriteIndex_whenCreated_thenIllegalArgumentAndNothingIsCreated() {
            create("logs-1", "{\"aliases\": {\"logs\": {\"is_write_index\": true}}}");

            GatewayException e = failure(ErrorKind.ILLEGAL_ARGUMENT,
                    () -> create("logs-2", "{\"aliases\": {\"logs\": {\"is_write_index\": true}}}"));

            assertThat(e.getMessage()).contains("more than one write index");
            assertThat(catalog.view().indices()).containsOnlyKeys("logs-1");
            assertThat(store.calls()).containsExactly("CREATE logs-1/id-1");
        }
    }

    @Nested
    class Delete {

        @Test
        void deleteRemovesTheCatalogEntryBeforeTheStorage() {
            IndexMetadata created = create("products", "{\"aliases\": {\"shop\": {}}}");
            List<Boolean> listedWhileDropping = new ArrayList<>();
            store.onCall(DROP, index -> listedWhileDropping.add(catalog.view().index(index.name()).isPresent()));

            List<IndexMetadata> deleted = service.delete("products");

            assertThat(deleted).containsExactly(created);
            assertThat(listedWhileDropping).containsExactly(false);
            assertThat(catalog.view().indices()).isEmpty();
            assertThat(catalog.view().aliases()).isEmpty();
            assertThat(store.storages()).isEmpty();
        }

        @Test
        void deleteTakesACommaListOfConcreteIndices() {
            create("a", null);
            create("b", null);
            create("c", null);

            List<IndexMetadata> deleted = service.delete("a,c,a");

            assertThat(deleted).extracting(IndexMetadata::name).containsExactly("a", "c");
            assertThat(catalog.view().indices()).containsOnlyKeys("b");
            assertThat(store.storages()).containsExactly("b/id-2");
        }

        @Test
        void givenTheStorageCannotBeDropped_whenDeleted_thenTheIndexStaysDeletedAndItsStorageIsOrphaned() {
            create("products", null);
            store.failOn(DROP, GatewayException.backendUnavailable("storage is down", null));

            List<IndexMetadata> deleted = service.delete("products");

            assertThat(deleted).extracting(IndexMetadata::name).containsExactly("products");
            assertThat(catalog.view().indices()).isEmpty();
            assertThat(store.storages()).containsExactly("products/id-1");
        }

        @Test
        void deleteRefusesWildcardsAndAllAndChangesNothing() {
            create("logs-1", null);
            CatalogView before = catalog.view();

            for (String expression : List.of("*", "_all", "logs-*", "logs-1,*", "*,-logs-1")) {
                GatewayException e = failure(ErrorKind.ILLEGAL_ARGUMENT, () -> service.delete(expression));
                assertThat(e.getMessage()).isEqualTo("Wildcard expressions or all indices are not allowed");
            }

            assertThat(catalog.view()).isEqualTo(before);
            assertThat(store.calls()).noneMatch(call -> call.startsWith("DROP"));
        }

        @Test
        void deleteRefusesAnAliasAndChangesNothing() {
            create("logs-1", "{\"aliases\": {\"logs\": {}}}");
            CatalogView before = catalog.view();

            GatewayException e = failure(ErrorKind.ILLEGAL_ARGUMENT, () -> service.delete("logs"));

            assertThat(e.getMessage()).contains("[logs] matches an alias");
            assertThat(catalog.view()).isEqualTo(before);
        }

        @Test
        void deleteOfAnUnknownNameIsIndexNotFoundEvenNextToAKnownOne() {
            create("a", null);

            GatewayException e = failure(ErrorKind.INDEX_NOT_FOUND, () -> service.delete("a,missing"));

            assertThat(e.getMessage()).isEqualTo("no such index [missing]");
            assertThat(catalog.view().indices()).containsOnlyKeys("a");
            assertThat(store.storages()).containsExactly("a/id-1");
        }
    }

    @Nested
    class PutMapping {

        @Test
        void putMappingMergesNewFieldsIntoTheMappingAndTellsTheStorage() {
            create("products", "{\"mappings\": {\"properties\": {\"title\": {\"type\": \"text\"}}}}");

            List<IndexMetadata> changed = service.putMapping("products", mappings("""
                    {"dynamic": "strict", "_meta": {"v": 2},
                     "properties": {"price": {"type": "double"},
                                    "title": {"type": "text", "fields": {"raw": {"type": "keyword"}}}}}"""));

            Mappings stored = catalog.view().index("products").orElseThrow().mappings();
            assertThat(changed).extracting(IndexMetadata::mappings).containsExactly(stored);
            assertThat(stored.field("title")).containsInstanceOf(FieldMapping.TextField.class);
            assertThat(stored.field("title.raw")).containsInstanceOf(FieldMapping.KeywordField.class);
            assertThat(stored.field("price")).containsInstanceOf(FieldMapping.NumberField.class);
            assertThat(stored.dynamic()).isPresent();
            assertThat(stored.meta()).isPresent();
            assertThat(store.calls()).contains("UPDATE_MAPPINGS products/id-1");
        }

        @Test
        void givenATypeChange_whenPutMapping_thenIllegalArgumentAndTheMappingIsUnchanged() {
            create("products", "{\"mappings\": {\"properties\": {\"price\": {\"type\": \"long\"}}}}");
            CatalogView before = catalog.view();

            GatewayException e = failure(ErrorKind.ILLEGAL_ARGUMENT, () -> service.putMapping("products",
                    mappings("{\"properties\": {\"price\": {\"type\": \"keyword\"}, \"new\": {\"type\": \"long\"}}}")));

            assertThat(e.getMessage()).isEqualTo("mapper [price] cannot be changed from type [long] to [keyword]");
            assertThat(catalog.view()).isEqualTo(before);
            assertThat(store.calls()).noneMatch(call -> call.startsWith("UPDATE_MAPPINGS"));
        }

        @Test
        void givenOneOfSeveralIndicesConflicts_whenPutMapping_thenNoneChanges() {
            create("logs-1", "{\"mappings\": {\"properties\": {\"code\": {\"type\": \"long\"}}}}");
            create("logs-2", "{\"mappings\": {\"properties\": {\"code\": {\"type\": \"keyword\"}}}}");
            CatalogView before = catalog.view();

            failure(ErrorKind.ILLEGAL_ARGUMENT, () -> service.putMapping("logs-*",
                    mappings("{\"properties\": {\"code\": {\"type\": \"long\"}, \"extra\": {\"type\": \"long\"}}}")));

            assertThat(catalog.view()).isEqualTo(before);
        }

        @Test
        void putMappingThroughAnAliasChangesTheIndicesBehindIt() {
            create("logs-1", "{\"aliases\": {\"logs\": {}}}");
            create("logs-2", "{\"aliases\": {\"logs\": {}}}");

            service.putMapping("logs", mappings("{\"properties\": {\"level\": {\"type\": \"keyword\"}}}"));

            assertThat(catalog.view().indices().values())
                    .allSatisfy(index -> assertThat(index.mappings().field("level")).isPresent());
        }

        @Test
        void putMappingOnAnUnknownIndexIsIndexNotFound() {
            failure(ErrorKind.INDEX_NOT_FOUND, () -> service.putMapping("missing", Mappings.EMPTY));
        }
    }

    @Nested
    class UpdateAliases {

        @Test
        void aBatchOfActionsIsAppliedAsAWhole() {
            create("logs-1", "{\"aliases\": {\"logs\": {\"is_write_index\": true}}}");
            create("logs-2", null);

            service.updateAliases(actions("""
                    {"actions": [
                      {"remove": {"index": "logs-1", "alias": "logs"}},
                      {"add": {"index": "logs-1", "alias": "logs", "is_write_index": false}},
                      {"add": {"index": "logs-2", "alias": "logs", "is_write_index": true, "routing": "r"}}]}"""));

            assertThat(catalog.view().aliases()).containsExactlyInAnyOrder(
                    new AliasMetadata("logs", "logs-1", Optional.empty(), Optional.empty(), Optional.of(false),
                            Optional.empty()),
                    new AliasMetadata("logs", "logs-2", Optional.of("r"), Optional.of("r"), Optional.of(true),
                            Optional.empty()));
        }

        @Test
        void givenAnInvalidActionInTheMiddle_whenAliasesAreUpdated_thenNothingChanges() {
            create("a", "{\"aliases\": {\"x\": {}}}");
            CatalogView before = catalog.view();

            failure(ErrorKind.ALIASES_NOT_FOUND, () -> service.updateAliases(actions("""
                    {"actions": [
                      {"add": {"index": "a", "alias": "y"}},
                      {"remove": {"index": "a", "alias": "missing"}},
                      {"remove": {"index": "a", "alias": "x"}}]}""")));

            assertThat(catalog.view()).isEqualTo(before);
        }

        @Test
        void givenABatchThatEndsWithTwoWriteIndices_whenAliasesAreUpdated_thenNothingChanges() {
            create("a", "{\"aliases\": {\"w\": {\"is_write_index\": true}}}");
            create("b", null);
            CatalogView before = catalog.view();

            failure(ErrorKind.ILLEGAL_ARGUMENT, () -> service.updateAliases(actions("""
                    {"actions": [{"add": {"index": "b", "alias": "w", "is_write_index": true}}]}""")));

            assertThat(catalog.view()).isEqualTo(before);
        }

        @Test
        void removeIndexDeletesTheIndexAndDropsItsStorageInTheSameBatch() {
            create("old", "{\"aliases\": {\"current\": {}}}");
            create("new", null);

            service.updateAliases(actions("""
                    {"actions": [
                      {"add": {"index": "new", "alias": "current"}},
                      {"remove_index": {"index": "old"}}]}"""));

            assertThat(catalog.view().indices()).containsOnlyKeys("new");
            assertThat(catalog.view().aliases()).containsExactly(AliasMetadata.plain("current", "new"));
            assertThat(store.storages()).containsExactly("new/id-2");
            assertThat(store.calls()).contains("DROP old/id-1");
        }

        @Test
        void removeIndexOfAnAliasIsRefused() {
            create("a", "{\"aliases\": {\"x\": {}}}");

            failure(ErrorKind.ILLEGAL_ARGUMENT, () -> service.updateAliases(actions(
                    "{\"actions\": [{\"remove_index\": {\"index\": \"x\"}}]}")));

            assertThat(catalog.view().indices()).containsOnlyKeys("a");
        }

        @Test
        void givenTheCatalogMovesOnceWhileApplying_thenTheBatchIsPlannedAgainAndApplied() {
            AtomicInteger attempts = new AtomicInteger();
            service = serviceOver(new InMemoryCatalog() {
                @Override
                public synchronized boolean applyAliasPlan(long expectedVersion, AliasActions.Plan plan) {
                    if (attempts.incrementAndGet() == 1) {
                        createIndex(new IndexMetadata("intruder", "i", NOW, IndexSettings.DEFAULTS, Mappings.EMPTY),
                                List.of());
                    }
                    return super.applyAliasPlan(expectedVersion, plan);
                }
            });
            create("a", null);

            service.updateAliases(actions("{\"actions\": [{\"add\": {\"index\": \"a\", \"alias\": \"x\"}}]}"));

            assertThat(attempts).hasValue(2);
            assertThat(catalog.view().indices()).containsOnlyKeys("a", "intruder");
            assertThat(catalog.view().aliases()).containsExactly(AliasMetadata.plain("x", "a"));
        }

        @Test
        void givenTheCatalogKeepsMoving_thenTheBatchGivesUpWithoutChangingAnything() {
            AtomicInteger attempts = new AtomicInteger();
            service = serviceOver(new InMemoryCatalog() {
                @Override
                public synchronized boolean applyAliasPlan(long expectedVersion, AliasActions.Plan plan) {
                    int n = attempts.incrementAndGet();
                    createIndex(new IndexMetadata("intruder-" + n, "i", NOW, IndexSettings.DEFAULTS, Mappings.EMPTY),
                            List.of());
                    return super.applyAliasPlan(expectedVersion, plan);
                }
            });
            create("a", null);

            GatewayException e = failure(ErrorKind.ILLEGAL_ARGUMENT, () -> service.updateAliases(
                    actions("{\"actions\": [{\"add\": {\"index\": \"a\", \"alias\": \"x\"}}]}")));

            assertThat(e.getMessage()).contains("nothing was changed");
            assertThat(attempts).hasValue(5);
            assertThat(catalog.view().aliases()).isEmpty();
        }
    }

    @Nested
    class Reads {

        @Test
        void describeExpandsWildcardsAndAliasesAndListsEachIndexWithItsAliases() {
            create("logs-1", "{\"aliases\": {\"logs\": {}}}");
            create("logs-2", "{\"aliases\": {\"logs\": {}, \"recent\": {}}}");
            create("other", null);

            List<IndexDescription> byWildcard = service.describe("logs-*", CatalogView.Options.STRICT_EXPAND_OPEN);
            List<IndexDescription> byAlias = service.describe("recent", CatalogView.Options.STRICT_EXPAND_OPEN);

            assertThat(byWildcard).extracting(d -> d.index().name()).containsExactly("logs-1", "logs-2");
            assertThat(byWildcard.get(1).aliases()).extracting(AliasMetadata::alias).containsExactly("logs", "recent");
            assertThat(byAlias).extracting(d -> d.index().name()).containsExactly("logs-2");
        }

        @Test
        void existsIsTrueForIndicesAliasesAndMatchingWildcardsOnly() {
            create("logs-1", "{\"aliases\": {\"logs\": {}}}");

            assertThat(service.exists("logs-1")).isTrue();
            assertThat(service.exists("logs")).isTrue();
            assertThat(service.exists("log*")).isTrue();
            assertThat(service.exists("missing")).isFalse();
            assertThat(service.exists("nothing-*")).isFalse();
            assertThat(service.exists("logs-1,missing")).isFalse();
        }

        @Test
        void refreshResolvesItsTargetAndRejectsUnknownIndices() {
            create("a", null);

            assertThat(service.refresh("a")).extracting(IndexMetadata::name).containsExactly("a");
            assertThat(service.refresh("nothing-*")).isEmpty();
            failure(ErrorKind.INDEX_NOT_FOUND, () -> service.refresh("missing"));
        }

        @Test
        void catalogReturnsTheCurrentSnapshot() {
            create("a", null);

            assertThat(service.catalog()).isEqualTo(catalog.view());
        }
    }

    @Test
    void givenUpdateMappingsFailsInTheStorage_thenTheErrorReachesTheCaller() {
        create("a", null);
        store.failOn(UPDATE_MAPPINGS, GatewayException.backendUnavailable("storage is down", null));

        failure(ErrorKind.BACKEND_UNAVAILABLE, () -> service.putMapping("a",
                mappings("{\"properties\": {\"x\": {\"type\": \"long\"}}}")));
    }
}
