package io.qdrant.esgateway.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Info, health, _cat/indices, probes and metrics over HTTP on a real gateway. */
class ClusterHttpTest {
    @TempDir
    static Path data;
    static RunningGateway gateway;
    static EsClient es;

    @BeforeAll
    static void start() {
        gateway = RunningGateway.start(data, "QEG_ES_VERSION", "8.14.3", "QEG_CLUSTER_NAME", "test-cluster");
        es = gateway.client;
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @Test
    void rootAnswersWithTheElasticsearchInfoShape() {
        EsClient.Reply r = es.get("/");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("X-Elastic-Product")).isEqualTo("Elasticsearch");
        assertThat(r.header("Content-Type")).startsWith("application/json");
        JsonNode info = r.json();
        assertThat(info.fieldNames()).toIterable()
                .containsExactly("name", "cluster_name", "cluster_uuid", "version", "tagline");
        assertThat(info.path("name").asText()).isEqualTo("test-node");
        assertThat(info.path("cluster_name").asText()).isEqualTo("test-cluster");
        assertThat(info.path("version").fieldNames()).toIterable().containsExactly("number", "build_flavor",
                "build_type", "build_hash", "build_date", "build_snapshot", "lucene_version",
                "minimum_wire_compatibility_version", "minimum_index_compatibility_version");
        assertThat(info.at("/version/number").asText()).isEqualTo("8.14.3");
        assertThat(info.at("/version/build_snapshot").asBoolean()).isFalse();
        assertThat(info.path("tagline").asText()).isEqualTo("You Know, for Search");
        assertThat(es.get("/").json().path("cluster_uuid")).as("stable per data directory")
                .isEqualTo(info.path("cluster_uuid"));
        EsClient.Reply head = es.head("/");
        assertThat(head.status()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
        assertThat(head.header("X-Elastic-Product")).isEqualTo("Elasticsearch");
        assertThat(head.header("Content-Type")).isEqualTo("application/json");
    }

    @Test
    void healthIsGreenAndCountsIndices() {
        es.put("/h1");
        JsonNode all = es.get("/_cluster/health").json();
        assertThat(all.path("cluster_name").asText()).isEqualTo("test-cluster");
        assertThat(all.path("status").asText()).isEqualTo("green");
        assertThat(all.path("timed_out").asBoolean()).isFalse();
        assertThat(all.path("active_primary_shards").asInt()).isGreaterThanOrEqualTo(1);
        assertThat(all.path("active_shards_percent_as_number").asDouble()).isEqualTo(100.0);
        JsonNode one = es.get("/_cluster/health/h1?wait_for_status=yellow&timeout=5s").json();
        assertThat(one.path("active_primary_shards").asInt()).isEqualTo(1);
        // Elasticsearch waits for a missing index until the timeout, then answers 408 red; the gateway at once
        EsClient.Reply missing = es.get("/_cluster/health/no-such-index");
        assertThat(missing.status()).isEqualTo(408);
        assertThat(missing.json().path("status").asText()).isEqualTo("red");
        assertThat(missing.json().path("timed_out").asBoolean()).isTrue();
        assertThat(es.get("/_cluster/health?wait_for_status=purple").errorReason())
                .isEqualTo("No enum constant org.elasticsearch.cluster.health.ClusterHealthStatus.PURPLE");
        assertThat(es.get("/_cluster/health?level=shards").status()).isEqualTo(400);
        // expand_wildcards is not applied here: none (expand nothing) is refused rather than ignored
        EsClient.Reply none = es.get("/_cluster/health/h*?expand_wildcards=none");
        assertThat(none.status()).isEqualTo(400);
        assertThat(none.errorType()).isEqualTo("unsupported_operation_exception");
        assertThat(es.get("/_cat/aliases?expand_wildcards=none").status()).isEqualTo(400);
        assertThat(es.get("/_cluster/health/h*?expand_wildcards=open,closed").status()).isEqualTo(200);
        assertThat(es.get("/_cluster/health?expand_wildcards=nope").errorReason())
                .isEqualTo("No enum constant org.elasticsearch.action.support.IndicesOptions.WildcardStates.NOPE");
    }

    @Test
    void catIndicesAsTextAndJson() {
        es.put("/cat-b");
        es.put("/cat-a", "{\"settings\":{\"number_of_replicas\":0}}");
        EsClient.Reply text = es.get("/_cat/indices/cat-*?v");
        assertThat(text.status()).isEqualTo(200);
        assertThat(text.header("Content-Type")).startsWith("text/plain");
        String[] lines = text.body().split("\n");
        assertThat(lines).hasSize(3);
        assertThat(lines[0].split(" +")).containsExactly("health", "status", "index", "uuid", "pri", "rep",
                "docs.count", "docs.deleted", "store.size", "pri.store.size", "dataset.size");
        assertThat(lines[1].split(" +")).startsWith("green", "open", "cat-a");
        assertThat(lines[2].split(" +")[2]).isEqualTo("cat-b");

        JsonNode json = es.get("/_cat/indices/cat-*?format=json&h=index,rep,docs.count&s=index:desc").json();
        assertThat(json.toString()).isEqualTo(
                "[{\"index\":\"cat-b\",\"rep\":\"1\",\"docs.count\":\"0\"},{\"index\":\"cat-a\",\"rep\":\"0\",\"docs.count\":\"0\"}]");
        JsonNode bytes = es.get("/_cat/indices/cat-a?format=json&h=store.size&bytes=b").json();
        assertThat(bytes.at("/0/store.size").asText()).matches("\\d+");
        // unknown columns are left out and aliases name their columns, as in Elasticsearch
        assertThat(es.get("/_cat/indices/cat-a?format=json&h=i,nope").json().toString())
                .isEqualTo("[{\"i\":\"cat-a\"}]");
        assertThat(es.get("/_cat/indices?format=yaml").status()).isEqualTo(400);
        assertThat(es.get("/_cat/indices/no-such").status()).isEqualTo(404);
    }

    @Test
    void probesAndMetrics() {
        assertThat(es.get("/healthz").json().toString()).isEqualTo("{\"status\":\"ok\"}");
        EsClient.Reply ready = es.get("/readyz");
        assertThat(ready.status()).isEqualTo(200);
        assertThat(ready.json().path("status").asText()).isEqualTo("ready");
        assertThat(ready.json().at("/dependencies/catalog/status").asText()).isEqualTo("up");
        assertThat(ready.json().path("dependencies").size()).isEqualTo(2);
        es.get("/_cluster/health");
        es.get("/no-such-index-for-metrics");
        EsClient.Reply metrics = es.get("/metrics");
        assertThat(metrics.status()).isEqualTo(200);
        assertThat(metrics.header("Content-Type")).startsWith("text/plain");
        assertThat(metrics.body())
                .contains("es_requests_seconds_count{api=\"cluster.health\",method=\"GET\",status=\"200\"}")
                .contains("es_requests_seconds_count{api=\"indices.get\",method=\"GET\",status=\"404\"}")
                .contains("jvm_memory_used_bytes");
    }
}
