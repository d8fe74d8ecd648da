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
}
