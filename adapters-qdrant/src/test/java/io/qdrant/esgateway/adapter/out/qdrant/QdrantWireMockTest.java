package io.qdrant.esgateway.adapter.out.qdrant;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.query.dsl.QueryDsl;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.read.QdrantFacets;
import io.qdrant.esgateway.adapter.out.qdrant.filter.QdrantFilterTranslatorTest;

/**
 * The adapter against WireMock serving canned Qdrant 1.19 answers: every canned answer is first checked against
 * {@code openapi.json}, and every request the adapter sent is checked against it afterwards — so a malformed request
 * or a fixture that drifts from the spec fails the build. Complements the stateful {@link FakeQdrant} (which runs
 * the whole document-store contract) with exact request expectations.
 */
class QdrantWireMockTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final IndexMetadata INDEX = QdrantFilterTranslatorTest.INDEX;
    private static final String COLLECTION = QdrantLayout.collection(INDEX);

    private WireMockServer qdrant;
    private DocumentStore store;

    @BeforeEach
    void start() {
        qdrant = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
        qdrant.start();
        store = QdrantStores.open(new QdrantStores.Settings(URI.create("http://127.0.0.1:" + qdrant.port()),
                Optional.of("wm-key"), Duration.ofSeconds(2), Duration.ofSeconds(5)));
        // the collection has every payload index of its layout: its first use reads that, and creates nothing
        qdrant.stubFor(get(urlPathEqualTo("/collections/" + COLLECTION)).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "application/json").withBody(LayoutSchemas.collectionInfo(INDEX, false))));
    }

    /** The calls made besides the one read of the collection on its first use (checked to be there, once). */
    private List<ServeEvent> callsAfterTheLayoutCheck() {
        List<ServeEvent> all = qdrant.getAllServeEvents();
        assertThat(all).filteredOn(e -> e.getRequest().getMethod().getName().equals("GET")
                && e.getRequest().getUrl().equals("/collections/" + COLLECTION)).hasSize(1);
        return all.stream().filter(e -> !e.getRequest().getMethod().getName().equals("GET")).toList();
    }

    @AfterEach
    void stop() throws Exception {
        try {
            List<String> problems = new ArrayList<>();
            for (ServeEvent event : qdrant.getAllServeEvents()) {
                String body = event.getRequest().getBodyAsString();
                if (body != null && !body.isEmpty()) {
                    problems.addAll(OpenApiValidator.QDRANT.request(event.getRequest().getMethod().getName(),
                            event.getRequest().getUrl().replaceAll("\\?.*", ""), JSON.readTree(body)));
                }
            }
            assertThat(problems).as("requests the adapter sent that the spec refuses").isEmpty();
        } finally {
            ((AutoCloseable) store).close();
            qdrant.stop();
        }
    }

    /** Serves {@code body} for this call after checking it against the spec's response schema. */
    private void answer(String method, String path, int status, String body) throws Exception {
        JsonNode parsed = JSON.readTree(body);
        assertThat(OpenApiValidator.QDRANT.response(method, path, status, parsed))
                .as("canned answer for %s %s", method, path).isEmpty();
        qdrant.stubFor((method.equals("GET") ? get(urlPathEqualTo(path)) : post(urlPathEqualTo(path)))
                .willReturn(aResponse().withStatus(status).withHeader("Content-Type", "application/json")
                        .withBody(body)));
    }

    @Test
    void pingListsCollectionsWithTheApiKey() throws Exception {
        answer("GET", "/collections", 200, "{\"result\":{\"collections\":[{\"name\":\"other\"}]},\"status\":\"ok\","
                + "\"time\":0.0001}");
        store.ping();
        qdrant.verify(1, getRequestedFor(urlEqualTo("/collections")).withHeader("api-key", equalTo("wm-key")));
    }

    @Test
    void aCountIsOneExactCountCallWithTheTranslatedFilter() throws Exception {
        String path = "/collections/" + COLLECTION + "/points/count";
        answer("POST", path, 200, "{\"result\":{\"count\":42},\"status\":\"ok\",\"time\":0.0002}");
        long count = store.count(INDEX, Optional.of(QueryDsl.parse(Json.parse("{\"term\":{\"tag\":\"red\"}}"))));
        assertThat(count).isEqualTo(42);
        qdrant.verify(1, postRequestedFor(urlPathEqualTo(path))
                .withRequestBody(matchingJsonPath("$.exact", equalTo("true")))
                .withRequestBody(matchingJsonPath("$.filter.must[0].key"))
                .withRequestBody(matchingJsonPath("$.filter.must_not[0].has_id")));
        assertThat(store.stats(INDEX).docCount()).isEqualTo(42);
        qdrant.verify(2, postRequestedFor(urlPathEqualTo(path)));
    }

    @Test
    void aQueryThatMatchesNothingMakesNoCall() {
        long count = store.count(INDEX, Optional.of(QueryDsl.parse(Json.parse("{\"match_none\":{}}"))));
        assertThat(count).isZero();
        assertThat(qdrant.getAllServeEvents()).isEmpty();
    }

    @Test
    void whatQdrantRejectsIsA400ThatQuotesIt() throws Exception {
        String path = "/collections/" + COLLECTION + "/points/count";
        answer("POST", path, 400, "{\"status\":{\"error\":\"Wrong input: Bad request: bad filter\"},\"time\":0.0}");
        assertThatThrownBy(() -> store.count(INDEX, Optional.empty()))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
                    assertThat(e.getMessage()).contains("bad filter");
                });
        // a rejected read is not retried
        qdrant.verify(1, postRequestedFor(urlPathEqualTo(path)));
    }

    @Test
    void anOverloadedQdrantIsRetriedForReads() throws Exception {
        String path = "/collections/" + COLLECTION + "/points/count";
        qdrant.stubFor(post(urlPathEqualTo(path)).inScenario("busy").whenScenarioStateIs("Started")
                .willReturn(aResponse().withStatus(503).withBody("{\"status\":{\"error\":\"busy\"},\"time\":0.0}")
                        .withHeader("Content-Type", "application/json"))
                .willSetStateTo("ready"));
        qdrant.stubFor(post(urlPathEqualTo(path)).inScenario("busy").whenScenarioStateIs("ready")
                .willReturn(aResponse().withStatus(200).withHeader("Content-Type", "application/json")
                        .withBody("{\"result\":{\"count\":7},\"status\":\"ok\",\"time\":0.0}")));
        assertThat(store.count(INDEX, Optional.empty())).isEqualTo(7);
        qdrant.verify(2, postRequestedFor(urlPathEqualTo(path)));
    }

    private static io.qdrant.esgateway.domain.search.SearchRequest search(String body) {
        return io.qdrant.esgateway.domain.search.SearchRequestParser.parse(Optional.of(Json.parse(body)),
                java.util.Map.of());
    }

    private static String ok(String result) {
        return "{\"result\":" + result + ",\"status\":\"ok\",\"time\":0.0003}";
    }

    /** Serves {@code body} (checked against the spec) for POSTs to {@code path} whose body matches {@code json}. */
    private void answerWhen(String path, String jsonPath, boolean present, String body) throws Exception {
        assertThat(OpenApiValidator.QDRANT.response("POST", path, 200, JSON.readTree(body)))
                .as("canned answer for POST %s", path).isEmpty();
        var matcher = present ? matchingJsonPath(jsonPath)
                : com.github.tomakehurst.wiremock.client.WireMock.notContaining("\"" + jsonPath.substring(2) + "\"");
        qdrant.stubFor(post(urlPathEqualTo(path)).withRequestBody(matcher).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "application/json").withBody(body)));
    }

    @Test
    void aKeywordTermsAggregationIsOneExactFacetAndACountOfTheDocumentsWithoutAValue() throws Exception {
        String facet = "/collections/" + COLLECTION + "/facet";
        String count = "/collections/" + COLLECTION + "/points/count";
        answer("POST", facet, 200, ok("{\"hits\":[{\"value\":\"red\",\"count\":3},{\"value\":\"blue\","
                + "\"count\":2},{\"value\":\"green\",\"count\":1}]}"));
        answer("POST", count, 200, ok("{\"count\":4}"));
        var request = search("{\"size\":0,\"query\":{\"range\":{\"count\":{\"gte\":1}}},\"aggs\":{\"t\":"
                + "{\"terms\":{\"field\":\"tag\",\"size\":2,\"missing\":\"none\"}}}}");
        var plan = io.qdrant.esgateway.domain.aggregation.AggregationPlan.of(INDEX.name(), request.aggregations(),
                INDEX.mappings(), System::currentTimeMillis);
        var partials = store.aggregate(INDEX, request, plan);
        assertThat(Json.write(partials.render())).isEqualTo("{\"t\":{\"doc_count_error_upper_bound\":0,"
                + "\"sum_other_doc_count\":3,\"buckets\":[{\"key\":\"none\",\"doc_count\":4},{\"key\":\"red\","
                + "\"doc_count\":3}]}}");
        qdrant.verify(1, postRequestedFor(urlPathEqualTo(facet))
                .withRequestBody(matchingJsonPath("$.key", equalTo("_f.tag")))
                .withRequestBody(matchingJsonPath("$.exact", equalTo("true")))
                .withRequestBody(matchingJsonPath("$.limit", equalTo(Integer.toString(QdrantFacets.LIMIT))))
                .withRequestBody(matchingJsonPath("$.filter.must[0].range.gte", equalTo("1")))
                .withRequestBody(matchingJsonPath("$.filter.must_not[0].has_id")));
        qdrant.verify(1, postRequestedFor(urlPathEqualTo(count))
                .withRequestBody(matchingJsonPath("$.exact", equalTo("true")))
                .withRequestBody(matchingJsonPath("$.filter.must[1].is_empty.key", equalTo("_f.tag"))));
        assertThat(callsAfterTheLayoutCheck()).hasSize(2);
    }

    @Test
    void aFacetAnswerThatMayBeCutFallsBackToTheScan() throws Exception {
        String facet = "/collections/" + COLLECTION + "/facet";
        StringBuilder hits = new StringBuilder();
        for (int i = 0; i < QdrantFacets.LIMIT; i++) {
            hits.append(i == 0 ? "" : ",").append("{\"value\":\"v").append(i).append("\",\"count\":1}");
        }
        qdrant.stubFor(post(urlPathEqualTo(facet)).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "application/json").withBody(ok("{\"hits\":[" + hits + "]}"))));
        String a = QdrantLayout.pointId(INDEX, "a");
        String b = QdrantLayout.pointId(INDEX, "b");
        answer("POST", "/collections/" + COLLECTION + "/points/scroll", 200, ok("{\"points\":["
                + "{\"id\":\"" + a + "\",\"payload\":{\"_id\":\"a\",\"_source\":{\"tag\":[\"x\",\"y\"]}}},"
                + "{\"id\":\"" + b + "\",\"payload\":{\"_id\":\"b\",\"_source\":{\"tag\":\"x\"}}}],"
                + "\"next_page_offset\":null}"));
        var request = search("{\"size\":0,\"aggs\":{\"t\":{\"terms\":{\"field\":\"tag\"}}}}");
        var partials = store.aggregate(INDEX, request, io.qdrant.esgateway.domain.aggregation.AggregationPlan.of(
                INDEX.name(), request.aggregations(), INDEX.mappings(), System::currentTimeMillis));
        assertThat(Json.write(partials.render())).isEqualTo("{\"t\":{\"doc_count_error_upper_bound\":0,"
                + "\"sum_other_doc_count\":0,\"buckets\":[{\"key\":\"x\",\"doc_count\":2},{\"key\":\"y\","
                + "\"doc_count\":1}]}}");
        qdrant.verify(1, postRequestedFor(urlPathEqualTo(facet)));
    }

    @Test
    void aSortedPageIsAnOrderByQueryTheTieGroupsRestAndOneRetrieve() throws Exception {
        String query = "/collections/" + COLLECTION + "/points/query";
        String count = "/collections/" + COLLECTION + "/points/count";
        String p1 = QdrantLayout.pointId(INDEX, "p1");
        String p2 = QdrantLayout.pointId(INDEX, "p2");
        String p3 = QdrantLayout.pointId(INDEX, "p3");
        String p4 = QdrantLayout.pointId(INDEX, "p4");
        // Qdrant's stream, descending: p1 at 9.5, p2 at 9.5 again? no: p2 holds [7, 3] and p3 holds 7 (ties by id)
        String[] tied = java.util.UUID.fromString(p2).compareTo(java.util.UUID.fromString(p3)) > 0
                ? new String[] {p2, p3} : new String[] {p3, p2};
        answerWhen(query, "$.offset", false, ok("{\"points\":["
                + record(p1, "p1", "9.5", 9.5) + "," + record(tied[0], tied[0].equals(p2) ? "p2" : "p3",
                tied[0].equals(p2) ? "[7, 3]" : "7", 7) + "," + record(tied[1], tied[1].equals(p2) ? "p2" : "p3",
                tied[1].equals(p2) ? "[7, 3]" : "7", 7) + "]}"));
        answerWhen(query, "$.offset", true, ok("{\"points\":[" + record(p4, "p4", "5", 5) + "]}"));
        answer("POST", count, 200, ok("{\"count\":2}"));
        String retrieve = "/collections/" + COLLECTION + "/points";
        answer("POST", retrieve, 200, ok("[" + stored(p1, "p1", "{\"price\":9.5}") + ","
                + stored(p2, "p2", "{\"price\":[7,3]}") + "," + stored(p3, "p3", "{\"price\":7}") + "]"));

        var hits = store.search(INDEX, search("{\"sort\":[{\"price\":\"desc\"}],\"size\":2,"
                + "\"track_total_hits\":false}"), 2);

        // ES: p1 (9.5), then of the two at 7 the first in index order (_seq_no: p3 was written before p2)
        String second = "p3";
        assertThat(hits.hits()).extracting(h -> h.id() + " " + Json.write(h.sort().get(0)))
                .containsExactly("p1 9.5", second + " 7.0");
        qdrant.verify(1, postRequestedFor(urlPathEqualTo(query))
                .withRequestBody(matchingJsonPath("$.query.order_by.key", equalTo("_f.price")))
                .withRequestBody(matchingJsonPath("$.query.order_by.direction", equalTo("desc")))
                .withRequestBody(matchingJsonPath("$.limit", equalTo("3")))
                .withRequestBody(matchingJsonPath("$.with_payload[0]", equalTo("_id")))
                .withRequestBody(matchingJsonPath("$.with_payload[1]", equalTo("_seq_no")))
                .withRequestBody(matchingJsonPath("$.with_payload[2]", equalTo("_source.price"))));
        // the page ended inside the group at 7: its size (2, both seen) asks for exactly one more record
        qdrant.verify(1, postRequestedFor(urlPathEqualTo(count))
                .withRequestBody(matchingJsonPath("$.filter.must[0].range.gte", equalTo("7.0")))
                .withRequestBody(matchingJsonPath("$.filter.must[0].range.lte", equalTo("7.0"))));
        qdrant.verify(1, postRequestedFor(urlPathEqualTo(query))
                .withRequestBody(matchingJsonPath("$.offset", equalTo("3")))
                .withRequestBody(matchingJsonPath("$.limit", equalTo("1"))));
        qdrant.verify(1, postRequestedFor(urlPathEqualTo(retrieve))
                .withRequestBody(matchingJsonPath("$.ids.size()", equalTo("2"))));
        assertThat(callsAfterTheLayoutCheck()).hasSize(4);
    }

    private static String record(String pointId, String id, String price, double orderValue) {
        int seqNo = id.equals("p3") ? 2 : id.equals("p2") ? 3 : Integer.parseInt(id.substring(1));
        return "{\"id\":\"" + pointId + "\",\"version\":0,\"score\":1.0,\"payload\":{\"_id\":\"" + id
                + "\",\"_seq_no\":" + seqNo + ",\"_source\":{\"price\":" + price + "}},\"order_value\":"
                + orderValue + "}";
    }

    private static String stored(String pointId, String id, String source) {
        return "{\"id\":\"" + pointId + "\",\"payload\":{\"_id\":\"" + id + "\",\"_src\":"
                + JSON.valueToTree(source) + ",\"_version\":1,\"_seq_no\":0,\"_primary_term\":1}}";
    }
}
