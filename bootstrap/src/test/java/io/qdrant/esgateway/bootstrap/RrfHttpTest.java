package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reciprocal rank fusion over HTTP. The oracle cannot check it (ES 8.15 from Maven Central has no x-pack, where RRF
 * lives), so the expected answer is Elasticsearch 8.15's own documented example ("Reciprocal rank fusion full
 * example"): the same index, documents and request must give ids 3, 2, 4 with scores 0.8333334, 0.5833334, 0.5,
 * {@code _rank} 1..3, a total of 5 and the terms buckets 1:3, 2:2.
 */
class RrfHttpTest {
    @TempDir
    static Path data;
    static RunningGateway gateway;
    static EsClient es;

    private static final String FUSION = "'retriever':{'rrf':{'retrievers':[{'standard':{'query':{'term':"
            + "{'text':'rrf'}}}},{'knn':{'field':'vector','query_vector':[3],'k':5,'num_candidates':5}}],"
            + "'rank_window_size':5,'rank_constant':1}}";

    @BeforeAll
    static void start() {
        gateway = RunningGateway.start(data);
        es = gateway.client;
        es.put("/example-index", json("{'mappings':{'properties':{'text':{'type':'text'},'vector':{'type':"
                + "'dense_vector','dims':1,'index':true,'similarity':'l2_norm','index_options':{'type':'hnsw'}},"
                + "'integer':{'type':'integer'}}}}"));
        es.put("/example-index/_doc/1", json("{'text':'rrf','vector':[5],'integer':1}"));
        es.put("/example-index/_doc/2", json("{'text':'rrf rrf','vector':[4],'integer':2}"));
        es.put("/example-index/_doc/3", json("{'text':'rrf rrf rrf','vector':[3],'integer':1}"));
        es.put("/example-index/_doc/4", json("{'text':'rrf rrf rrf rrf','integer':2}"));
        es.put("/example-index/_doc/5?refresh=true", json("{'vector':[0],'integer':1}"));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    private static List<String> ids(JsonNode response) {
        List<String> out = new ArrayList<>();
        response.at("/hits/hits").forEach(h -> out.add(h.path("_id").asText()));
        return out;
    }

    @Test
    void theDocumentedExampleGivesTheDocumentedAnswer() {
        EsClient.Reply r = es.post("/example-index/_search", json("{" + FUSION + ",'size':3,'aggs':{'int_count':"
                + "{'terms':{'field':'integer'}}}}"));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        JsonNode body = r.json();
        assertThat(ids(body)).containsExactly("3", "2", "4");
        assertThat(body.at("/hits/hits/0/_score").asDouble()).isCloseTo(0.8333334, within(1e-6));
        assertThat(body.at("/hits/hits/1/_score").asDouble()).isCloseTo(0.5833334, within(1e-6));
        assertThat(body.at("/hits/hits/2/_score").asDouble()).isCloseTo(0.5, within(1e-6));
        assertThat(body.at("/hits/hits/2/_rank").asInt()).isEqualTo(3);
        assertThat(body.at("/hits/hits/0/_source/text").asText()).isEqualTo("rrf rrf rrf");
        assertThat(body.at("/hits/total/value").asInt()).isEqualTo(5);
        assertThat(body.at("/hits/max_score").isNull()).isTrue();
        assertThat(body.at("/aggregations/int_count/buckets/0/key").asInt()).isEqualTo(1);
        assertThat(body.at("/aggregations/int_count/buckets/0/doc_count").asInt()).isEqualTo(3);
        assertThat(body.at("/aggregations/int_count/buckets/1/doc_count").asInt()).isEqualTo(2);
    }

    @Test
    void theRankSectionFusesTheQueryAndTheKnnSection() {
        EsClient.Reply r = es.post("/example-index/_search", json("{'query':{'term':{'text':'rrf'}},'knn':{'field':"
                + "'vector','query_vector':[3],'k':5,'num_candidates':5},'rank':{'rrf':{'rank_window_size':5,"
                + "'rank_constant':1}},'size':3}"));
        assertThat(ids(r.json())).containsExactly("3", "2", "4");
    }

    @Test
    void fromPagesTheFusedListAndRanksCountFromTheStart() {
        JsonNode body = es.post("/example-index/_search", json("{" + FUSION + ",'size':2,'from':2}")).json();
        assertThat(ids(body)).containsExactly("4", "1");
        assertThat(body.at("/hits/hits/0/_rank").asInt()).isEqualTo(3);
        assertThat(body.at("/hits/hits/1/_score").asDouble()).isCloseTo(0.45, within(1e-6));
    }

    @Test
    void aFilterAppliesToEveryRetriever() {
        JsonNode body = es.post("/example-index/_search", json("{'retriever':{'rrf':{'retrievers':[{'standard':"
                + "{'query':{'term':{'text':'rrf'}}}},{'knn':{'field':'vector','query_vector':[3],'k':5,"
                + "'num_candidates':5}}],'rank_window_size':5,'rank_constant':1,'filter':{'term':{'integer':2}}}},"
                + "'size':5}"))
                .json();
        assertThat(ids(body)).containsExactlyInAnyOrder("2", "4");
        assertThat(body.at("/hits/total/value").asInt()).isEqualTo(2);
    }

    @Test
    void badFusionsAreRefusedWithAReason() {
        EsClient.Reply one = es.post("/example-index/_search", json("{'query':{'term':{'text':'rrf'}},"
                + "'rank':{'rrf':{}}}"));
        assertThat(one.status()).isEqualTo(400);
        assertThat(one.json().at("/error/reason").asText()).contains("requires a minimum of [2] result sets");
        EsClient.Reply both = es.post("/example-index/_search", json("{" + FUSION + ",'query':{'match_all':{}}}"));
        assertThat(both.status()).isEqualTo(400);
        assertThat(both.json().at("/error/reason").asText()).contains("cannot specify [retriever] and [query]");
        EsClient.Reply small = es.post("/example-index/_search", json("{'retriever':{'rrf':{'retrievers':[{"
                + "'standard':{'query':{'match_all':{}}}},{'standard':{}}],'rank_window_size':2}},'size':5}"));
        assertThat(small.status()).isEqualTo(400);
        assertThat(small.json().at("/error/reason").asText()).contains("rank_window_size");
        EsClient.Reply sorted = es.post("/example-index/_search", json("{" + FUSION + ",'sort':['integer']}"));
        assertThat(sorted.status()).isEqualTo(400);
    }

    @Test
    void aLoneStandardOrKnnRetrieverIsAPlainSearch() {
        JsonNode standard = es.post("/example-index/_search", json("{'retriever':{'standard':{'query':{'term':"
                + "{'text':'rrf'}},'filter':{'term':{'integer':1}}}}}")).json();
        assertThat(ids(standard)).containsExactly("3", "1");
        JsonNode knn = es.post("/example-index/_search", json("{'retriever':{'knn':{'field':'vector',"
                + "'query_vector':[3],'k':2,'num_candidates':5}}}")).json();
        assertThat(ids(knn)).containsExactly("3", "2");
        assertThat(knn.at("/hits/hits/0/_rank").isMissingNode()).isTrue();
    }
}
