package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Running by-query and reindex tasks on both backends (Qdrant: the spec-checked fake), kept running by
 * {@code requests_per_second}: their live {@code status}, {@code _cancel} (they stop between batches and store
 * {@code canceled: "by user request"} with the counters so far), {@code _rethrottle}, and the errors for tasks that
 * are not running.
 */
class TaskCancelHttpTest {
    @RegisterExtension
    static final BothBackends.PerClass gateways = BothBackends.perClass();

    static Stream<String> backends() {
        return BothBackends.names();
    }

    private static void documents(EsClient es, String index, int count) {
        StringBuilder bulk = new StringBuilder();
        for (int n = 1; n <= count; n++) {
            bulk.append(json("{'index':{'_id':'" + n + "'}}\n{'n':" + n + "}\n"));
        }
        assertThat(es.send("POST", "/" + index + "/_bulk?refresh=true", bulk.toString(), "application/x-ndjson")
                .status()).isEqualTo(200);
    }

    private static JsonNode task(EsClient es, String id) {
        EsClient.Reply got = es.get("/_tasks/" + id);
        assertThat(got.status()).as(got.toString()).isEqualTo(200);
        return got.json();
    }

    /** Waits until the running task has written {@code batches} batches. */
    private static JsonNode awaitBatches(EsClient es, String id, int batches) throws InterruptedException {
        for (int i = 0; i < 1000; i++) {
            JsonNode t = task(es, id);
            if (t.path("task").path("status").path("batches").asInt() >= batches) {
                return t;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("task " + id + " wrote no batch");
    }

    private static JsonNode awaitCompleted(EsClient es, String id) {
        EsClient.Reply done = es.get("/_tasks/" + id + "?wait_for_completion=true&timeout=20s");
        assertThat(done.status()).as(done.toString()).isEqualTo(200);
        assertThat(done.json().path("completed").asBoolean()).isTrue();
        return done.json();
    }

    @ParameterizedTest
    @MethodSource("backends")
    void aThrottledDeleteByQueryShowsItsProgressAndStopsWhenCancelled(String backend) throws Exception {
        EsClient es = gateways.client(backend);
        documents(es, "slow", 10);
        // one document per batch, a batch every 5 s: the task stays between its first and second batch
        EsClient.Reply started = es.post("/slow/_delete_by_query?wait_for_completion=false&scroll_size=1"
                + "&requests_per_second=0.2", json("{'query':{'match_all':{}}}"));
        assertThat(started.status()).as(started.toString()).isEqualTo(200);
        String id = started.json().path("task").asText();

        JsonNode running = awaitBatches(es, id, 1);
        assertThat(running.path("completed").asBoolean()).isFalse();
        JsonNode info = running.path("task");
        assertThat(info.path("cancellable").asBoolean()).isTrue();
        assertThat(info.path("cancelled").asBoolean()).isFalse();
        JsonNode status = info.path("status");
        assertThat(status.path("total").asLong()).isEqualTo(10);
        assertThat(status.path("deleted").asLong()).isEqualTo(1);
        assertThat(status.path("batches").asInt()).isEqualTo(1);
        assertThat(status.path("requests_per_second").asDouble()).isEqualTo(0.2);
        assertThat(es.get("/_tasks").json().path("nodes").path("qdrant-es-gateway").path("tasks").path(id)
                .path("status").path("deleted").asLong()).isEqualTo(1);

        EsClient.Reply cancel = es.post("/_tasks/" + id + "/_cancel", "");
        assertThat(cancel.status()).as(cancel.toString()).isEqualTo(200);
        JsonNode listed = cancel.json().path("nodes").path("qdrant-es-gateway").path("tasks").path(id);
        assertThat(listed.path("cancelled").asBoolean()).isTrue();
        assertThat(listed.path("action").asText()).isEqualTo("indices:data/write/delete/byquery");

        JsonNode done = awaitCompleted(es, id);
        JsonNode response = done.path("response");
        assertThat(response.path("canceled").asText()).isEqualTo("by user request");
        assertThat(response.path("deleted").asLong()).isEqualTo(1);
        assertThat(response.path("batches").asInt()).isEqualTo(1);
        assertThat(response.path("failures").size()).isZero();
        // as Elasticsearch: the wait the cancel cut short is not counted, and what was left of it stays reported
        assertThat(response.path("throttled_millis").asLong()).isZero();
        assertThat(response.path("throttled_until_millis").asLong()).isBetween(1L, 5000L);
        // cancelling unthrottles, as in Elasticsearch
        assertThat(response.path("requests_per_second").asDouble()).isEqualTo(-1);
        assertThat(done.path("task").path("status").path("canceled").asText()).isEqualTo("by user request");
        assertThat(done.path("task").path("cancelled").asBoolean()).isTrue();
        assertThat(es.get("/slow/_count").json().path("count").asInt()).isEqualTo(9);

        EsClient.Reply again = es.post("/_tasks/" + id + "/_cancel", "");
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().path("nodes").size()).isZero();
        assertThat(again.json().path("node_failures").get(0).path("caused_by").path("type").asText())
                .isEqualTo("resource_not_found_exception");
    }

    @ParameterizedTest
    @MethodSource("backends")
    void cancelByActionAndRethrottle(String backend) throws Exception {
        EsClient es = gateways.client(backend);
        documents(es, "src", 6);
        String update = es.post("/src/_update_by_query?wait_for_completion=false&scroll_size=1"
                + "&requests_per_second=0.1", "").json().path("task").asText();
        awaitBatches(es, update, 1);
        EsClient.Reply none = es.post("/_tasks/_cancel?actions=*reindex", "");
        assertThat(none.json().toString()).isEqualTo("{\"nodes\":{}}");
        EsClient.Reply byAction = es.post("/_tasks/_cancel?actions=*byquery&wait_for_completion=true", "");
        assertThat(byAction.status()).isEqualTo(200);
        assertThat(byAction.json().path("nodes").path("qdrant-es-gateway").path("tasks").has(update)).isTrue();
        JsonNode updated = awaitCompleted(es, update).path("response");
        assertThat(updated.path("canceled").asText()).isEqualTo("by user request");
        assertThat(updated.path("updated").asLong()).isEqualTo(1);

        // a reindex at one document per 10 s, sped up: it finishes every batch at once
        String reindex = es.post("/_reindex?wait_for_completion=false&requests_per_second=0.1",
                json("{'source':{'index':'src','size':1},'dest':{'index':'dst'}}")).json().path("task").asText();
        awaitBatches(es, reindex, 1);
        EsClient.Reply faster = es.post("/_reindex/" + reindex + "/_rethrottle?requests_per_second=-1", "");
        assertThat(faster.status()).as(faster.toString()).isEqualTo(200);
        assertThat(faster.json().path("nodes").path("qdrant-es-gateway").path("tasks").path(reindex)
                .path("status").path("requests_per_second").asDouble()).isEqualTo(-1);
        JsonNode copied = awaitCompleted(es, reindex).path("response");
        assertThat(copied.has("canceled")).isFalse();
        assertThat(copied.path("created").asLong()).isEqualTo(6);
        assertThat(copied.path("batches").asInt()).isEqualTo(6);

        EsClient.Reply missing = es.post("/_reindex/" + reindex + "/_rethrottle?requests_per_second=5", "");
        assertThat(missing.status()).isEqualTo(200);
        assertThat(missing.json().path("node_failures").get(0).path("caused_by").path("reason").asText())
                .isEqualTo("task [" + reindex + "] is missing");
        EsClient.Reply malformed = es.post("/_tasks/nonsense/_cancel", "");
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.errorReason()).isEqualTo("malformed task id nonsense");
    }
}
