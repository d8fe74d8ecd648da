package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code _search} and {@code _count} over HTTP on a real gateway (Lucene store). */
class SearchHttpTest {
    @TempDir
    static Path data;
    static RunningGateway gateway;
    static EsClient es;

    @BeforeAll
    static void start() {
        gateway = RunningGateway.start(data);
        es = gateway.client;
        es.put("/books", json("{'mappings':{'properties':{'title':{'type':'text'},'tag':{'type':'keyword'},"
                + "'year':{'type':'integer'},'price':{'type':'double'},'sku':{'type':'keyword'}}}}"));
        StringBuilder bulk = new StringBuilder();
        String[][] rows = {
            {"1", "The Quick Brown Fox", "animals", "1999", "10.5"},
            {"2", "Lazy dogs sleep", "animals", "2005", "7"},
            {"3", "Quick thinking", "business", "2010", "20"},
            {"4", "Slow cooking", "food", "2010", "15"},
            {"5", "A fox in the kitchen", "food", "2020", "12.25"}};
        for (String[] r : rows) {
            bulk.append("{\"index\":{\"_index\":\"books\",\"_id\":\"").append(r[0]).append("\"}}\n")
                    .append("{\"title\":\"").append(r[1]).append("\",\"tag\":\"").append(r[2]).append("\",\"year\":")
                    .append(r[3]).append(",\"price\":").append(r[4]).append(",\"sku\":\"s").append(r[0]).append("\"}\n");
        }
        bulk.append("{\"index\":{\"_index\":\"books\",\"_id\":\"6\"}}\n{\"title\":\"No year here\",\"sku\":\"s6\"}\n");
        EsClient.Reply r = es.send("POST", "/_bulk", bulk.toString(), "application/x-ndjson");
        assertThat(r.json().path("errors").asBoolean()).as(r.toString()).isFalse();
        es.put("/more", json("{'mappings':{'properties':{'title':{'type':'text'},'year':{'type':'integer'},"
                + "'sku':{'type':'keyword'}}}}"));
        es.put("/more/_doc/m1?refresh=true", json("{'title':'quick quick fox','year':2001,'sku':'m1'}"));
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
    void matchAllWithTheElasticsearchResponseShape() {
        EsClient.Reply r = es.get("/books/_search");
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        JsonNode body = r.json();
        assertThat(body.fieldNames()).toIterable().containsExactly("took", "timed_out", "_shards", "hits");
        assertThat(body.at("/_shards").toString()).isEqualTo("{\"total\":1,\"successful\":1,\"skipped\":0,\"failed\":0}");
        assertThat(body.at("/hits/total").toString()).isEqualTo("{\"value\":6,\"relation\":\"eq\"}");
        assertThat(body.at("/hits/max_score").asDouble()).isEqualTo(1.0);
        JsonNode first = body.at("/hits/hits/0");
        assertThat(first.fieldNames()).toIterable().containsExactly("_index", "_id", "_score", "_source");
        assertThat(ids(body)).containsExactly("1", "2", "3", "4", "5", "6");
    }

    @Test
    void termRangeAndBoolFilters() {
        JsonNode r = es.post("/books/_search", json("{'query':{'bool':{'filter':[{'term':{'tag':'food'}},"
                + "{'range':{'year':{'gte':2015}}}]}}}")).json();
        assertThat(ids(r)).containsExactly("5");
        assertThat(r.at("/hits/hits/0/_score").asDouble()).isZero();
        JsonNode notFood = es.post("/books/_search", json("{'query':{'bool':{'must_not':{'term':{'tag':'food'}}}},"
                + "'sort':['sku']}")).json();
        assertThat(ids(notFood)).containsExactly("1", "2", "3", "6");
        JsonNode exists = es.post("/books/_search", json("{'query':{'exists':{'field':'year'}}}")).json();
        assertThat(exists.at("/hits/total/value").asInt()).isEqualTo(5);
    }

    @Test
    void fullTextRanksByRelevance() {
        JsonNode r = es.post("/books/_search", json("{'query':{'match':{'title':'quick fox'}}}")).json();
        assertThat(ids(r)).startsWith("1").containsExactlyInAnyOrder("1", "3", "5");
        double first = r.at("/hits/hits/0/_score").asDouble();
        assertThat(r.at("/hits/max_score").asDouble()).isEqualTo(first);
        assertThat(r.at("/hits/hits/1/_score").asDouble()).isLessThanOrEqualTo(first);
        JsonNode phrase = es.post("/books/_search", json("{'query':{'match_phrase':{'title':'quick brown'}}}")).json();
        assertThat(ids(phrase)).containsExactly("1");
        JsonNode q = es.get("/books/_search?q=title:kitchen").json();
        assertThat(ids(q)).containsExactly("5");
    }

    @Test
    void sortsRenderTheirValuesAndScoresAreNull() {
        JsonNode r = es.post("/books/_search", json("{'sort':[{'year':'desc'},{'sku':'asc'}],'size':3}")).json();
        assertThat(ids(r)).containsExactly("5", "3", "4");
        assertThat(r.at("/hits/hits/0/sort").toString()).isEqualTo("[2020,\"s5\"]");
        assertThat(r.at("/hits/hits/0/_score").isNull()).isTrue();
        assertThat(r.at("/hits/max_score").isNull()).isTrue();
        JsonNode missingLast = es.post("/books/_search", json("{'sort':[{'year':'asc'}],'from':5,'size':1}")).json();
        assertThat(ids(missingLast)).containsExactly("6");
        assertThat(missingLast.at("/hits/hits/0/sort/0").asLong()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void searchAfterPagesThroughEveryDocumentOnce() {
        Set<String> seen = new HashSet<>();
        List<String> order = new ArrayList<>();
        String after = null;
        for (int page = 0; page < 10; page++) {
            String body = "{\"size\":2,\"sort\":[{\"price\":\"asc\"},{\"sku\":\"asc\"}]"
                    + (after == null ? "" : ",\"search_after\":" + after) + "}";
            JsonNode r = es.post("/books/_search", body).json();
            JsonNode hits = r.at("/hits/hits");
            if (hits.isEmpty()) {
                break;
            }
            hits.forEach(h -> {
                assertThat(seen.add(h.path("_id").asText())).isTrue();
                order.add(h.path("_id").asText());
            });
            after = hits.get(hits.size() - 1).path("sort").toString();
        }
        assertThat(order).containsExactly("2", "1", "5", "4", "3", "6");
    }

    @Test
    void totalsFollowTrackTotalHits() {
        assertThat(es.post("/books/_search", json("{'track_total_hits':false}")).json().at("/hits").has("total"))
                .isFalse();
        assertThat(es.post("/books/_search", json("{'track_total_hits':2,'size':0}")).json().at("/hits/total")
                .toString()).isEqualTo("{\"value\":2,\"relation\":\"gte\"}");
        assertThat(es.get("/books/_search?rest_total_hits_as_int=true&size=0").json().at("/hits/total").asInt())
                .isEqualTo(6);
    }

    @Test
    void sourceFilteringAndPaging() {
        JsonNode r = es.post("/books/_search", json("{'_source':['title'],'sort':['sku'],'from':1,'size':1}")).json();
        assertThat(ids(r)).containsExactly("2");
        assertThat(r.at("/hits/hits/0/_source").toString()).isEqualTo("{\"title\":\"Lazy dogs sleep\"}");
        assertThat(es.get("/books/_search?_source=false&size=1").json().at("/hits/hits/0").has("_source")).isFalse();
    }

    @Test
    void severalIndicesAreMergedWithTheirIndexPerHit() {
        JsonNode r = es.post("/books,more/_search", json("{'sort':[{'year':'asc'}],'size':3}")).json();
        assertThat(ids(r)).containsExactly("1", "m1", "2");
        assertThat(r.at("/hits/hits/1/_index").asText()).isEqualTo("more");
        assertThat(r.at("/_shards/total").asInt()).isEqualTo(2);
        assertThat(es.post("/_search", json("{'size':0}")).json().at("/hits/total/value").asInt()).isEqualTo(7);
    }

    @Test
    void multiSearchAnswersEachSearchInItsSlot() {
        String body = "{\"index\":\"books\"}\n{\"query\":{\"term\":{\"tag\":\"food\"}},\"sort\":[\"sku\"]}\n"
                + "{\"index\":\"no-such-index\"}\n{}\n"
                + "{}\n{\"size\":0}\n";
        EsClient.Reply r = es.send("POST", "/more/_msearch", body, "application/x-ndjson");
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        JsonNode responses = r.json().path("responses");
        assertThat(responses).hasSize(3);
        assertThat(ids(responses.get(0))).containsExactly("4", "5");
        assertThat(responses.get(0).path("status").asInt()).isEqualTo(200);
        assertThat(responses.get(1).path("status").asInt()).isEqualTo(404);
        assertThat(responses.get(1).at("/error/type").asText()).isEqualTo("index_not_found_exception");
        assertThat(responses.get(2).at("/hits/total/value").asInt()).as("the URL's index is the default").isEqualTo(1);
        EsClient.Reply bad = es.send("POST", "/_msearch", "{\"colour\":\"red\"}\n{}\n", "application/x-ndjson");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.errorReason()).isEqualTo("key [colour] is not supported in the metadata section");
    }

    @Test
    void fieldsAndDocvalueFieldsComeFromTheMapping() {
        JsonNode r = es.post("/books/_search", json("{'fields':['year','price','t*'],'docvalue_fields':['tag'],"
                + "'_source':false,'sort':['sku'],'size':1}")).json();
        JsonNode fields = r.at("/hits/hits/0/fields");
        assertThat(fields.path("year").toString()).isEqualTo("[1999]");
        assertThat(fields.path("price").toString()).isEqualTo("[10.5]");
        assertThat(fields.path("title").toString()).isEqualTo("[\"The Quick Brown Fox\"]");
        assertThat(fields.path("tag").toString()).isEqualTo("[\"animals\"]");
        assertThat(r.at("/hits/hits/0").has("_source")).isFalse();
        EsClient.Reply text = es.post("/books/_search", json("{'docvalue_fields':['title'],'size':1}"));
        assertThat(text.status()).isEqualTo(400);
        assertThat(text.json().at("/error/root_cause/0/reason").asText()).startsWith("Fielddata is disabled on [title]");
    }

    @Test
    void countAndErrors() {
        assertThat(es.post("/books/_count", json("{'query':{'term':{'tag':'animals'}}}")).json().toString())
                .isEqualTo("{\"count\":2,\"_shards\":{\"total\":1,\"successful\":1,\"skipped\":0,\"failed\":0}}");
        assertThat(es.get("/books/_count?q=tag:food").json().path("count").asInt()).isEqualTo(2);
        EsClient.Reply window = es.post("/books/_search", json("{'from':9995,'size':10}"));
        assertThat(window.status()).isEqualTo(400);
        assertThat(window.errorType()).isEqualTo("search_phase_execution_exception");
        assertThat(window.errorReason()).isEqualTo("all shards failed");
        assertThat(window.json().at("/error/root_cause/0/reason").asText()).startsWith("Result window is too large, from"
                + " + size must be less than or equal to: [10000] but was [10005].");
        assertThat(window.json().at("/error/failed_shards/0/index").asText()).isEqualTo("books");
        EsClient.Reply unknown = es.post("/books/_search", json("{'query':{'tern':{'a':1}}}"));
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.errorType()).isEqualTo("parsing_exception");
        assertThat(es.post("/books/_search", json("{'aggs':{'x':{'geo_bounds':{'field':'f'}}}}")).status()).isEqualTo(400);
        assertThat(es.get("/no-such-index/_search").errorType()).isEqualTo("index_not_found_exception");
        assertThat(es.get("/no-such-*/_search").json().at("/hits/total/value").asInt()).isZero();
    }

    @Test
    void highlightFollowsSourceAndPrecedesSort() {
        JsonNode r = es.post("/books/_search", json("{'query':{'match':{'title':'quick fox'}},'sort':['sku'],"
                + "'highlight':{'pre_tags':['<b>'],'post_tags':['</b>'],'fields':[{'title':{}},{'tag':{}}]}}")).json();
        assertThat(ids(r)).containsExactly("1", "3", "5");
        JsonNode first = r.at("/hits/hits/0");
        assertThat(first.fieldNames()).toIterable().containsExactly("_index", "_id", "_score", "_source", "highlight",
                "sort");
        assertThat(first.path("highlight").toString()).isEqualTo("{\"title\":[\"The <b>Quick</b> Brown <b>Fox</b>\"]}");
        assertThat(r.at("/hits/hits/1/highlight/title/0").asText()).isEqualTo("<b>Quick</b> thinking");
        assertThat(r.at("/hits/hits/2/highlight/title/0").asText()).isEqualTo("A <b>fox</b> in the kitchen");
    }

    @Test
    void highlightWithoutMatchesAndItsErrors() {
        JsonNode none = es.post("/books/_search", json("{'query':{'term':{'tag':'food'}},"
                + "'highlight':{'fields':{'title':{}}}}")).json();
        assertThat(none.at("/hits/hits/0").has("highlight")).isFalse();
        EsClient.Reply fvh = es.post("/books/_search", json("{'highlight':{'type':'fvh','fields':{'title':{}}}}"));
        assertThat(fvh.status()).isEqualTo(400);
        assertThat(fvh.errorReason()).contains("fvh");
        EsClient.Reply unknown = es.post("/books/_search", json("{'highlight':{'colour':'red','fields':{'title':{}}}}"));
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.errorReason()).contains("unknown field [colour]");
    }
}
