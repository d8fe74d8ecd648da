package io.qdrant.esgateway.application.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.application.port.out.InMemoryDocumentStore;
import io.qdrant.esgateway.domain.aggregation.AggregationDoc;
import io.qdrant.esgateway.domain.aggregation.AggregationPlan;
import io.qdrant.esgateway.domain.aggregation.NamedCollectors;
import io.qdrant.esgateway.domain.aggregation.NamedPartials;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code global} and {@code min_doc_count: 0} read every document through a second call of the same port method,
 * with a match-all request; the query's matches come from the first.
 */
class AggregationRunnerTest {
    private static final IndexMetadata INDEX = new IndexMetadata("i", "u", Instant.EPOCH, IndexSettings.DEFAULTS,
            Mappings.parse(Json.parse("{\"properties\":{\"tag\":{\"type\":\"keyword\"}}}")));

    /** A document with keyword values for "tag" only. */
    private record Doc(String... tags) implements AggregationDoc {
        @Override
        public String[] keywords(String field) {
            return tags;
        }

        @Override
        public long[] longs(String field) {
            return new long[0];
        }

        @Override
        public double[] doubles(String field) {
            return new double[0];
        }

        @Override
        public boolean matches(int filter) {
            return false;
        }

        @Override
        public float score() {
            return Float.NaN;
        }

        @Override
        public long position() {
            return 0;
        }

        @Override
        public java.util.function.Supplier<io.qdrant.esgateway.domain.document.StoredDocument> stored() {
            throw new UnsupportedOperationException("no top_hits in this test");
        }
    }

    /** Answers the query's matches with {@code matched}, a match-all request with {@code all}; records requests. */
    private static final class Store extends InMemoryDocumentStore {
        final List<SearchRequest> requests = new ArrayList<>();
        final List<Doc> matched = List.of(new Doc("a"));
        final List<Doc> all = List.of(new Doc("a"), new Doc("b", "c"), new Doc());

        @Override
        public NamedPartials aggregate(IndexMetadata index, SearchRequest request, AggregationPlan plan) {
            requests.add(request);
            NamedCollectors c = plan.newCollectors();
            (request.query().isPresent() ? matched : all).forEach(c::collect);
            return c.partial();
        }
    }

    private static SearchRequest request(String body) {
        return SearchRequestParser.parse(Optional.of(Json.parse(body)), Map.of());
    }

    @Test
    void aPlanWithoutGlobalOrZeroCountsIsOneCall() {
        Store store = new Store();
        SearchRequest r = request("{\"query\":{\"term\":{\"tag\":\"a\"}},\"aggs\":{\"t\":{\"terms\":{\"field\":\"tag\"}}}}");
        NamedPartials p = AggregationRunner.aggregate(store, INDEX, r, AggregationPlan.of("i", r.aggregations(),
                INDEX.mappings(), System::currentTimeMillis));
        assertThat(store.requests).hasSize(1);
        assertThat(Json.write(p.render())).isEqualTo("{\"t\":{\"doc_count_error_upper_bound\":0,"
                + "\"sum_other_doc_count\":0,\"buckets\":[{\"key\":\"a\",\"doc_count\":1}]}}");
    }

    @Test
    void globalAndZeroCountsReadAllDocumentsWithAMatchAllRequest() {
        Store store = new Store();
        SearchRequest r = request("{\"query\":{\"term\":{\"tag\":\"a\"}},\"post_filter\":{\"term\":{\"tag\":\"b\"}},"
                + "\"min_score\":0.5,\"aggs\":{\"t\":{\"terms\":{\"field\":\"tag\",\"min_doc_count\":0}},"
                + "\"g\":{\"global\":{}}}}");
        NamedPartials p = AggregationRunner.aggregate(store, INDEX, r, AggregationPlan.of("i", r.aggregations(),
                INDEX.mappings(), System::currentTimeMillis));
        assertThat(store.requests).hasSize(2);
        SearchRequest all = store.requests.get(1);
        assertThat(all.query()).isEmpty();
        assertThat(all.postFilter()).isEmpty();
        assertThat(all.minScore()).isEmpty();
        assertThat(all.knn()).isEmpty();
        assertThat(Json.write(p.render())).isEqualTo("{\"t\":{\"doc_count_error_upper_bound\":0,"
                + "\"sum_other_doc_count\":0,\"buckets\":[{\"key\":\"a\",\"doc_count\":1},{\"key\":\"b\","
                + "\"doc_count\":0},{\"key\":\"c\",\"doc_count\":0}]},\"g\":{\"doc_count\":3}}");
    }

    @Test
    void onlyGlobalAggregationsSkipTheQueryPass() {
        Store store = new Store();
        SearchRequest r = request("{\"query\":{\"term\":{\"tag\":\"a\"}},\"aggs\":{\"g\":{\"global\":{}}}}");
        NamedPartials p = AggregationRunner.aggregate(store, INDEX, r, AggregationPlan.of("i", r.aggregations(),
                INDEX.mappings(), System::currentTimeMillis));
        assertThat(store.requests).hasSize(1);
        assertThat(store.requests.get(0).query()).isEmpty();
        assertThat(Json.write(p.render())).isEqualTo("{\"g\":{\"doc_count\":3}}");
    }
}
