package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand;
import io.qdrant.esgateway.application.port.in.SearchOperations.SearchResult;
import io.qdrant.esgateway.application.port.out.InMemoryCatalog;
import io.qdrant.esgateway.application.port.out.PlanObserver;
import io.qdrant.esgateway.application.service.DocumentService;
import io.qdrant.esgateway.application.service.IndexAdministrationService;
import io.qdrant.esgateway.application.service.SearchService;
import io.qdrant.esgateway.domain.document.Versioning;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.CreateIndexRequest;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;

/**
 * The request cache (application {@code RequestCache}) seen from the backend: a repeated {@code size: 0} search is
 * answered without a Qdrant call until the index is written to, and then answers with the write; searches with hits
 * and searches mentioning {@code now} always go to the backend; with the cache off every search does.
 */
class RequestCacheTest {
    private FakeQdrant fake;
    private QdrantDocumentStore store;
    private InMemoryCatalog catalog;
    private DocumentService documents;
    private final AtomicInteger ids = new AtomicInteger();

    @BeforeEach
    void setUp() {
        fake = new FakeQdrant();
        store = new QdrantDocumentStore(new QdrantClient(new QdrantStores.Settings(fake.uri(), Optional.empty(),
                Duration.ofSeconds(2), Duration.ofSeconds(10))));
        catalog = new InMemoryCatalog();
        InstantSource clock = InstantSource.fixed(Instant.parse("2024-06-01T00:00:00Z"));
        IndexAdministrationService admin = new IndexAdministrationService(catalog, store,
                () -> "uuid" + ids.incrementAndGet(), clock);
        documents = new DocumentService(catalog, store, admin, () -> "gen" + ids.incrementAndGet(), clock);
        admin.create(CreateIndexRequest.parse("shop", Json.parse(
                "{\"mappings\":{\"properties\":{\"tag\":{\"type\":\"keyword\"},\"day\":{\"type\":\"date\"}}}}")));
        index("a", "{\"tag\":\"red\",\"day\":\"2020-01-01\"}");
        index("b", "{\"tag\":\"blue\",\"day\":\"2020-01-02\"}");
    }

    @AfterEach
    void tearDown() {
        store.close();
        fake.close();
    }

    private void index(String id, String source) {
        documents.bulk(List.of(new WriteCommand.Index("shop", Optional.of(id), (JsonObject) Json.parse(source), false,
                Versioning.Condition.NONE, false)));
    }

    private static String search(SearchService search, String body) {
        SearchResult r = search.search("shop", SearchRequestParser.parse(Optional.of(Json.parse(body)), Map.of()),
                CatalogView.Options.STRICT_EXPAND_OPEN);
        return r.total().map(t -> t.value()).orElse(-1L) + " " + r.aggregations().map(a -> Json.write(a.render()))
                .orElse("") + " " + r.hits().size();
    }

    private int facets() {
        return fake.requests("POST", "/facet").size();
    }

    private static final String TERMS = "{\"size\":0,\"track_total_hits\":true,"
            + "\"aggs\":{\"t\":{\"terms\":{\"field\":\"tag\"}}}}";

    @Test
    void aRepeatedSizeZeroSearchIsServedUntilTheNextWrite() {
        SearchService search = new SearchService(catalog, store, store.capabilities(), PlanObserver.NONE, 4, 100);
        String first = search(search, TERMS);
        int calls = fake.requests("POST", "").size();
        assertThat(search(search, TERMS)).isEqualTo(first);
        assertThat(search(search, TERMS)).isEqualTo(first);
        assertThat(fake.requests("POST", "").size()).as("no Qdrant call for the repeats").isEqualTo(calls);

        index("c", "{\"tag\":\"red\",\"day\":\"2020-01-03\"}");
        int facetsBefore = facets();
        String after = search(search, TERMS);
        assertThat(facets()).as("the write moved the generation").isEqualTo(facetsBefore + 1);
        assertThat(after).isNotEqualTo(first).startsWith("3 ").contains("{\"key\":\"red\",\"doc_count\":2}");
        assertThat(search(search, TERMS)).isEqualTo(after);
        assertThat(facets()).isEqualTo(facetsBefore + 1);
    }

    @Test
    void searchesWithHitsOrNowAndTheCacheOffAlwaysAsk() {
        SearchService search = new SearchService(catalog, store, store.capabilities(), PlanObserver.NONE, 4, 100);
        String now = "{\"size\":0,\"query\":{\"range\":{\"day\":{\"lte\":\"now\"}}},"
                + "\"aggs\":{\"t\":{\"terms\":{\"field\":\"tag\"}}}}";
        search(search, now);
        int facetsBefore = facets();
        search(search, now);
        assertThat(facets()).as("now is not cached").isEqualTo(facetsBefore + 1);

        int before = fake.requests("POST", "").size();
        search(search, "{\"size\":1,\"query\":{\"constant_score\":{\"filter\":{\"term\":{\"tag\":\"red\"}}}}}");
        int one = fake.requests("POST", "").size() - before;
        search(search, "{\"size\":1,\"query\":{\"constant_score\":{\"filter\":{\"term\":{\"tag\":\"red\"}}}}}");
        assertThat(fake.requests("POST", "").size() - before).as("hits are not cached").isEqualTo(2 * one);

        SearchService off = new SearchService(catalog, store, store.capabilities(), PlanObserver.NONE, 4, 0);
        search(off, TERMS);
        int f = facets();
        search(off, TERMS);
        assertThat(facets()).as("cache off").isEqualTo(f + 1);
    }

    @Test
    void anIndexCreatedWithTheRequestCacheDisabledAlwaysAsks() {
        IndexAdministrationService admin = new IndexAdministrationService(catalog, store,
                () -> "uuid" + ids.incrementAndGet(), InstantSource.fixed(Instant.parse("2024-06-01T00:00:00Z")));
        admin.create(CreateIndexRequest.parse("plain", Json.parse("{\"settings\":{\"index\":{\"requests\":"
                + "{\"cache\":{\"enable\":false}}}},\"mappings\":{\"properties\":{\"tag\":{\"type\":\"keyword\"}}}}")));
        documents.bulk(List.of(new WriteCommand.Index("plain", Optional.of("a"), (JsonObject) Json.parse(
                "{\"tag\":\"red\"}"), false, Versioning.Condition.NONE, false)));
        SearchService search = new SearchService(catalog, store, store.capabilities(), PlanObserver.NONE, 4, 100);
        SearchRequest terms = SearchRequestParser.parse(Optional.of(Json.parse(TERMS)), Map.of());

        search.search("plain", terms, CatalogView.Options.STRICT_EXPAND_OPEN);
        int before = facets();
        SearchResult again = search.search("plain", terms, CatalogView.Options.STRICT_EXPAND_OPEN);
        assertThat(facets()).as("index.requests.cache.enable: false").isEqualTo(before + 1);
        assertThat(Json.write(again.aggregations().orElseThrow().render())).contains("{\"key\":\"red\",\"doc_count\":1}");

        search(search, TERMS); // the other index, created without the setting, is still cached
        int shop = facets();
        search(search, TERMS);
        assertThat(facets()).isEqualTo(shop);
    }
}
