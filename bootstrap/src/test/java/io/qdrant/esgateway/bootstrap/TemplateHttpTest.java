package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Index and component templates over HTTP on both backends (Qdrant: the spec-checked fake): applied on explicit
 * create and on every auto-create (index, bulk, update upsert, reindex destination) with documents searchable through
 * the template's mappings and alias; what is refused by name ({@code data_stream}, legacy {@code /_template}); the
 * templates kept across a restart is covered by the catalog contract. The Elasticsearch answers are compared in the
 * {@code index-templates} scenario.
 */
class TemplateHttpTest {
    @RegisterExtension
    static final BothBackends.PerClass gateways = BothBackends.perClass();

    static Stream<String> backends() {
        return BothBackends.names();
    }

    @ParameterizedTest
    @MethodSource("backends")
    void everyAutoCreateGetsTheTemplate(String backend) {
        EsClient es = gateways.client(backend);
        assertThat(es.put("/_component_template/tags", json("{'template':{'mappings':{'properties':"
                + "{'tag':{'type':'keyword'},'n':{'type':'integer'}}}}}")).status()).isEqualTo(200);
        EsClient.Reply put = es.put("/_index_template/auto", json("{'index_patterns':['auto-*'],'composed_of':['tags'],"
                + "'template':{'settings':{'number_of_replicas':0},'aliases':{'auto-all':{}}}}"));
        assertThat(put.status()).as(put.toString()).isEqualTo(200);

        assertThat(es.put("/auto-index/_doc/1?refresh=true", json("{'tag':'A b','n':'7'}")).status()).isEqualTo(201);
        assertThat(es.send("POST", "/_bulk?refresh=true", json("{'index':{'_index':'auto-bulk','_id':'1'}}\n"
                + "{'tag':'A b','n':2}\n"), "application/x-ndjson").status()).isEqualTo(200);
        assertThat(es.post("/auto-upsert/_update/1?refresh=true", json("{'doc':{'tag':'A b','n':3},"
                + "'doc_as_upsert':true}")).status()).isEqualTo(201);
        assertThat(es.put("/plain", json("{'mappings':{'properties':{'tag':{'type':'text'}}}}")).status())
                .isEqualTo(200);
        assertThat(es.put("/plain/_doc/1?refresh=true", json("{'tag':'A b','n':4}")).status()).isEqualTo(201);
        EsClient.Reply reindex = es.post("/_reindex?refresh=true", json("{'source':{'index':'plain'},"
                + "'dest':{'index':'auto-reindexed'}}"));
        assertThat(reindex.status()).as(reindex.toString()).isEqualTo(200);

        for (String index : new String[] {"auto-index", "auto-bulk", "auto-upsert", "auto-reindexed"}) {
            EsClient.Reply mapping = es.get("/" + index + "/_mapping");
            assertThat(mapping.json().path(index).path("mappings").path("properties").path("tag").path("type")
                    .asText()).as(index + ": " + mapping).isEqualTo("keyword");
            assertThat(es.get("/" + index + "/_settings").json().path(index).path("settings").path("index")
                    .path("number_of_replicas").asText()).as(index).isEqualTo("0");
        }
        // keyword, not text: the exact value matches, a word of it does not; the template's alias reads all four
        EsClient.Reply exact = es.post("/auto-all/_search", json("{'query':{'term':{'tag':'A b'}},"
                + "'sort':[{'n':'asc'}]}"));
        assertThat(exact.json().path("hits").path("total").path("value").asInt()).as(exact.toString()).isEqualTo(4);
        assertThat(exact.json().path("hits").path("hits").get(0).path("_index").asText()).isEqualTo("auto-bulk");
        assertThat(es.post("/auto-all/_count", json("{'query':{'match':{'tag':'b'}}}")).json().path("count").asInt())
                .isZero();
        assertThat(es.get("/plain/_mapping").json().path("plain").path("mappings").path("properties").path("tag")
                .path("type").asText()).as("an index no template matches").isEqualTo("text");
    }

    @ParameterizedTest
    @MethodSource("backends")
    void theRequestBodyWinsOverTheTemplate(String backend) {
        EsClient es = gateways.client(backend);
        assertThat(es.put("/_index_template/body-wins", json("{'index_patterns':['bw-*'],'priority':3,"
                + "'template':{'settings':{'number_of_replicas':0,'max_result_window':50},"
                + "'mappings':{'properties':{'k':{'type':'long'},'o':{'properties':{'a':{'type':'long'}}}}}}}"))
                .status()).isEqualTo(200);
        EsClient.Reply created = es.put("/bw-1", json("{'settings':{'max_result_window':70},"
                + "'mappings':{'properties':{'k':{'type':'keyword'},'o':{'properties':{'b':{'type':'keyword'}}}}}}"));
        assertThat(created.status()).as(created.toString()).isEqualTo(200);
        var index = es.get("/bw-1").json().path("bw-1");
        assertThat(index.path("settings").path("index").path("max_result_window").asText()).isEqualTo("70");
        assertThat(index.path("settings").path("index").path("number_of_replicas").asText()).isEqualTo("0");
        assertThat(index.path("mappings").toString()).isEqualTo("{\"properties\":{\"k\":{\"type\":\"keyword\"},"
                + "\"o\":{\"properties\":{\"a\":{\"type\":\"long\"},\"b\":{\"type\":\"keyword\"}}}}}");
    }

    @ParameterizedTest
    @MethodSource("backends")
    void whatIsNotImplementedIsRefusedByName(String backend) {
        EsClient es = gateways.client(backend);
        EsClient.Reply dataStream = es.put("/_index_template/ds", json("{'index_patterns':['ds-*'],'data_stream':{}}"));
        assertThat(dataStream.status()).isEqualTo(400);
        assertThat(dataStream.json().path("error").path("reason").asText()).contains("data_stream");
        assertThat(es.get("/_index_template/ds").status()).as("nothing stored").isEqualTo(404);
        EsClient.Reply legacy = es.put("/_template/old", json("{'index_patterns':['old-*']}"));
        assertThat(legacy.status()).isEqualTo(400);
        assertThat(legacy.json().path("error").path("reason").asText()).contains("/_template");
        EsClient.Reply filter = es.put("/_component_template/filtered", json("{'template':{'aliases':"
                + "{'f':{'filter':{'no_such_query':{'a':'b'}}}}}}"));
        assertThat(filter.status()).isEqualTo(400);
        assertThat(filter.json().path("error").path("reason").asText())
                .isEqualTo("failed to parse filter for alias [f]");
        assertThat(es.get("/_component_template/filtered").status()).as("nothing stored").isEqualTo(404);
    }
}
