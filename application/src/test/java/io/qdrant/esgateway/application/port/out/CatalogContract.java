package io.qdrant.esgateway.application.port.out;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.AliasActions;
import io.qdrant.esgateway.domain.index.AliasMetadata;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.Dynamic;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What every {@link Catalog} must do. An adapter's test extends this class and returns a fresh, empty catalog from
 * {@link #newCatalog()}; a catalog that is {@link AutoCloseable} is closed after each test.
 *
 * <p>Decisions the port leaves open and this contract fixes: the creation date is kept to the millisecond; the
 * catalog version moves on every change of the view (indices, mappings, aliases) but not on
 * {@link Catalog#bumpGeneration}, which is not part of the view and happens on every document write (alias batches
 * would otherwise be retried under write load); an alias plan naming an index that does not exist (after the plan's
 * removals) fails with {@code INDEX_NOT_FOUND} and writes nothing.
 */
public abstract class CatalogContract {

    protected static final Instant CREATED = Instant.parse("2024-05-06T07:08:09.123Z");

    /** A mapping with every kind of field, nesting, multi-fields, {@code dynamic} and {@code _meta}. */
    protected static final String RICH_MAPPINGS = """
            {
              "dynamic": "strict",
              "_meta": {"owner": "search-team", "version": 3, "ratio": 0.5, "tags": ["a", "b"],
                        "nested": {"flag": true, "none": null, "quote": "say \\"hi\\"\\n"}},
              "properties": {
                "title": {"type": "text", "analyzer": "standard",
                          "fields": {"raw": {"type": "keyword", "ignore_above": 256}}},
                "tag": {"type": "keyword", "fields": {"text": {"type": "text"}}},
                "price": {"type": "double"},
                "count": {"type": "long"},
                "ratio": {"type": "half_float"},
                "active": {"type": "boolean"},
                "published": {"type": "date", "format": "yyyy-MM-dd"},
                "updated": {"type": "date"},
                "embedding": {"type": "dense_vector", "dims": 4, "similarity": "dot_product", "index": true,
                              "index_options": {"type": "hnsw", "m": 16, "ef_construction": 100}},
                "raw_vector": {"type": "dense_vector", "dims": 3, "index": false},
                "author": {"properties": {
                    "name": {"type": "text"},
                    "address": {"dynamic": "false", "properties": {"city": {"type": "keyword"}}}}},
                "empty_object": {"type": "object"}
              }
            }
            """;

    protected Catalog catalog;

    /** A new, empty catalog; called once per test. */
    protected abstract Catalog newCatalog();

    @BeforeEach
    void openCatalog() {
        catalog = newCatalog();
    }

    @AfterEach
    void closeCatalog() throws Exception {
        if (catalog instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }

    // ---------------------------------------------------------------- fixtures

    protected static IndexMetadata index(String name) {
        return new IndexMetadata(name, "uuid-" + name, CREATED, IndexSettings.DEFAULTS, Mappings.EMPTY);
    }

    protected static Mappings mappings(String json) {
        return Mappings.parse(Json.parse(json));
    }

    protected static AliasMetadata alias(String alias, String index) {
        return AliasMetadata.plain(alias, index);
    }

    protected static AliasMetadata alias(String alias, String index, String indexRouting, String searchRouting,
                                         Boolean isWriteIndex, Boolean isHidden) {
        return new AliasMetadata(alias, index, Optional.ofNullable(indexRouting), Optional.ofNullable(searchRouting),
                Optional.ofNullable(isWriteIndex), Optional.ofNullable(isHidden));
    }

    protected static AliasActions.Plan plan(List<AliasMetadata> aliases, Set<String> removedIndices) {
        return new AliasActions.Plan(aliases, removedIndices);
    }

    /** Runs {@code call}, which must fail with a {@link GatewayException} of {@code kind}; returns it. */
    protected static GatewayException failure(ErrorKind kind, Runnable call) {
        return io.qdrant.esgateway.domain.error.Failures.failure(kind, call::run);
    }

    // ---------------------------------------------------------------- view and createIndex

    @Test
    void aNewCatalogIsEmpty() {
        CatalogView view = catalog.view();

        assertThat(view.indices()).isEmpty();
        assertThat(view.aliases()).isEmpty();
    }

    @Test
    void givenCreatedIndex_whenViewed_thenEveryPropertyRoundTripsExactly() {
        IndexSettings settings = new IndexSettings(3, 2, Optional.of("30s"), 50_000, true);
        Mappings mappings = mappings(RICH_MAPPINGS);
        IndexMetadata created = new IndexMetadata("products", "Zq3x_uuid-1", CREATED, settings, mappings);

        catalog.createIndex(created, List.of());

        IndexMetadata read = catalog.view().index("products").orElseThrow();
        assertThat(read.name()).isEqualTo("products");
        assertThat(read.uuid()).isEqualTo("Zq3x_uuid-1");
        assertThat(read.creationDate()).isEqualTo(CREATED);
        assertThat(read.creationDate().toEpochMilli()).isEqualTo(CREATED.toEpochMilli());
        assertThat(read.settings()).isEqualTo(settings);
        assertThat(read.settings().maxResultWindow()).isEqualTo(50_000);
        assertThat(read.settings().refreshInterval()).contains("30s");
        assertThat(read.mappings()).isEqualTo(mappings);
        assertThat(read.mappings().dynamic()).contains(Dynamic.STRICT);
        assertThat(read.mappings().meta()).isEqualTo(mappings.meta());
        assertThat(read.mappings().field("author.address.city")).containsInstanceOf(FieldMapping.KeywordField.class);
        assertThat(read.mappings().field("title.raw")).contains(
                new FieldMapping.KeywordField(Optional.of(256), new java.util.TreeMap<>()));
        assertThat(read.mappings().field("embedding")).containsInstanceOf(FieldMapping.DenseVectorField.class);
        assertThat(Json.write(read.mappings().toJson())).isEqualTo(Json.write(mappings.toJson()));
        assertThat(read).isEqualTo(created);
    }

    @Test
    void givenDefaultSettingsAndEmptyMappings_whenViewed_thenTheyRoundTripUnchanged() {
        catalog.createIndex(index("plain"), List.of());

        IndexMetadata read = catalog.view().index("plain").orElseThrow();
        assertThat(read.settings()).isEqualTo(IndexSettings.DEFAULTS);
        assertThat(read.settings().maxResultWindowSet()).isFalse();
        assertThat(read.settings().refreshInterval()).isEmpty();
        assertThat(read.mappings()).isEqualTo(Mappings.EMPTY);
        assertThat(read).isEqualTo(index("plain"));
    }

    @Test
    void theCreationDateIsKeptToTheMillisecond() {
        Instant precise = Instant.parse("2025-01-02T03:04:05.678912345Z");
        catalog.createIndex(new IndexMetadata("precise", "u", precise, IndexSettings.DEFAULTS, Mappings.EMPTY),
                List.of());

        assertThat(catalog.view().index("precise").orElseThrow().creationDate())
                .isEqualTo(Instant.parse("2025-01-02T03:04:05.678Z"));
    }

    @Test
    void givenIndexCreatedWithAliases_whenViewed_thenTheIndexAndItsAliasesAppearTogether() {
        AliasMetadata full = alias("full", "logs", "1", "2,3", true, false);
        AliasMetadata partial = alias("partial", "logs", null, null, false, null);
        AliasMetadata hidden = alias("hidden", "logs", null, "7", null, true);
        AliasMetadata plain = alias("plain", "logs");

        catalog.createIndex(index("logs"), List.of(full, partial, hidden, plain));

        CatalogView view = catalog.view();
        assertThat(view.index("logs")).isPresent();
        assertThat(view.aliases()).containsExactlyInAnyOrder(full, partial, hidden, plain);
        assertThat(view.aliasesOf("logs")).containsExactly(full, hidden, partial, plain);
    }

    @Test
    void aliasPropertiesRoundTripExactly_emptyStaysEmptyAndFalseStaysFalse() {
        List<AliasMetadata> aliases = List.of(
                alias("a1", "idx", null, null, null, null),
                alias("a2", "idx", "r", null, null, null),
                alias("a3", "idx", null, "s", null, null),
                alias("a4", "idx", null, null, false, null),
                alias("a5", "idx", null, null, true, null),
                alias("a6", "idx", null, null, null, false),
                alias("a7", "idx", null, null, null, true),
                alias("a8", "idx", "", "x,y", false, true));

        catalog.createIndex(index("idx"), aliases);

        assertThat(catalog.view().aliases()).containsExactlyInAnyOrderElementsOf(aliases);
        for (AliasMetadata expected : aliases) {
            AliasMetadata read = catalog.view().aliases().stream()
                    .filter(a -> a.alias().equals(expected.alias())).findFirst().orElseThrow();
            assertThat(read.indexRouting()).isEqualTo(expected.indexRouting());
            assertThat(read.searchRouting()).isEqualTo(expected.searchRouting());
            assertThat(read.isWriteIndex()).isEqualTo(expected.isWriteIndex());
            assertThat(read.isHidden()).isEqualTo(expected.isHidden());
        }
    }

    @Test
    void aliasFiltersRoundTripThroughCreateAndAliasPlans() {
        io.qdrant.esgateway.domain.json.JsonValue.JsonObject filter = (io.qdrant.esgateway.domain.json.JsonValue.JsonObject)
                io.qdrant.esgateway.domain.json.Json.parse(
                        "{\"bool\":{\"filter\":[{\"term\":{\"user\":\"kimchy\"}}],\"must_not\":[]}}");
        AliasMetadata filtered = new AliasMetadata("f", "idx", Optional.empty(), Optional.of("1"), Optional.empty(),
                Optional.empty(), Optional.of(filter));
        catalog.createIndex(index("idx"), List.of(filtered, alias("plain", "idx")));

        assertThat(catalog.view().aliasesOf("idx")).containsExactly(filtered, alias("plain", "idx"));
        assertThat(catalog.view().aliasesOf("idx").get(0).filter()).contains(filter);
        assertThat(catalog.view().aliasesOf("idx").get(1).filter()).isEmpty();

        CatalogView view = catalog.view();
        AliasMetadata moved = new AliasMetadata("g", "idx", Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.of(filter));
        assertThat(catalog.applyAliasPlan(view.version(), new AliasActions.Plan(List.of(moved), java.util.Set.of())))
                .isTrue();
        assertThat(catalog.view().aliases()).containsExactly(moved);
        assertThat(catalog.view().aliases().get(0).filter()).contains(filter);
    }

    @Test
    void givenExistingIndex_whenCreatedAgain_thenResourceAlreadyExistsAndNothingChanges() {
        catalog.createIndex(index("books"), List.of(alias("library", "books")));
        CatalogView before = catalog.view();

        IndexMetadata again = new IndexMetadata("books", "other-uuid", CREATED.plusSeconds(60),
                IndexSettings.DEFAULTS, mappings("{\"properties\":{\"x\":{\"type\":\"long\"}}}"));
        GatewayException e = failure(ErrorKind.RESOURCE_ALREADY_EXISTS,
                () -> catalog.createIndex(again, List.of(alias("shelf", "books"))));

        assertThat(e.getMessage()).contains("books");
        assertThat(catalog.view()).isEqualTo(before);
        assertThat(catalog.view().index("books").orElseThrow().uuid()).isEqualTo("uuid-books");
        assertThat(catalog.view().isAlias("shelf")).isFalse();
    }

    @Test
    void givenExistingAlias_whenAnIndexOfThatNameIsCreated_thenInvalidIndexNameAndNothingChanges() {
        catalog.createIndex(index("books"), List.of(alias("library", "books")));
        CatalogView before = catalog.view();

        GatewayException e = failure(ErrorKind.INVALID_INDEX_NAME,
                () -> catalog.createIndex(index("library"), List.of(alias("other", "library"))));

        assertThat(e.getMessage()).contains("library");
        assertThat(catalog.view()).isEqualTo(before);
        assertThat(catalog.view().index("library")).isEmpty();
    }

    @Test
    void aViewIsASnapshotThatLaterChangesDoNotAlter() {
        catalog.createIndex(index("a"), List.of(alias("x", "a")));
        CatalogView snapshot = catalog.view();

        catalog.createIndex(index("b"), List.of());
        catalog.deleteIndices(List.of("a"));

        assertThat(snapshot.indices()).containsOnlyKeys("a");
        assertThat(snapshot.aliases()).containsExactly(alias("x", "a"));
    }

    // ---------------------------------------------------------------- deleteIndices

    @Test
    void givenIndicesWithAliases_whenOneIsDeleted_thenItAndOnlyItsAliasesAreGone() {
        catalog.createIndex(index("a"), List.of(alias("shared", "a"), alias("only-a", "a")));
        catalog.createIndex(index("b"), List.of(alias("shared", "b"), alias("only-b", "b")));

        catalog.deleteIndices(List.of("a"));

        CatalogView view = catalog.view();
        assertThat(view.indices()).containsOnlyKeys("b");
        assertThat(view.aliases()).containsExactlyInAnyOrder(alias("shared", "b"), alias("only-b", "b"));
    }

    @Test
    void deleteIndicesRemovesSeveralAtOnceAndIgnoresUnknownNames() {
        catalog.createIndex(index("a"), List.of(alias("x", "a")));
        catalog.createIndex(index("b"), List.of());
        catalog.createIndex(index("c"), List.of());

        catalog.deleteIndices(List.of("a", "missing", "c"));

        assertThat(catalog.view().indices()).containsOnlyKeys("b");
        assertThat(catalog.view().aliases()).isEmpty();
    }

    @Test
    void deletingOnlyUnknownNamesOrNothingIsNotAnError() {
        catalog.createIndex(index("a"), List.of());
        CatalogView before = catalog.view();

        catalog.deleteIndices(List.of("missing"));
        catalog.deleteIndices(List.of());

        assertThat(catalog.view().indices()).isEqualTo(before.indices());
    }

    @Test
    void givenDeletedIndex_whenRecreated_thenItStartsFreshWithoutOldAliasesAndAtGenerationZero() {
        catalog.createIndex(index("a"), List.of(alias("x", "a")));
        catalog.bumpGeneration("a");
        catalog.deleteIndices(List.of("a"));

        IndexMetadata second = new IndexMetadata("a", "second-uuid", CREATED, IndexSettings.DEFAULTS, Mappings.EMPTY);
        catalog.createIndex(second, List.of());

        assertThat(catalog.view().index("a")).contains(second);
        assertThat(catalog.view().aliases()).isEmpty();
        assertThat(catalog.generation("a")).isZero();
    }

    @Test
    void givenDeletedIndex_thenAnIndexMayTakeTheNameOfItsFormerAlias() {
        catalog.createIndex(index("a"), List.of(alias("x", "a")));
        catalog.deleteIndices(List.of("a"));

        catalog.createIndex(index("x"), List.of());

        assertThat(catalog.view().indices()).containsOnlyKeys("x");
    }

    // ---------------------------------------------------------------- updateMappings

    @Test
    void updateMappingsReplacesTheMappingsAndKeepsEverythingElse() {
        catalog.createIndex(index("a"), List.of(alias("x", "a")));
        Mappings replacement = mappings(RICH_MAPPINGS);

        catalog.updateMappings("a", replacement);

        IndexMetadata read = catalog.view().index("a").orElseThrow();
        assertThat(read).isEqualTo(index("a").withMappings(replacement));
        assertThat(catalog.view().aliases()).containsExactly(alias("x", "a"));
    }

    @Test
    void updateMappingsCanGoBackToEmpty() {
        catalog.createIndex(index("a").withMappings(mappings(RICH_MAPPINGS)), List.of());

        catalog.updateMappings("a", Mappings.EMPTY);

        assertThat(catalog.view().index("a").orElseThrow().mappings()).isEqualTo(Mappings.EMPTY);
    }

    @Test
    void givenMissingIndex_whenMappingsAreUpdated_thenIndexNotFoundAndNothingChanges() {
        catalog.createIndex(index("a"), List.of());
        CatalogView before = catalog.view();

        GatewayException e = failure(ErrorKind.INDEX_NOT_FOUND,
                () -> catalog.updateMappings("missing", mappings(RICH_MAPPINGS)));

        assertThat(e.getMessage()).contains("missing");
        assertThat(catalog.view()).isEqualTo(before);
    }

    // ---------------------------------------------------------------- changeMappings

    @Test
    void changeMappingsAppliesTheChangeToTheCurrentMappingsAndMovesTheVersion() {
        catalog.createIndex(index("a"), List.of(alias("x", "a")));
        catalog.updateMappings("a", mappings("{\"properties\":{\"one\":{\"type\":\"long\"}}}"));
        long before = catalog.view().version();

        Mappings written = catalog.changeMappings("a",
                current -> current.merge(mappings("{\"properties\":{\"two\":{\"type\":\"keyword\"}}}")));

        Mappings expected = mappings("{\"properties\":{\"one\":{\"type\":\"long\"},\"two\":{\"type\":\"keyword\"}}}");
        assertThat(written).isEqualTo(expected);
        assertThat(catalog.view().index("a").orElseThrow()).isEqualTo(index("a").withMappings(expected));
        assertThat(catalog.view().aliases()).containsExactly(alias("x", "a"));
        assertThat(catalog.view().version()).isGreaterThan(before);
    }

    @Test
    void givenARefusingChange_whenMappingsAreChanged_thenItsErrorComesBackAndNothingIsWritten() {
        catalog.createIndex(index("a"), List.of());
        catalog.updateMappings("a", mappings("{\"properties\":{\"f\":{\"type\":\"long\"}}}"));
        CatalogView before = catalog.view();

        GatewayException e = failure(ErrorKind.ILLEGAL_ARGUMENT, () -> catalog.changeMappings("a",
                current -> current.merge(mappings("{\"properties\":{\"f\":{\"type\":\"text\"}}}"))));

        assertThat(e.getMessage()).contains("[f]");
        assertThat(catalog.view()).isEqualTo(before);
        failure(ErrorKind.INDEX_NOT_FOUND, () -> catalog.changeMappings("missing", current -> current));
        assertThat(catalog.view()).isEqualTo(before);
    }

    @Test
    @Timeout(120)
    void concurrentMappingChangesOfOneIndexAreAllKept() throws Exception {
        catalog.createIndex(index("a"), List.of());
        int threads = 4;
        int perThread = 5;
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        String field = "f" + thread + "_" + i;
                        catalog.changeMappings("a", current -> current.merge(
                                mappings("{\"properties\":{\"" + field + "\":{\"type\":\"long\"}}}")));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get();
            }
        }

        Mappings read = catalog.view().index("a").orElseThrow().mappings();
        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < perThread; i++) {
                assertThat(read.field("f" + t + "_" + i)).as("field f" + t + "_" + i).isPresent();
            }
        }
    }

    // ---------------------------------------------------------------- updateSettings

    @Test
    void updateSettingsReplacesTheSettingsAndKeepsEverythingElse() {
        catalog.createIndex(index("a").withMappings(mappings(RICH_MAPPINGS)), List.of(alias("x", "a")));
        long before = catalog.view().version();
        io.qdrant.esgateway.domain.index.IndexSettings changed = new io.qdrant.esgateway.domain.index.IndexSettings(
                1, 3, java.util.Optional.of("5s"), 500, true, java.util.Optional.of(false),
                java.util.Optional.of("data_hot"));

        catalog.updateSettings("a", changed);

        IndexMetadata read = catalog.view().index("a").orElseThrow();
        assertThat(read).isEqualTo(index("a").withMappings(mappings(RICH_MAPPINGS)).withSettings(changed));
        assertThat(catalog.view().aliases()).containsExactly(alias("x", "a"));
        assertThat(catalog.view().version()).isGreaterThan(before);
    }

    @Test
    void givenMissingIndex_whenSettingsAreUpdated_thenIndexNotFoundAndNothingChanges() {
        catalog.createIndex(index("a"), List.of());
        CatalogView before = catalog.view();

        GatewayException e = failure(ErrorKind.INDEX_NOT_FOUND, () -> catalog.updateSettings("missing",
                io.qdrant.esgateway.domain.index.IndexSettings.DEFAULTS));

        assertThat(e.getMessage()).contains("missing");
        assertThat(catalog.view()).isEqualTo(before);
    }

    // ---------------------------------------------------------------- applyAliasPlan

    @Test
    void applyAliasPlanReplacesTheWholeAliasSet() {
        catalog.createIndex(index("a"), List.of(alias("old", "a"), alias("kept", "a")));
        catalog.createIndex(index("b"), List.of(alias("old-b", "b")));
        CatalogView view = catalog.view();
        List<AliasMetadata> next = List.of(
                alias("kept", "a"),
                alias("new", "a", "1", "1", true, null),
                alias("new", "b", null, null, false, true));

        boolean applied = catalog.applyAliasPlan(view.version(), plan(next, Set.of()));

        assertThat(applied).isTrue();
        assertThat(catalog.view().aliases()).containsExactlyInAnyOrderElementsOf(next);
        assertThat(catalog.view().indices()).containsOnlyKeys("a", "b");
    }

    @Test
    void applyAliasPlanCanRemoveEveryAlias() {
        catalog.createIndex(index("a"), List.of(alias("x", "a"), alias("y", "a")));

        assertThat(catalog.applyAliasPlan(catalog.view().version(), plan(List.of(), Set.of()))).isTrue();

        assertThat(catalog.view().aliases()).isEmpty();
        assertThat(catalog.view().indices()).containsOnlyKeys("a");
    }

    @Test
    void applyAliasPlanDeletesTheRemovedIndicesWithTheirAliasesInTheSameStep() {
        catalog.createIndex(index("old"), List.of(alias("current", "old")));
        catalog.createIndex(index("new"), List.of());
        catalog.createIndex(index("other"), List.of(alias("o", "other")));
        catalog.bumpGeneration("new");

        boolean applied = catalog.applyAliasPlan(catalog.view().version(),
                plan(List.of(alias("current", "new"), alias("o", "other")), Set.of("old")));

        assertThat(applied).isTrue();
        CatalogView view = catalog.view();
        assertThat(view.indices()).containsOnlyKeys("new", "other");
        assertThat(view.aliases()).containsExactlyInAnyOrder(alias("current", "new"), alias("o", "other"));
        assertThat(catalog.generation("new")).isEqualTo(1);
        failure(ErrorKind.INDEX_NOT_FOUND, () -> catalog.generation("old"));
    }

    @Test
    void givenStaleVersion_whenAliasPlanIsApplied_thenItReturnsFalseAndWritesNothing() {
        catalog.createIndex(index("a"), List.of(alias("x", "a")));
        long stale = catalog.view().version();
        catalog.createIndex(index("b"), List.of());
        CatalogView before = catalog.view();

        boolean applied = catalog.applyAliasPlan(stale, plan(List.of(alias("y", "b")), Set.of("a")));

        assertThat(applied).isFalse();
        assertThat(catalog.view()).isEqualTo(before);
    }

    @Test
    void givenVersionFromTheFuture_whenAliasPlanIsApplied_thenItReturnsFalse() {
        catalog.createIndex(index("a"), List.of());
        CatalogView before = catalog.view();

        assertThat(catalog.applyAliasPlan(before.version() + 1, plan(List.of(alias("y", "a")), Set.of()))).isFalse();
        assertThat(catalog.view()).isEqualTo(before);
    }

    @Test
    void givenPlanWithAliasOnUnknownIndex_whenApplied_thenIndexNotFoundAndNothingIsWritten() {
        catalog.createIndex(index("a"), List.of(alias("x", "a")));
        catalog.createIndex(index("b"), List.of());
        CatalogView before = catalog.view();

        failure(ErrorKind.INDEX_NOT_FOUND, () -> catalog.applyAliasPlan(before.version(),
                plan(List.of(alias("y", "b"), alias("z", "missing")), Set.of("a"))));
        failure(ErrorKind.INDEX_NOT_FOUND, () -> catalog.applyAliasPlan(before.version(),
                plan(List.of(alias("y", "a")), Set.of("a"))));

        assertThat(catalog.view()).isEqualTo(before);
    }

    @Test
    void removedIndicesThatDoNotExistAreIgnored() {
        catalog.createIndex(index("a"), List.of());

        assertThat(catalog.applyAliasPlan(catalog.view().version(),
                plan(List.of(alias("x", "a")), Set.of("gone")))).isTrue();

        assertThat(catalog.view().indices()).containsOnlyKeys("a");
        assertThat(catalog.view().aliases()).containsExactly(alias("x", "a"));
    }

    // ---------------------------------------------------------------- version

    @Test
    void theVersionMovesOnEveryChange() {
        List<Long> versions = new ArrayList<>();
        versions.add(catalog.view().version());

        catalog.createIndex(index("a"), List.of());
        versions.add(catalog.view().version());
        catalog.createIndex(index("b"), List.of(alias("x", "b")));
        versions.add(catalog.view().version());
        catalog.updateMappings("a", mappings(RICH_MAPPINGS));
        versions.add(catalog.view().version());
        assertThat(catalog.applyAliasPlan(catalog.view().version(), plan(List.of(alias("y", "a")), Set.of())))
                .isTrue();
        versions.add(catalog.view().version());
        assertThat(catalog.applyAliasPlan(catalog.view().version(), plan(List.of(), Set.of("b")))).isTrue();
        versions.add(catalog.view().version());
        catalog.deleteIndices(List.of("a"));
        versions.add(catalog.view().version());

        assertThat(versions).doesNotHaveDuplicates().isSorted();
    }

    @Test
    void theVersionDoesNotMoveWhenNothingIsWrittenOrOnlyAGenerationMoves() {
        catalog.createIndex(index("a"), List.of());
        long version = catalog.view().version();

        catalog.view();
        catalog.ping();
        catalog.generation("a");
        catalog.bumpGeneration("a");
        catalog.applyAliasPlan(version - 1, plan(List.of(), Set.of()));
        failure(ErrorKind.RESOURCE_ALREADY_EXISTS, () -> catalog.createIndex(index("a"), List.of()));
        failure(ErrorKind.INDEX_NOT_FOUND, () -> catalog.updateMappings("missing", Mappings.EMPTY));

        assertThat(catalog.view().version()).isEqualTo(version);
    }

    // ---------------------------------------------------------------- generation

    @Test
    void aNewIndexIsAtGenerationZero() {
        catalog.createIndex(index("a"), List.of());

        assertThat(catalog.generation("a")).isZero();
    }

    @Test
    void bumpGenerationReturnsIncreasingValuesPerIndex() {
        catalog.createIndex(index("a"), List.of());
        catalog.createIndex(index("b"), List.of());

        assertThat(catalog.bumpGeneration("a")).isEqualTo(1);
        assertThat(catalog.bumpGeneration("a")).isEqualTo(2);
        assertThat(catalog.bumpGeneration("b")).isEqualTo(1);
        assertThat(catalog.bumpGeneration("a")).isEqualTo(3);

        assertThat(catalog.generation("a")).isEqualTo(3);
        assertThat(catalog.generation("b")).isEqualTo(1);
    }

    @Test
    void theGenerationSurvivesMappingAndAliasChanges() {
        catalog.createIndex(index("a"), List.of());
        catalog.bumpGeneration("a");

        catalog.updateMappings("a", mappings(RICH_MAPPINGS));
        catalog.applyAliasPlan(catalog.view().version(), plan(List.of(alias("x", "a")), Set.of()));

        assertThat(catalog.generation("a")).isEqualTo(1);
    }

    @Test
    void givenMissingIndex_whenItsGenerationIsReadOrBumped_thenIndexNotFound() {
        catalog.createIndex(index("a"), List.of(alias("x", "a")));

        GatewayException read = failure(ErrorKind.INDEX_NOT_FOUND, () -> catalog.generation("missing"));
        failure(ErrorKind.INDEX_NOT_FOUND, () -> catalog.bumpGeneration("missing"));
        failure(ErrorKind.INDEX_NOT_FOUND, () -> catalog.generation("x"));

        assertThat(read.getMessage()).contains("missing");
        assertThat(catalog.view().indices()).containsOnlyKeys("a");
    }

    @Test
    @Timeout(60)
    void concurrentBumpsOfOneIndexNeverHandOutTheSameGeneration() throws Exception {
        catalog.createIndex(index("a"), List.of());
        int threads = 8;
        int perThread = 10;
        List<Future<List<Long>>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            CountDownLatch start = new CountDownLatch(1);
            for (int t = 0; t < threads; t++) {
                results.add(pool.submit(() -> {
                    start.await();
                    List<Long> got = new ArrayList<>();
                    for (int i = 0; i < perThread; i++) {
                        got.add(catalog.bumpGeneration("a"));
                    }
                    return got;
                }));
            }
            start.countDown();
        }
        List<Long> all = new ArrayList<>();
        for (Future<List<Long>> f : results) {
            all.addAll(f.get());
        }

        assertThat(all).doesNotHaveDuplicates().hasSize(threads * perThread);
        assertThat(catalog.generation("a")).isEqualTo(threads * perThread);
    }

    // ---------------------------------------------------------------- ping and concurrency

    @Test
    void pingSucceedsOnAReachableCatalog() {
        assertThatCode(catalog::ping).doesNotThrowAnyException();
        catalog.createIndex(index("a"), List.of());
        assertThatCode(catalog::ping).doesNotThrowAnyException();
        assertThat(catalog.view().index("a")).isPresent();
    }

    @Test
    @Timeout(60)
    void givenSeveralThreadsCreatingTheSameIndex_thenExactlyOneSucceeds() throws Exception {
        int threads = 8;
        List<Future<Boolean>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            CountDownLatch start = new CountDownLatch(1);
            for (int t = 0; t < threads; t++) {
                String uuid = "uuid-" + t;
                results.add(pool.submit(() -> {
                    start.await();
                    try {
                        catalog.createIndex(new IndexMetadata("race", uuid, CREATED, IndexSettings.DEFAULTS,
                                Mappings.EMPTY), List.of(alias("race-alias-" + uuid, "race")));
                        return true;
                    } catch (GatewayException e) {
                        assertThat(e.kind()).isEqualTo(ErrorKind.RESOURCE_ALREADY_EXISTS);
                        return false;
                    }
                }));
            }
            start.countDown();
        }
        List<String> winners = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            if (results.get(t).get()) {
                winners.add("uuid-" + t);
            }
        }

        assertThat(winners).hasSize(1);
        CatalogView view = catalog.view();
        assertThat(view.index("race").orElseThrow().uuid()).isEqualTo(winners.get(0));
        assertThat(view.aliases()).containsExactly(alias("race-alias-" + winners.get(0), "race"));
    }

    @Test
    @Timeout(60)
    void givenConcurrentCreatesOfDifferentIndices_thenAllOfThemAreKept() throws Exception {
        int threads = 8;
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                String name = "index-" + t;
                done.add(pool.submit(() -> catalog.createIndex(index(name), List.of(alias("all", name)))));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }

        assertThat(catalog.view().indices()).hasSize(threads);
        assertThat(catalog.view().aliases()).hasSize(threads);
    }

    @Test
    @Timeout(120)
    void readersNeverSeeAHalfAppliedChange() throws Exception {
        catalog.createIndex(index("blue"), List.of(alias("current", "blue", null, null, true, null)));
        catalog.createIndex(index("green"), List.of());
        int writes = 40;
        AtomicBoolean writing = new AtomicBoolean(true);
        List<String> violations = java.util.Collections.synchronizedList(new ArrayList<>());
        // platform threads: spinning readers on virtual threads could keep the writer from being scheduled
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            Future<?> writer = pool.submit(() -> {
                try {
                    for (int i = 0; i < writes; i++) {
                        catalog.createIndex(index("n-" + i), List.of(alias("n-" + i + "-alias", "n-" + i)));
                        CatalogView view = catalog.view();
                        String target = view.aliasesOf("blue").isEmpty() ? "blue" : "green";
                        List<AliasMetadata> next = new ArrayList<>(view.aliases());
                        next.removeIf(a -> a.alias().equals("current"));
                        next.add(alias("current", target, null, null, true, null));
                        if (!catalog.applyAliasPlan(view.version(), plan(next, Set.of()))) {
                            violations.add("single writer saw a stale version");
                        }
                    }
                } finally {
                    writing.set(false);
                }
                return null;
            });
            for (int r = 0; r < 3; r++) {
                pool.submit(() -> {
                    long lastVersion = -1;
                    while (writing.get()) {
                        CatalogView view = catalog.view();
                        long current = view.aliases().stream().filter(a -> a.alias().equals("current")).count();
                        if (current != 1) {
                            violations.add("alias [current] on " + current + " indices at version " + view.version());
                        }
                        for (String name : view.indices().keySet()) {
                            if (name.startsWith("n-") && view.aliasesOf(name).isEmpty()) {
                                violations.add("index [" + name + "] without its alias at " + view.version());
                            }
                        }
                        if (view.version() < lastVersion) {
                            violations.add("version went back from " + lastVersion + " to " + view.version());
                        }
                        lastVersion = view.version();
                    }
                    return null;
                });
            }
            writer.get();
        }

        assertThat(violations).isEmpty();
        assertThat(catalog.view().indices()).hasSize(writes + 2);
    }

    @Test
    void storedScriptsArePutReadReplacedAndDeleted() {
        assertThat(catalog.storedScript("counter")).isEmpty();
        catalog.putStoredScript("counter", new io.qdrant.esgateway.domain.script.StoredScript("painless",
                "ctx._source.n += params.n"));
        assertThat(catalog.storedScript("counter")).contains(new io.qdrant.esgateway.domain.script.StoredScript(
                "painless", "ctx._source.n += params.n"));
        long version = catalog.view().version();
        catalog.putStoredScript("counter", new io.qdrant.esgateway.domain.script.StoredScript("painless",
                "ctx._source.n -= 1 // \u00e9\n"));
        assertThat(catalog.storedScript("counter").orElseThrow().source()).isEqualTo("ctx._source.n -= 1 // \u00e9\n");
        assertThat(catalog.view().version()).as("scripts are not part of the index view").isEqualTo(version);
        assertThat(catalog.deleteStoredScript("counter")).isTrue();
        assertThat(catalog.deleteStoredScript("counter")).isFalse();
        assertThat(catalog.storedScript("counter")).isEmpty();
    }

    @Test
    void securityRecordsArePutReadListedReplacedAndDeletedByKind() {
        assertThat(catalog.securityRecord("user", "alice")).isEmpty();
        assertThat(catalog.securityRecords("user")).isEmpty();
        long version = catalog.view().version();
        assertThat(catalog.putSecurityRecord("user", "bob", "{\"hash\":\"$2a$10$b\"}", false)).isTrue();
        assertThat(catalog.putSecurityRecord("user", "alice", "{\"hash\":\"\u00e9\"}", true)).isTrue();
        assertThat(catalog.putSecurityRecord("role", "alice", "{\"cluster\":[]}", false)).isTrue();
        assertThat(catalog.putSecurityRecord("user", "alice", "{\"other\":1}", true))
                .as("only if absent: kept").isFalse();
        assertThat(catalog.securityRecord("user", "alice")).contains("{\"hash\":\"\u00e9\"}");
        assertThat(catalog.securityRecords("user")).containsExactly(
                java.util.Map.entry("alice", "{\"hash\":\"\u00e9\"}"), java.util.Map.entry("bob", "{\"hash\":\"$2a$10$b\"}"));
        assertThat(catalog.putSecurityRecord("user", "alice", "{\"hash\":\"new\"}", false)).isTrue();
        assertThat(catalog.securityRecord("user", "alice")).contains("{\"hash\":\"new\"}");
        assertThat(catalog.securityRecords("role")).containsOnlyKeys("alice");
        assertThat(catalog.view().version()).as("security records are not part of the index view").isEqualTo(version);
        assertThat(catalog.deleteSecurityRecord("user", "alice")).isTrue();
        assertThat(catalog.deleteSecurityRecord("user", "alice")).isFalse();
        assertThat(catalog.securityRecord("user", "alice")).isEmpty();
        assertThat(catalog.securityRecord("role", "alice")).isPresent();
    }

    @Test
    void templatesOfEachKindArePutListedReplacedAndDeleted() {
        var index = io.qdrant.esgateway.domain.index.TemplateKind.INDEX;
        var component = io.qdrant.esgateway.domain.index.TemplateKind.COMPONENT;
        assertThat(catalog.templates(index)).isEmpty();
        long version = catalog.view().version();
        assertThat(catalog.putTemplate(index, "logs", "{\"index_patterns\":[\"logs-*\"]}", false)).isTrue();
        assertThat(catalog.putTemplate(component, "logs", "{\"template\":{\"mappings\":{\"_meta\":\"\u00e9\"}}}",
                false)).isTrue();
        assertThat(catalog.putTemplate(index, "audit", "{\"index_patterns\":[\"audit\"]}", false)).isTrue();
        assertThat(catalog.templates(index)).containsExactly(
                java.util.Map.entry("audit", "{\"index_patterns\":[\"audit\"]}"),
                java.util.Map.entry("logs", "{\"index_patterns\":[\"logs-*\"]}"));
        assertThat(catalog.templates(component)).as("each kind is its own name space")
                .containsExactly(java.util.Map.entry("logs", "{\"template\":{\"mappings\":{\"_meta\":\"\u00e9\"}}}"));
        assertThat(catalog.putTemplate(index, "logs", "{\"index_patterns\":[\"other\"]}", true))
                .as("create-only refuses an existing name").isFalse();
        assertThat(catalog.templates(index).get("logs")).isEqualTo("{\"index_patterns\":[\"logs-*\"]}");
        assertThat(catalog.putTemplate(index, "logs", "{\"index_patterns\":[\"logs2-*\"]}", false)).isTrue();
        assertThat(catalog.templates(index).get("logs")).isEqualTo("{\"index_patterns\":[\"logs2-*\"]}");
        assertThat(catalog.view().version()).as("templates are not part of the index view").isEqualTo(version);
        assertThat(catalog.deleteTemplate(index, "logs")).isTrue();
        assertThat(catalog.deleteTemplate(index, "logs")).isFalse();
        assertThat(catalog.templates(index)).containsOnlyKeys("audit");
        assertThat(catalog.templates(component)).containsOnlyKeys("logs");
        assertThat(catalog.putTemplate(index, "fresh", "{}", true)).isTrue();
    }
}
