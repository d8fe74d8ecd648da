package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.adapter.out.lucene.encoding.FieldEncoding;
import io.qdrant.esgateway.adapter.out.lucene.engine.IndexEngine;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig.OpenMode;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An embedded index holding a routed document written when {@code _routing} was stored only: new routed writes are
 * accepted (201) and keep their routing; a query on {@code _routing} there is a 400 that says to reindex.
 */
class LegacyRoutingHttpTest {
    @TempDir
    Path temp;

    @Test
    void aLegacyIndexTakesRoutedWritesAndRefusesRoutingQueriesWithA400() throws Exception {
        Path data = Files.createDirectories(temp.resolve("data"));
        String uuid;
        try (RunningGateway first = RunningGateway.start(data)) {
            EsClient es = first.client;
            assertThat(es.put("/legacy", json("{'mappings':{'properties':{'tag':{'type':'keyword'}}}}")).status())
                    .isEqualTo(200);
            EsClient.Reply put = es.put("/legacy/_doc/plain?refresh=true", json("{'tag':'t'}"));
            assertThat(put.status()).as(put.toString()).isEqualTo(201);
            uuid = es.get("/legacy/_settings").json().path("legacy").path("settings").path("index").path("uuid")
                    .asText();
        }
        // a routed document as the encoding wrote it before _routing was indexed: the stored field only
        Path index = data.resolve("lucene").resolve("indices").resolve(uuid);
        try (Directory dir = FSDirectory.open(index);
             IndexWriter writer = new IndexWriter(dir, IndexEngine.config(OpenMode.APPEND))) {
            JsonObject source = (JsonObject) Json.parse("{\"tag\": \"old\"}");
            writer.addDocument(FieldEncoding.encode(Mappings.parse(Json.parse(
                            "{\"properties\": {\"tag\": {\"type\": \"keyword\"}}}")),
                    new IndexableDocument("old", new DocumentVersion(1, 1, DocumentVersion.PRIMARY_TERM), source,
                            List.of(new IndexedValue.Keyword("tag", "old")), Optional.of("r-old"))));
            Map<String, String> commitData = new HashMap<>();
            writer.getLiveCommitData().forEach(e -> commitData.put(e.getKey(), e.getValue()));
            commitData.put(IndexEngine.MAX_SEQ_NO, "1");
            writer.setLiveCommitData(commitData.entrySet());
            writer.commit();
        }
        try (RunningGateway second = RunningGateway.start(data)) {
            EsClient es = second.client;
            EsClient.Reply old = es.get("/legacy/_doc/old");
            assertThat(old.status()).as(old.toString()).isEqualTo(200);
            assertThat(old.json().path("_routing").asText()).isEqualTo("r-old");

            EsClient.Reply routed = es.put("/legacy/_doc/new?routing=r-new&refresh=true", json("{'tag':'t'}"));
            assertThat(routed.status()).as(routed.toString()).isEqualTo(201);
            assertThat(routed.json().path("result").asText()).isEqualTo("created");
            EsClient.Reply got = es.get("/legacy/_doc/new");
            assertThat(got.json().path("_routing").asText()).as(got.toString()).isEqualTo("r-new");
            assertThat(es.get("/legacy/_count").json().path("count").asInt()).isEqualTo(3);

            EsClient.Reply search = es.post("/legacy/_search", json("{'query':{'term':{'_routing':'r-new'}}}"));
            assertThat(search.status()).as(search.toString()).isEqualTo(400);
            assertThat(search.toString()).contains("[_routing]").contains("[legacy]").contains("reindex");
            EsClient.Reply exists = es.post("/legacy/_count", json("{'query':{'exists':{'field':'_routing'}}}"));
            assertThat(exists.status()).as(exists.toString()).isEqualTo(400);
            assertThat(exists.toString()).contains("reindex");
            EsClient.Reply sort = es.post("/legacy/_search", json("{'sort':[{'_routing':'asc'}]}"));
            assertThat(sort.status()).as(sort.toString()).isEqualTo(400);
            assertThat(sort.toString()).contains("Fielddata is not supported on field [_routing]");
            EsClient.Reply tag = es.post("/legacy/_search", json("{'query':{'term':{'tag':'t'}}}"));
            assertThat(tag.json().path("hits").path("total").path("value").asInt()).as(tag.toString()).isEqualTo(2);
        }
    }
}
