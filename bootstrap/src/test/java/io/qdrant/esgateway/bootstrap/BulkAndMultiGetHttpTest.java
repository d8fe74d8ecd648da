package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code _bulk} and {@code _mget} over HTTP on a real gateway. */
class BulkAndMultiGetHttpTest {
    private static final String NDJSON = "application/x-ndjson";
    @TempDir
    static Path data;
    static RunningGateway gateway;
    static EsClient es;

    @BeforeAll
    static void start() {
        gateway = RunningGateway.start(data);
        es = gateway.client;
        es.put("/shelf", json("{'mappings':{'properties':{'n':{'type':'long'}}},'aliases':{'shelf-alias':{}}}"));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    private static EsClient.Reply bulk(String path, String body) {
        return es.send("POST", path, json(body), NDJSON);
    }

    @Test
    void everyActionWithPerItemResults() {
        es.put("/shelf/_doc/old", json("{'n':0}"));
        EsClient.Reply r = bulk("/_bulk", """
                {'index':{'_index':'shelf','_id':'1'}}
                {'n':1}
                {'create':{'_index':'shelf','_id':'2'}}
                {'n':2}

                {'create':{'_index':'shelf','_id':'1'}}
                {'n':3}
                {'update':{'_index':'shelf','_id':'2'}}
                {'doc':{'n':20}}
                {'update':{'_index':'shelf','_id':'nope'}}
                {'doc':{'n':1}}
                {'delete':{'_index':'shelf','_id':'old'}}
                {'index':{'_index':'shelf','_id':'bad'}}
                {'n':'not a number'}
                {'index':{'_index':'shelf-alias','_id':'3'}}
                {'n':3}
                """);
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        JsonNode body = r.json();
        assertThat(body.fieldNames()).toIterable().containsExactly("errors", "took", "items");
        assertThat(body.path("errors").asBoolean()).isTrue();
        JsonNode items = body.path("items");
        assertThat(items).hasSize(8);
        assertThat(items.at("/0/index/status").asInt()).isEqualTo(201);
        assertThat(items.at("/0/index/result").asText()).isEqualTo("created");
        assertThat(items.at("/1/create/status").asInt()).isEqualTo(201);
        assertThat(items.at("/2/create/status").asInt()).isEqualTo(409);
        assertThat(items.at("/2/create/error/type").asText()).isEqualTo("version_conflict_engine_exception");
        assertThat(items.at("/3/update/status").asInt()).isEqualTo(200);
        assertThat(items.at("/3/update/_version").asInt()).isEqualTo(2);
        assertThat(items.at("/4/update/status").asInt()).isEqualTo(404);
        assertThat(items.at("/4/update/error/type").asText()).isEqualTo("document_missing_exception");
        assertThat(items.at("/5/delete/result").asText()).isEqualTo("deleted");
        assertThat(items.at("/6/index/status").asInt()).isEqualTo(400);
        assertThat(items.at("/6/index/error/type").asText()).isEqualTo("document_parsing_exception");
        assertThat(items.at("/7/index/_index").asText()).as("the concrete index, not the alias").isEqualTo("shelf");
        long seq0 = items.at("/0/index/_seq_no").asLong();
        assertThat(items.at("/1/create/_seq_no").asLong()).isEqualTo(seq0 + 1);

        assertThat(es.get("/shelf/_doc/2").json().at("/_source/n").asInt()).isEqualTo(20);
        assertThat(es.get("/shelf/_doc/old").status()).isEqualTo(404);
        assertThat(es.get("/shelf/_doc/bad").status()).isEqualTo(404);
    }

    @Test
    void itemsForTheSameIdSeeEachOtherInOrder() {
        EsClient.Reply r = bulk("/shelf/_bulk", """
                {'index':{'_id':'seq'}}
                {'n':1}
                {'delete':{'_id':'seq'}}
                {'create':{'_id':'seq'}}
                {'n':2}
                {'update':{'_id':'seq'}}
                {'doc':{'n':2}}
                """);
        JsonNode items = r.json().path("items");
        assertThat(items.at("/0/index/_version").asInt()).isEqualTo(1);
        assertThat(items.at("/1/delete/_version").asInt()).isEqualTo(2);
        assertThat(items.at("/2/create/_version").asInt()).isEqualTo(3);
        assertThat(items.at("/2/create/result").asText()).isEqualTo("created");
        assertThat(items.at("/3/update/result").asText()).isEqualTo("noop");
        assertThat(r.json().path("errors").asBoolean()).isFalse();
    }

    @Test
    void malformedActionLinesFailTheWholeRequestNamingTheLine() {
        EsClient.Reply unknown = bulk("/_bulk", "{'index':{'_index':'shelf','_id':'z1'}}\n{'n':1}\n{'upsert':{}}\n{}\n");
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.errorType()).isEqualTo("illegal_argument_exception");
        assertThat(unknown.errorReason()).isEqualTo("Malformed action/metadata line [3], expected field [create], "
                + "[delete], [index] or [update] but found [upsert]");
        assertThat(es.get("/shelf/_doc/z1").status()).as("validated before any item runs").isEqualTo(404);

        assertThat(bulk("/_bulk", "{'index':{'_index':'shelf','colour':'red'}}\n{}\n").errorReason())
                .isEqualTo("Action/metadata line [1] contains an unknown parameter [colour]");
        assertThat(bulk("/_bulk", "{'index':{'_id':'1'}}\n{}\n").errorReason())
                .isEqualTo("Validation Failed: 1: index is missing;");
        assertThat(bulk("/_bulk", "\"index\"\n").errorReason()).startsWith("Malformed action/metadata line [1]");
        assertThat(bulk("/_bulk", "{'index':{'_index':'shelf'}}\n{}").errorReason())
                .isEqualTo("The bulk request must be terminated by a newline [\\n]");
        assertThat(bulk("/_bulk", "\n\n").errorReason()).isEqualTo("Validation Failed: 1: no requests added;");
        assertThat(bulk("/_bulk", "{'update':{'_index':'shelf','_id':'1'}}\n{'script':{'source':'x','id':'y'}}\n")
                .errorReason()).isEqualTo("[2] must specify either [source] for an inline script or [id] for a stored"
                        + " script");
    }

