package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite;
import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import io.qdrant.esgateway.domain.query.dsl.QueryDsl;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.read.QdrantFacets;
import io.qdrant.esgateway.adapter.out.qdrant.filter.QdrantFilterTranslatorTest;

/**
 * What the adapter sends to Qdrant, counted and inspected on the fake: batched writes and reads, projections, no call
 * for what can be answered without one, the API key header.
 */
class QdrantRequestsTest {
    private FakeQdrant fake;
    private DocumentStore store;
    private final IndexMetadata index = QdrantFilterTranslatorTest.INDEX;

    @BeforeEach
    void setUp() {
        fake = new FakeQdrant();
        store = QdrantStores.open(new QdrantStores.Settings(fake.uri(), Optional.of("s3cret-key"),
                Duration.ofSeconds(2), Duration.ofSeconds(10)));
        store.createIndex(index);
        List<DocumentWrite> writes = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            writes.add(new DocumentWrite.Upsert(doc("d" + i, "{\"tag\": \"t" + (i % 3) + "\", \"count\": " + i
                    + ", \"author\": {\"name\": \"n" + i + "\"}, \"title\": \"x\"}", i)));
        }
        store.write(index, writes, 59);
        fake.requests.clear();
    }

    @AfterEach
    void tearDown() throws Exception {
        try {
            assertThat(fake.violations).isEmpty();
        } finally {
            ((AutoCloseable) store).close();
            fake.close();
        }
    }

    private IndexableDocument doc(String id, String json, long seqNo) {
        JsonObject source = (JsonObject) Json.parse(json);
        return new IndexableDocument(id, new DocumentVersion(1, seqNo, 1), source,
                DocumentParser.parse(index.mappings(), source, id).values());
    }

    private static SearchRequest request(String body) {
        return SearchRequestParser.parse(Optional.of(Json.parse(body)), Map.of());
    }

    @Test
    void aNextPageInIndexOrderIsOneOrderedScrollFromTheLastPosition() {
        // d0..d59 were written in that order (_seq_no 0..59); d7 rewritten last moves to the end, as in ES
        store.write(index, List.of(new DocumentWrite.Upsert(doc("d7", "{\"count\": 7}", 60))), 60);
        fake.requests.clear();
        var first = store.search(index, request("{\"sort\": [\"_doc\"], \"size\": 5,"
                + " \"track_total_hits\": false}"), 5);
        assertThat(first.hits()).extracting(h -> h.id()).containsExactly("d0", "d1", "d2", "d3", "d4");
        var next = store.search(index, request("{\"sort\": [\"_doc\"], \"size\": 5, \"search_after\": [56],"
                + " \"track_total_hits\": false}"), 5);
        assertThat(next.hits()).extracting(h -> h.id()).containsExactly("d57", "d58", "d59", "d7");
        assertThat(next.hits()).extracting(h -> Json.write(h.sort().get(0))).containsExactly("57", "58", "59", "60");
        // one call per page: an ordered scroll, the next one starting at the position after the cursor
        List<FakeQdrant.Request> scrolls = fake.requests("POST", "/points/scroll");
        assertThat(fake.requests).hasSize(2);
        assertThat(scrolls.get(0).body().get("order_by").toString()).isEqualTo("{\"key\":\"_seq_no\","
                + "\"direction\":\"asc\"}");
        assertThat(scrolls.get(1).body().get("order_by").toString()).isEqualTo("{\"key\":\"_seq_no\","
                + "\"direction\":\"asc\",\"start_from\":57}");
        assertThat(scrolls.get(1).body().has("offset")).isFalse();
    }

    @Test
    void aScanLongerThanAPageContinuesAtTheLastValueLeavingOutWhatWasRead() {
        List<DocumentWrite> more = new ArrayList<>();
        for (int i = 60; i < 300; i++) {
            more.add(new DocumentWrite.Upsert(doc("d" + i, "{\"count\": " + i + "}", i)));
        }
        store.write(index, more, 299);
        fake.requests.clear();
        var hits = store.search(index, request("{\"size\": 300, \"track_total_hits\": false}"), 300);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            expected.add("d" + i);
        }
        assertThat(hits.hits()).extracting(h -> h.id()).containsExactlyElementsOf(expected);
        List<FakeQdrant.Request> scrolls = fake.requests("POST", "/points/scroll");
        assertThat(scrolls).hasSize(2);
        assertThat(scrolls.get(1).body().at("/order_by/start_from").asLong()).isEqualTo(255);
        String id255 = QdrantLayout.pointId(index, "d255");
        assertThat(scrolls.get(1).body().at("/filter/must_not").toString()).contains("{\"has_id\":[\"" + id255
                + "\"]}");
    }

    @Test
    void createIndexMakesTheCollectionWithNamedVectorsAndThePayloadIndexesOfTheMapping() {
        FakeQdrant other = new FakeQdrant();
        try {
            DocumentStore s = QdrantStores.open(new QdrantStores.Settings(other.uri(), Optional.empty(),
                    Duration.ofSeconds(2), Duration.ofSeconds(10)));
            s.createIndex(index);
            JsonNode create = other.requests("PUT", "/collections/" + QdrantLayout.collection(index)).get(0).body();
            assertThat(create.at("/vectors/embedding/size").asInt()).isEqualTo(3);
            assertThat(create.at("/vectors/embedding/distance").asText()).isEqualTo("Cosine");
            Map<String, String> indexes = new java.util.TreeMap<>();
            other.requests("PUT", "/index").forEach(r -> indexes.put(r.body().get("field_name").asText(),
                    r.body().get("field_schema").toString()));
            assertThat(indexes).containsEntry("_id", "{\"type\":\"keyword\"}")
                    .containsEntry("_f.tag", "{\"type\":\"keyword\"}")
                    .containsEntry("_f.\"title.raw\"", "{\"type\":\"keyword\"}")
                    .containsEntry("_f.count", "{\"type\":\"integer\",\"lookup\":true,\"range\":true}")
                    .containsEntry("_f.price", "{\"type\":\"float\"}")
                    .containsEntry("_f.active", "{\"type\":\"bool\"}")
                    .containsEntry("_f.\"@timestamp\"", "{\"type\":\"integer\",\"lookup\":true,\"range\":true}")
                    .containsEntry("_f.\"author.age\"", "{\"type\":\"integer\",\"lookup\":true,\"range\":true}")
                    .containsEntry("_f.title", "{\"type\":\"text\",\"tokenizer\":\"word\",\"lowercase\":true}")
                    .doesNotContainKey("_f.embedding");
            other.requests("PUT", "/index").forEach(r -> assertThat(r.query()).containsEntry("wait", "true"));
            assertThatThrownBy(() -> s.createIndex(index)).isInstanceOf(GatewayException.class)
                    .satisfies(e -> assertThat(((GatewayException) e).kind()).isEqualTo(ErrorKind.RESOURCE_ALREADY_EXISTS));
            // a mapping addition creates only the new payload index
            other.requests.clear();
            IndexMetadata more = index.withMappings(index.mappings().merge(io.qdrant.esgateway.domain.index.Mappings
                    .parse(Json.parse("{\"properties\": {\"color\": {\"type\": \"keyword\"}}}"))));
            s.updateMappings(more);
            assertThat(other.requests("PUT", "/index")).hasSize(1)
                    .allSatisfy(r -> assertThat(r.body().get("field_name").asText()).isEqualTo("_f.color"));
            assertThat(other.violations).isEmpty();
        } finally {
            other.close();
        }
    }

    @Test
    void aWriteBatchIsOneBatchRequestWithWaitTrue() {
        store.write(index, List.of(new DocumentWrite.Upsert(doc("a", "{}", 60)), new DocumentWrite.Delete("d1"),
                new DocumentWrite.Upsert(doc("b", "{}", 62))), 62);
        assertThat(fake.requests).hasSize(1);
        FakeQdrant.Request batch = fake.requests.get(0);
        assertThat(batch.path()).endsWith("/points/batch");
        assertThat(batch.query()).containsEntry("wait", "true");
        assertThat(batch.body().get("operations")).hasSize(4); // upsert, delete, upsert, metadata point
        assertThat(store.maxSeqNo(index)).isEqualTo(62);
    }

    @Test
    void getOfManyIdsIsOneBatchedRetrieve() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            ids.add("d" + i);
        }
        ids.add("missing");
        assertThat(store.get(index, ids)).hasSize(40);
        assertThat(fake.requests).hasSize(1);
        assertThat(fake.requests.get(0).path()).endsWith("/points");
        assertThat(fake.requests.get(0).body().get("ids")).hasSize(41);
        assertThat(fake.requests.get(0).body().get("with_payload").toString())
                .isEqualTo("[\"_id\",\"_src\",\"_version\",\"_seq_no\",\"_primary_term\",\"_routing\"]");
    }

    @Test
    void aRequestThatFailsValidationMakesNoQdrantCall() {
        for (String body : List.of("{\"query\": {\"match\": {\"title\": \"x\"}}}",
                "{\"query\": {\"wildcard\": {\"tag\": \"t*\"}}}",
                "{\"query\": {\"term\": {\"tag\": \"t1\"}}}",
                "{\"query\": {\"match_all\": {}}, \"highlight\": {\"fields\": {\"title\": {}}}}")) {
            assertThatThrownBy(() -> store.search(index, request(body), 10)).as(body)
                    .isInstanceOf(GatewayException.class)
                    .satisfies(e -> assertThat(((GatewayException) e).kind()).isEqualTo(ErrorKind.UNSUPPORTED));
        }
        assertThatThrownBy(() -> store.count(index, Optional.of(QueryDsl.parse(Json.parse(
                "{\"fuzzy\": {\"tag\": \"t\"}}"))))).isInstanceOf(GatewayException.class);
        assertThat(fake.requests).isEmpty();
    }

    @Test
    void aQueryThatCanMatchNothingMakesNoQdrantCall() {
        assertThat(store.count(index, Optional.of(QueryDsl.parse(Json.parse("{\"term\": {\"nope\": \"x\"}}")))))
                .isZero();
        assertThat(store.count(index, Optional.of(QueryDsl.parse(Json.parse("{\"term\": {\"count\": 1.5}}")))))
                .isZero();
        assertThat(fake.requests).isEmpty();
    }

    @Test
    void aCountOnlySearchCountsAndFetchesNoDocument() {
        var hits = store.search(index, request("{\"size\": 0, \"query\": {\"constant_score\": {\"filter\":"
                + " {\"term\": {\"tag\": \"t1\"}}}}}"), 0);
        assertThat(hits.total().orElseThrow().value()).isEqualTo(20);
        assertThat(fake.requests).hasSize(1);
        assertThat(fake.requests.get(0).path()).endsWith("/points/count");
        assertThat(fake.requests.get(0).body().get("exact").asBoolean()).isTrue();
    }

    @Test
    void aPageOfTenMovesTenPayloadsAndCountsTheTotal() {
        var hits = store.search(index, request("{\"query\": {\"range\": {\"count\": {\"gte\": 5}}}}"), 10);
        assertThat(hits.hits()).hasSize(10);
        assertThat(hits.total().orElseThrow().value()).isEqualTo(55);
        assertThat(fake.requests).hasSize(2);
        JsonNode scroll = fake.requests("POST", "/points/scroll").get(0).body();
        assertThat(scroll.get("limit").asInt()).isEqualTo(10);
    }

    @Test
    void aScanAsksOnlyForTheTopLevelKeysOfTheFieldsItNeedsAndTheId() {
        List<String> seen = new ArrayList<>();
        store.scan(index, new DocumentStore.ScanRequest(request("{}"), false, Optional.empty(),
                Set.of("author.name"), false), d -> {
                    seen.add(d.id());
                    assertThat(Json.write(d.source())).startsWith("{\"author\":{\"name\":\"n");
                });
        assertThat(seen).hasSize(60);
        List<FakeQdrant.Request> scrolls = fake.requests("POST", "/points/scroll");
        assertThat(scrolls).hasSize(1);
        assertThat(scrolls.get(0).body().get("with_payload").toString())
                .isEqualTo("[\"_id\",\"_source.author\",\"_source.\\\"author.name\\\"\"]");
        // index order is _seq_no order, and the positions are the sequence numbers (d0..d59 written as 0..59)
        List<Long> positions = new ArrayList<>();
        store.scan(index, new DocumentStore.ScanRequest(request("{}"), false, Optional.empty(), Set.of(), false),
                d -> positions.add(d.position()));
        assertThat(positions).isEqualTo(java.util.stream.LongStream.range(0, 60).boxed().toList());
    }

    /** The number of records all {@code points/query} answers carried. */
    private static int streamed(FakeQdrant fake) {
        return fake.queryAnswerSizes.stream().mapToInt(Integer::intValue).sum();
    }

    @Test
    void aSortedPageOfTwentyIsOneQueryOfTwentyOneRecordsCarryingTheirDocuments() {
        var hits = store.search(index, request("{\"sort\": [{\"count\": \"desc\"}], \"size\": 20,"
                + " \"query\": {\"range\": {\"count\": {\"gte\": 5}}}}"), 20);
        assertThat(hits.hits()).extracting(h -> h.id()).containsExactlyElementsOf(
                java.util.stream.IntStream.iterate(59, i -> i - 1).limit(20).mapToObj(i -> "d" + i).toList());
        assertThat(Json.write(hits.hits().get(0).sort().get(0))).isEqualTo("59");
        assertThat(hits.total().orElseThrow().value()).isEqualTo(55);
        // one count and one order_by query of 21 records carrying the id, the sort field and the stored fields: the
        // page's documents come with the stream, no retrieve
        assertThat(fake.requests).hasSize(2);
        List<FakeQdrant.Request> queries = fake.requests("POST", "/points/query");
        assertThat(queries).hasSize(1);
        JsonNode query = queries.get(0).body();
        assertThat(query.at("/query/order_by").toString())
                .isEqualTo("{\"key\":\"_f.count\",\"direction\":\"desc\"}");
        assertThat(query.get("limit").asInt()).isEqualTo(21);
        assertThat(query.get("with_payload").toString()).isEqualTo("[\"_id\",\"_seq_no\",\"_source.count\",\"_src\","
                + "\"_version\",\"_primary_term\",\"_routing\"]");
        assertThat(fake.requests("POST", "/points")).isEmpty();
        assertThat(fake.requests("POST", "/points/scroll")).isEmpty();
        assertThat(Json.write(hits.hits().get(0).source())).isEqualTo(Json.write(store.get(index, List.of("d59"))
                .get("d59").source()));
        assertThat(hits.hits().get(0).version()).isEqualTo(store.get(index, List.of("d59")).get("d59").version());
    }

    @Test
    void aSearchAfterPageIsOneQueryOfTheCursorThePageAndOneMore() {
        var hits = store.search(index, request("{\"sort\": [{\"count\": \"desc\"}], \"size\": 20,"
                + " \"search_after\": [40], \"query\": {\"range\": {\"count\": {\"gte\": 5}}}}"), 20);
        assertThat(hits.hits()).extracting(h -> h.id()).containsExactlyElementsOf(
                java.util.stream.IntStream.iterate(39, i -> i - 1).limit(20).mapToObj(i -> "d" + i).toList());
        // one count and one order_by query from 40 on: the cursor's own document again (dropped), the page of 20 and
        // one record past it — no tie count, no second query, no retrieve
        assertThat(fake.requests).hasSize(2);
        List<FakeQdrant.Request> queries = fake.requests("POST", "/points/query");
        assertThat(queries).singleElement().satisfies(q -> {
            assertThat(q.body().get("limit").asInt()).isEqualTo(22);
            assertThat(q.body().at("/query/order_by/start_from").asLong()).isEqualTo(40);
        });
        assertThat(fake.requests("POST", "/points")).isEmpty();
    }

    @Test
    void aSortedPageEndingInATieGroupReadsExactlyTheRestOfTheGroup() {
        List<DocumentWrite> ties = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ties.add(new DocumentWrite.Upsert(doc("e" + i, "{\"count\": 45}", 60 + i)));
        }
        store.write(index, ties, 69);
        fake.requests.clear();
        fake.queryAnswerSizes.clear();
        var hits = store.search(index, request("{\"sort\": [{\"count\": \"desc\"}], \"size\": 20,"
                + " \"track_total_hits\": false}"), 20);
        // 59..46 (14 documents), then 6 of the 11 tied at 45: the first in index (_seq_no) order, as ES
        List<String> tied = new ArrayList<>(List.of("d45"));
        for (int i = 0; i < 10; i++) {
            tied.add("e" + i);
        }
        List<String> expected = new ArrayList<>();
        for (int i = 59; i > 45; i--) {
            expected.add("d" + i);
        }
        expected.addAll(tied.subList(0, 6));
        assertThat(hits.hits()).extracting(h -> h.id()).containsExactlyElementsOf(expected);
        // 21 records, a count of the group at 45 (11), then the rest of the group plus one: 5 records
        List<FakeQdrant.Request> queries = fake.requests("POST", "/points/query");
        assertThat(queries).extracting(r -> r.body().get("limit").asInt()).containsExactly(21, 5);
        assertThat(queries.get(1).body().get("offset").asInt()).isEqualTo(21);
        assertThat(fake.requests("POST", "/points/count")).hasSize(1);
        assertThat(streamed(fake)).isEqualTo(20 + 6); // the page, the 5 tied documents left out, one past the group
        // the first query carried its 21 records' documents, the second only keys: one retrieve of the page's
        // documents that came with the second
        assertThat(queries.get(1).body().get("with_payload").toString()).isEqualTo("[\"_id\",\"_seq_no\",\"_source.count\"]");
        List<FakeQdrant.Request> retrieves = fake.requests("POST", "/points");
        assertThat(retrieves).hasSize(1);
        assertThat(retrieves.get(0).body().get("ids").size()).isBetween(1, 6);
        assertThat(fake.requests).hasSize(4);
    }

    @Test
    void documentsWithoutTheSortFieldAreOneScrollOfAtMostThePageWhenTheyCanReachIt() {
        store.write(index, List.of(new DocumentWrite.Upsert(doc("m0", "{}", 60)),
                new DocumentWrite.Upsert(doc("m1", "{\"count\": null}", 61)),
                new DocumentWrite.Upsert(doc("m2", "{\"count\": []}", 62))), 62);
        fake.requests.clear();
        var first = store.search(index, request("{\"sort\": [{\"count\": {\"order\": \"asc\", \"missing\":"
                + " \"_first\"}}], \"size\": 5, \"track_total_hits\": false}"), 5);
        List<String> missing = new ArrayList<>(List.of("m0", "m1", "m2"));
        List<String> expected = new ArrayList<>(missing);
        expected.addAll(List.of("d0", "d1"));
        assertThat(first.hits()).extracting(h -> h.id()).containsExactlyElementsOf(expected);
        assertThat(Json.write(first.hits().get(0).sort().get(0))).isEqualTo("-9223372036854775808");
        List<FakeQdrant.Request> scrolls = fake.requests("POST", "/points/scroll");
        assertThat(scrolls).hasSize(1);
        assertThat(scrolls.get(0).body().get("limit").asInt()).isEqualTo(5);
        assertThat(scrolls.get(0).body().at("/filter/must").toString()).contains("{\"is_empty\":{\"key\":\"_f.count\"}}");
        // missing last: the 60 documents with a value fill the page, so the missing ones are not read
        fake.requests.clear();
        store.search(index, request("{\"sort\": [{\"count\": \"asc\"}], \"size\": 5, \"track_total_hits\": false}"),
                5);
        assertThat(fake.requests("POST", "/points/scroll")).isEmpty();
        assertThat(fake.requests).hasSize(1); // the order_by query, carrying the page's documents
    }

    @Test
    void aFieldSortedPageThroughTheServiceMovesThePageAndTheTieWindowNotTheCorpus() throws Exception {
        FakeQdrant other = new FakeQdrant();
        DocumentStore s = QdrantStores.open(new QdrantStores.Settings(other.uri(), Optional.empty(),
                Duration.ofSeconds(2), Duration.ofSeconds(10)));
        try {
            QdrantVersusLuceneTest.Backend backend = QdrantVersusLuceneTest.backend(s);
            other.requests.clear();
            other.queryAnswerSizes.clear();
            var result = backend.search().search("products", request("{\"sort\": [{\"count\": \"desc\"}],"
                    + " \"size\": 20, \"query\": {\"range\": {\"price\": {\"gte\": 0}}}}"),
                    io.qdrant.esgateway.domain.index.CatalogView.Options.STRICT_EXPAND_OPEN);
            assertThat(result.hits()).hasSize(20);
            // the documents come with the first query's records; a page document reached only by a later query is
            // retrieved (at most one retrieve, of fewer than the page)
            List<FakeQdrant.Request> retrieves = other.requests("POST", "/points");
            assertThat(retrieves.size()).isLessThanOrEqualTo(1);
            retrieves.forEach(r -> assertThat(r.body().get("ids").size()).isLessThan(20));
            assertThat(other.requests("POST", "/points/scroll")).isEmpty();
            List<FakeQdrant.Request> queries = other.requests("POST", "/points/query");
            assertThat(queries).isNotEmpty();
            assertThat(queries.get(0).body().get("with_payload").toString()).isEqualTo("[\"_id\",\"_seq_no\","
                    + "\"_source.count\",\"_src\",\"_version\",\"_primary_term\",\"_routing\"]");
            assertThat(queries.subList(1, queries.size())).allSatisfy(r -> assertThat(
                    r.body().get("with_payload").toString()).isEqualTo("[\"_id\",\"_seq_no\",\"_source.count\"]"));
            // 49 matches: far fewer records than the corpus, even with this data's ties and multi-valued counts
            assertThat(streamed(other)).isLessThan(40);
            assertThat(result.total().orElseThrow().value()).isEqualTo(49);
            assertThat(other.violations).isEmpty();
        } finally {
            ((AutoCloseable) s).close();
            other.close();
        }
    }

    @Test
    void aSizeZeroTermsAggregationIsOneFacetCall() throws Exception {
        FakeQdrant other = new FakeQdrant();
        DocumentStore s = QdrantStores.open(new QdrantStores.Settings(other.uri(), Optional.empty(),
                Duration.ofSeconds(2), Duration.ofSeconds(10)));
        try {
            QdrantVersusLuceneTest.Backend backend = QdrantVersusLuceneTest.backend(s);
            other.requests.clear();
            var result = backend.search().search("products", request("{\"size\": 0, \"track_total_hits\": false,"
                    + " \"query\": {\"bool\": {\"filter\": {\"range\": {\"count\": {\"gte\": 3}}}}},"
                    + " \"aggs\": {\"tags\": {\"terms\": {\"field\": \"tag\", \"size\": 2}}}}"),
                    io.qdrant.esgateway.domain.index.CatalogView.Options.STRICT_EXPAND_OPEN);
            assertThat(other.requests).hasSize(1);
            JsonNode facet = other.requests("POST", "/facet").get(0).body();
            assertThat(facet.get("key").asText()).isEqualTo("_f.tag");
            assertThat(facet.get("exact").asBoolean()).isTrue();
            assertThat(facet.get("limit").asInt()).isEqualTo(QdrantFacets.LIMIT);
            assertThat(facet.at("/filter/must").toString()).contains("\"range\"");
            assertThat(Json.write(result.aggregations().orElseThrow().render())).contains("\"sum_other_doc_count\"");
            // the total, when asked, is one exact count more
            other.requests.clear();
            backend.search().search("products", request("{\"size\": 0, \"aggs\": {\"tags\": {\"terms\":"
                    + " {\"field\": \"tag\"}}}}"), io.qdrant.esgateway.domain.index.CatalogView.Options.STRICT_EXPAND_OPEN);
            assertThat(other.requests).extracting(r -> r.path().substring(r.path().lastIndexOf('/')))
                    .containsExactlyInAnyOrder("/facet", "/count");
            assertThat(other.violations).isEmpty();
        } finally {
            ((AutoCloseable) s).close();
            other.close();
        }
    }

    @Test
    void aSearchThatFailsValidationInTheServiceMakesNoQdrantCallAndABulkIsOneRetrieveAndOneBatch() throws Exception {
        FakeQdrant other = new FakeQdrant();
        DocumentStore s = QdrantStores.open(new QdrantStores.Settings(other.uri(), Optional.empty(),
                Duration.ofSeconds(2), Duration.ofSeconds(10)));
        try {
            QdrantVersusLuceneTest.Backend backend = QdrantVersusLuceneTest.backend(s);
            other.requests.clear();
            for (String body : List.of("{\"sort\": [{\"title\": \"asc\"}]}",
                    "{\"sort\": [{\"nope\": \"asc\"}]}",
                    "{\"sort\": [{\"count\": \"asc\"}], \"search_after\": [\"x\"]}",
                    "{\"size\": 0, \"aggs\": {\"t\": {\"terms\": {\"field\": \"title\"}}}}",
                    "{\"query\": {\"match\": {\"title\": \"x\"}}, \"sort\": [{\"count\": \"asc\"}]}",
                    "{\"query\": {\"match\": {\"title\": \"x\"}}, \"size\": 0, \"aggs\": {\"t\":"
                            + " {\"terms\": {\"field\": \"tag\"}}}}")) {
                assertThatThrownBy(() -> backend.search().search("products", request(body),
                        io.qdrant.esgateway.domain.index.CatalogView.Options.STRICT_EXPAND_OPEN)).as(body)
                        .isInstanceOf(GatewayException.class);
            }
            assertThat(other.requests).isEmpty();
            List<io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand> bulk = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                bulk.add(new io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand.Index("products",
                        Optional.of("n" + i), (JsonObject) Json.parse("{\"count\": " + i + "}"), false,
                        io.qdrant.esgateway.domain.document.Versioning.Condition.NONE, false));
            }
            backend.documents().bulk(bulk);
            assertThat(other.requests("POST", "/points")).hasSize(1)
                    .allSatisfy(r -> assertThat(r.body().get("ids")).hasSize(30));
            assertThat(other.requests("POST", "/points/batch")).hasSize(1);
            assertThat(other.violations).isEmpty();
        } finally {
            ((AutoCloseable) s).close();
            other.close();
        }
    }

    @Test
    void theApiKeyIsSentAsTheApiKeyHeader() {
        store.count(index, Optional.empty());
        assertThat(fake.requests.get(0).headers().get("Api-key")).containsExactly("s3cret-key");
    }

    @Test
    void droppingTwiceIsFine() {
        store.dropIndex(index);
        store.dropIndex(index);
        assertThat(fake.requests("DELETE", "")).hasSize(2);
    }
}
