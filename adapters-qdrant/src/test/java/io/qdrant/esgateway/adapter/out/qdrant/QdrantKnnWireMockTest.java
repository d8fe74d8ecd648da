package io.qdrant.esgateway.adapter.out.qdrant;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.IndexHits;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;

/**
 * kNN on Qdrant against WireMock with canned Qdrant 1.19 answers, each checked against {@code openapi.json} (and
 * every request the adapter sent checked afterwards): the exact {@code points/query} body of a knn section, ES's
 * scores computed from Qdrant's raw scores, and {@code similarity} applied exactly by the gateway over Qdrant's
 * slightly looser {@code score_threshold}.
 */
class QdrantKnnWireMockTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final IndexMetadata INDEX = new IndexMetadata("vecs", "uuid-vecs", Instant.EPOCH,
            IndexSettings.DEFAULTS, Mappings.parse(Json.parse("""
            {"properties": {"tag": {"type": "keyword"},
              "emb": {"type": "dense_vector", "dims": 3, "similarity": "cosine"},
              "pos": {"type": "dense_vector", "dims": 2, "similarity": "l2_norm"}}}""")));
    private static final String COLLECTION = "/collections/" + QdrantLayout.collection(INDEX);

    private WireMockServer qdrant;
    private DocumentStore store;

    @BeforeEach
    void start() throws Exception {
        qdrant = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
        qdrant.start();
        store = QdrantStores.open(new QdrantStores.Settings(URI.create("http://127.0.0.1:" + qdrant.port()),
                Optional.empty(), Duration.ofSeconds(2), Duration.ofSeconds(5)));
        answer("GET", COLLECTION, null, """
                {"result": {"status": "green", "optimizer_status": "ok", "points_count": 4, "segments_count": 1,
                  "config": {"params": {"vectors": {"emb": {"size": 3, "distance": "Cosine"},
                                                     "pos": {"size": 2, "distance": "Euclid"}},
                                        "shard_number": 1, "replication_factor": 1, "write_consistency_factor": 1,
                                        "on_disk_payload": true},
                             "hnsw_config": {"m": 16, "ef_construct": 100, "full_scan_threshold": 10000},
                             "optimizer_config": {"deleted_threshold": 0.2, "vacuum_min_vector_number": 1000,
                                                  "default_segment_number": 0, "flush_interval_sec": 5}},
                  "payload_schema": %s},
                 "status": "ok", "time": 0.0001}""".formatted(LayoutSchemas.payloadSchema(INDEX, false)));
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

    /** Serves {@code body} for a request (with exactly {@code request} as its body when given), spec-checked. */
    private void answer(String method, String path, String request, String body) throws Exception {
        assertThat(OpenApiValidator.QDRANT.response(method, path, 200, JSON.readTree(body)))
                .as("canned answer for %s %s", method, path).isEmpty();
        var mapping = method.equals("GET") ? get(urlPathEqualTo(path)) : post(urlPathEqualTo(path));
        if (request != null) {
            mapping = mapping.withRequestBody(equalToJson(request));
        }
        qdrant.stubFor(mapping.willReturn(aResponse().withStatus(200).withHeader("Content-Type", "application/json")
                .withBody(body)));
    }

    private static String point(String id, double score) {
        return "{\"id\": \"" + QdrantLayout.pointId(INDEX, id) + "\", \"version\": 3, \"score\": " + score
                + ", \"payload\": {\"_id\": \"" + id + "\", \"_seq_no\": " + Math.floorMod(id.hashCode(), 1000) + "}}";
    }

    private static String record(String id, String source) {
        return "{\"id\": \"" + QdrantLayout.pointId(INDEX, id) + "\", \"payload\": {\"_id\": \"" + id
                + "\", \"_version\": 1, \"_seq_no\": 0, \"_primary_term\": 1, \"_src\": " + JSON.valueToTree(source)
                + "}}";
    }

    private IndexHits search(String body, int topN) {
        return store.search(INDEX, SearchRequestParser.parse(Optional.of(Json.parse(body)), Map.of()), topN);
    }

    @Test
    void aKnnSectionIsOneQueryRequestAndItsScoresAreElasticsearchs() throws Exception {
        answer("POST", COLLECTION + "/points/query", """
                {"query": [0.5, -1.0, 2.0], "using": "emb",
                 "filter": {"must": [{"key": "_f.tag", "match": {"value": "red"}}],
                            "must_not": [{"has_id": ["00000000-0000-0000-0000-000000000000"]}]},
                 "params": {"hnsw_ef": 10}, "limit": 3, "with_payload": ["_id", "_seq_no"], "with_vector": false}""",
                "{\"result\": {\"points\": [" + point("a", 0.9) + ", " + point("b", 0.25) + ", " + point("c", -0.5)
                        + "]}, \"status\": \"ok\", \"time\": 0.0002}");
        answer("POST", COLLECTION + "/points", null, "{\"result\": [" + record("b", "{\"tag\":\"red\"}") + ", "
                + record("a", "{\"tag\":\"red\",\"n\":1}") + "], \"status\": \"ok\", \"time\": 0.0001}");

        IndexHits hits = search("{\"knn\": {\"field\": \"emb\", \"query_vector\": [0.5, -1, 2], \"k\": 2,"
                + " \"num_candidates\": 10, \"filter\": {\"term\": {\"tag\": \"red\"}}}}", 10);

        assertThat(hits.hits().stream().map(Hit::id)).containsExactly("a", "b");
        // cosine: (1 + cos) / 2 in float
        assertThat(hits.hits().stream().map(Hit::score)).containsExactly((1 + 0.9f) / 2, (1 + 0.25f) / 2);
        assertThat(hits.maxScore()).isEqualTo((1 + 0.9f) / 2);
        assertThat(hits.hits().get(0).source()).isEqualTo(Json.parse("{\"tag\":\"red\",\"n\":1}"));
        // the total is the number of neighbours: no count request
        assertThat(hits.total().orElseThrow().value()).isEqualTo(2);
        qdrant.verify(1, postRequestedFor(urlPathEqualTo(COLLECTION + "/points/query")));
        qdrant.verify(0, postRequestedFor(urlPathEqualTo(COLLECTION + "/points/count")));
        JsonNode fetch = JSON.readTree(qdrant.findAll(postRequestedFor(urlPathEqualTo(COLLECTION + "/points")))
                .get(0).getBodyAsString());
        assertThat(fetch.get("ids")).hasSize(2);
    }

    @Test
    void aSimilarityIsALooserQdrantThresholdAndElasticsearchsExactOneInTheGateway() throws Exception {
        // l2_norm similarity 2 (a distance): Qdrant gets 2 + 2e-5; the point at 2.00001 passes it, but its ES score
        // 1 / (1 + 2.00001²) is below ES's threshold 1 / (1 + 2²) = 0.2, so the gateway drops it
        answer("POST", COLLECTION + "/points/query", """
                {"query": [1.0, 1.0], "using": "pos",
                 "filter": {"must_not": [{"has_id": ["00000000-0000-0000-0000-000000000000"]}]},
                 "params": {"hnsw_ef": 10}, "score_threshold": 2.00002, "limit": 6, "with_payload": ["_id", "_seq_no"],
                 "with_vector": false}""",
                "{\"result\": {\"points\": [" + point("near", 0.5) + ", " + point("edge", 2.0) + ", "
                        + point("past", 2.00001) + "]}, \"status\": \"ok\", \"time\": 0.0002}");
        answer("POST", COLLECTION + "/points", null, "{\"result\": [" + record("near", "{}") + ", "
                + record("edge", "{}") + "], \"status\": \"ok\", \"time\": 0.0001}");

        IndexHits hits = search("{\"knn\": {\"field\": \"pos\", \"query_vector\": [1, 1], \"k\": 5,"
                + " \"num_candidates\": 10, \"similarity\": 2}}", 10);

        assertThat(hits.hits().stream().map(Hit::id)).containsExactly("near", "edge");
        assertThat(hits.hits().stream().map(Hit::score)).containsExactly(1 / (1 + 0.5f * 0.5f), 0.2f);
        assertThat(hits.total().orElseThrow().value()).isEqualTo(2);
    }
}
