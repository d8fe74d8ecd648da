package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.adapter.out.qdrant.FakeQdrant;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Scroll ids, point-in-time ids and task ids live in the gateway process: after a restart on the same data (and the
 * same Qdrant) each answers Elasticsearch's error for one that is gone, while the documents are all there.
 */
class ContextsAcrossRestartHttpTest {
    @TempDir
    Path temp;

    @ParameterizedTest
    @ValueSource(strings = {"lucene", "qdrant"})
    void aRestartInvalidatesScrollsPointsInTimeAndTasks(String backend) throws Exception {
        Path data = Files.createDirectories(temp.resolve(backend));
        try (FakeQdrant qdrant = new FakeQdrant()) {
            String[] env = backend.equals("qdrant")
                    ? new String[] {"QEG_BACKEND", "qdrant", "QEG_QDRANT_URL", qdrant.uri().toString()}
                    : new String[0];
            String scrollId;
            String pit;
            String task;
            try (RunningGateway first = RunningGateway.start(data, env)) {
                EsClient es = first.client;
                StringBuilder bulk = new StringBuilder();
                for (int i = 1; i <= 5; i++) {
                    bulk.append(json("{'index':{'_id':'d" + i + "'}}\n{'n':" + i + "}\n"));
                }
                assertThat(es.send("POST", "/kept/_bulk?refresh=true", bulk.toString(), "application/x-ndjson")
                        .status()).isEqualTo(200);
                EsClient.Reply scroll = es.post("/kept/_search?scroll=10m", json("{'size':2}"));
                assertThat(scroll.status()).as(scroll.toString()).isEqualTo(200);
                scrollId = scroll.json().path("_scroll_id").asText();
                EsClient.Reply opened = es.post("/kept/_pit?keep_alive=10m", "");
                assertThat(opened.status()).as(opened.toString()).isEqualTo(200);
                pit = opened.json().path("id").asText();
                EsClient.Reply started = es.post("/kept/_update_by_query?wait_for_completion=false", "");
                assertThat(started.status()).as(started.toString()).isEqualTo(200);
                task = started.json().path("task").asText();
                // each is live before the restart
                assertThat(es.post("/_search/scroll", json("{'scroll':'10m','scroll_id':'" + scrollId + "'}"))
                        .status()).isEqualTo(200);
                assertThat(es.post("/_search", "{\"pit\":{\"id\":\"" + pit + "\"}}").status()).isEqualTo(200);
                assertThat(es.get("/_tasks/" + task + "?wait_for_completion=true").status()).isEqualTo(200);
            }
            try (RunningGateway second = RunningGateway.start(data, env)) {
                EsClient es = second.client;
                assertThat(es.get("/kept/_count").json().path("count").asInt()).isEqualTo(5);

                EsClient.Reply scroll = es.post("/_search/scroll",
                        json("{'scroll':'10m','scroll_id':'" + scrollId + "'}"));
                assertThat(scroll.status()).as(scroll.toString()).isEqualTo(404);
                assertThat(scroll.errorType()).isEqualTo("search_phase_execution_exception");
                assertThat(scroll.json().path("error").path("root_cause").get(0).path("type").asText())
                        .isEqualTo("search_context_missing_exception");

                EsClient.Reply search = es.post("/_search", "{\"pit\":{\"id\":\"" + pit + "\"}}");
                assertThat(search.status()).as(search.toString()).isEqualTo(404);
                assertThat(search.errorType()).isEqualTo("search_phase_execution_exception");
                assertThat(search.json().path("error").path("root_cause").get(0).path("type").asText())
                        .isEqualTo("search_context_missing_exception");
                assertThat(search.json().path("error").path("failed_shards").get(0).path("index").asText())
                        .isEqualTo("kept");
                EsClient.Reply close = es.send("DELETE", "/_pit", "{\"id\":\"" + pit + "\"}", "application/json");
                assertThat(close.status()).isEqualTo(404);
                assertThat(close.json().toString()).isEqualTo("{\"succeeded\":false,\"num_freed\":0}");

                EsClient.Reply gone = es.get("/_tasks/" + task);
                assertThat(gone.status()).as(gone.toString()).isEqualTo(404);
                assertThat(gone.errorType()).isEqualTo("resource_not_found_exception");
            }
        }
    }
}
