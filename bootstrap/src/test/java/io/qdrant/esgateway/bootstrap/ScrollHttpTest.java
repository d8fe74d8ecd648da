package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Scroll over HTTP on both backends (Qdrant: the spec-checked fake): {@code scroll=} on {@code _search}, the pages
 * through {@code /_search/scroll} (id in the body and in the URL), {@code rest_total_hits_as_int}, aggregations on
 * the first page only, clearing one id and {@code _all}, and the errors for unknown and malformed ids.
 */
class ScrollHttpTest {
    @RegisterExtension
    static final BothBackends.PerClass gateways = BothBackends.perClass();

    static Stream<String> backends() {
        return BothBackends.names();
    }

    private static EsClient es(String backend) {
        return gateways.client(backend);
    }

    private static void sevenDocuments(EsClient es, String index) {
        assertThat(es.put("/" + index, json("{'mappings':{'properties':{'tag':{'type':'keyword'},"
                + "'n':{'type':'integer'}}}}")).status()).isEqualTo(200);
        StringBuilder bulk = new StringBuilder();
        for (int n = 1; n <= 7; n++) {
            bulk.append(json("{'index':{'_id':'" + n + "'}}\n{'tag':'" + (n % 2 == 0 ? "even" : "odd") + "','n':"
                    + (10 - n) + "}\n"));
        }
        assertThat(es.send("POST", "/" + index + "/_bulk", bulk.toString(), "application/x-ndjson").status())
                .isEqualTo(200);
    }

    private static List<String> ids(JsonNode page) {
        List<String> out = new ArrayList<>();
        page.path("hits").path("hits").forEach(h -> out.add(h.path("_id").asText()));
        return out;
    }

    @ParameterizedTest
    @MethodSource("backends")
    void scrollEveryPageThenClear(String backend) {
        EsClient es = es(backend);
        sevenDocuments(es, "scrolled");
        EsClient.Reply first = es.post("/scrolled/_search?scroll=1m",
                json("{'size':3,'sort':[{'n':'asc'}],'aggs':{'t':{'terms':{'field':'tag'}}}}"));
        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        JsonNode body = first.json();
        assertThat(body.fieldNames().next()).isEqualTo("_scroll_id");
        assertThat(body.path("hits").path("total").path("value").asLong()).isEqualTo(7);
        assertThat(body.path("aggregations").path("t").path("buckets").size()).isEqualTo(2);
        assertThat(body.path("hits").path("hits").get(0).path("sort").toString()).isEqualTo("[3]");
        List<String> seen = new ArrayList<>(ids(body));
        String id = body.path("_scroll_id").asText();

        JsonNode second = es.post("/_search/scroll", json("{'scroll':'1m','scroll_id':'" + id + "'}")).json();
        assertThat(second.has("aggregations")).as("aggregations on the first page only").isFalse();
        seen.addAll(ids(second));
        JsonNode third = es.get("/_search/scroll/" + id + "?scroll=30s&rest_total_hits_as_int=true").json();
        assertThat(third.path("hits").path("total").asLong()).isEqualTo(7);
        seen.addAll(ids(third));
        JsonNode last = es.post("/_search/scroll", json("{'scroll':'1m','scroll_id':'" + id + "'}")).json();
        assertThat(ids(last)).isEmpty();
        assertThat(last.path("_scroll_id").asText()).isEqualTo(id);
        assertThat(seen).containsExactly("7", "6", "5", "4", "3", "2", "1");

        EsClient.Reply cleared = es.send("DELETE", "/_search/scroll", json("{'scroll_id':['" + id + "']}"),
                "application/json");
        assertThat(cleared.status()).isEqualTo(200);
        assertThat(cleared.json().toString()).isEqualTo("{\"succeeded\":true,\"num_freed\":1}");
        EsClient.Reply again = es.send("DELETE", "/_search/scroll", json("{'scroll_id':'" + id + "'}"),
                "application/json");
        assertThat(again.status()).isEqualTo(404);
        assertThat(again.json().toString()).isEqualTo("{\"succeeded\":true,\"num_freed\":0}");

        EsClient.Reply gone = es.post("/_search/scroll", json("{'scroll':'1m','scroll_id':'" + id + "'}"));
        assertThat(gone.status()).isEqualTo(404);
        assertThat(gone.errorType()).isEqualTo("search_phase_execution_exception");
        assertThat(gone.json().path("error").path("root_cause").get(0).path("type").asText())
                .isEqualTo("search_context_missing_exception");
        assertThat(gone.json().path("error").path("failed_shards").get(0).path("shard").asInt()).isEqualTo(-1);
    }

