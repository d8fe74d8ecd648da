package io.qdrant.esgateway.adapter.in.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.application.port.in.ResponseCaching;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A search or count as the response cache keys it: its text, its hint, and what it may depend on. */
class CacheRequestTest {
    private final JsonCodec codec = new JsonCodec();

    private CacheRequest request(String body, Map<String, String> params) {
        Optional<JsonValue> parsed = body == null ? Optional.empty()
                : Optional.of(codec.parse(body.getBytes(StandardCharsets.UTF_8)));
        return new CacheRequest("search", parsed, params, codec);
    }

    private static Map<String, String> params(String... pairs) {
        Map<String, String> params = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            params.put(pairs[i], pairs[i + 1]);
        }
        return params;
    }

    @Test
    void theTextIsTheKindTheCompactBodyAndTheSortedParameters() {
        // replicas of different versions share entries only while this text stays the same
        CacheRequest r = request("{ \"query\" : {\"term\": {\"t\": \"é\"}}, \"size\": 10 }",
                params("typed_keys", "false", "rest_total_hits_as_int", "true"));
        assertThat(r.text()).isEqualTo("search\u0000{\"query\":{\"term\":{\"t\":\"é\"}},\"size\":10}\u0000"
                + "{rest_total_hits_as_int=true, typed_keys=false}");
        assertThat(request(null, Map.of()).text()).isEqualTo("search\u0000\u0000{}");
    }

    @Test
    void equalRequestsHaveEqualHintsAndOthersOthers() {
        String body = "{\"query\":{\"match\":{\"title\":\"quick fox\"}},\"from\":20,\"size\":10,"
                + "\"sort\":[{\"price\":\"asc\"}],\"search_after\":[12.5,\"a\",null,true]}";
        long hint = request(body, params("a", "1", "b", "2")).hint();
        assertThat(request(body, params("a", "1", "b", "2")).hint()).isEqualTo(hint);
        assertThat(request(body.replace("{", " { "), params("b", "2", "a", "1")).hint())
                .as("the same text: spacing and the parameters' order do not count").isEqualTo(hint);
        List<String> others = List.of(body.replace("20", "30"), body.replace("12.5", "12.6"),
                body.replace("quick", "slow"), body.replace("true", "false"), body.replace("null", "\"null\""),
                body.replace("\"from\":20,", ""), body.replace("[12.5,", "[[12.5],"), body.replace("title", "body"));
        for (String other : others) {
            assertThat(request(other, params("a", "1", "b", "2")).hint()).as(other).isNotEqualTo(hint);
        }
        assertThat(request(body, params("a", "1", "b", "3")).hint()).isNotEqualTo(hint);
        assertThat(request(body, params("a", "2", "b", "1")).hint()).as("a value moved to another name")
                .isNotEqualTo(hint);
        assertThat(request(body, params("a", "1")).hint()).isNotEqualTo(hint);
    }

    @Test
    void whatItDependsOnIsWhatItsTextSays() {
        List<String> bodies = List.of(
                "{\"query\":{\"range\":{\"t\":{\"gte\":\"now-1d\"}}}}",
                "{\"query\":{\"range\":{\"now\":{\"gte\":1}}}}",
                "{\"query\":{\"term\":{\"t\":\"no\\u0077\"}}}",
                "{\"query\":{\"term\":{\"t\":\"no w\"}}}",
                "{\"query\":{\"script_score\":{\"query\":{\"match_all\":{}},\"script\":{\"id\":\"stored\"}}}}",
                "{\"query\":{\"script_score\":{\"query\":{\"match_all\":{}},\"script\":{\"source\":\"1\"}}}}",
                "{\"query\":{\"ids\":{\"values\":[\"1\"]}},\"script_fields\":{\"f\":{\"script\":\"1\"}}}",
                "{\"query\":{\"term\":{\"_id\":\"1\"}}}",
                "{\"query\":{\"term\":{\"user_id\":\"1\"}},\"script_fields\":{\"f\":{\"script\":\"1\"}}}",
                "{\"query\":{\"term\":{\"x\\\"id\":\"1\"}},\"script_fields\":{}}",
                "{\"query\":{\"term\":{\"t\":\"\\\"id\\\":\"}},\"script_fields\":{}}",
                "{\"query\":{\"match_all\":{}}}");
        for (String body : bodies) {
            CacheRequest r = request(body, Map.of());
            ResponseCaching.Request byText = ResponseCaching.Request.of(r.text());
            assertThat(r.dependsOnNow()).as(body).isEqualTo(byText.dependsOnNow());
            assertThat(r.dependsOnStoredScripts()).as(body).isEqualTo(byText.dependsOnStoredScripts());
        }
        assertThat(request(bodies.get(0), Map.of()).dependsOnNow()).isTrue();
        assertThat(request(bodies.get(2), Map.of()).dependsOnNow()).as("an escaped letter").isTrue();
        assertThat(request(bodies.get(4), Map.of()).dependsOnStoredScripts()).isTrue();
        assertThat(request(bodies.get(5), Map.of()).dependsOnStoredScripts()).isFalse();
        assertThat(request(bodies.get(7), Map.of()).dependsOnStoredScripts()).isFalse();
        assertThat(request(bodies.get(8), Map.of()).dependsOnStoredScripts()).as("a name ending in id").isFalse();
        assertThat(request(bodies.get(9), Map.of()).dependsOnStoredScripts()).as("a name ending in a quote and id")
                .isTrue();
        assertThat(request(bodies.get(10), Map.of()).dependsOnStoredScripts()).as("a value with \"id\": in it")
                .isFalse();
        assertThat(request(null, params("q", "date:[now-1d TO *]")).dependsOnNow()).as("a parameter").isTrue();
        assertThat(request("{\"script_fields\":{}}", params("x", "\"id\":1")).dependsOnStoredScripts()).isTrue();
    }
}
