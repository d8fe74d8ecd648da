package io.qdrant.esgateway.application.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand;
import io.qdrant.esgateway.application.port.in.DocumentOperations.Written;
import io.qdrant.esgateway.application.port.in.SearchOperations.SearchResult;
import io.qdrant.esgateway.application.port.out.InMemoryCatalog;
import io.qdrant.esgateway.application.port.out.InMemoryDocumentStore;
import io.qdrant.esgateway.application.port.out.PlanObserver;
import io.qdrant.esgateway.domain.document.Versioning.Condition;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.CreateIndexRequest;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.IndexHits;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link SearchService} over the in-memory store's plain read half: hits merged across indices in the request's
 * order, {@code from}/{@code size}, totals and aggregations summed over indices, the complete-scan path equal to the
 * native one, and the request cache — a repeated {@code size: 0} search is answered without reading the store, and
 * a write in between is seen.
 */
class SearchServiceTest {
    private final AtomicInteger ids = new AtomicInteger();
    private final InMemoryCatalog catalog = new InMemoryCatalog();
    private final InMemoryDocumentStore store = new InMemoryDocumentStore();
    private final InstantSource clock = InstantSource.fixed(Instant.parse("2024-01-01T00:00:00Z"));
    private final IndexAdministrationService admin = new IndexAdministrationService(catalog, store,
            () -> "uuid-" + ids.incrementAndGet(), clock);
    private final DocumentService documents = new DocumentService(catalog, store, admin,
            () -> "gen-" + ids.incrementAndGet(), clock);

    private void write(String index, String id, String json) {
        assertThat(documents.bulk(List.of(new WriteCommand.Index(index, Optional.of(id),
                (JsonObject) Json.parse(json.replace('\'', '"')), false, Condition.NONE, false))))
                .allMatch(o -> o instanceof Written);
    }

    private void corpus() {
        admin.create(CreateIndexRequest.parse("a", Json.parse("""
                {"mappings": {"properties": {"n": {"type": "long"}, "tag": {"type": "keyword"},
                 "title": {"type": "text"}}}}""")));
        admin.create(CreateIndexRequest.parse("b", Json.parse("""
                {"mappings": {"properties": {"n": {"type": "long"}, "tag": {"type": "keyword"},
                 "title": {"type": "text"}}}}""")));
        for (int i = 0; i < 10; i++) {
            write(i % 2 == 0 ? "a" : "b", "d" + i, "{'n': " + i + ", 'tag': '" + (i % 3 == 0 ? "x" : "y")
                    + "', 'title': 'word" + i % 4 + " common'}");
        }
    }

    private static SearchResult search(SearchService service, String target, String body) {
        return service.search(target, SearchRequestParser.parse(Optional.of(Json.parse(body.replace('\'', '"'))),
                Map.of()), CatalogView.Options.STRICT_EXPAND_OPEN);
    }

    private static List<String> ids(SearchResult result) {
        return result.hits().stream().map(Hit::id).toList();
    }

    @Test
    void hitsOfSeveralIndicesMergeInTheRequestsOrderWithFromAndSize() {
        corpus();
        SearchService service = new SearchService(catalog, store);

        SearchResult desc = search(service, "a,b", "{'sort': [{'n': 'desc'}], 'from': 2, 'size': 4}");
        assertThat(ids(desc)).containsExactly("d7", "d6", "d5", "d4");
        assertThat(desc.total()).contains(new IndexHits.Total(10, true));
        assertThat(desc.hits()).allSatisfy(h -> assertThat(h.index()).isEqualTo(
                Integer.parseInt(h.id().substring(1)) % 2 == 0 ? "a" : "b"));
        assertThat(desc.hits().getFirst().sort()).containsExactly(new JsonValue.JsonNumber(7L));

        SearchResult matched = search(service, "a,b", "{'query': {'bool': {'must': [{'match': {'title': 'word1'}}],"
                + " 'must_not': [{'term': {'tag': 'x'}}]}}, 'sort': [{'n': 'asc'}]}");
        assertThat(ids(matched)).containsExactly("d1", "d5");
        assertThat(search(service, "a,b", "{'query': {'term': {'tag': 'x'}}, 'track_total_hits': 2, 'size': 0}")
                .total()).contains(new IndexHits.Total(2, false));
    }

    @Test
    void aggregationsAreMergedOverIndicesAndTheScanPathAnswersAsTheNativeOne() {
        corpus();
        SearchService nativePaths = new SearchService(catalog, store);
        SearchService scanned = new SearchService(catalog, store,
                store.capabilities().without(java.util.Set.of("all")), PlanObserver.NONE, 4);
        String body = "{'size': 3, 'sort': [{'tag': 'asc'}, {'n': 'desc'}], 'query': {'range': {'n': {'gte': 1}}},"
                + " 'aggs': {'tags': {'terms': {'field': 'tag'}, 'aggs': {'s': {'sum': {'field': 'n'}}}}}}";

        SearchResult a = search(nativePaths, "a,b", body);
        SearchResult b = search(scanned, "a,b", body);

        assertThat(ids(a)).containsExactly("d9", "d6", "d3");
        assertThat(ids(b)).isEqualTo(ids(a));
        assertThat(a.total()).isEqualTo(b.total()).contains(new IndexHits.Total(9, true));
        JsonObject aggs = a.aggregations().orElseThrow().render();
        assertThat(Json.write(aggs)).isEqualTo(Json.write(b.aggregations().orElseThrow().render()));
        // x: 3, 6, 9 (sum 18); y: 1, 2, 4, 5, 7, 8 (sum 27)
        assertThat(Json.write(aggs)).contains("{\"key\":\"y\",\"doc_count\":6,\"s\":{\"value\":27.0}}",
                "{\"key\":\"x\",\"doc_count\":3,\"s\":{\"value\":18.0}}");
    }

    @Test
    void theRequestCacheAnswersARepeatedSizeZeroSearchUntilTheNextWrite() {
        corpus();
        SearchService service = new SearchService(catalog, store, store.capabilities(), PlanObserver.NONE, 4, 16);
        String body = "{'size': 0, 'query': {'term': {'tag': 'y'}}, 'aggs': {'n': {'max': {'field': 'n'}}}}";
        List<String> reads = new ArrayList<>();
        store.onCall(InMemoryDocumentStore.Operation.SEARCH, index -> reads.add(index.name()));

        SearchResult first = search(service, "a,b", body);
        int afterFirst = reads.size();
        SearchResult second = search(service, "a,b", body);

        assertThat(afterFirst).isPositive();
        assertThat(reads).hasSize(afterFirst);
        assertThat(second.total()).isEqualTo(first.total()).contains(new IndexHits.Total(6, true));
        assertThat(Json.write(second.aggregations().orElseThrow().render()))
                .isEqualTo(Json.write(first.aggregations().orElseThrow().render()));

        write("a", "d20", "{'n': 20, 'tag': 'y'}");
        SearchResult third = search(service, "a,b", body);
        assertThat(third.total()).contains(new IndexHits.Total(7, true));
        assertThat(Json.write(third.aggregations().orElseThrow().render())).contains("20.0");
        assertThat(reads.subList(afterFirst, reads.size())).containsOnly("a");
    }
}
