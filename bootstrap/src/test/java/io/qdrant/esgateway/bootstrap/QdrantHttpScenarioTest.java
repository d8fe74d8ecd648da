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
 * A stateful scenario through the whole gateway with {@code QEG_BACKEND=qdrant}: Elasticsearch requests over HTTP,
 * documents in the spec-checked fake Qdrant (adapters-qdrant's test jar): create index → bulk → get → search
 * (filters, field sort, aggregations) → update → search → count → what is refused → delete. Every body the adapter
 * sent and every answer it got validated against Qdrant's {@code openapi.json}.
 */
class QdrantHttpScenarioTest {
    @TempDir
    static Path data;
    static FakeQdrant qdrant;
    static RunningGateway gateway;
    static EsClient es;

    @BeforeAll
    static void start() {
        qdrant = new FakeQdrant();
        gateway = RunningGateway.start(data, "QEG_BACKEND", "qdrant", "QEG_QDRANT_URL", qdrant.uri().toString(),
                "QEG_QDRANT_API_KEY", "scenario-key");
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

    /** The hits section as text, in its order: ties come in index order on both backends, as in Elasticsearch. */
    private static String hitsText(JsonNode hits) {
        return hits.path("total") + " " + hits.path("max_score") + " " + hits.path("hits");
    }

    @Test
    void createBulkSearchAggregateUpdateSearchDelete() {
        assertThat(es.get("/").json().path("version").path("number").asText()).isNotEmpty();
        assertThat(es.get("/_cluster/health").status()).isEqualTo(200);
        assertThat(es.put("/books", json("{'mappings':{'properties':{'title':{'type':'text'},'tag':{'type':'keyword'},"
                + "'year':{'type':'integer'},'price':{'type':'double'}}}}")).status()).isEqualTo(200);
        assertThat(qdrant.collectionNames()).hasSize(1);

        StringBuilder bulk = new StringBuilder();
        String[][] rows = {{"1", "fox", "animals", "1999", "10.5"}, {"2", "dogs", "animals", "2005", "7"},
            {"3", "thinking", "business", "2010", "20"}, {"4", "cooking", "food", "2010", "15"},
            {"5", "kitchen", "food", "2020", "12.25"}};
        for (String[] r : rows) {
            bulk.append("{\"index\":{\"_index\":\"books\",\"_id\":\"").append(r[0]).append("\"}}\n")
                    .append("{\"title\":\"").append(r[1]).append("\",\"tag\":\"").append(r[2]).append("\",\"year\":")
                    .append(r[3]).append(",\"price\":").append(r[4]).append("}\n");
        }
        EsClient.Reply bulked = es.send("POST", "/_bulk?refresh=true", bulk.toString(), "application/x-ndjson");
        assertThat(bulked.json().path("errors").asBoolean()).as(bulked.body()).isFalse();

        JsonNode doc = es.get("/books/_doc/3").json();
        assertThat(doc.path("found").asBoolean()).isTrue();
        assertThat(doc.path("_source").path("title").asText()).isEqualTo("thinking");

        JsonNode food = es.post("/books/_search", json("{'query':{'bool':{'filter':[{'term':{'tag':'food'}}]}}}")).json();
        assertThat(food.path("hits").path("total").path("value").asInt()).isEqualTo(2);
        assertThat(ids(food)).containsExactlyInAnyOrder("4", "5");
        assertThat(food.path("hits").path("hits").get(0).path("_score").asDouble()).isZero();

        // full text and BM25, computed by the gateway: the same hits and scores as the embedded Lucene backend
        Path luceneData = data.resolve("lucene-reference");
        try (RunningGateway reference = RunningGateway.start(luceneData)) {
            assertThat(reference.client.put("/books", json("{'mappings':{'properties':{'title':{'type':'text'},"
                    + "'tag':{'type':'keyword'},'year':{'type':'integer'},'price':{'type':'double'}}}}")).status())
                    .isEqualTo(200);
            assertThat(reference.client.send("POST", "/_bulk?refresh=true", bulk.toString(), "application/x-ndjson")
                    .status()).isEqualTo(200);
            for (String query : List.of("{'query':{'match':{'title':'fox dogs'}}}",
                    "{'query':{'bool':{'should':[{'term':{'tag':'food'}},{'match':{'title':'cooking'}}]}}}",
                    "{'query':{'multi_match':{'query':'food fox','fields':['title','tag^2']}},'min_score':0.5}",
                    "{'query':{'match':{'title':'kitchen'}},'sort':[{'year':'desc'}],'track_scores':true}")) {
                JsonNode expected = reference.client.post("/books/_search", json(query)).json();
                JsonNode actual = es.post("/books/_search", json(query)).json();
                assertThat(hitsText(actual.path("hits"))).as(query).isEqualTo(hitsText(expected.path("hits")));
                assertThat(actual.path("hits").path("total").path("value").asInt()).as(query).isPositive();
            }
        }

        JsonNode sorted = es.post("/books/_search", json("{'size':3,'sort':[{'year':'desc'},{'price':'asc'}],"
                + "'query':{'range':{'price':{'gte':10}}},'aggs':{'tags':{'terms':{'field':'tag'}},"
                + "'avg_price':{'avg':{'field':'price'}}}}")).json();
        assertThat(ids(sorted)).containsExactly("5", "4", "3");
        assertThat(sorted.path("hits").path("total").path("value").asInt()).isEqualTo(4);
        JsonNode buckets = sorted.path("aggregations").path("tags").path("buckets");
        assertThat(buckets.get(0).path("key").asText()).isEqualTo("food");
        assertThat(buckets.get(0).path("doc_count").asInt()).isEqualTo(2);
        assertThat(sorted.path("aggregations").path("avg_price").path("value").asDouble()).isEqualTo(14.4375);
        // the year sort is an order_by page and the keyword terms one facet; the avg is computed over the scan
        assertThat(qdrant.requests("POST", "/points/query")).anySatisfy(r -> assertThat(r.body().at("/query/order_by/key")
                .asText()).isEqualTo("_f.year"));
        // (other facets read full-text statistics: _n.<field>)
        assertThat(qdrant.requests("POST", "/facet")).filteredOn(r -> r.body().get("key").asText().equals("_f.tag"))
                .hasSize(1);
        String metrics = es.get("/metrics").body();
        assertThat(metrics).containsPattern("qeg_plan_path_total\\{part=\"hits\",path=\"native\"[^}]*} [1-9]")
                .containsPattern("qeg_plan_path_total\\{part=\"aggs\",path=\"native\"[^}]*} [1-9]")
                .containsPattern("qeg_plan_path_total\\{part=\"aggs\",path=\"scan\",reason=\"facet_shape\"[^}]*} [1-9]");

        assertThat(es.post("/books/_update/2?refresh=true", json("{'doc':{'tag':'food'}}")).status()).isEqualTo(200);
        JsonNode after = es.post("/books/_search", json("{'query':{'constant_score':{'filter':{'term':{'tag':'food'}}}}}"))
                .json();
        assertThat(ids(after)).containsExactlyInAnyOrder("2", "4", "5");
        assertThat(es.get("/books/_doc/2").json().path("_version").asInt()).isEqualTo(2);
        assertThat(es.get("/books/_count").json().path("count").asInt()).isEqualTo(5);
        assertThat(es.post("/books/_count", json("{'query':{'bool':{'must_not':[{'terms':{'tag':['food']}}]}}}"))
                .json().path("count").asInt()).isEqualTo(2);

        // a dynamically mapped field gets its payload index and is filterable
        int indexCalls = qdrant.requests("PUT", "/index").size();
        assertThat(es.put("/books/_doc/6?refresh=true", json("{'title':'new','tag':'food','colour':'red'}")).status())
                .isEqualTo(201);
        assertThat(qdrant.requests("PUT", "/index").size()).isGreaterThan(indexCalls);
        assertThat(ids(es.post("/books/_search", json("{'query':{'bool':{'filter':{'term':{'colour.keyword':'red'}}}}}"))
                .json())).containsExactly("6");
        assertThat(es.delete("/books/_doc/6?refresh=true").status()).isEqualTo(200);

        // expansions and patterns Qdrant cannot evaluate are matched by the gateway
        assertThat(ids(es.post("/books/_search", json("{'query':{'match_phrase_prefix':{'title':'fo'}}}")).json()))
                .containsExactly("1");
        assertThat(ids(es.post("/books/_search", json("{'query':{'fuzzy':{'title':'dgs'}}}")).json()))
                .containsExactly("2");
        assertThat(ids(es.post("/books/_search", json("{'query':{'wildcard':{'tag':'f*d'}}}")).json()))
                .containsExactlyInAnyOrder("2", "4", "5");
        assertThat(ids(es.post("/books/_search", json("{'query':{'match':{'title':'Thinking'}}}")).json()))
                .containsExactly("3");
        assertThat(es.post("/books/_count", json("{'query':{'match':{'title':'fox cooking'}}}")).json().path("count")
                .asInt()).isEqualTo(2);

        JsonNode cat = es.get("/_cat/indices/books?format=json").json();
        assertThat(cat.get(0).path("docs.count").asText()).isEqualTo("5");

        assertThat(es.delete("/books").status()).isEqualTo(200);
        assertThat(qdrant.collectionNames()).isEmpty();
        assertThat(qdrant.requests).allSatisfy(r -> assertThat(r.headers().get("Api-key"))
                .containsExactly("scenario-key"));
        assertThat(qdrant.violations).isEmpty();
    }

    /**
     * {@code version}/{@code seq_no_primary_term} in hits and {@code typed_keys} aggregation names on the Qdrant
     * backend, on its native paths (an {@code order_by} page, a {@code facet}) and on the scan: the same answers as the
     * embedded Lucene backend after the same writes.
     */
    @Test
    void hitVersionsAndTypedKeysAsOnTheLuceneBackend() {
        String mappings = json("{'mappings':{'properties':{'label':{'type':'keyword'},'year':{'type':'integer'},"
                + "'price':{'type':'double'}}}}");
        String bulk = """
                {"index":{"_id":"1"}}
                {"label":"a","year":2001,"price":1.5}
                {"index":{"_id":"2"}}
                {"label":"b","year":2002,"price":2.5}
                {"index":{"_id":"3"}}
                {"label":"a","year":2003}
                """;
        List<String> writes = List.of("POST /meta/_update/2?refresh=true {'doc':{'price':3.5}}",
                "PUT /meta/_doc/1?refresh=true {'label':'c','year':2001,'price':1.5}",
                "PUT /meta/_doc/1?refresh=true {'label':'a','year':2001,'price':1.5}");
        List<String> searches = List.of(
                "/meta/_search|{'version':true,'seq_no_primary_term':true,'sort':[{'year':'desc'}],'size':2}",
                "/meta/_search?version=true|{'query':{'bool':{'filter':{'term':{'label':'a'}}}},'sort':['_score','price']}",
                "/meta/_search?seq_no_primary_term=true&version=false|{'version':true,'sort':['year']}",
                "/meta/_search?typed_keys=true|{'size':0,'aggs':{'t':{'terms':{'field':'label'}}}}",
                "/meta/_search?typed_keys=true|{'size':0,'aggs':{'t':{'terms':{'field':'year'},'aggs':{"
                        + "'p':{'avg':{'field':'price'}},'q':{'terms':{'field':'price'}}}},'h':{'histogram':{"
                        + "'field':'year','interval':2}},'pc':{'percentiles':{'field':'price'}}}}");
        try (RunningGateway reference = RunningGateway.start(data.resolve("lucene-meta"))) {
            for (EsClient client : List.of(es, reference.client)) {
                assertThat(client.put("/meta", mappings).status()).isEqualTo(200);
                assertThat(client.send("POST", "/meta/_bulk?refresh=true", bulk, "application/x-ndjson").status())
                        .isEqualTo(200);
                for (String w : writes) {
                    String[] parts = w.split(" ", 3);
                    assertThat(client.send(parts[0], parts[1], json(parts[2]), "application/json").status())
                            .as(w).isBetween(200, 201);
                }
            }
            for (String search : searches) {
                String[] parts = search.split("\\|", 2);
                JsonNode expected = reference.client.post(parts[0], json(parts[1])).json();
                JsonNode actual = es.post(parts[0], json(parts[1])).json();
                assertThat(actual.path("hits").toString()).as(search).isEqualTo(expected.path("hits").toString());
                assertThat(actual.path("aggregations").toString()).as(search)
                        .isEqualTo(expected.path("aggregations").toString());
            }
            JsonNode sorted = es.post("/meta/_search", json(searches.get(0).split("\\|")[1])).json();
            assertThat(sorted.at("/hits/hits/0/_version").asInt()).isEqualTo(1);
            assertThat(sorted.at("/hits/hits/1/_version").asInt()).isEqualTo(2);
            assertThat(sorted.at("/hits/hits/1/_seq_no").asInt()).isEqualTo(3);
            assertThat(sorted.at("/hits/hits/1/_primary_term").asInt()).isEqualTo(1);
            JsonNode typed = es.post("/meta/_search?typed_keys=true", json(searches.get(4).split("\\|")[1])).json();
            assertThat(typed.path("aggregations").has("lterms#t")).as(typed.toString()).isTrue();
            assertThat(typed.at("/aggregations/lterms#t/buckets/0").has("avg#p")).isTrue();
            assertThat(typed.at("/aggregations/lterms#t/buckets/0").has("dterms#q")).isTrue();
            assertThat(typed.path("aggregations").has("tdigest_percentiles#pc")).isTrue();
            assertThat(es.post("/meta/_search?typed_keys=true", json(searches.get(3).split("\\|")[1])).json()
                    .at("/aggregations/sterms#t/buckets/0/key").asText()).isEqualTo("a");
            assertThat(es.delete("/meta").status()).isEqualTo(200);
        }
        assertThat(qdrant.violations).isEmpty();
    }
}
