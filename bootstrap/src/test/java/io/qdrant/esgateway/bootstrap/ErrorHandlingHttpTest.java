package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Routing errors, URL parameter checks, body limits and content types: always ES-shaped, never a 500. */
class ErrorHandlingHttpTest {
    @TempDir
    static Path data;
    static RunningGateway gateway;
    static EsClient es;

    @BeforeAll
    static void start() {
        gateway = RunningGateway.start(data, "QEG_MAX_CONTENT_LENGTH", "1kb");
        es = gateway.client;
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @Test
    void unknownEndpointsAnswerAsElasticsearchDoes() {
        EsClient.Reply r = es.get("/_nope/deeper/still");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.json().toString()).isEqualTo(
                "{\"error\":\"no handler found for uri [/_nope/deeper/still] and method [GET]\"}");
        assertThat(r.header("X-Elastic-Product")).isEqualTo("Elasticsearch");
        EsClient.Reply patch = es.send("PATCH", "/", null, null);
        assertThat(patch.status()).isEqualTo(405);
        assertThat(patch.json().path("error").asText())
                .isEqualTo("Incorrect HTTP method for uri [/] and method [PATCH], allowed: [GET, HEAD]");
        assertThat(patch.header("Allow")).isEqualTo("GET,HEAD");
        EsClient.Reply post = es.post("/_cat/indices", null);
        assertThat(post.status()).isEqualTo(405);
        assertThat(post.header("Allow")).isEqualTo("GET");
        // Elasticsearch's method order, not the alphabet
        EsClient.Reply index = es.post("/some-index", null);
        assertThat(index.json().path("error").asText()).endsWith("allowed: [GET, PUT, DELETE, HEAD]");
        assertThat(index.header("Allow")).isEqualTo("GET,PUT,DELETE,HEAD");
        assertThat(es.get("/_cat/indices").header("Allow")).isNull();
    }

    @Test
    void unknownUrlParametersAreRejected() {
        EsClient.Reply r = es.get("/_cluster/health?colour=blue&size=3");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.errorType()).isEqualTo("illegal_argument_exception");
        assertThat(r.errorReason())
                .isEqualTo("request [/_cluster/health] contains unrecognized parameters: [colour], [size]");
        assertThat(es.get("/?pretty").status()).isEqualTo(200);
        assertThat(es.get("/?pretty").body()).contains("\n  \"name\"");
        assertThat(es.get("/_cat/indices?v=maybe").errorReason())
                .isEqualTo("Failed to parse value [maybe] as only [true] or [false] are allowed.");
    }

    @Test
    void bodiesOverTheLimitAre413AndNothingIsCreated() {
        String big = json("{'mappings':{'_meta':{'pad':'" + "x".repeat(2000) + "'}}}");
        EsClient.Reply r = es.put("/too-big", big);
        assertThat(r.status()).isEqualTo(413);
        assertThat(r.errorType()).isEqualTo("content_too_long_exception");
        assertThat(r.errorReason()).contains("http.max_content_length [1024 bytes]");
        assertThat(es.head("/too-big").status()).isEqualTo(404);
    }

    @Test
    void bodiesMustBeJsonAndOnlyWhereTheEndpointTakesOne() {
        EsClient.Reply form = es.send("PUT", "/formy", "settings=1", "application/x-www-form-urlencoded");
        assertThat(form.status()).isEqualTo(406);
        assertThat(form.json().path("error").asText())
                .isEqualTo("Content-Type header [application/x-www-form-urlencoded] is not supported");
        EsClient.Reply compat = es.send("PUT", "/compat", "{}",
                "application/vnd.elasticsearch+json; compatible-with=8");
        assertThat(compat.status()).isEqualTo(200);
        assertThat(compat.header("Content-Type")).startsWith("application/vnd.elasticsearch+json");
        EsClient.Reply bodyOnGet = es.send("GET", "/_cluster/health", "{}", "application/json");
        assertThat(bodyOnGet.status()).isEqualTo(400);
        assertThat(bodyOnGet.errorReason()).contains("does not support having a body");
        EsClient.Reply array = es.put("/arrayed", "[1,2]");
        assertThat(array.status()).isEqualTo(400);
        assertThat(array.errorReason()).contains("must be an object");
        EsClient.Reply trailing = es.put("/trailing", "{} {}");
        assertThat(trailing.status()).isEqualTo(400);
        assertThat(trailing.errorType()).isEqualTo("x_content_parse_exception");
    }
}
