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
 * {@code _delete_by_query} and {@code _update_by_query} over HTTP on both backends (the embedded store and Qdrant,
 * here the spec-checked fake): the documents they change, Elasticsearch's counters and batches, {@code max_docs},
 * a touch that makes a newly mapped field searchable, the request cache seeing the change, and the refusals.
 */
class ByQueryHttpTest {
    @RegisterExtension
    static final BothBackends.PerClass gateways = BothBackends.perClass();

    static Stream<String> backends() {
        return BothBackends.names();
    }

    private static EsClient es(String backend) {
        return gateways.client(backend);
    }

    private static void tenDocuments(EsClient es, String index) {
        assertThat(es.put("/" + index, json("{'mappings':{'properties':{'tag':{'type':'keyword'},"
                + "'n':{'type':'integer'}}}}")).status()).isEqualTo(200);
        StringBuilder bulk = new StringBuilder();
        for (int n = 1; n <= 10; n++) {
            bulk.append(json("{'index':{'_id':'" + n + "'}}\n{'tag':'" + (n % 2 == 0 ? "even" : "odd") + "','n':" + n
                    + "}\n"));
        }
        assertThat(es.send("POST", "/" + index + "/_bulk", bulk.toString(), "application/x-ndjson").status())
                .isEqualTo(200);
    }

    private static List<String> ids(EsClient es, String index) {
        JsonNode hits = es.post("/" + index + "/_search", json("{'size':100,'sort':[{'n':'asc'}]}")).json()
                .path("hits").path("hits");
        List<String> out = new ArrayList<>();
        hits.forEach(h -> out.add(h.path("_id").asText()));
        return out;
    }

    @ParameterizedTest
    @MethodSource("backends")
    void deleteByQueryDeletesTheMatchesInBatches(String backend) {
        EsClient es = es(backend);
        tenDocuments(es, "dbq");
        EsClient.Reply r = es.post("/dbq/_delete_by_query?scroll_size=2&refresh=true",
                json("{'query':{'term':{'tag':'even'}}}"));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        JsonNode body = r.json();
        assertThat(body.path("total").asLong()).isEqualTo(5);
        assertThat(body.path("deleted").asLong()).isEqualTo(5);
        assertThat(body.path("batches").asInt()).isEqualTo(3);
        assertThat(body.path("version_conflicts").asLong()).isZero();
        assertThat(body.path("failures").size()).isZero();
        assertThat(body.has("updated")).isFalse();
        assertThat(ids(es, "dbq")).containsExactly("1", "3", "5", "7", "9");
        // the ordinary write path: a re-created document continues after its tombstone's version
        assertThat(es.put("/dbq/_doc/2", json("{'tag':'even','n':2}")).json().path("_version").asLong())
                .isEqualTo(3);
    }

    @ParameterizedTest
    @MethodSource("backends")
    void maxDocsAndTheRequestCache(String backend) {
        EsClient es = es(backend);
        tenDocuments(es, "limited");
        String counted = json("{'size':0,'aggs':{'t':{'terms':{'field':'tag'}}}}");
        JsonNode before = es.post("/limited/_search?request_cache=true", counted).json();
        assertThat(before.path("hits").path("total").path("value").asLong()).isEqualTo(10);
        JsonNode body = es.post("/limited/_delete_by_query?max_docs=3",
                json("{'query':{'match_all':{}}}")).json();
        assertThat(body.path("total").asLong()).isEqualTo(3);
        assertThat(body.path("deleted").asLong()).isEqualTo(3);
        assertThat(body.path("batches").asInt()).isEqualTo(1);
        JsonNode after = es.post("/limited/_search?request_cache=true", counted).json();
        assertThat(after.path("hits").path("total").path("value").asLong()).as("no stale cached answer")
                .isEqualTo(7);
    }

    @ParameterizedTest
    @MethodSource("backends")
    void updateByQueryTouchesEveryDocumentAndAppliesTheNewMapping(String backend) {
        EsClient es = es(backend);
        assertThat(es.put("/touch", json("{'mappings':{'dynamic':false,'properties':{'title':{'type':'text'}}}}"))
                .status()).isEqualTo(200);
        es.put("/touch/_doc/a", json("{'title':'one','colour':'red'}"));
        es.put("/touch/_doc/b", json("{'title':'two','colour':'blue'}"));
        es.put("/touch/_doc/c", json("{'title':'three','colour':'red'}"));
        assertThat(es.put("/touch/_mapping", json("{'properties':{'colour':{'type':'keyword'}}}")).status())
                .isEqualTo(200);
        assertThat(es.get("/touch/_count?q=colour:red").json().path("count").asLong()).isZero();

        EsClient.Reply r = es.post("/touch/_update_by_query?refresh=true", null);
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.json().path("total").asLong()).isEqualTo(3);
        assertThat(r.json().path("updated").asLong()).isEqualTo(3);
        assertThat(r.json().path("deleted").asLong()).isZero();
        assertThat(r.json().path("batches").asInt()).isEqualTo(1);
        assertThat(es.get("/touch/_count?q=colour:red").json().path("count").asLong()).isEqualTo(2);
        JsonNode a = es.get("/touch/_doc/a").json();
        assertThat(a.path("_version").asLong()).isEqualTo(2);
        assertThat(a.path("_source").toString()).isEqualTo(json("{'title':'one','colour':'red'}"));

        JsonNode limited = es.post("/touch/_update_by_query?max_docs=1",
                json("{'query':{'term':{'colour':'red'}}}")).json();
        assertThat(limited.path("updated").asLong()).isEqualTo(1);
        assertThat(es.get("/touch/_doc/a").json().path("_version").asLong()
                + es.get("/touch/_doc/c").json().path("_version").asLong()).isEqualTo(5);
    }

    @ParameterizedTest
    @MethodSource("backends")
    void refusals(String backend) {
        EsClient es = es(backend);
        tenDocuments(es, "refused");
        EsClient.Reply noQuery = es.post("/refused/_delete_by_query", null);
        assertThat(noQuery.status()).isEqualTo(400);
        assertThat(noQuery.errorType()).isEqualTo("action_request_validation_exception");
        assertThat(noQuery.errorReason()).isEqualTo("Validation Failed: 1: query is missing;");

        EsClient.Reply script = es.post("/refused/_delete_by_query",
                json("{'query':{'match_all':{}},'script':{'source':'ctx._source.n = 1'}}"));
        assertThat(script.status()).isEqualTo(400);
        assertThat(script.errorReason()).contains("[script]");

        EsClient.Reply async = es.post("/refused/_delete_by_query?wait_for_completion=maybe",
                json("{'query':{'match_all':{}}}"));
        assertThat(async.status()).isEqualTo(400);
        assertThat(async.errorReason()).contains("maybe");

        EsClient.Reply conflicts = es.post("/refused/_delete_by_query?conflicts=never",
                json("{'query':{'match_all':{}}}"));
        assertThat(conflicts.status()).isEqualTo(400);
        assertThat(conflicts.errorType()).isEqualTo("illegal_argument_exception");

        assertThat(es.post("/nowhere/_delete_by_query", json("{'query':{'match_all':{}}}")).status())
                .isEqualTo(404);
        assertThat(ids(es, "refused")).as("nothing was changed").hasSize(10);
    }
}
