package io.qdrant.esgateway.adapter.out.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand;
import io.qdrant.esgateway.application.port.in.ScrollOperations.Page;
import io.qdrant.esgateway.application.port.out.InMemoryCatalog;
import io.qdrant.esgateway.application.service.DocumentService;
import io.qdrant.esgateway.application.service.IndexAdministrationService;
import io.qdrant.esgateway.application.service.ScrollService;
import io.qdrant.esgateway.domain.document.Versioning;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.CreateIndexRequest;
import io.qdrant.esgateway.domain.json.Json;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scroll on the embedded store: a scroll reads the reader held since it was opened, so writes meanwhile (new
 * documents that sort first, deletes and updates of documents not yet returned) do not shift or change it; contexts
 * expire after their keep-alive (time injected), releasing their readers; the open-context bound.
 */
class LuceneScrollTest {
    @TempDir
    Path data;
    private LuceneStores.Handle store;
    private DocumentService documents;
    private ScrollService scrolls;
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
        scrolls = new ScrollService(catalog, store, Optional.of(counting), store.capabilities(), clock,
                () -> "id" + ids.incrementAndGet(), 3);
        admin.create(CreateIndexRequest.parse("books", Json.parse(
                "{\"mappings\":{\"properties\":{\"n\":{\"type\":\"integer\"}}}}")));
        for (int i = 1; i <= 10; i++) {
            index("b" + i, i);
        }
    }

    @AfterEach
    void tearDown() {
        store.close();
    }

    private void index(String id, int n) {
        documents.write(new WriteCommand.Index("books", Optional.of(id), (JsonObject) Json.parse("{\"n\":" + n + "}"),
                false, Versioning.Condition.NONE, false));
    }

    private static SearchRequest request(String body) {
        return SearchRequestParser.parse(Optional.of(Json.parse(body)), Map.of());
    }

    private static List<String> ids(Page page) {
        return page.result().hits().stream().map(Hit::id).toList();
    }

    @Test
    void writesAfterTheScrollOpenedDoNotShiftIt() {
        Page first = scrolls.open("books", request("{\"size\":3,\"sort\":[{\"n\":\"asc\"}]}"), Duration.ofMinutes(1),
                CatalogView.Options.STRICT_EXPAND_OPEN);
        List<String> seen = new ArrayList<>(ids(first));
        assertThat(seen).containsExactly("b1", "b2", "b3");
        assertThat(first.result().hits().get(0).sort()).hasSize(1);
        index("b0", 0);
        documents.write(new WriteCommand.Delete("books", "b5", Versioning.Condition.NONE, false));
        index("b6", 60);
        index("b11", 11);
        Page page;
        do {
            page = scrolls.next(first.scrollId().orElseThrow(), Optional.of(Duration.ofMinutes(1)));
            seen.addAll(ids(page));
        } while (!page.result().hits().isEmpty());
        assertThat(seen).containsExactly("b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9", "b10");
        assertThat(page.result().total().orElseThrow().value()).isEqualTo(10);
    }

    @Test
    void contextsExpireAfterTheirKeepAliveAndReleaseTheirReaders() {
        for (int i = 0; i < 3; i++) {
            scrolls.open("books", request("{\"size\":2}"), Duration.ofSeconds(30 + i),
                    CatalogView.Options.STRICT_EXPAND_OPEN);
        }
        assertThat(scrolls.openContexts()).isEqualTo(3);
        GatewayException full = catchThrowableOfType(GatewayException.class, () -> scrolls.open("books",
                request("{\"size\":2}"), Duration.ofSeconds(30), CatalogView.Options.STRICT_EXPAND_OPEN));
        assertThat(full.shardFailures().get(0).reason().kind()).isEqualTo(ErrorKind.TOO_MANY_SEARCH_CONTEXTS);
        assertThat(full.shardFailures().get(0).reason().reason()).isEqualTo("Trying to create too many scroll"
                + " contexts. Must be less than or equal to: [3]. This limit can be set by changing the"
                + " [search.max_open_scroll_context] setting.");
        assertThat(counting.opened()).as("the refused scroll held nothing").isEqualTo(3);

        now = now.plusSeconds(31);
        assertThat(scrolls.openContexts()).as("the first two expired").isEqualTo(1);
        now = now.plusSeconds(1);
        assertThat(scrolls.openContexts()).isZero();
        assertThat(counting.closed()).as("every reader released").isEqualTo(3);
    }

    @Test
    void aPageRenewsTheKeepAliveAndAnExpiredIdIsMissing() {
        String id = scrolls.open("books", request("{\"size\":4}"), Duration.ofSeconds(10),
                CatalogView.Options.STRICT_EXPAND_OPEN).scrollId().orElseThrow();
        now = now.plusSeconds(9);
        scrolls.next(id, Optional.of(Duration.ofSeconds(5)));
        now = now.plusSeconds(4);
        assertThat(ids(scrolls.next(id, Optional.of(Duration.ofSeconds(5))))).hasSize(2);
        now = now.plusSeconds(6);
        GatewayException gone = catchThrowableOfType(GatewayException.class, () -> scrolls.next(id, Optional.empty()));
        assertThat(gone.kind()).isEqualTo(ErrorKind.SEARCH_PHASE_EXECUTION);
        assertThat(gone.shardFailures().get(0).reason().kind()).isEqualTo(ErrorKind.SEARCH_CONTEXT_MISSING);
        assertThat(gone.shardFailures().get(0).reason().reason()).isEqualTo("No search context found for id [1]");
        assertThat(counting.closed()).isEqualTo(1);
    }

    @Test
    void aPageWithoutAKeepAliveIsTheLast() {
        String id = scrolls.open("books", request("{\"size\":4}"), Duration.ofSeconds(10),
                CatalogView.Options.STRICT_EXPAND_OPEN).scrollId().orElseThrow();
        Page last = scrolls.next(id, Optional.empty());
        assertThat(ids(last)).containsExactly("b5", "b6", "b7", "b8");
        assertThat(last.scrollId()).isEmpty();
        assertThat(scrolls.openContexts()).isZero();
        assertThat(counting.closed()).isEqualTo(1);
    }

    @Test
    void clearingFreesOnlyOpenContexts() {
        Page a = scrolls.open("books", request("{\"size\":4}"), Duration.ofSeconds(10),
                CatalogView.Options.STRICT_EXPAND_OPEN);
        Page b = scrolls.open("books", request("{\"size\":4}"), Duration.ofSeconds(10),
                CatalogView.Options.STRICT_EXPAND_OPEN);
        assertThat(scrolls.clear(List.of(a.scrollId().orElseThrow()))).isEqualTo(1);
        assertThat(scrolls.clear(List.of(a.scrollId().orElseThrow()))).isZero();
        assertThat(scrolls.clearAll()).isEqualTo(1);
        assertThat(scrolls.openContexts()).isZero();
        assertThat(counting.closed()).isEqualTo(2);
        assertThat(b.scrollId()).isNotEqualTo(a.scrollId());
    }
}