    @Test
    void aBrokenSourceLineFailsOnlyItsItem() {
        EsClient.Reply r = es.send("POST", "/shelf/_bulk",
                "{\"index\":{\"_id\":\"j1\"}}\n{\"n\": \n{\"index\":{\"_id\":\"j2\"}}\n{\"n\":2}\n", NDJSON);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().at("/items/0/index/status").asInt()).isEqualTo(400);
        assertThat(r.json().at("/items/1/index/status").asInt()).isEqualTo(201);
    }

    @Test
    void anImmenseKeywordFailsOnlyItsItem() {
        es.put("/kw", "{\"mappings\":{\"properties\":{\"k\":{\"type\":\"keyword\"}}}}");
        String big = "x".repeat(40_000);
        EsClient.Reply r = es.send("POST", "/kw/_bulk", "{\"index\":{\"_id\":\"big\"}}\n{\"k\":\"" + big
                + "\"}\n{\"index\":{\"_id\":\"small\"}}\n{\"k\":\"y\"}\n", NDJSON);
        assertThat(r.json().at("/items/0/index/status").asInt()).isEqualTo(400);
        assertThat(r.json().at("/items/0/index/error/reason").asText()).contains("immense term");
        assertThat(r.json().at("/items/1/index/status").asInt()).isEqualTo(201);
    }

    @Test
    void bulkAutoCreatesIndicesAndReportsRefresh() {
        EsClient.Reply r = bulk("/_bulk?refresh=true", "{'index':{'_index':'bulk-made','_id':'1'}}\n{'x':1}\n");
        assertThat(r.json().at("/items/0/index/forced_refresh").asBoolean()).isTrue();
        assertThat(es.head("/bulk-made").status()).isEqualTo(200);
    }

    @Test
    void multiGetInBothFormsWithMissingDocsAndIndices() {
        es.put("/shelf/_doc/m1", json("{'n':1,'k':'a'}"));
        es.put("/shelf/_doc/m2", json("{'n':2,'k':'b'}"));
        JsonNode ids = es.post("/shelf/_mget", json("{'ids':['m1','zz','m2']}")).json().path("docs");
        assertThat(ids).hasSize(3);
        assertThat(ids.at("/0/_source/n").asInt()).isEqualTo(1);
        assertThat(ids.at("/1").toString()).isEqualTo("{\"_index\":\"shelf\",\"_id\":\"zz\",\"found\":false}");
        assertThat(ids.at("/2/_id").asText()).isEqualTo("m2");

        JsonNode docs = es.post("/_mget?_source_excludes=k", json("{'docs':[{'_index':'shelf','_id':'m1'},"
                + "{'_index':'shelf-alias','_id':'m2','_source':['k']},{'_index':'no-such','_id':'1'}]}")).json()
                .path("docs");
        assertThat(docs.at("/0/_source").toString()).isEqualTo("{\"n\":1}");
        assertThat(docs.at("/1/_index").asText()).isEqualTo("shelf");
        assertThat(docs.at("/1/_source").toString()).isEqualTo("{\"k\":\"b\"}");
        assertThat(docs.at("/2/error/type").asText()).isEqualTo("index_not_found_exception");
        assertThat(docs.at("/2/_id").asText()).isEqualTo("1");

        EsClient.Reply noIndex = es.post("/_mget", json("{'ids':['1']}"));
        assertThat(noIndex.status()).isEqualTo(400);
        assertThat(noIndex.errorReason()).isEqualTo("Validation Failed: 1: index is missing for doc 0;");
        assertThat(es.post("/_mget", json("{'docs':[{'_index':'shelf'}]}")).errorReason())
                .isEqualTo("Validation Failed: 1: id is missing for doc 0;");
        assertThat(es.post("/shelf/_mget", json("{'idz':[]}")).status()).isEqualTo(400);
    }
}
