package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.qdrant.esgateway.adapter.out.qdrant.FakeQdrant;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kNN and hybrid search through the whole gateway with {@code QEG_BACKEND=qdrant} (the spec-checked fake Qdrant):
 * a knn section, knn with a query (scores summed), the knn query, reciprocal rank fusion of a kNN and a standard
 * retriever, {@code _source: false} and {@code size: 0}, {@code _count} with a knn query, and a refused combination.
 */
class QdrantKnnHttpScenarioTest {
    @TempDir
    static Path data;
    static FakeQdrant qdrant;
    static RunningGateway gateway;
    static EsClient es;

    @BeforeAll
    static void start() {
        qdrant = new FakeQdrant();
        gateway = RunningGateway.start(data, "QEG_BACKEND", "qdrant", "QEG_QDRANT_URL", qdrant.uri().toString());
        es = gateway.client;
    }

    @AfterAll
    static void stop() {
        gateway.close();
        qdrant.close();
    }

    private static List<String> ids(JsonNode search) {
        List<String> out = new ArrayList<>();
        search.path("hits").path("hits").forEach(h -> out.add(h.path("_id").asText()));
        return out;
    }

    private static double score(JsonNode search, int hit) {
        return search.path("hits").path("hits").get(hit).path("_score").asDouble();
    }

