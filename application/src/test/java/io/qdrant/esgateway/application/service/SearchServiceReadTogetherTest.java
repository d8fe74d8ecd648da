package io.qdrant.esgateway.application.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.application.port.in.SearchOperations.SearchResult;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.DocumentStore.Read;
import io.qdrant.esgateway.application.port.out.InMemoryCatalog;
import io.qdrant.esgateway.application.port.out.InMemoryDocumentStore;
import io.qdrant.esgateway.application.port.out.PlanObserver;
import io.qdrant.esgateway.domain.aggregation.AggregationPlan;
import io.qdrant.esgateway.domain.aggregation.NamedPartials;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.search.IndexHits;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * An index's native page and native aggregations go to the store as one {@code readTogether} when the store sends
 * reads side by side on one thread (and the request's bound allows two reads at once); otherwise as two reads, the
 * second on a thread of its own. The answers and failures are the same either way.
 */
class SearchServiceReadTogetherTest {
    private static final IndexMetadata INDEX = new IndexMetadata("i", "u", Instant.EPOCH, IndexSettings.DEFAULTS,
            Mappings.parse(Json.parse("{\"properties\":{\"tag\":{\"type\":\"keyword\"},\"n\":{\"type\":\"long\"}}}")));
    private static final String TERMS = "{\"size\": 0, \"track_total_hits\": true, \"query\": {\"range\": {\"n\":"
            + " {\"gte\": 1}}}, \"aggs\": {\"tags\": {\"terms\": {\"field\": \"tag\"}}}}";

    /** Searches and aggregates with fixed answers, recording what was asked and on which thread. */
    private static final class Store extends InMemoryDocumentStore {
        final boolean together;
        final List<String> calls = Collections.synchronizedList(new ArrayList<>());
        final List<Thread> threads = Collections.synchronizedList(new ArrayList<>());
        final List<List<Read>> batches = Collections.synchronizedList(new ArrayList<>());
        volatile RuntimeException searchFailure;
        volatile RuntimeException aggregateFailure;

        Store(boolean together) {
            this.together = together;
        }

        @Override
        public IndexHits search(IndexMetadata index, SearchRequest request, int topN) {
            calls.add("search " + topN);
            threads.add(Thread.currentThread());
            if (searchFailure != null) {
                throw searchFailure;
            }
            return new IndexHits(Optional.of(new IndexHits.Total(7, true)), List.of(), Float.NaN);
        }

        @Override
        public NamedPartials aggregate(IndexMetadata index, SearchRequest request, AggregationPlan plan) {
            calls.add("aggregate " + String.join(",", plan.aggregations().keySet()));
            threads.add(Thread.currentThread());
            if (aggregateFailure != null) {
                throw aggregateFailure;
            }
            return plan.newCollectors().partial();
        }

        @Override
        public boolean readsTogetherOnOneThread() {
            return together;
        }

        @Override
        public List<DocumentStore.ReadValue> readTogether(List<Read> reads) {
            batches.add(reads);
            return super.readTogether(reads); // the port's default: one by one, in order
        }
    }

    private static SearchRequest request(String json) {
        return SearchRequestParser.parse(Optional.of(Json.parse(json)), Map.of());
    }

    private static SearchResult search(Store store, int maxInFlight, String json) {
        InMemoryCatalog catalog = new InMemoryCatalog();
        catalog.createIndex(INDEX, List.of());
        return new SearchService(catalog, store, store.capabilities(), PlanObserver.NONE, maxInFlight)
                .search("i", request(json), CatalogView.Options.STRICT_EXPAND_OPEN);
    }

    @Test
    void thePageAndTheAggregationsAreOneReadTogetherOnTheRequestsThread() {
        Store store = new Store(true);
        SearchResult result = search(store, 4, TERMS);
        assertThat(result.total()).contains(new IndexHits.Total(7, true));
        assertThat(result.aggregations()).hasValueSatisfying(a -> assertThat(a.byName()).containsOnlyKeys("tags"));
        assertThat(store.batches).singleElement().satisfies(reads -> {
            assertThat(reads).hasSize(2);
            assertThat(reads.get(0)).isInstanceOfSatisfying(Read.Search.class, s -> {
                assertThat(s.index()).isEqualTo(INDEX);
                assertThat(s.topN()).isZero();
                assertThat(s.request()).isEqualTo(request(TERMS));
            });
            assertThat(reads.get(1)).isInstanceOfSatisfying(Read.Aggregate.class, a -> {
                assertThat(a.request()).isEqualTo(request(TERMS));
                assertThat(a.plan().aggregations()).containsOnlyKeys("tags");
            });
        });
        assertThat(store.calls).containsExactly("search 0", "aggregate tags");
        assertThat(store.threads).allSatisfy(t -> assertThat(t).isSameAs(Thread.currentThread()));
    }

    @Test
    void withABoundOfOneReadOrAStoreThatDoesNotReadTogetherTheyAreTwoReadsAsBefore() {
        Store bound = new Store(true);
        SearchResult one = search(bound, 1, TERMS);
        assertThat(bound.batches).isEmpty();
        assertThat(bound.calls).containsExactlyInAnyOrder("search 0", "aggregate tags");

        Store apart = new Store(false);
        SearchResult two = search(apart, 4, TERMS);
        assertThat(apart.batches).isEmpty();
        assertThat(apart.calls).containsExactlyInAnyOrder("search 0", "aggregate tags");
        // the second read on a thread of its own
        assertThat(apart.threads).anySatisfy(t -> assertThat(t).isNotSameAs(Thread.currentThread()));

        SearchResult together = search(new Store(true), 4, TERMS);
        for (SearchResult r : List.of(one, two)) {
            assertThat(r.total()).isEqualTo(together.total());
            assertThat(r.aggregations().orElseThrow().render()).isEqualTo(together.aggregations().orElseThrow()
                    .render());
        }
    }

    @Test
    void anAggregationOverEveryDocumentIsNotReadTogether() {
        Store store = new Store(true);
        search(store, 4, TERMS.replace("\"field\": \"tag\"", "\"field\": \"tag\", \"min_doc_count\": 0"));
        assertThat(store.batches).isEmpty();
        assertThat(store.calls).contains("search 0");
    }

    @Test
    void theFailuresAreThoseOfTheTwoReads() {
        for (boolean together : List.of(true, false)) {
            Store store = new Store(together);
            store.aggregateFailure = GatewayException.illegalArgument("bad aggregation");
            assertThatThrownBy(() -> search(store, 4, TERMS)).isInstanceOfSatisfying(GatewayException.class, e -> {
                assertThat(e.shardFailures()).singleElement().satisfies(f -> {
                    assertThat(f.index()).isEqualTo("i");
                    assertThat(f.reason().getMessage()).isEqualTo("bad aggregation");
                });
            });
            // both fail: the page's failure (the first read) wins
            store.searchFailure = new GatewayException(ErrorKind.BACKEND_FAILURE, "page broke", Map.of(), null);
            assertThatThrownBy(() -> search(store, 4, TERMS)).hasMessage("page broke");
            assertThat(store.batches).hasSize(together ? 2 : 0);
        }
    }
}
