package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import io.qdrant.esgateway.adapter.out.lucene.LuceneStores;
import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand;
import io.qdrant.esgateway.application.port.in.SearchOperations.SearchResult;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.InMemoryCatalog;
import io.qdrant.esgateway.application.service.DocumentService;
import io.qdrant.esgateway.application.service.IndexAdministrationService;
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
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;

/**
 * Differential for kNN and hybrid search: the same index and documents through the gateway's services on the Lucene
 * store (the reference, compared with Elasticsearch by the compatibility suite) and on the Qdrant adapter (against
 * the spec-checked {@link FakeQdrant}, whose vector scores are computed in f32 the way Qdrant computes them).
 *
 * <p>Same total, same ids in the same order, same sort values, sources, versions and aggregations. Scores: the
 * engines do different float operations — Lucene computes cosine as {@code dot / sqrt(|a|²·|b|²)}, l2 as the summed
 * squares and every sum with fused multiply-adds (or SIMD lanes), Qdrant the dot product of pre-normalised vectors
 * and the square root of the summed squares (which the gateway squares again) — so a score may differ in its last
 * bits. The assertion allows {@link #ULPS} units in the last place (the differences seen are 0 to 2), and nothing
 * else: ids, order and every other value are equal.
 */
class QdrantKnnVersusLuceneTest {
    /** The score tolerance where the engines' float operations differ (cosine, l2_norm). */
    static final int ULPS = 4;

    @TempDir
    static Path temp;
    private static FakeQdrant fake;
    private static Backend lucene;
    private static Backend qdrant;

    record Backend(DocumentStore store, SearchService search) {
    }