    @Test
    void knnAndHybridSearch() {
        assertThat(es.put("/items", json("{'mappings':{'properties':{'tag':{'type':'keyword'},"
                + "'vec':{'type':'dense_vector','dims':3,'similarity':'cosine'}}}}")).status()).isEqualTo(200);
        String bulk = """
                {"index":{"_index":"items","_id":"x"}}
                {"tag":"a","vec":[1,0,0]}
                {"index":{"_index":"items","_id":"y"}}
                {"tag":"b","vec":[0,1,0]}
                {"index":{"_index":"items","_id":"xy"}}
                {"tag":"a","vec":[1,1,0]}
                {"index":{"_index":"items","_id":"z"}}
                {"tag":"b","vec":[0,0,1]}
                {"index":{"_index":"items","_id":"none"}}
                {"tag":"b"}
                """;
        EsClient.Reply bulked = es.send("POST", "/_bulk?refresh=true", bulk, "application/x-ndjson");
        assertThat(bulked.json().path("errors").asBoolean()).as(bulked.body()).isFalse();
        qdrant.requests.clear();

        JsonNode knn = es.post("/items/_search", json("{'knn':{'field':'vec','query_vector':[2,0,0],'k':2,"
                + "'num_candidates':10}}")).json();
        assertThat(ids(knn)).containsExactly("x", "xy");
        assertThat(score(knn, 0)).isEqualTo(1.0);
        assertThat(score(knn, 1)).isCloseTo((1 + Math.sqrt(0.5)) / 2, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(knn.path("hits").path("max_score").asDouble()).isEqualTo(1.0);
        assertThat(knn.path("hits").path("total").path("value").asInt()).isEqualTo(2);
        assertThat(qdrant.requests("POST", "/points/query")).hasSize(1);

        // knn ∪ query, scores summed: xy 2 + 0.85 (both), x 2 (query), y 1 (knn)
        JsonNode hybrid = es.post("/items/_search", json("{'query':{'constant_score':{'filter':{'term':{'tag':'a'}},"
                + "'boost':2}},'knn':{'field':'vec','query_vector':[0,3,0],'k':2,'num_candidates':10}}")).json();
        assertThat(ids(hybrid)).containsExactly("xy", "x", "y");
        assertThat(hybrid.path("hits").path("total").path("value").asInt()).isEqualTo(3);
        assertThat(score(hybrid, 0)).isCloseTo(2 + (1 + Math.sqrt(0.5)) / 2, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(score(hybrid, 1)).isEqualTo(2.0);
        assertThat(score(hybrid, 2)).isEqualTo(1.0);

        JsonNode query = es.post("/items/_search", json("{'query':{'bool':{'must':[{'knn':{'field':'vec',"
                + "'query_vector':[0,0,3],'num_candidates':10}}],'filter':[{'term':{'tag':'b'}}]}}}")).json();
        assertThat(ids(query)).containsExactly("z", "y");
        assertThat(score(query, 0)).isEqualTo(1.0);

        JsonNode fused = es.post("/items/_search", json("{'retriever':{'rrf':{'retrievers':["
                + "{'knn':{'field':'vec','query_vector':[1,0.1,0],'k':3,'num_candidates':10}},"
                + "{'standard':{'query':{'ids':{'values':['y']}}}}],'rank_window_size':5}},'size':5}")).json();
        // y: rank 3 in the kNN list and rank 1 in the standard list; x rank 1, xy rank 2 in the kNN list
        assertThat(ids(fused)).containsExactly("y", "x", "xy");
        assertThat(fused.path("hits").path("hits").get(0).path("_rank").asInt()).isEqualTo(1);
        assertThat((float) score(fused, 0)).isEqualTo(1f / 63 + 1f / 61);
        assertThat((float) score(fused, 1)).isEqualTo(1f / 61);

        // the fused hits show fields from the source even when _source is not returned
        JsonNode fusedFields = es.post("/items/_search", json("{'_source':false,'fields':['tag'],'retriever':{'rrf':{"
                + "'retrievers':[{'knn':{'field':'vec','query_vector':[1,0.1,0],'k':3,'num_candidates':10}},"
                + "{'standard':{'query':{'ids':{'values':['y']}}}}],'rank_window_size':5}},'size':5}")).json();
        assertThat(fusedFields.path("hits").path("hits").get(0).has("_source")).isFalse();
        assertThat(fusedFields.path("hits").path("hits").get(0).path("fields").path("tag").get(0).asText())
                .isEqualTo("b");

        qdrant.requests.clear();
        JsonNode noSource = es.post("/items/_search", json("{'_source':false,'knn':{'field':'vec',"
                + "'query_vector':[2,0,0],'k':2,'num_candidates':10}}")).json();
        assertThat(noSource.path("hits").path("hits").get(0).has("_source")).isFalse();
        assertThat(qdrant.requests("POST", "/points").get(0).body().get("with_payload").toString())
                .doesNotContain("_src");
        qdrant.requests.clear();
        JsonNode sizeZero = es.post("/items/_search", json("{'size':0,'knn':{'field':'vec','query_vector':[2,0,0],"
                + "'k':2,'num_candidates':10}}")).json();
        assertThat(sizeZero.path("hits").path("total").path("value").asInt()).isEqualTo(2);
        assertThat(qdrant.requests("POST", "/points")).isEmpty();

        assertThat(es.post("/items/_count", json("{'query':{'knn':{'field':'vec','query_vector':[2,0,0],'k':2,"
                + "'num_candidates':10}}}")).json().path("count").asInt()).isEqualTo(2);

        EsClient.Reply refused = es.post("/items/_search", json("{'query':{'bool':{'should':[{'knn':{'field':'vec',"
                + "'query_vector':[2,0,0],'num_candidates':10}},{'term':{'tag':'a'}}]}}}"));
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body()).contains("[should]").contains("Qdrant backend");

        // kNN next to a query scored per document (BM25) or with highlighting: not combined yet
        for (String body : List.of("{'query':{'term':{'tag':'a'}},'knn':{'field':'vec','query_vector':[2,0,0],'k':2,"
                + "'num_candidates':10}}", "{'knn':{'field':'vec','query_vector':[2,0,0],'k':2,'num_candidates':10},"
                + "'highlight':{'fields':{'tag':{}}}}")) {
            EsClient.Reply reply = es.post("/items/_search", json(body));
            assertThat(reply.status()).as(body).isEqualTo(400);
            assertThat(reply.body()).as(body).contains("[knn]").contains("Qdrant backend");
        }

        assertThat(es.delete("/items").status()).isEqualTo(200);
        assertThat(qdrant.violations).isEmpty();
    }
}
