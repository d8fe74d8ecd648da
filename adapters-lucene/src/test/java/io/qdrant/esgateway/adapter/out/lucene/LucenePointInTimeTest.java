package io.qdrant.esgateway.adapter.out.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand;
import io.qdrant.esgateway.application.port.in.SearchOperations.SearchResult;
import io.qdrant.esgateway.application.port.out.InMemoryCatalog;
import io.qdrant.esgateway.application.service.DocumentService;
import io.qdrant.esgateway.application.service.IndexAdministrationService;
import io.qdrant.esgateway.application.service.PointInTimeService;
import io.qdrant.esgateway.application.service.ScrollService;
import io.qdrant.esgateway.application.service.SearchService;
import io.qdrant.esgateway.domain.document.Versioning;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.CreateIndexRequest;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Points in time on the embedded store: every search reads the reader held since it opened; {@code search_after}
 * with the implicit {@code _shard_doc} tiebreaker pages through ties and across indices exactly as one unpaged
 * search; abandoned points in time and scrolls are all freed after their keep-alive (time injected), releasing their
 * readers; the open-context bound.
 */
class LucenePointInTimeTest {
    @TempDir
    Path data;
    private LuceneStores.Handle store;
    private DocumentService documents;
    private PointInTimeService pits;
    private ScrollService scrolls;
    private SearchService search;
    private Instant now = Instant.parse("2024-06-01T00:00:00Z");
    private CountingSnapshots counting;

    @BeforeEach
    void setUp() {
        store = LuceneStores.open(data);
        InMemoryCatalog catalog = new InMemoryCatalog();
        AtomicInteger ids = new AtomicInteger();
        InstantSource clock = () -> now;
        IndexAdministrationService admin = new IndexAdministrationService(catalog, store,
                () -> "uuid" + ids.incrementAndGet(), clock);
        documents = new DocumentService(catalog, store, admin, () -> "gen" + ids.incrementAndGet(), clock);
        counting = new CountingSnapshots(store);
        pits = new PointInTimeService(catalog, store, Optional.of(counting), store.capabilities(), clock,
                () -> "id" + ids.incrementAndGet(), 25);
        scrolls = new ScrollService(catalog, store, Optional.of(counting), store.capabilities(), clock,
                () -> "id" + ids.incrementAndGet(), 25);
        search = new SearchService(catalog, store);
        for (String name : List.of("books", "films")) {
            admin.create(CreateIndexRequest.parse(name, Json.parse(
                    "{\"mappings\":{\"properties\":{\"n\":{\"type\":\"integer\"}}}}")));
        }
        for (int i = 1; i <= 10; i++) {
            index("books", "b" + i, i % 3);
            index("films", "f" + i, i % 4);
        }
    }

    @AfterEach
    void tearDown() {
        store.close();
    }

    private void index(String target, String id, int n) {
        documents.write(new WriteCommand.Index(target, Optional.of(id), (JsonObject) Json.parse("{\"n\":" + n + "}"),
                false, Versioning.Condition.NONE, false));
    }

    private static SearchRequest request(String body) {
        return SearchRequestParser.parse(Optional.of(Json.parse(body)), Map.of());
    }

    private static List<String> ids(SearchResult result) {
        return result.hits().stream().map(Hit::id).toList();
    }

    /** Every page of a sorted point-in-time search, each continuing after the last hit's sort values. */
    private List<String> allPages(String pit, String sort, int size) {
        List<String> seen = new ArrayList<>();
        Optional<List<JsonValue>> after = Optional.empty();
        while (true) {
            String body = "{\"size\":" + size + ",\"sort\":" + sort + after.map(a -> ",\"search_after\":"
                    + a.stream().map(Json::write).collect(Collectors.joining(",", "[", "]"))).orElse("") + "}";
            SearchResult page = pits.search(pit, Optional.of(Duration.ofMinutes(1)), request(body));
            if (page.hits().isEmpty()) {
                return seen;
            }
            assertThat(page.total().orElseThrow().value()).isEqualTo(20);
            seen.addAll(ids(page));
            after = Optional.of(page.hits().get(page.hits().size() - 1).sort());
        }
    }