    @ParameterizedTest
    @MethodSource("backends")
    void versionMetadataOnEveryPage(String backend) {
        EsClient es = es(backend);
        sevenDocuments(es, "versioned");
        JsonNode first = es.post("/versioned/_search?scroll=1m&seq_no_primary_term=true",
                json("{'size':4,'version':true}")).json();
        JsonNode second = es.post("/_search/scroll", json("{'scroll':'1m','scroll_id':'"
                + first.path("_scroll_id").asText() + "'}")).json();
        for (JsonNode page : List.of(first, second)) {
            assertThat(page.path("hits").path("hits").size()).isPositive();
            page.path("hits").path("hits").forEach(h -> {
                assertThat(h.path("_version").asInt()).as(h.toString()).isEqualTo(1);
                assertThat(h.has("_seq_no") && h.has("_primary_term")).as(h.toString()).isTrue();
            });
        }
        JsonNode plain = es.post("/versioned/_search?scroll=1m", json("{'size':4}")).json();
        JsonNode plainNext = es.post("/_search/scroll", json("{'scroll':'1m','scroll_id':'"
                + plain.path("_scroll_id").asText() + "'}")).json();
        assertThat(plainNext.path("hits").path("hits").get(0).has("_version")).isFalse();
    }

    @ParameterizedTest
    @MethodSource("backends")
    void clearAllAndTheRefusals(String backend) {
        EsClient es = es(backend);
        sevenDocuments(es, "refusing");
        String once = es.post("/refusing/_search?scroll=1m", json("{'size':5}")).json().path("_scroll_id").asText();
        JsonNode lastPage = es.post("/_search/scroll", json("{'scroll_id':'" + once + "'}")).json();
        assertThat(ids(lastPage)).hasSize(2);
        assertThat(lastPage.has("_scroll_id")).as("a page without a keep-alive is the last").isFalse();
        assertThat(es.send("DELETE", "/_search/scroll/" + once, null, null).status()).isEqualTo(404);
        es.post("/refusing/_search?scroll=1m", json("{'size':2}"));
        es.post("/refusing/_search?scroll=1m", json("{'size':2}"));
        EsClient.Reply all = es.send("DELETE", "/_search/scroll/_all", null, null);
        assertThat(all.status()).isEqualTo(200);
        assertThat(all.json().path("num_freed").asInt()).as("the nodes that cleared, as ES counts").isEqualTo(1);

        EsClient.Reply from = es.post("/refusing/_search?scroll=1m", json("{'from':2}"));
        assertThat(from.status()).isEqualTo(400);
        assertThat(from.errorReason()).isEqualTo("Validation Failed: 1: using [from] is not allowed in a scroll"
                + " context;");
        EsClient.Reply after = es.post("/refusing/_search?scroll=1m",
                json("{'sort':[{'n':'asc'}],'search_after':[3]}"));
        assertThat(after.status()).isEqualTo(400);
        assertThat(after.errorReason()).contains("[search_after] cannot be used in a scroll context");
        EsClient.Reply badKeepAlive = es.post("/refusing/_search?scroll=soon", json("{}"));
        assertThat(badKeepAlive.status()).isEqualTo(400);
        assertThat(badKeepAlive.errorType()).isEqualTo("illegal_argument_exception");
        EsClient.Reply garbage = es.post("/_search/scroll", json("{'scroll_id':'not-a-scroll'}"));
        assertThat(garbage.status()).isEqualTo(400);
        assertThat(garbage.errorReason()).isEqualTo("Cannot parse scroll id");
        EsClient.Reply none = es.post("/_search/scroll", json("{'scroll':'1m'}"));
        assertThat(none.status()).isEqualTo(400);
        assertThat(none.errorReason()).isEqualTo("Validation Failed: 1: scrollId is missing;");
    }
}
