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
 * Point in time over HTTP on both backends (Qdrant: the spec-checked fake): opening on an index and on an alias of
 * two, {@code search_after} pages with the implicit {@code _shard_doc} tiebreaker equal to one unpaged search,
 * {@code pit_id} in every answer, closing, what each backend reads after writes, and ES's errors.
 */
class PitHttpTest {
    @RegisterExtension
    static final BothBackends.PerClass gateways = BothBackends.perClass();

    static Stream<String> backends() {
        return BothBackends.names();
    }

    private static void documents(EsClient es, String index, int count, int modulo) {
        assertThat(es.put("/" + index, json("{'mappings':{'properties':{'tag':{'type':'keyword'},"
                + "'n':{'type':'integer'}}}}")).status()).isEqualTo(200);
        StringBuilder bulk = new StringBuilder();
        for (int n = 1; n <= count; n++) {
            bulk.append(json("{'index':{'_id':'" + index + n + "'}}\n{'tag':'t" + n + "','n':" + (n % modulo)
                    + "}\n"));
        }
        assertThat(es.send("POST", "/" + index + "/_bulk", bulk.toString(), "application/x-ndjson").status())
                .isEqualTo(200);
    }

    private static String open(EsClient es, String target) {
        EsClient.Reply opened = es.post("/" + target + "/_pit?keep_alive=1m", "");
        assertThat(opened.status()).as(opened.toString()).isEqualTo(200);
        return opened.json().path("id").asText();
    }

    private static List<String> ids(JsonNode page) {
        List<String> out = new ArrayList<>();
        page.path("hits").path("hits").forEach(h -> out.add(h.path("_id").asText()));
        return out;
    }

    private static List<String> pages(EsClient es, String pit, String sort, int size) {
        List<String> seen = new ArrayList<>();
        String after = "";
        while (true) {
            EsClient.Reply page = es.post("/_search", "{\"pit\":{\"id\":\"" + pit + "\",\"keep_alive\":\"1m\"},"
                    + "\"size\":" + size + ",\"sort\":" + sort + after + "}");
            assertThat(page.status()).as(page.toString()).isEqualTo(200);
            JsonNode body = page.json();
            assertThat(body.fieldNames().next()).isEqualTo("pit_id");
            assertThat(body.path("pit_id").asText()).isEqualTo(pit);
            JsonNode hits = body.path("hits").path("hits");
            if (hits.isEmpty()) {
                return seen;
            }
            seen.addAll(ids(body));
            after = ",\"search_after\":" + hits.get(hits.size() - 1).path("sort");
        }
    }

    @ParameterizedTest
    @MethodSource("backends")
    void pagesWithSearchAfterEqualOneSearchOnAnIndexAndAnAlias(String backend) {
        EsClient es = gateways.client(backend);
        documents(es, "pa", 9, 3);
        documents(es, "pb", 8, 2);
        assertThat(es.post("/_aliases", json("{'actions':[{'add':{'index':'pa','alias':'pab'}},"
                + "{'add':{'index':'pb','alias':'pab'}}]}")).status()).isEqualTo(200);
        for (String target : List.of("pa", "pab", "pa,pb")) {
            String pit = open(es, target);
            JsonNode whole = es.post("/_search", "{\"pit\":{\"id\":\"" + pit + "\"},\"size\":100,"
                    + "\"sort\":[{\"n\":\"asc\"}]}").json();
            int expected = target.equals("pa") ? 9 : 17;
            assertThat(whole.path("hits").path("total").path("value").asInt()).isEqualTo(expected);
            List<String> order = ids(whole);
            assertThat(order).hasSize(expected).doesNotHaveDuplicates();
            JsonNode first = whole.path("hits").path("hits").get(0);
            assertThat(first.path("sort").size()).as("n and the implicit _shard_doc").isEqualTo(2);
            for (int size : List.of(1, 4)) {
                assertThat(pages(es, pit, "[{\"n\":\"asc\"}]", size)).as(target + " in pages of " + size)
                        .isEqualTo(order);
            }
            List<String> explicit = ids(es.post("/_search", "{\"pit\":{\"id\":\"" + pit + "\"},\"size\":100,"
                    + "\"sort\":[{\"n\":\"desc\"},{\"_shard_doc\":\"desc\"}]}").json());
            assertThat(explicit).hasSize(expected);
            assertThat(pages(es, pit, "[{\"n\":\"desc\"},{\"_shard_doc\":\"desc\"}]", 3)).isEqualTo(explicit);
            EsClient.Reply closed = es.send("DELETE", "/_pit", "{\"id\":\"" + pit + "\"}", "application/json");
            assertThat(closed.json().toString()).as("one context per index").isEqualTo("{\"succeeded\":true,"
                    + "\"num_freed\":" + (target.equals("pa") ? 1 : 2) + "}");
        }
    }

