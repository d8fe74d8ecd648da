package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.adapter.out.lucene.LuceneStores;
import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand;
import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteOutcome;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.InMemoryCatalog;
import io.qdrant.esgateway.application.service.DocumentService;
import io.qdrant.esgateway.application.service.IndexAdministrationService;
import io.qdrant.esgateway.application.service.SearchService;
import io.qdrant.esgateway.domain.document.Versioning;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.query.dsl.QueryDsl;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Documents of the batch that maps their fields dynamically (the index auto-created by the bulk, or a new field in
 * an existing index) are found by every query that finds them once the mapping exists: the batch is written to
 * Qdrant with the mapping it introduced (its text tokens, its {@code ignore_above}), not with the one before it.
 */
class QdrantDynamicMappingTest {
    private FakeQdrant fake;
    private DocumentStore store;
    private DocumentService documents;
    private SearchService search;

    @BeforeEach
    void open() {
        fake = new FakeQdrant();
        store = QdrantStores.open(new QdrantStores.Settings(fake.uri(), Optional.empty(), Duration.ofSeconds(2),
                Duration.ofSeconds(10)), LuceneStores.relevanceScorer());
        AtomicInteger ids = new AtomicInteger();
        InMemoryCatalog catalog = new InMemoryCatalog();
        InstantSource clock = InstantSource.fixed(Instant.parse("2024-06-01T00:00:00Z"));
        IndexAdministrationService admin = new IndexAdministrationService(catalog, store,
                () -> "uuid" + ids.incrementAndGet(), clock);
        documents = new DocumentService(catalog, store, admin, () -> "gen" + ids.incrementAndGet(), clock);
        search = new SearchService(catalog, store);
    }

    @AfterEach
    void close() throws Exception {
        try {
            assertThat(fake.violations).isEmpty();
        } finally {
            ((AutoCloseable) store).close();
            fake.close();
        }
    }

    private void bulk(String... idAndSource) {
        List<WriteCommand> commands = new ArrayList<>();
        for (int i = 0; i < idAndSource.length; i += 2) {
            commands.add(new WriteCommand.Index("shop", Optional.of(idAndSource[i]),
                    (JsonObject) Json.parse(idAndSource[i + 1]), false, Versioning.Condition.NONE, false));
        }
        List<WriteOutcome> out = documents.bulk(commands);
        assertThat(out).allMatch(o -> o instanceof io.qdrant.esgateway.application.port.in.DocumentOperations.Written);
    }

    private long count(String query) {
        return search.count("shop", Optional.of(QueryDsl.parse(Json.parse(query))),
                CatalogView.Options.STRICT_EXPAND_OPEN).count();
    }

    @Test
    void theBatchThatCreatesTheIndexIsFoundByText() {
        bulk("1", "{\"brand\": \"Acme Tools\"}", "2", "{\"brand\": \"acme\"}");

        assertThat(count("{\"match\": {\"brand\": \"acme\"}}")).isEqualTo(2);
        assertThat(count("{\"match\": {\"brand\": \"tools\"}}")).isEqualTo(1);
        assertThat(count("{\"match_phrase\": {\"brand\": \"acme tools\"}}")).isEqualTo(1);
        assertThat(count("{\"term\": {\"brand.keyword\": \"acme\"}}")).isEqualTo(1);
        assertThat(count("{\"exists\": {\"field\": \"brand\"}}")).isEqualTo(2);
    }

    @Test
    void aFieldNewToAnExistingIndexIsFoundInItsOwnBatchAndLaterOnes() {
        bulk("0", "{\"other\": 1}");
        bulk("1", "{\"brand\": \"Acme Tools\", \"qty\": 3, \"on\": true}", "2", "{\"brand\": \"acme\"}");
        bulk("3", "{\"brand\": \"acme drills\", \"qty\": 5}");

        assertThat(count("{\"match\": {\"brand\": \"acme\"}}")).isEqualTo(3);
        assertThat(count("{\"match\": {\"brand\": {\"query\": \"acme tools\", \"operator\": \"and\"}}}"))
                .isEqualTo(1);
        assertThat(count("{\"range\": {\"qty\": {\"gte\": 3}}}")).isEqualTo(2);
        assertThat(count("{\"term\": {\"on\": true}}")).isEqualTo(1);
        assertThat(count("{\"multi_match\": {\"query\": \"drills\", \"fields\": [\"brand\", \"brand.keyword\"]}}"))
                .isEqualTo(1);
    }

    @Test
    void aKeywordPastIgnoreAboveIntroducedDynamicallyIsFoundByTextOnly() {
        String longValue = "word ".repeat(60) + "end";
        bulk("1", "{\"note\": \"" + longValue + "\"}", "2", "{\"note\": \"short end\"}");

        assertThat(count("{\"match\": {\"note\": \"end\"}}")).isEqualTo(2);
        assertThat(count("{\"match\": {\"note\": \"word\"}}")).isEqualTo(1);
        assertThat(count("{\"exists\": {\"field\": \"note.keyword\"}}")).isEqualTo(1);
        assertThat(count("{\"term\": {\"note.keyword\": \"" + longValue + "\"}}")).isZero();
        assertThat(count("{\"term\": {\"note.keyword\": \"short end\"}}")).isEqualTo(1);
    }
}
