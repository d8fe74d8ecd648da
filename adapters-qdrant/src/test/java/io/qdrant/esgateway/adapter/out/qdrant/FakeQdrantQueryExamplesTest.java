package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link FakeQdrantQuery} against the shared example cases of {@code points/query} (examples/query.json): every
 * dense nearest-neighbour case on a dataset the fake loads gives, on the fake, the case's points — same ids, order,
 * versions and payloads, and the same f32 scores within one unit in the last place: the cases' scores are
 * "derived" (computed outside Qdrant), and one of them (point 2: 0.87099993) was summed in another order than
 * Qdrant's scalar dot product for short vectors, which adds the products in sequence (0.871).
 */
class FakeQdrantQueryExamplesTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static FakeQdrant fake;

    @BeforeAll
    static void start() throws Exception {
        fake = new FakeQdrant();
        JsonNode dataset = resource("datasets.json").get("basic");
        String collection = dataset.get("collection").asText();
        ObjectNode create = dataset.get("createCollection").deepCopy();
        create.remove("sparse_vectors");
        send("PUT", "/collections/" + collection, create);
        ObjectNode batch = MAPPER.createObjectNode();
        batch.putArray("operations").addObject().set("upsert", dataset.get("upsert"));
        send("POST", "/collections/" + collection + "/points/batch?wait=true", batch);
    }

    @AfterAll
    static void stop() {
        fake.close();
    }

    @TestFactory
    Stream<DynamicTest> theFakeAnswersNearestCasesAsQdrantDoes() {
        List<JsonNode> cases = new ArrayList<>();
        resource("query.json").forEach(cases::add);
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode c : cases) {
            JsonNode request = c.get("requestBody");
            JsonNode query = request.path("query");
            boolean nearest = query.isArray() && query.size() > 0 && query.get(0).isNumber()
                    || query.has("nearest");
            if (!c.path("dataset").asText().equals("basic") || !c.get("operationId").asText().equals("query_points")
                    || !nearest || request.has("using")) {
                continue;
            }
            tests.add(DynamicTest.dynamicTest(c.get("name").asText(), () -> {
                JsonNode answer = send(c.get("method").asText(), c.get("path").asText(), request);
                JsonNode points = answer.at("/result/points");
                JsonNode expected = c.at("/response/body/result/points");
                assertThat(points.size()).isEqualTo(expected.size());
                for (int i = 0; i < expected.size(); i++) {
                    ObjectNode actualPoint = points.get(i).deepCopy();
                    ObjectNode expectedPoint = expected.get(i).deepCopy();
                    float score = (float) actualPoint.remove("score").asDouble();
                    float wanted = (float) expectedPoint.remove("score").asDouble();
                    assertThat(actualPoint).isEqualTo(expectedPoint);
                    assertThat(Math.abs(score - wanted)).as("score of " + expectedPoint.get("id") + ": " + score
                            + " vs " + wanted).isLessThanOrEqualTo(Math.ulp(wanted));
                }
            }));
        }
        assertThat(tests).hasSizeGreaterThanOrEqualTo(3);
        return tests.stream();
    }

    @Test
    void theFakeCheckedEveryBodyItSawAndSent() {
        assertThat(fake.violations).isEmpty();
    }

    private static JsonNode resource(String name) {
        try (InputStream in = FakeQdrantQueryExamplesTest.class.getResourceAsStream("/qdrant/examples/" + name)) {
            return MAPPER.readTree(in);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode send(String method, String path, JsonNode body) throws Exception {
        HttpRequest r = HttpRequest.newBuilder(URI.create(fake.uri() + path)).method(method,
                HttpRequest.BodyPublishers.ofString(body.toString())).header("Content-Type", "application/json")
                .build();
        HttpResponse<String> response = CLIENT.send(r, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(method + " " + path + " -> " + response.body()).isEqualTo(200);
        return MAPPER.readTree(response.body());
    }
}
