package io.qdrant.esgateway.bootstrap;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.request;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ScenarioMappingBuilder;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import io.qdrant.esgateway.adapter.out.qdrant.QdrantContract;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stateful scenario through the real gateway ({@code QEG_BACKEND=qdrant}, Helidon on a free port) against WireMock
 * serving canned Qdrant 1.19 answers: create index → bulk → filtered, sorted search → terms aggregation → update → the
 * same search and aggregation again → get → an index with a stale {@code if_seq_no} (409, nothing written). Qdrant's
 * state is a WireMock scenario ({@code created → bulked → updated}) moved by the gateway's own writes (the collection
 * PUT and each {@code points/batch}), so the canned count/query/retrieve/facet answers after the update differ from
 * those before it. The answers were recorded from {@code FakeQdrant} for the same steps and frozen; every stub matches
 * the exact request body (or the parts of a batch that carry the state), so a request the gateway changes shows up as
 * an unmatched request. Checked: the ES responses, no unmatched request, the Qdrant calls per step, every canned answer
 * and every request body against {@code openapi.json}, and the API key on every call.
 */
class QdrantWireMockScenarioTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SCENARIO = "qdrant-books";
    private static final String CREATED = "created";
    private static final String BULKED = "bulked";
    private static final String UPDATED = "updated";
    private static final String KEY = "wm-scenario-key";
    private static final String NO_RESERVED = "\"must_not\":[{\"has_id\":[\"00000000-0000-0000-0000-000000000000\"]}]";
    private static final String STORED_FIELDS = "\"with_payload\":[\"_id\",\"_src\",\"_version\",\"_seq_no\","
            + "\"_primary_term\",\"_routing\"],\"with_vector\":false";

    @TempDir
    Path data;
    private WireMockServer qdrant;
    private RunningGateway gateway;
    private final Set<UUID> counted = new HashSet<>();
    private String collection;

    @BeforeEach
    void start() {
        qdrant = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
        qdrant.start();
        gateway = RunningGateway.start(data, "QEG_BACKEND", "qdrant", "QEG_QDRANT_URL",
                "http://127.0.0.1:" + qdrant.port(), "QEG_QDRANT_API_KEY", KEY);
    }

    @AfterEach
    void stop() {
        try {
            gateway.close();
        } finally {
            qdrant.stop();
        }
    }

    private static String ok(String result) {
        return "{\"result\":" + result + ",\"status\":\"ok\",\"time\":0.0002}";
    }

    /**
     * Stubs {@code method path} in {@code state} (moving the scenario to {@code next} when not null) with an answer
     * that is checked against the spec's response schema first; {@code specPath} is a concrete path for the check.
     */
    private void stub(String state, String next, MappingBuilder request, String method, String specPath,
            String answer) throws Exception {
        assertThat(QdrantContract.responseProblems(method, specPath, 200, JSON.readTree(answer)))
                .as("canned answer for %s %s", method, specPath).isEmpty();
        ScenarioMappingBuilder m = request.inScenario(SCENARIO).whenScenarioStateIs(state)
                .withHeader("api-key", equalTo(KEY));
        if (next != null) {
            m = m.willSetStateTo(next);
        }
        qdrant.stubFor(m.willReturn(aResponse().withStatus(200).withHeader("Content-Type", "application/json")
                .withBody(answer)));
    }

    /** A POST to {@code suffix} of the collection whose body equals {@code body} (as JSON), in {@code state}. */
    private void post(String state, String next, String suffix, String body, String answer) throws Exception {
        String path = "/collections/" + collection + suffix;
        stub(state, next, request("POST", urlPathEqualTo(path)).withRequestBody(equalToJson(body)), "POST", path,
                answer);
    }

    /**
     * The Qdrant calls since the previous step, as {@code METHOD /suffix-after-the-collection → count}, after checking
     * that each of them matched a stub (a request the gateway changed fails here, with WireMock's nearest stubs).
     */
    private Map<String, Integer> callsOfStep() {
        assertThat(qdrant.findAllUnmatchedRequests()).as("requests no stub matched; nearest stubs: %s",
                qdrant.findNearMissesForAllUnmatchedRequests()).isEmpty();
        Map<String, Integer> calls = new TreeMap<>();
        for (ServeEvent e : qdrant.getAllServeEvents()) {
            if (counted.add(e.getId())) {
                String path = e.getRequest().getUrl().replaceAll("\\?.*", "").replaceFirst("^/collections/[^/]+", "");
                calls.merge(e.getRequest().getMethod().getName() + " " + path, 1, Integer::sum);
            }
        }
        return calls;
    }

    private String state() {
        return qdrant.getAllScenarios().getScenarios().stream().filter(s -> s.getName().equals(SCENARIO))
                .findFirst().orElseThrow().getState();
    }

    private static List<String> ids(JsonNode search) {
        List<String> out = new ArrayList<>();
        search.path("hits").path("hits").forEach(h -> out.add(h.path("_id").asText()));
        return out;
    }

    /**
     * A record of the first {@code order_by} query's answer: the id, the sort field and the stored fields (the source
     * as a JSON string and the version triple), as the adapter asks for them.
     */
    private static String ordered(String pointId, String id, int year, String source, int version, int seqNo) {
        ObjectNode payload = JSON.createObjectNode().put("_id", id);
        payload.putObject("_source").put("year", year);
        payload.put("_src", source).put("_version", version).put("_seq_no", seqNo).put("_primary_term", 1);
        ObjectNode point = JSON.createObjectNode().put("id", pointId).put("version", 0).put("score", 1.0);
        point.set("payload", payload);
        point.put("order_value", year);
        return point.toString();
    }

    /** A retrieved point with the stored fields: the source as a JSON string and the version triple. */
    private static String stored(String pointId, String id, String source, int version, int seqNo) {
        ObjectNode payload = JSON.createObjectNode().put("_id", id).put("_src", source).put("_version", version)
                .put("_seq_no", seqNo).put("_primary_term", 1);
        ObjectNode point = JSON.createObjectNode().put("id", pointId);
        point.set("payload", payload);
        return point.toString();
    }

    private static String search(String filterValue) {
        return "{\"query\":{\"bool\":{\"filter\":[{\"term\":{\"tag\":\"" + filterValue + "\"}}]}},"
                + "\"sort\":[{\"year\":\"desc\"}]}";
    }

    @Test
    void createBulkSearchAggregateUpdateSearchAgainstScenarioStubs() throws Exception {
        EsClient es = gateway.client;
        assertThat(qdrant.getAllServeEvents()).as("the gateway calls Qdrant only for work").isEmpty();

        // ---- create index: the collection (moves the scenario) and one payload index per field and layout key
        String anyCollection = "/collections/qeg-books-[A-Za-z0-9_-]+";
        stub(Scenario.STARTED, CREATED, request("PUT", urlPathMatching(anyCollection))
                .withRequestBody(equalToJson("{\"on_disk_payload\":true}")), "PUT", "/collections/c", ok("true"));
        String[] payloadIndexes = {"{\"field_name\":\"_id\",\"field_schema\":{\"type\":\"keyword\"}}",
            "{\"field_name\":\"_f.tag\",\"field_schema\":{\"type\":\"keyword\"}}",
            "{\"field_name\":\"_f.title\",\"field_schema\":{\"type\":\"text\",\"tokenizer\":\"word\","
                + "\"lowercase\":true}}",
            "{\"field_name\":\"_f.year\",\"field_schema\":{\"type\":\"integer\",\"lookup\":true,\"range\":true}}",
            "{\"field_name\":\"_f._ignored\",\"field_schema\":{\"type\":\"keyword\"}}",
            "{\"field_name\":\"_f._routing\",\"field_schema\":{\"type\":\"keyword\"}}",
            "{\"field_name\":\"_seq_no\",\"field_schema\":{\"type\":\"integer\",\"lookup\":false,\"range\":true}}",
            "{\"field_name\":\"_n._ignored\",\"field_schema\":{\"type\":\"integer\",\"lookup\":true,\"range\":false}}",
            "{\"field_name\":\"_n._routing\",\"field_schema\":{\"type\":\"integer\",\"lookup\":true,\"range\":false}}",
            "{\"field_name\":\"_n.tag\",\"field_schema\":{\"type\":\"integer\",\"lookup\":true,\"range\":false}}",
            "{\"field_name\":\"_t.title\",\"field_schema\":{\"type\":\"keyword\"}}",
            "{\"field_name\":\"_n.title\",\"field_schema\":{\"type\":\"integer\",\"lookup\":true,\"range\":false}}"};
        for (int i = 0; i < payloadIndexes.length; i++) {
            stub(CREATED, null, request("PUT", urlPathMatching(anyCollection + "/index"))
                    .withQueryParam("wait", equalTo("true")).withRequestBody(equalToJson(payloadIndexes[i])), "PUT",
                    "/collections/c/index", ok("{\"operation_id\":" + (i + 1) + ",\"status\":\"completed\"}"));
        }
        EsClient.Reply created = es.put("/books", json("{'mappings':{'properties':{'title':{'type':'text'},"
                + "'tag':{'type':'keyword'},'year':{'type':'integer'}}}}"));
        assertThat(callsOfStep()).isEqualTo(Map.of("PUT ", 1, "PUT /index", 12));
        assertThat(created.status()).isEqualTo(200);
        assertThat(state()).isEqualTo(CREATED);

        String uuid = es.get("/books").json().path("books").path("settings").path("index").path("uuid").asText();
        collection = QdrantContract.collection("books", uuid);
        assertThat(qdrant.getAllServeEvents()).allSatisfy(e -> assertThat(e.getRequest().getUrl())
                .startsWith("/collections/" + collection));
        String p1 = QdrantContract.pointId("books", uuid, "1");
        String p2 = QdrantContract.pointId("books", uuid, "2");
        String p3 = QdrantContract.pointId("books", uuid, "3");
        String src1 = "{\"title\":\"fox\",\"tag\":\"animals\",\"year\":1999}";
        String src2 = "{\"title\":\"dogs\",\"tag\":\"animals\",\"year\":2005}";
        String src2updated = "{\"title\":\"dogs\",\"tag\":\"food\",\"year\":2005}";

        // ---- bulk: one retrieve of the existing points (none), one points/batch (moves the scenario)
        post(CREATED, null, "/points", "{\"ids\":[\"" + p1 + "\",\"" + p2 + "\",\"" + p3 + "\"]," + STORED_FIELDS + "}",
                ok("[]"));
        String batch = "/collections/" + collection + "/points/batch";
        stub(CREATED, BULKED, request("POST", urlPathEqualTo(batch)).withQueryParam("wait", equalTo("true"))
                .withRequestBody(matchingJsonPath("$.operations[0].upsert.points.size()", equalTo("3")))
                .withRequestBody(matchingJsonPath("$.operations[0].upsert.points[0].id", equalTo(p1)))
                .withRequestBody(matchingJsonPath("$.operations[0].upsert.points[1].payload._src", equalTo(src2)))
                .withRequestBody(matchingJsonPath("$.operations[0].upsert.points[2].payload._f.tag[0]",
                        equalTo("food")))
                .withRequestBody(matchingJsonPath("$.operations[1].upsert.points[0].payload._qeg_max_seq_no",
                        equalTo("2"))), "POST", batch, ok("[{\"operation_id\":8,\"status\":\"completed\"},"
                + "{\"operation_id\":9,\"status\":\"completed\"}]"));
        String bulk = "{\"index\":{\"_id\":\"1\"}}\n" + src1 + "\n{\"index\":{\"_id\":\"2\"}}\n" + src2 + "\n"
                + "{\"index\":{\"_id\":\"3\"}}\n{\"title\":\"cooking\",\"tag\":\"food\",\"year\":2010}\n";
        JsonNode bulked = es.send("POST", "/books/_bulk?refresh=true", bulk, "application/x-ndjson").json();
        assertThat(callsOfStep()).isEqualTo(Map.of("POST /points", 1, "POST /points/batch", 1));
        assertThat(bulked.path("errors").asBoolean()).as(bulked.toString()).isFalse();
        List<String> items = new ArrayList<>();
        bulked.path("items").forEach(i -> items.add(i.path("index").path("_id").asText() + " "
                + i.path("index").path("status").asInt() + " v" + i.path("index").path("_version").asInt() + " s"
                + i.path("index").path("_seq_no").asInt()));
        assertThat(items).containsExactly("1 201 v1 s0", "2 201 v1 s1", "3 201 v1 s2");
        assertThat(state()).isEqualTo(BULKED);

        // the reads of both states: the same requests, answers that depend on the state
        String animals = "{\"must\":[{\"key\":\"_f.tag\",\"match\":{\"value\":\"animals\"}}]," + NO_RESERVED + "}";
        String noDocsWithoutYear = "{\"filter\":{\"must\":[{\"must\":[{\"key\":\"_f.tag\",\"match\":{\"value\":"
                + "\"animals\"}},{\"is_empty\":{\"key\":\"_f.year\"}}]}]," + NO_RESERVED + "},\"limit\":10,"
                + "\"with_payload\":[\"_id\",\"_seq_no\",\"_source.year\"],\"with_vector\":false,"
                + "\"order_by\":{\"key\":\"_seq_no\",\"direction\":\"asc\"}}";
        String orderBy = "{\"query\":{\"order_by\":{\"key\":\"_f.year\",\"direction\":\"desc\"}},\"filter\":" + animals
                + ",\"limit\":11,\"with_payload\":[\"_id\",\"_seq_no\",\"_source.year\",\"_src\",\"_version\","
                + "\"_primary_term\",\"_routing\"],\"with_vector\":false}";
        String countAll = "{\"filter\":{" + NO_RESERVED + "},\"exact\":true}";
        String facet = "{\"key\":\"_f.tag\",\"filter\":{" + NO_RESERVED + "},\"limit\":65536,\"exact\":true}";
        post(BULKED, null, "/points/count", "{\"filter\":" + animals + ",\"exact\":true}", ok("{\"count\":2}"));
        post(BULKED, null, "/points/query", orderBy, ok("{\"points\":[" + ordered(p2, "2", 2005, src2, 1, 1) + ","
                + ordered(p1, "1", 1999, src1, 1, 0) + "]}"));
        post(BULKED, null, "/points/scroll", noDocsWithoutYear, ok("{\"points\":[],\"next_page_offset\":null}"));
        post(BULKED, null, "/points/count", countAll, ok("{\"count\":3}"));
        post(BULKED, null, "/facet", facet, ok("{\"hits\":[{\"value\":\"animals\",\"count\":2},{\"value\":\"food\","
                + "\"count\":1}]}"));
        post(UPDATED, null, "/points/count", "{\"filter\":" + animals + ",\"exact\":true}", ok("{\"count\":1}"));
        post(UPDATED, null, "/points/query", orderBy, ok("{\"points\":[" + ordered(p1, "1", 1999, src1, 1, 0)
                + "]}"));
        post(UPDATED, null, "/points/scroll", noDocsWithoutYear, ok("{\"points\":[],\"next_page_offset\":null}"));
        post(UPDATED, null, "/points/count", countAll, ok("{\"count\":3}"));
        post(UPDATED, null, "/facet", facet, ok("{\"hits\":[{\"value\":\"food\",\"count\":2},{\"value\":\"animals\","
                + "\"count\":1}]}"));

        // ---- search: a count, the order_by page (its records carry their documents: no retrieve), the scroll of the
        // documents without a year
        Map<String, Integer> searchCalls = Map.of("POST /points/count", 1, "POST /points/query", 1,
                "POST /points/scroll", 1);
        JsonNode before = es.post("/books/_search", json(search("animals").replace('"', '\''))).json();
        assertThat(callsOfStep()).isEqualTo(searchCalls);
        assertThat(before.path("hits").path("total").toString()).isEqualTo("{\"value\":2,\"relation\":\"eq\"}");
        assertThat(ids(before)).containsExactly("2", "1");
        assertThat(before.path("hits").path("hits").get(0).path("sort").toString()).isEqualTo("[2005]");
        assertThat(before.path("hits").path("hits").get(0).path("_source").toString()).isEqualTo(src2);

        // ---- size:0 terms aggregation: one exact facet and one count
        Map<String, Integer> aggCalls = Map.of("POST /points/count", 1, "POST /facet", 1);
        String aggs = "{'size':0,'aggs':{'tags':{'terms':{'field':'tag'}}}}";
        JsonNode tagsBefore = es.post("/books/_search", json(aggs)).json();
        assertThat(callsOfStep()).isEqualTo(aggCalls);
        assertThat(tagsBefore.path("hits").path("total").path("value").asInt()).isEqualTo(3);
        assertThat(tagsBefore.path("aggregations").path("tags").path("buckets").toString())
                .isEqualTo("[{\"key\":\"animals\",\"doc_count\":2},{\"key\":\"food\",\"doc_count\":1}]");
        assertThat(state()).isEqualTo(BULKED);

        // ---- update of document 2: retrieve it, one batch with the new version (moves the scenario)
        post(BULKED, null, "/points", "{\"ids\":[\"" + p2 + "\"]," + STORED_FIELDS + "}",
                ok("[" + stored(p2, "2", src2, 1, 1) + "]"));
        stub(BULKED, UPDATED, request("POST", urlPathEqualTo(batch)).withQueryParam("wait", equalTo("true"))
                .withRequestBody(matchingJsonPath("$.operations[0].upsert.points.size()", equalTo("1")))
                .withRequestBody(matchingJsonPath("$.operations[0].upsert.points[0].id", equalTo(p2)))
                .withRequestBody(matchingJsonPath("$.operations[0].upsert.points[0].payload._src",
                        equalTo(src2updated)))
                .withRequestBody(matchingJsonPath("$.operations[0].upsert.points[0].payload._version", equalTo("2")))
                .withRequestBody(matchingJsonPath("$.operations[0].upsert.points[0].payload._seq_no", equalTo("3")))
                .withRequestBody(matchingJsonPath("$.operations[1].upsert.points[0].payload._qeg_max_seq_no",
                        equalTo("3"))), "POST", batch, ok("[{\"operation_id\":10,\"status\":\"completed\"},"
                + "{\"operation_id\":11,\"status\":\"completed\"}]"));
        JsonNode updated = es.post("/books/_update/2?refresh=true", json("{'doc':{'tag':'food'}}")).json();
        assertThat(callsOfStep()).isEqualTo(Map.of("POST /points", 1, "POST /points/batch", 1));
        assertThat(updated.path("result").asText()).isEqualTo("updated");
        assertThat(updated.path("_version").asInt()).isEqualTo(2);
        assertThat(updated.path("_seq_no").asInt()).isEqualTo(3);
        assertThat(state()).isEqualTo(UPDATED);

        // ---- the same search and aggregation, now answered from the updated state
        JsonNode after = es.post("/books/_search", json(search("animals").replace('"', '\''))).json();
        assertThat(callsOfStep()).isEqualTo(searchCalls);
        assertThat(after.path("hits").path("total").path("value").asInt()).isEqualTo(1);
        assertThat(ids(after)).containsExactly("1");
        assertThat(after.path("hits").path("hits").get(0).path("sort").toString()).isEqualTo("[1999]");
        JsonNode tagsAfter = es.post("/books/_search", json(aggs)).json();
        assertThat(callsOfStep()).isEqualTo(aggCalls);
        assertThat(tagsAfter.path("aggregations").path("tags").path("buckets").toString())
                .isEqualTo("[{\"key\":\"food\",\"doc_count\":2},{\"key\":\"animals\",\"doc_count\":1}]");

        // ---- get: the updated document's version triple as the scenario now stores it
        post(UPDATED, null, "/points", "{\"ids\":[\"" + p2 + "\"]," + STORED_FIELDS + "}",
                ok("[" + stored(p2, "2", src2updated, 2, 3) + "]"));
        JsonNode doc = es.get("/books/_doc/2").json();
        assertThat(callsOfStep()).isEqualTo(Map.of("POST /points", 1));
        assertThat(doc.path("_version").asInt()).isEqualTo(2);
        assertThat(doc.path("_seq_no").asInt()).isEqualTo(3);
        assertThat(doc.path("_source").path("tag").asText()).isEqualTo("food");

        // ---- an index with a stale if_seq_no: read the stored triple, refuse with a 409, write nothing
        EsClient.Reply stale = es.put("/books/_doc/2?if_seq_no=1&if_primary_term=1", json("{'title':'stale'}"));
        assertThat(callsOfStep()).isEqualTo(Map.of("POST /points", 1));
        assertThat(stale.status()).isEqualTo(409);
        assertThat(stale.json().path("error").path("type").asText()).isEqualTo("version_conflict_engine_exception");
        assertThat(stale.body()).contains("current document has seqNo [3] and primary term [1]");
        assertThat(state()).isEqualTo(UPDATED);

        // ---- every call matched a stub, carried the key, and sent a body the spec accepts
        assertThat(qdrant.findAllUnmatchedRequests()).as("requests no stub matched").isEmpty();
        List<String> problems = new ArrayList<>();
        for (ServeEvent e : qdrant.getAllServeEvents()) {
            assertThat(e.getWasMatched()).as(e.getRequest().getUrl()).isTrue();
            assertThat(e.getRequest().getHeader("api-key")).isEqualTo(KEY);
            String body = e.getRequest().getBodyAsString();
            if (body != null && !body.isEmpty()) {
                problems.addAll(QdrantContract.requestProblems(e.getRequest().getMethod().getName(),
                        e.getRequest().getUrl().replaceAll("\\?.*", ""), JSON.readTree(body)));
            }
        }
        assertThat(problems).as("request bodies the spec refuses").isEmpty();
        assertThat(qdrant.getAllServeEvents()).hasSize(13 + 2 + 3 + 2 + 2 + 3 + 2 + 1 + 1);
    }
}
