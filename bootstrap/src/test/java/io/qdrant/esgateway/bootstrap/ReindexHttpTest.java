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
 * {@code _reindex} and tasks over HTTP on both backends (Qdrant: the spec-checked fake): copying a whole index, a
 * query's matches with {@code _source} filtering in small batches, {@code max_docs}, several sources, {@code op_type:
 * create} with {@code conflicts} abort and proceed, the destination created with dynamic mappings, ES's refusals;
 * {@code wait_for_completion=false} on {@code _reindex}, {@code _delete_by_query} and {@code _update_by_query} and
 * the task read back with {@code GET /_tasks/{id}}.
 */
class ReindexHttpTest {
    @RegisterExtension
    static final BothBackends.PerClass gateways = BothBackends.perClass();

    static Stream<String> backends() {
        return BothBackends.names();
    }

    private static void documents(EsClient es, String index, int count) {
        assertThat(es.put("/" + index, json("{'mappings':{'properties':{'tag':{'type':'keyword'},"
                + "'n':{'type':'integer'}}}}")).status()).isEqualTo(200);
        StringBuilder bulk = new StringBuilder();
        for (int n = 1; n <= count; n++) {
            bulk.append(json("{'index':{'_id':'" + n + "'}}\n{'tag':'" + (n % 2 == 0 ? "even" : "odd") + "','n':" + n
                    + ",'extra':'x" + n + "'}\n"));
        }
        assertThat(es.send("POST", "/" + index + "/_bulk", bulk.toString(), "application/x-ndjson").status())
                .isEqualTo(200);
    }

    private static String counters(JsonNode body) {
        List<String> out = new ArrayList<>();
        for (String key : List.of("total", "updated", "created", "deleted", "batches", "version_conflicts", "noops")) {
            out.add(key + "=" + body.path(key).asText());
        }
        return String.join(",", out);
    }

    private static List<String> ids(EsClient es, String index) {
        List<String> out = new ArrayList<>();
        es.post("/" + index + "/_search", json("{'size':100,'sort':[{'n':'asc'}]}")).json().path("hits").path("hits")
                .forEach(h -> out.add(h.path("_id").asText()));
        return out;
    }

    @ParameterizedTest
    @MethodSource("backends")
    void copiesAsElasticsearch(String backend) {
        EsClient es = gateways.client(backend);
        documents(es, "rsrc", 7);
        EsClient.Reply all = es.post("/_reindex?refresh=true", json("{'source':{'index':'rsrc'},'dest':{'index':'rall'}}"));
        assertThat(all.status()).as(all.toString()).isEqualTo(200);
        assertThat(counters(all.json())).isEqualTo("total=7,updated=0,created=7,deleted=0,batches=1,"
                + "version_conflicts=0,noops=0");
        assertThat(all.json().fieldNames().next()).isEqualTo("took");
        assertThat(ids(es, "rall")).containsExactly("1", "2", "3", "4", "5", "6", "7");
        assertThat(es.get("/rall/_mapping").json().path("rall").path("mappings").path("properties").path("tag")
                .path("type").asText()).as("dynamic mapping of a created destination").isEqualTo("text");
        assertThat(es.get("/rall/_doc/3").json().path("_source").toString())
                .isEqualTo("{\"tag\":\"odd\",\"n\":3,\"extra\":\"x3\"}");

        EsClient.Reply some = es.post("/_reindex", json("{'source':{'index':'rsrc','query':{'term':{'tag':'even'}},"
                + "'_source':['n'],'size':1},'dest':{'index':'reven'}}"));
        assertThat(counters(some.json())).isEqualTo("total=3,updated=0,created=3,deleted=0,batches=3,"
                + "version_conflicts=0,noops=0");
        assertThat(es.get("/reven/_doc/4").json().path("_source").toString()).isEqualTo("{\"n\":4}");

        EsClient.Reply limited = es.post("/_reindex", json("{'max_docs':4,'source':{'index':'rsrc','size':3},"
                + "'dest':{'index':'rall'}}"));
        assertThat(counters(limited.json())).as("existing documents are updated").isEqualTo("total=4,updated=4,"
                + "created=0,deleted=0,batches=2,version_conflicts=0,noops=0");

        EsClient.Reply create = es.post("/_reindex", json("{'source':{'index':'rsrc'},'dest':{'index':'reven',"
                + "'op_type':'create'}}"));
        assertThat(create.status()).isEqualTo(409);
        assertThat(counters(create.json())).isEqualTo("total=7,updated=0,created=4,deleted=0,batches=1,"
                + "version_conflicts=3,noops=0");
        assertThat(create.json().path("failures").size()).isEqualTo(3);
        assertThat(create.json().path("failures").get(0).path("cause").path("type").asText())
                .isEqualTo("version_conflict_engine_exception");
        EsClient.Reply proceed = es.post("/_reindex", json("{'conflicts':'proceed','source':{'index':'rsrc'},"
                + "'dest':{'index':'reven','op_type':'create'}}"));
        assertThat(proceed.status()).isEqualTo(200);
        assertThat(counters(proceed.json())).isEqualTo("total=7,updated=0,created=0,deleted=0,batches=1,"
                + "version_conflicts=7,noops=0");
        assertThat(proceed.json().path("failures").size()).isZero();

        documents(es, "rsrc2", 2);
        EsClient.Reply two = es.post("/_reindex", json("{'source':{'index':['rsrc','rsrc2']},'dest':{'index':'rtwo'}}"));
        assertThat(counters(two.json())).as("one batch over both").isEqualTo("total=9,updated=2,created=7,deleted=0,batches=1,"
                + "version_conflicts=0,noops=0");
    }