    @ParameterizedTest
    @MethodSource("backends")
    void whatAPointInTimeReadsAfterWrites(String backend) {
        EsClient es = gateways.client(backend);
        documents(es, "pw", 5, 5);
        String pit = open(es, "pw");
        assertThat(es.put("/pw/_doc/pw9?refresh=true", json("{'n':0}")).status()).isEqualTo(201);
        assertThat(es.delete("/pw/_doc/pw1").status()).isEqualTo(200);
        JsonNode seen = es.post("/_search", "{\"pit\":{\"id\":\"" + pit + "\"},\"size\":100}").json();
        if (backend.equals("lucene")) {
            // the reader held since the point in time opened
            assertThat(ids(seen)).containsExactlyInAnyOrder("pw1", "pw2", "pw3", "pw4", "pw5");
        } else {
            // Qdrant keeps no read snapshot: the point in time reads the collection as it is now
            assertThat(ids(seen)).containsExactlyInAnyOrder("pw9", "pw2", "pw3", "pw4", "pw5");
        }
    }

    @ParameterizedTest
    @MethodSource("backends")
    void errorsAsElasticsearch(String backend) {
        EsClient es = gateways.client(backend);
        documents(es, "pe", 3, 3);
        String pit = open(es, "pe");
        EsClient.Reply withIndex = es.post("/pe/_search", "{\"pit\":{\"id\":\"" + pit + "\"}}");
        assertThat(withIndex.status()).isEqualTo(400);
        assertThat(withIndex.errorType()).isEqualTo("action_request_validation_exception");
        assertThat(withIndex.errorReason()).contains("[indices] cannot be used with point in time");
        EsClient.Reply withScroll = es.post("/_search?scroll=1m", "{\"pit\":{\"id\":\"" + pit + "\"}}");
        assertThat(withScroll.errorReason()).contains("using [point in time] is not allowed in a scroll context");
        assertThat(es.post("/_search?ignore_unavailable=true", "{\"pit\":{\"id\":\"" + pit + "\"}}").errorReason())
                .contains("[indicesOptions] cannot be used with point in time");
        EsClient.Reply noId = es.post("/_search", "{\"pit\":{\"keep_alive\":\"1m\"}}");
        assertThat(noId.status()).isEqualTo(400);
        assertThat(noId.errorReason()).isEqualTo("point in time id is not provided");
        EsClient.Reply unknownKey = es.post("/_search", "{\"pit\":{\"id\":\"" + pit + "\",\"foo\":1}}");
        assertThat(unknownKey.errorType()).isEqualTo("x_content_parse_exception");
        EsClient.Reply garbage = es.post("/_search", "{\"pit\":{\"id\":\"abc\"}}");
        assertThat(garbage.status()).isEqualTo(400);
        assertThat(garbage.errorType()).isEqualTo("illegal_argument_exception");
        EsClient.Reply shardDoc = es.post("/pe/_search", json("{'sort':['_shard_doc']}"));
        assertThat(shardDoc.status()).isEqualTo(400);
        assertThat(shardDoc.errorReason()).contains("[_shard_doc] sort field cannot be used without [point in time]");
        EsClient.Reply noKeepAlive = es.post("/pe/_pit", "");
        assertThat(noKeepAlive.status()).isEqualTo(400);
        assertThat(noKeepAlive.errorReason()).contains("[keep_alive] is not specified");
        assertThat(es.post("/nope/_pit?keep_alive=1m", "").status()).isEqualTo(404);

        assertThat(es.send("DELETE", "/_pit", "{\"id\":\"" + pit + "\"}", "application/json").status())
                .isEqualTo(200);
        EsClient.Reply again = es.send("DELETE", "/_pit", "{\"id\":\"" + pit + "\"}", "application/json");
        assertThat(again.status()).isEqualTo(404);
        assertThat(again.json().toString()).isEqualTo("{\"succeeded\":false,\"num_freed\":0}");
        EsClient.Reply gone = es.post("/_search", "{\"pit\":{\"id\":\"" + pit + "\"}}");
        assertThat(gone.status()).isEqualTo(404);
        assertThat(gone.json().path("error").path("root_cause").get(0).path("type").asText())
                .isEqualTo("search_context_missing_exception");
        assertThat(gone.json().path("error").path("failed_shards").get(0).path("index").asText()).isEqualTo("pe");

        String deleted = open(es, "pe");
        assertThat(es.delete("/pe").status()).isEqualTo(200);
        assertThat(es.post("/_search", "{\"pit\":{\"id\":\"" + deleted + "\"}}").status())
                .as("a point in time on a deleted index").isEqualTo(404);
    }
}