    @Test
    void searchAfterWithTheImplicitTiebreakerPagesThroughTiesAcrossIndices() {
        String pit = pits.open("books,films", Duration.ofMinutes(1), CatalogView.Options.STRICT_EXPAND_OPEN);
        SearchResult whole = pits.search(pit, Optional.empty(), request("{\"size\":100,\"sort\":[{\"n\":\"asc\"}]}"));
        assertThat(whole.hits()).hasSize(20);
        // n, then the tiebreaker: the index's number in the high bits, the document's position in the low ones
        Hit firstFilm = whole.hits().stream().filter(h -> h.index().equals("films")).findFirst().orElseThrow();
        assertThat(firstFilm.sort()).hasSize(2);
        assertThat(Long.parseLong(Json.write(firstFilm.sort().get(1))) >>> 32).isEqualTo(1);
        List<String> order = ids(whole);
        for (int size : List.of(1, 2, 3, 7)) {
            assertThat(allPages(pit, "[{\"n\":\"asc\"}]", size)).as("pages of " + size).isEqualTo(order);
        }
        List<String> desc = ids(pits.search(pit, Optional.empty(),
                request("{\"size\":100,\"sort\":[{\"n\":\"desc\"},{\"_shard_doc\":\"desc\"}]}")));
        assertThat(desc).hasSize(20).doesNotHaveDuplicates();
        assertThat(allPages(pit, "[{\"n\":\"desc\"},{\"_shard_doc\":\"desc\"}]", 3)).isEqualTo(desc);
        // ties within one value of n: the later index first, later positions first
        assertThat(desc.subList(0, 2)).containsExactly("f7", "f3");
    }

    @Test
    void writesAfterOpeningDoNotChangeWhatItReads() {
        String pit = pits.open("books", Duration.ofMinutes(1), CatalogView.Options.STRICT_EXPAND_OPEN);
        index("books", "b0", 0);
        documents.write(new WriteCommand.Delete("books", "b5", Versioning.Condition.NONE, false));
        index("books", "b6", 60);
        SearchResult seen = pits.search(pit, Optional.empty(), request("{\"size\":100,\"sort\":[{\"n\":\"asc\"}]}"));
        assertThat(seen.total().orElseThrow().value()).isEqualTo(10);
        assertThat(ids(seen)).contains("b5").doesNotContain("b0");
        assertThat(seen.hits().stream().filter(h -> h.id().equals("b6")).findFirst().orElseThrow().source())
                .isEqualTo(Json.parse("{\"n\":0}"));
        SearchResult live = search.search("books", request("{\"size\":100}"), CatalogView.Options.STRICT_EXPAND_OPEN);
        assertThat(live.total().orElseThrow().value()).isEqualTo(10);
        assertThat(ids(live)).contains("b0").doesNotContain("b5");
    }

    @Test
    void twentyAbandonedPointsInTimeAndScrollsAreFreedAfterTheirKeepAlive() {
        for (int i = 0; i < 20; i++) {
            String pit = pits.open(i % 2 == 0 ? "books" : "books,films", Duration.ofSeconds(30 + i),
                    CatalogView.Options.STRICT_EXPAND_OPEN);
            pits.search(pit, Optional.of(Duration.ofSeconds(30 + i)), request("{\"size\":2,\"sort\":[\"n\"]}"));
            scrolls.open("books", request("{\"size\":2}"), Duration.ofSeconds(30 + i),
                    CatalogView.Options.STRICT_EXPAND_OPEN);
        }
        assertThat(pits.openContexts()).isEqualTo(20);
        assertThat(scrolls.openContexts()).isEqualTo(20);
        assertThat(counting.opened()).isEqualTo(10 + 20 + 20);
        now = now.plusSeconds(40);
        assertThat(pits.openContexts()).as("those of keep-alive above 40 s").isEqualTo(9);
        assertThat(scrolls.openContexts()).isEqualTo(9);
        now = now.plusSeconds(10);
        assertThat(pits.openContexts()).isZero();
        assertThat(scrolls.openContexts()).isZero();
        assertThat(counting.closed()).as("every reader released").isEqualTo(counting.opened());
    }

    @Test
    void theBoundAndAnExpiredId() {
        List<String> open = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            open.add(pits.open("books", Duration.ofSeconds(10), CatalogView.Options.STRICT_EXPAND_OPEN));
        }
        GatewayException full = catchThrowableOfType(GatewayException.class,
                () -> pits.open("books", Duration.ofSeconds(10), CatalogView.Options.STRICT_EXPAND_OPEN));
        assertThat(full.kind()).isEqualTo(ErrorKind.TOO_MANY_SEARCH_CONTEXTS);
        assertThat(counting.opened()).as("the refused one held nothing").isEqualTo(25);
        assertThat(pits.close(open.get(0))).isEqualTo(1);
        assertThat(pits.close(open.get(0))).isZero();
        now = now.plusSeconds(11);
        GatewayException gone = catchThrowableOfType(GatewayException.class,
                () -> pits.search(open.get(1), Optional.empty(), request("{}")));
        assertThat(gone.shardFailures().get(0).reason().kind()).isEqualTo(ErrorKind.SEARCH_CONTEXT_MISSING);
        assertThat(gone.shardFailures().get(0).index()).isEqualTo("books");
        assertThat(pits.openContexts()).isZero();
        assertThat(counting.closed()).isEqualTo(25);
    }
}