    @ParameterizedTest
    @MethodSource("backends")
    void refusalsAsElasticsearch(String backend) {
        EsClient es = gateways.client(backend);
        documents(es, "rbad", 2);
        EsClient.Reply self = es.post("/_reindex", json("{'source':{'index':'rbad'},'dest':{'index':'rbad'}}"));
        assertThat(self.status()).isEqualTo(400);
        assertThat(self.errorReason()).isEqualTo("Validation Failed: 1: reindex cannot write into an index its"
                + " reading from [rbad];");
        assertThat(es.post("/_reindex", json("{'source':{'index':'nope'},'dest':{'index':'x'}}")).status())
                .isEqualTo(404);
        assertThat(es.post("/_reindex", json("{'source':{'index':'rbad'}}")).errorReason())
                .contains("index must be specified");
        for (String refused : List.of("{'source':{'index':'rbad'},'dest':{'index':'y'},'script':{'source':'x'}}",
                "{'source':{'index':'rbad','remote':{'host':'http://h:9200'}},'dest':{'index':'y'}}",
                "{'source':{'index':'rbad','slice':{'id':0,'max':2}},'dest':{'index':'y'}}")) {
            EsClient.Reply reply = es.post("/_reindex", json(refused));
            assertThat(reply.status()).as(refused).isEqualTo(400);
            assertThat(reply.errorReason()).containsAnyOf("[script]", "[remote]", "[slice]");
        }
        assertThat(es.post("/_reindex", json("{'source':{'index':'rbad'},'dest':{'index':'y'},'foo':1}"))
                .errorType()).isEqualTo("x_content_parse_exception");
        assertThat(es.get("/y").status()).as("nothing written by a refused request").isEqualTo(404);
    }

    private static JsonNode awaitTask(EsClient es, String task) {
        EsClient.Reply reply = es.get("/_tasks/" + task + "?wait_for_completion=true&timeout=30s");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        JsonNode body = reply.json();
        assertThat(body.path("completed").asBoolean()).isTrue();
        assertThat(body.path("task").path("id").asLong()).isEqualTo(Long.parseLong(task.substring(
                task.indexOf(':') + 1)));
        return body;
    }

    @ParameterizedTest
    @MethodSource("backends")
    void tasksOfOperationsThatDoNotWait(String backend) {
        EsClient es = gateways.client(backend);
        documents(es, "rtask", 6);
        EsClient.Reply started = es.post("/_reindex?wait_for_completion=false",
                json("{'source':{'index':'rtask'},'dest':{'index':'rtask2'}}"));
        assertThat(started.status()).isEqualTo(200);
        String task = started.json().path("task").asText();
        assertThat(task).startsWith("qdrant-es-gateway:");
        JsonNode done = awaitTask(es, task);
        assertThat(done.path("task").path("action").asText()).isEqualTo("indices:data/write/reindex");
        assertThat(done.path("task").path("description").asText()).isEqualTo("reindex from [rtask] to [rtask2]");
        assertThat(counters(done.path("response"))).isEqualTo("total=6,updated=0,created=6,deleted=0,batches=1,"
                + "version_conflicts=0,noops=0");
        assertThat(done.path("task").path("status").path("created").asLong()).isEqualTo(6);
        assertThat(ids(es, "rtask2")).hasSize(6);

        String update = es.post("/rtask/_update_by_query?wait_for_completion=false",
                json("{'query':{'term':{'tag':'odd'}}}")).json().path("task").asText();
        assertThat(counters(awaitTask(es, update).path("response"))).isEqualTo("total=3,updated=3,created=0,"
                + "deleted=0,batches=1,version_conflicts=0,noops=0");
        assertThat(es.get("/rtask/_doc/1").json().path("_version").asInt()).isEqualTo(2);

        String delete = es.post("/rtask/_delete_by_query?wait_for_completion=false",
                json("{'query':{'term':{'tag':'even'}}}")).json().path("task").asText();
        JsonNode deleted = awaitTask(es, delete);
        assertThat(deleted.path("task").path("action").asText()).isEqualTo("indices:data/write/delete/byquery");
        assertThat(deleted.path("response").path("deleted").asLong()).isEqualTo(3);
        assertThat(ids(es, "rtask")).containsExactly("1", "3", "5");

        String failing = es.post("/_reindex?wait_for_completion=false",
                json("{'source':{'index':'missing'},'dest':{'index':'x'}}")).json().path("task").asText();
        JsonNode failed = awaitTask(es, failing);
        assertThat(failed.path("error").path("type").asText()).isEqualTo("index_not_found_exception");
        assertThat(failed.has("response")).isFalse();

        assertThat(es.get("/_tasks").json().path("nodes").isObject()).isTrue();
        EsClient.Reply unknown = es.get("/_tasks/qdrant-es-gateway:99999");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.errorType()).isEqualTo("resource_not_found_exception");
        EsClient.Reply malformed = es.get("/_tasks/nonsense");
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.errorReason()).isEqualTo("malformed task id nonsense");
        // a finished task cannot be cancelled: Elasticsearch's node failure
        EsClient.Reply cancel = es.post("/_tasks/" + task + "/_cancel", "");
        assertThat(cancel.status()).isEqualTo(200);
        assertThat(cancel.json().path("node_failures").get(0).path("caused_by").path("reason").asText())
                .isEqualTo("task [" + task + "] is not found");
    }
}
