package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the catalog and the store keep across restarts, and that a failed backend step leaves no phantom index. */
class PersistenceAndAtomicityTest {

    @Test
    void indicesAliasesAndMappingsSurviveARestart(@TempDir Path data) {
        JsonNode before;
        String clusterUuid;
        try (RunningGateway first = RunningGateway.start(data)) {
            first.client.put("/kept", json("{'mappings':{'properties':{'tag':{'type':'keyword'}}},'aliases':{'k':{}}}"));
            first.client.put("/kept/_mapping", json("{'properties':{'n':{'type':'long'}}}"));
            before = first.client.get("/kept").json();
            clusterUuid = first.client.get("/").json().path("cluster_uuid").asText();
        }
        try (RunningGateway second = RunningGateway.start(data)) {
            assertThat(second.client.get("/kept").json()).isEqualTo(before);
            assertThat(second.client.get("/_alias/k").json().has("kept")).isTrue();
            assertThat(second.client.get("/").json().path("cluster_uuid").asText()).isEqualTo(clusterUuid);
            assertThat(second.client.get("/_cat/indices/kept?format=json&h=index,docs.count").json().toString())
                    .isEqualTo("[{\"index\":\"kept\",\"docs.count\":\"0\"}]");
        }
    }

    @Test
    void externalVersionsSurviveARestart(@TempDir Path data) {
        try (RunningGateway first = RunningGateway.start(data)) {
            assertThat(first.client.put("/ext/_doc/1?version=9007199254740993&version_type=external",
                    json("{'n':1}")).status()).isEqualTo(201);
            assertThat(first.client.put("/ext/_doc/2?version=40&version_type=external", json("{'n':2}")).status())
                    .isEqualTo(201);
        }
        try (RunningGateway second = RunningGateway.start(data)) {
            assertThat(second.client.get("/ext/_doc/1").json().path("_version").asLong())
                    .isEqualTo(9007199254740993L);
            EsClient.Reply lower = second.client.put("/ext/_doc/2?version=40&version_type=external",
                    json("{'n':3}"));
            assertThat(lower.status()).isEqualTo(409);
            assertThat(lower.errorReason()).isEqualTo(
                    "[2]: version conflict, current version [40] is higher or equal to the one provided [40]");
            assertThat(second.client.put("/ext/_doc/2", json("{'n':3}")).json().path("_version").asLong())
                    .isEqualTo(41);
        }
    }

    @Test
    void whenTheBackendCannotCreateStorageNoCatalogEntryRemains(@TempDir Path data) throws Exception {
        try (RunningGateway gw = RunningGateway.start(data)) {
            assertThat(gw.client.put("/works").status()).isEqualTo(200);
            // make the Lucene data directory unusable: replace it with a plain file
            Path lucene = data.resolve("lucene");
            deleteRecursively(lucene);
            Files.writeString(lucene, "not a directory");
            EsClient.Reply r = gw.client.put("/phantom", json("{'aliases':{'phantom-alias':{}}}"));
            assertThat(r.status()).as(r.toString()).isGreaterThanOrEqualTo(500);
            assertThat(r.json().path("error").path("type").asText()).isNotEmpty();
            assertThat(gw.client.head("/phantom").status()).isEqualTo(404);
            assertThat(gw.client.head("/_alias/phantom-alias").status()).isEqualTo(404);
            EsClient.Reply ready = gw.client.get("/readyz");
            assertThat(ready.status()).isEqualTo(503);
            assertThat(ready.json().path("problems").get(0).asText()).startsWith("lucene:");
        }
    }

    private static void deleteRecursively(Path p) throws Exception {
        try (var files = Files.walk(p)) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }
}