    static Backend backend(DocumentStore store) {
        StoreServices services = StoreServices.over(store);
        InMemoryCatalog catalog = services.catalog();
        IndexAdministrationService admin = services.admin();
        DocumentService documents = services.documents();
        admin.create(CreateIndexRequest.parse("vectors", Json.parse("""
                {"mappings": {"properties": {
                  "name": {"type": "keyword"}, "tag": {"type": "keyword"}, "count": {"type": "long"},
                  "cos": {"type": "dense_vector", "dims": 3, "similarity": "cosine"},
                  "dot": {"type": "dense_vector", "dims": 2, "similarity": "dot_product"},
                  "l2": {"type": "dense_vector", "dims": 3, "similarity": "l2_norm"},
                  "mip": {"type": "dense_vector", "dims": 2, "similarity": "max_inner_product"}
                }}}""")));
        List<WriteCommand> bulk = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            bulk.add(new WriteCommand.Index("vectors", Optional.of("d" + i), source(i), false,
                    Versioning.Condition.NONE, false));
        }
        documents.bulk(bulk);
        documents.bulk(List.of(new WriteCommand.Delete("vectors", "d5", Versioning.Condition.NONE, false)));
        return new Backend(store, new SearchService(catalog, store));
    }

    /** Deterministic documents: random vectors (no near-ties), some documents without one of them. */
    static JsonObject source(int i) {
        Random random = new Random(1000 + i);
        StringBuilder b = new StringBuilder("{\"name\": \"n").append(i).append("\", \"tag\": \"")
                .append(new String[] {"red", "green", "blue"}[i % 3]).append("\", \"count\": ").append(i % 7);
        if (i % 9 != 4) {
            b.append(", \"cos\": ").append(vector(random, 3, 1f));
        }
        double angle = random.nextDouble() * 2 * Math.PI;
        b.append(", \"dot\": [").append((float) Math.cos(angle)).append(", ").append((float) Math.sin(angle))
                .append("]");
        if (i % 11 != 6) {
            b.append(", \"l2\": ").append(vector(random, 3, 5f));
        }
        b.append(", \"mip\": ").append(vector(random, 2, 3f));
        return (JsonObject) Json.parse(b.append("}").toString());
    }

    private static String vector(Random random, int dims, float scale) {
        StringBuilder b = new StringBuilder("[");
        for (int d = 0; d < dims; d++) {
            b.append(d == 0 ? "" : ", ").append((random.nextFloat() * 2 - 1) * scale);
        }
        return b.append("]").toString();
    }

    @BeforeAll
    static void setUp() {
        fake = new FakeQdrant();
        lucene = backend(LuceneStores.open(temp.resolve("lucene")));
        qdrant = backend(QdrantStores.open(new QdrantStores.Settings(fake.uri(), Optional.empty(),
                Duration.ofSeconds(2), Duration.ofSeconds(10))));
    }

    @AfterAll
    static void tearDown() throws Exception {
        ((AutoCloseable) lucene.store()).close();
        ((AutoCloseable) qdrant.store()).close();
        fake.close();
    }

    @BeforeEach
    void clearRequests() {
        fake.requests.clear();
    }

    static final String COS = "\"field\": \"cos\", \"query_vector\": [0.3, -0.8, 0.5]";
    static final String L2 = "\"field\": \"l2\", \"query_vector\": [1.5, -2, 0.25]";

    static final List<String> SEARCHES = List.of(
            "{\"knn\": {" + COS + ", \"k\": 5, \"num_candidates\": 20}}",
            "{\"knn\": {" + COS + ", \"k\": 50, \"num_candidates\": 100}, \"size\": 50}",
            "{\"knn\": {" + COS + ", \"k\": 4, \"num_candidates\": 10, \"filter\": {\"term\": {\"tag\": \"red\"}}}}",
            "{\"knn\": {" + COS + ", \"k\": 10, \"num_candidates\": 10, \"similarity\": 0.3}}",
            "{\"knn\": {" + COS + ", \"k\": 6, \"num_candidates\": 10, \"boost\": 2.5}, \"size\": 3, \"from\": 2}",
            "{\"knn\": {" + L2 + ", \"k\": 7, \"num_candidates\": 10}}",
            "{\"knn\": {" + L2 + ", \"k\": 20, \"num_candidates\": 30, \"similarity\": 3.5}, \"size\": 20}",
            "{\"knn\": {\"field\": \"dot\", \"query_vector\": [0.6, 0.8], \"k\": 8, \"num_candidates\": 10}}",
            "{\"knn\": {\"field\": \"mip\", \"query_vector\": [-1.5, 2], \"k\": 8, \"num_candidates\": 10}}",
            "{\"knn\": {\"field\": \"mip\", \"query_vector\": [-1.5, 2], \"k\": 8, \"num_candidates\": 10,"
                    + " \"similarity\": -1}}",
            // knn + query: union, scores summed
            "{\"query\": {\"constant_score\": {\"filter\": {\"term\": {\"tag\": \"blue\"}}, \"boost\": 0.7}},"
                    + " \"knn\": {" + COS + ", \"k\": 5, \"num_candidates\": 10}, \"size\": 30}",
            "{\"query\": {\"bool\": {\"filter\": [{\"range\": {\"count\": {\"gte\": 5}}}]}},"
                    + " \"knn\": {" + COS + ", \"k\": 5, \"num_candidates\": 10}, \"size\": 30}",
            // several sections, with boosts, a post_filter and totals
            "{\"knn\": [{" + COS + ", \"k\": 5, \"num_candidates\": 10, \"boost\": 0.5},"
                    + " {" + L2 + ", \"k\": 5, \"num_candidates\": 10, \"boost\": 2}], \"size\": 10}",
            "{\"query\": {\"constant_score\": {\"filter\": {\"term\": {\"count\": 3}}}},"
                    + " \"knn\": [{" + COS + ", \"k\": 5, \"num_candidates\": 10},"
                    + " {" + L2 + ", \"k\": 5, \"num_candidates\": 10}], \"post_filter\": {\"terms\": {\"tag\":"
                    + " [\"red\", \"green\"]}}, \"size\": 20, \"track_total_hits\": true}",
            // the knn query
            "{\"query\": {\"knn\": {" + COS + ", \"num_candidates\": 10}}}",
            "{\"query\": {\"knn\": {" + L2 + ", \"num_candidates\": 10, \"filter\": {\"term\": {\"tag\": \"green\"}},"
                    + " \"boost\": 3}}}",
            "{\"query\": {\"bool\": {\"must\": [{\"knn\": {" + COS + ", \"num_candidates\": 15}},"
                    + " {\"constant_score\": {\"filter\": {\"term\": {\"tag\": \"red\"}}, \"boost\": 2}}],"
                    + " \"filter\": [{\"range\": {\"count\": {\"lte\": 4}}}], \"boost\": 1.5}}}",
            "{\"query\": {\"bool\": {\"filter\": [{\"knn\": {" + COS + ", \"num_candidates\": 15}}]}}}",
            "{\"query\": {\"bool\": {\"should\": [{\"knn\": {" + COS + ", \"num_candidates\": 10}}],"
                    + " \"filter\": [{\"term\": {\"tag\": \"red\"}}]}}, \"size\": 30}",
            "{\"query\": {\"bool\": {\"should\": [{\"knn\": {" + COS + ", \"num_candidates\": 10}},"
                    + " {\"knn\": {" + L2 + ", \"num_candidates\": 10, \"boost\": 0.5}}]}}, \"size\": 30}",
            "{\"query\": {\"bool\": {\"must\": [{\"constant_score\": {\"filter\": {\"term\": {\"tag\":"
                    + " \"blue\"}}, \"boost\": 1.2}}], \"should\": [{\"knn\": {" + COS + ", \"num_candidates\":"
                    + " 10}}], \"boost\": 2}}, \"size\": 30}",
            "{\"query\": {\"constant_score\": {\"filter\": {\"knn\": {" + L2 + ", \"num_candidates\": 15}}}},"
                    + " \"knn\": {" + COS + ", \"k\": 3, \"num_candidates\": 10}}",
            "{\"post_filter\": {\"knn\": {" + L2 + ", \"num_candidates\": 15}}, \"size\": 20}",
            // orders other than relevance: the complete scan and the sorted scroll
            "{\"knn\": {" + COS + ", \"k\": 8, \"num_candidates\": 10}, \"sort\": [{\"count\": \"desc\"},"
                    + " {\"name\": \"asc\"}], \"track_scores\": true}",
            "{\"query\": {\"constant_score\": {\"filter\": {\"term\": {\"tag\": \"red\"}}}},"
                    + " \"knn\": {" + COS + ", \"k\": 8, \"num_candidates\": 10}, \"sort\": [{\"name\": \"asc\"}],"
                    + " \"size\": 30, \"search_after\": [\"n2\"]}",
            "{\"knn\": {" + COS + ", \"k\": 8, \"num_candidates\": 10}, \"sort\": [{\"_score\": \"asc\"}]}",
            "{\"knn\": {" + COS + ", \"k\": 8, \"num_candidates\": 10}, \"sort\": [{\"_score\": \"asc\"}],"
                    + " \"track_scores\": true, \"size\": 2}",
            "{\"knn\": {" + COS + ", \"k\": 8, \"num_candidates\": 10}, \"sort\": [{\"_score\": \"asc\"}],"
                    + " \"size\": 2}",
            // aggregations over the matches
            "{\"size\": 0, \"knn\": {" + L2 + ", \"k\": 9, \"num_candidates\": 10}, \"aggs\": {\"tags\": {\"terms\":"
                    + " {\"field\": \"tag\"}, \"aggs\": {\"c\": {\"sum\": {\"field\": \"count\"}}}}}}",
            // min_score over the summed scores (hits, totals, aggregations, sorts)
            "{\"knn\": {" + COS + ", \"k\": 10, \"num_candidates\": 10}, \"min_score\": 0.8}",
            "{\"query\": {\"constant_score\": {\"filter\": {\"term\": {\"tag\": \"blue\"}}, \"boost\": 0.7}},"
                    + " \"knn\": {" + COS + ", \"k\": 5, \"num_candidates\": 10}, \"min_score\": 0.75, \"size\": 30}",
            "{\"query\": {\"constant_score\": {\"filter\": {\"term\": {\"tag\": \"blue\"}}, \"boost\": 0.9}},"
                    + " \"knn\": {" + COS + ", \"k\": 5, \"num_candidates\": 10}, \"min_score\": 0.75, \"size\": 30}",
            "{\"size\": 0, \"knn\": {" + L2 + ", \"k\": 12, \"num_candidates\": 20}, \"min_score\": 0.05,"
                    + " \"aggs\": {\"tags\": {\"terms\": {\"field\": \"tag\"}}}}",
            "{\"knn\": {" + COS + ", \"k\": 8, \"num_candidates\": 10}, \"min_score\": 0.7,"
                    + " \"sort\": [{\"name\": \"asc\"}]}",
            // hybrid: reciprocal rank fusion (fused by the gateway)
            "{\"retriever\": {\"rrf\": {\"retrievers\": [{\"knn\": {" + COS + ", \"k\": 6, \"num_candidates\":"
                    + " 10}}, {\"knn\": {" + L2 + ", \"k\": 6, \"num_candidates\": 10}}, {\"standard\": {\"query\":"
                    + " {\"ids\": {\"values\": [\"d12\"]}}}}], \"rank_window_size\": 6, \"rank_constant\": 5}},"
                    + " \"size\": 6}",
            "{\"query\": {\"ids\": {\"values\": [\"d1\"]}}, \"knn\": [{" + COS + ", \"k\": 4, \"num_candidates\":"
                    + " 10}, {" + L2 + ", \"k\": 4, \"num_candidates\": 10}], \"rank\": {\"rrf\": {}}, \"size\": 5}");

    @TestFactory
    Stream<DynamicTest> everyKnnSearchAnswersAsOnLucene() {
        return SEARCHES.stream().map(body -> DynamicTest.dynamicTest(body, () -> {
            SearchResult expected = search(lucene, body);
            SearchResult actual = search(qdrant, body);
            assertThat(actual.total()).as("total").isEqualTo(expected.total());
            assertThat(render(actual.hits())).as("hits").isEqualTo(render(expected.hits()));
            assertScores(actual.hits(), expected.hits(), body);
            assertClose(actual.maxScore(), expected.maxScore(), "max_score", body);
            assertThat(aggregations(actual)).as("aggregations").isEqualTo(aggregations(expected));
            assertThat(fake.violations).isEmpty();
        }));
    }

    @Test
    void countsWithAKnnQueryAgree() {
        String body = "{\"query\": {\"bool\": {\"must\": [{\"knn\": {" + COS + ", \"num_candidates\": 15}}],"
                + " \"filter\": [{\"term\": {\"tag\": \"red\"}}]}}}";
        Optional<io.qdrant.esgateway.domain.query.Query> query = SearchRequestParser.parse(
                Optional.of(Json.parse(body)), Map.of()).query();
        long onLucene = lucene.search().count("vectors", query, CatalogView.Options.STRICT_EXPAND_OPEN).count();
        assertThat(onLucene).isPositive();
        assertThat(qdrant.search().count("vectors", query, CatalogView.Options.STRICT_EXPAND_OPEN).count())
                .isEqualTo(onLucene);
    }

    @Test
    void oneQueryRequestPerKnnSectionAndOnlyTheWindowIsFetched() {
        search(qdrant, "{\"knn\": [{" + COS + ", \"k\": 5, \"num_candidates\": 10}, {" + L2
                + ", \"k\": 5, \"num_candidates\": 10}], \"size\": 3}");
        List<FakeQdrant.Request> queries = fake.requests("POST", "/points/query");
        assertThat(queries).hasSize(2);
        JsonNode first = queries.get(0).body();
        assertThat(first.get("using").asText()).isEqualTo("cos");
        assertThat(first.get("limit").asInt()).isEqualTo(6);
        assertThat(first.get("params").get("hnsw_ef").asInt()).isEqualTo(10);
        assertThat(first.get("with_payload").toString()).isEqualTo("[\"_id\",\"_seq_no\"]");
        assertThat(fake.requests("POST", "/points/scroll")).isEmpty();
        assertThat(fake.requests("POST", "/points/count")).isEmpty();
        List<FakeQdrant.Request> fetches = fake.requests("POST", "/points");
        assertThat(fetches).hasSize(1);
        assertThat(fetches.get(0).body().get("ids")).hasSize(3);
        assertThat(fetches.get(0).body().get("with_payload").toString()).contains("\"_src\"");
    }

    @Test
    void knnWithAQueryNeedsNoScanOfTheMatches() {
        search(qdrant, "{\"query\": {\"constant_score\": {\"filter\": {\"term\": {\"tag\": \"blue\"}}}},"
                + " \"knn\": {" + COS + ", \"k\": 5, \"num_candidates\": 10}, \"size\": 4}");
        // the section; which neighbours match the query; the first 4 other matches; the total; the window
        assertThat(fake.requests("POST", "/points/query")).hasSize(1);
        List<FakeQdrant.Request> scrolls = fake.requests("POST", "/points/scroll");
        assertThat(scrolls).hasSize(2);
        assertThat(scrolls.get(1).body().get("limit").asInt()).isEqualTo(4);
        assertThat(fake.requests("POST", "/points/count")).hasSize(1);
        assertThat(fake.requests("POST", "/points")).hasSize(1);
        assertThat(fake.requests).hasSize(5);
    }

    @Test
    void withoutSourceNoSourceIsFetchedAndWithSizeZeroNothing() {
        search(qdrant, "{\"knn\": {" + COS + ", \"k\": 5, \"num_candidates\": 10}, \"_source\": false}");
        List<FakeQdrant.Request> fetches = fake.requests("POST", "/points");
        assertThat(fetches).hasSize(1);
        assertThat(fetches.get(0).body().get("with_payload").toString()).doesNotContain("_src");
        fake.requests.clear();
        SearchResult none = search(qdrant, "{\"knn\": {" + COS + ", \"k\": 5, \"num_candidates\": 10}, \"size\": 0}");
        assertThat(none.total().orElseThrow().value()).isEqualTo(5);
        assertThat(fake.requests("POST", "/points")).isEmpty();
        assertThat(fake.requests("POST", "/points/query")).hasSize(1);
    }

    @Test
    void aTieAtTheKthNeighbourIsCompletedAndBrokenInIndexOrder() throws Exception {
        try (FakeQdrant own = new FakeQdrant()) {
            DocumentStore store = QdrantStores.open(new QdrantStores.Settings(own.uri(), Optional.empty(),
                    Duration.ofSeconds(2), Duration.ofSeconds(10)));
            InMemoryCatalog catalog = new InMemoryCatalog();
            InstantSource clock = InstantSource.fixed(Instant.parse("2024-06-01T00:00:00Z"));
            IndexAdministrationService admin = new IndexAdministrationService(catalog, store, () -> "twinsuuid",
                    clock);
            DocumentService documents = new DocumentService(catalog, store, admin, () -> "gen", clock);
            admin.create(CreateIndexRequest.parse("twins", Json.parse(
                    "{\"mappings\": {\"properties\": {\"v\": {\"type\": \"dense_vector\", \"dims\": 2,"
                            + " \"similarity\": \"cosine\"}}}}")));
            List<WriteCommand> bulk = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                bulk.add(new WriteCommand.Index("twins", Optional.of("t" + i), (JsonObject) Json.parse(
                        "{\"v\": [1, 1]}"), false, Versioning.Condition.NONE, false));
            }
            bulk.add(new WriteCommand.Index("twins", Optional.of("u"), (JsonObject) Json.parse("{\"v\": [1, -0.5]}"),
                    false, Versioning.Condition.NONE, false));
            documents.bulk(bulk);
            own.requests.clear();
            SearchResult result = new SearchService(catalog, store).search("twins", SearchRequestParser.parse(
                    Optional.of(Json.parse("{\"knn\": {\"field\": \"v\", \"query_vector\": [2, 2], \"k\": 2,"
                            + " \"num_candidates\": 10}}")), Map.of()), CatalogView.Options.STRICT_EXPAND_OPEN);
            io.qdrant.esgateway.domain.index.IndexMetadata index = catalog.view().resolve("twins",
                    CatalogView.Options.STRICT_EXPAND_OPEN).get(0);
            // the tie is broken in index order (the order written), as Elasticsearch and the Lucene backend break it
            assertThat(result.hits().stream().map(Hit::id).toList()).isEqualTo(List.of("t0", "t1"));
            assertThat(result.hits()).allSatisfy(h -> assertThat(h.score()).isEqualTo(1f));
            // limit k + 1 = 3 ended in a tie with the 2nd: asked again with 6, which ended in a tie again, then 12
            assertThat(own.requests("POST", "/points/query").stream().map(r -> r.body().get("limit").asInt())
                    .toList()).containsExactly(3, 6, 12);
            assertThat(own.violations).isEmpty();
            ((AutoCloseable) store).close();
        }
    }

    @Test
    void aVectorFieldAddedByAMappingUpdateIsRefusedWithA400() throws Exception {
        try (FakeQdrant own = new FakeQdrant()) {
            DocumentStore store = QdrantStores.open(new QdrantStores.Settings(own.uri(), Optional.empty(),
                    Duration.ofSeconds(2), Duration.ofSeconds(10)));
            InMemoryCatalog catalog = new InMemoryCatalog();
            IndexAdministrationService admin = new IndexAdministrationService(catalog, store, () -> "lateuuid",
                    InstantSource.fixed(Instant.EPOCH));
            admin.create(CreateIndexRequest.parse("late", Json.parse("{}")));
            admin.putMapping("late", io.qdrant.esgateway.domain.index.Mappings.parse(Json.parse(
                    "{\"properties\": {\"v\": {\"type\": \"dense_vector\", \"dims\": 2}}}")));
            GatewayException e = unwrap(catchThrowable(() -> new SearchService(catalog, store).search("late",
                    SearchRequestParser.parse(Optional.of(Json.parse("{\"knn\": {\"field\": \"v\","
                            + " \"query_vector\": [1, 2], \"k\": 1, \"num_candidates\": 1}}")), Map.of()),
                    CatalogView.Options.STRICT_EXPAND_OPEN)));
            assertThat(e.kind()).isEqualTo(ErrorKind.UNSUPPORTED);
            assertThat(e.getMessage()).contains("[knn] on the field [v]", "mapping update", "Qdrant backend");
            assertThat(own.requests("POST", "/points/query")).isEmpty();
            ((AutoCloseable) store).close();
        }
    }

    @Test
    void unsupportedCombinationsAreRefusedWithA400NamingThem() {
        GatewayException term = unwrap(catchThrowable(() -> search(qdrant, "{\"query\": {\"term\": {\"tag\":"
                + " \"red\"}}, \"knn\": {" + COS + ", \"k\": 5, \"num_candidates\": 10}}")));
        assertThat(term.kind()).isEqualTo(ErrorKind.UNSUPPORTED);
        assertThat(term.getMessage()).contains("[term]", "together with [knn]", "Qdrant backend");
        for (String body : List.of(
                "{\"query\": {\"bool\": {\"should\": [{\"knn\": {" + COS + ", \"num_candidates\": 10}},"
                        + " {\"term\": {\"tag\": \"red\"}}]}}}",
                "{\"query\": {\"bool\": {\"should\": [{\"knn\": {" + COS + ", \"num_candidates\": 10}},"
                        + " {\"constant_score\": {\"filter\": {\"term\": {\"tag\": \"red\"}}}}]}}}",
                "{\"query\": {\"dis_max\": {\"queries\": [{\"knn\": {" + COS + ", \"num_candidates\": 10}}]}}}")) {
            GatewayException e = unwrap(catchThrowable(() -> search(qdrant, body)));
            assertThat(e.kind()).as(body).isEqualTo(ErrorKind.UNSUPPORTED);
            assertThat(e.getMessage()).as(body).contains("Qdrant backend");
        }
    }

    @Test
    void badKnnRequestsFailAsOnLucene() {
        for (String body : List.of(
                "{\"knn\": {\"field\": \"cos\", \"query_vector\": [1, 2], \"k\": 5, \"num_candidates\": 10}}",
                "{\"knn\": {\"field\": \"tag\", \"query_vector\": [1, 2, 3], \"k\": 5, \"num_candidates\": 10}}",
                "{\"knn\": {\"field\": \"nope\", \"query_vector\": [1, 2, 3], \"k\": 5, \"num_candidates\": 10}}")) {
            GatewayException expected = unwrap(catchThrowable(() -> search(lucene, body)));
            GatewayException actual = unwrap(catchThrowable(() -> search(qdrant, body)));
            assertThat(actual.kind()).as(body).isEqualTo(expected.kind());
            assertThat(actual.getMessage()).as(body).isEqualTo(expected.getMessage());
        }
    }

    private static GatewayException unwrap(Throwable e) {
        assertThat(e).isInstanceOf(GatewayException.class);
        GatewayException g = (GatewayException) e;
        return g.shardFailures().isEmpty() ? g : g.shardFailures().get(0).reason();
    }

    static SearchResult search(Backend backend, String body) {
        return backend.search().search("vectors", SearchRequestParser.parse(Optional.of(Json.parse(body)),
                Map.of()), CatalogView.Options.STRICT_EXPAND_OPEN);
    }

    /**
     * The hits without their scores (compared below): ids, sort values, versions and sources, in order — except
     * that runs of hits with exactly the same score (the constant-score matches of a query) are ordered by id: the
     * order among ties is each backend's index order (Lucene's segments, Qdrant's _seq_no), not compared here. The
     * searches above never cut such a run with their window.
     */
    static List<String> render(List<Hit> hits) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < hits.size()) {
            int j = i;
            List<String> run = new ArrayList<>();
            while (j < hits.size() && Float.compare(hits.get(j).score(), hits.get(i).score()) == 0
                    && hits.get(j).sort().equals(hits.get(i).sort())) {
                Hit h = hits.get(j);
                run.add(h.id() + " sort=" + h.sort().stream().map(QdrantKnnVersusLuceneTest::sortValue).toList()
                        + " v=" + h.version() + " " + Json.write(h.source()));
                j++;
            }
            run.sort(null);
            out.addAll(run);
            i = j;
        }
        return out;
    }

    /** Score sort values are compared with the scores (below); others exactly. */
    private static String sortValue(JsonValue v) {
        return v instanceof JsonValue.JsonNumber n && n.value().doubleValue() != Math.rint(n.value().doubleValue())
                ? "<score>" : Json.write(v);
    }

    static void assertScores(List<Hit> actual, List<Hit> expected, String body) {
        Map<String, Float> expectedById = new java.util.HashMap<>();
        expected.forEach(h -> expectedById.put(h.id(), h.score()));
        for (Hit h : actual) {
            assertClose(h.score(), expectedById.get(h.id()), "score of " + h.id(), body);
        }
    }

    static void assertClose(float actual, float expected, String what, String body) {
        if (Float.isNaN(expected)) {
            assertThat(actual).as(what).isNaN();
            return;
        }
        float tolerance = ULPS * Math.ulp(expected);
        assertThat(Math.abs(actual - expected)).as(what + ": " + actual + " vs " + expected).isLessThanOrEqualTo(
                tolerance);
    }

    static String aggregations(SearchResult r) {
        if (r.aggregations().isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        r.aggregations().get().byName().forEach((name, p) -> out.append(name).append('=')
                .append(Json.write((JsonValue) p.render())).append('\n'));
        return out.toString();
    }
}
