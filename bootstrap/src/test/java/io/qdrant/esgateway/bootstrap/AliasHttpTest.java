package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The alias endpoints over HTTP on a real gateway. */
class AliasHttpTest {
    @TempDir
    static Path data;
    static RunningGateway gateway;
    static EsClient es;

    @BeforeAll
    static void start() {
        gateway = RunningGateway.start(data);
        es = gateway.client;
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @Test
    void aBatchOfActionsIsAppliedInOrder() {
        es.put("/logs-1");
        es.put("/logs-2");
        EsClient.Reply r = es.post("/_aliases", json("""
                {'actions':[{'add':{'index':'logs-1','alias':'logs'}},
                            {'add':{'indices':['logs-1','logs-2'],'alias':'all-logs'}},
                            {'remove':{'index':'logs-1','alias':'logs'}},
                            {'add':{'index':'logs-2','aliases':['logs'],'is_write_index':true}}]}"""));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.json().toString()).isEqualTo("{\"acknowledged\":true,\"errors\":false}");
        assertThat(es.get("/_alias/logs").json().toString())
                .isEqualTo("{\"logs-2\":{\"aliases\":{\"logs\":{\"is_write_index\":true}}}}");
        assertThat(es.get("/_alias/all-logs").json().fieldNames()).toIterable().containsExactly("logs-1", "logs-2");
        assertThat(es.get("/logs-1/_alias").json().toString())
                .isEqualTo("{\"logs-1\":{\"aliases\":{\"all-logs\":{}}}}");
    }

    @Test
    void anInvalidActionAnywhereInTheBatchChangesNothing() {
        es.put("/atomic-1");
        EsClient.Reply r = es.post("/_aliases", json("""
                {'actions':[{'add':{'index':'atomic-1','alias':'first'}},
                            {'add':{'index':'no-such-index','alias':'second'}}]}"""));
        assertThat(r.status()).isEqualTo(404);
        assertThat(r.errorType()).isEqualTo("index_not_found_exception");
        assertThat(es.head("/_alias/first").status()).isEqualTo(404);

        es.put("/writer-a");
        es.put("/writer-b");
        EsClient.Reply twoWriters = es.post("/_aliases", json("""
                {'actions':[{'add':{'index':'writer-a','alias':'w','is_write_index':true}},
                            {'add':{'index':'writer-b','alias':'w','is_write_index':true}}]}"""));
        assertThat(twoWriters.status()).isEqualTo(400);
        assertThat(twoWriters.errorReason()).isEqualTo("alias [w] has more than one write index [writer-a,writer-b]");
        assertThat(es.head("/_alias/w").status()).isEqualTo(404);
    }

    @Test
    void singleAliasEndpointsAddListAndRemove() {
        es.put("/single");
        // Elasticsearch 8.15 answers single alias changes like batches (checked against the oracle)
        assertThat(es.put("/single/_alias/one").json().toString())
                .isEqualTo("{\"acknowledged\":true,\"errors\":false}");
        assertThat(es.put("/single/_aliases/two", json("{'routing':'r1'}")).status()).isEqualTo(200);
        assertThat(es.head("/_alias/one").status()).isEqualTo(200);
        assertThat(es.head("/single/_alias/two").status()).isEqualTo(200);
        assertThat(es.get("/single/_alias/t*").json().toString())
                .isEqualTo("{\"single\":{\"aliases\":{\"two\":{\"index_routing\":\"r1\",\"search_routing\":\"r1\"}}}}");
        assertThat(es.delete("/single/_alias/one").json().toString())
                .isEqualTo("{\"acknowledged\":true,\"errors\":false}");
        assertThat(es.head("/_alias/one").status()).isEqualTo(404);
        EsClient.Reply again = es.delete("/single/_alias/one");
        assertThat(again.status()).isEqualTo(404);
        assertThat(again.errorType()).isEqualTo("aliases_not_found_exception");
        assertThat(again.errorReason()).isEqualTo("aliases [one] missing");
    }

    @Test
    void aMissingAliasIsA404InElasticsearchsShortForm() {
        EsClient.Reply r = es.get("/_alias/never-made");
        assertThat(r.status()).isEqualTo(404);
        assertThat(r.json().toString()).isEqualTo("{\"error\":\"alias [never-made] missing\",\"status\":404}");
        assertThat(es.head("/_alias/never-made").status()).isEqualTo(404);
        assertThat(es.get("/_alias/never-*").json().toString()).isEqualTo("{}");
    }

    @Test
    void aliasNamesCannotCollideWithIndicesEitherWay() {
        es.put("/taken");
        es.put("/holder");
        EsClient.Reply asAlias = es.put("/holder/_alias/taken");
        assertThat(asAlias.status()).isEqualTo(400);
        assertThat(asAlias.errorType()).isEqualTo("invalid_alias_name_exception");
        assertThat(asAlias.errorReason()).contains("an index or data stream exists with the same name as the alias");

        es.put("/holder/_alias/pointer");
        EsClient.Reply asIndex = es.put("/pointer");
        assertThat(asIndex.status()).isEqualTo(400);
        assertThat(asIndex.errorType()).isEqualTo("invalid_index_name_exception");
        assertThat(asIndex.errorReason()).isEqualTo("Invalid index name [pointer], already exists as alias");
    }

    @Test
    void removeIndexDeletesTheIndexWithItsAliasesAtomically() {
        es.put("/old-gen", json("{'aliases':{'current':{}}}"));
        es.put("/new-gen");
        EsClient.Reply swap = es.post("/_aliases", json("""
                {'actions':[{'add':{'index':'new-gen','alias':'current'}},{'remove_index':{'index':'old-gen'}}]}"""));
        assertThat(swap.status()).as(swap.toString()).isEqualTo(200);
        assertThat(es.head("/old-gen").status()).isEqualTo(404);
        assertThat(es.get("/_alias/current").json().fieldNames()).toIterable().containsExactly("new-gen");
    }

    @Test
    void malformedActionsAreFourHundreds() {
        assertThat(es.post("/_aliases", json("{'actions':[]}")).errorReason()).isEqualTo("No action specified");
        assertThat(es.post("/_aliases", json("{'actions':[{'add':{'alias':'x'}}]}")).errorReason())
                .isEqualTo("[1:34] [aliases] failed to parse field [actions]");
        EsClient.Reply unknown = es.post("/_aliases", json("{'actions':[{'rename':{'index':'x','alias':'y'}}]}"));
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.errorType()).isEqualTo("x_content_parse_exception");
        es.put("/filter-target");
        EsClient.Reply filter = es.post("/_aliases", json(
                "{'actions':[{'add':{'index':'filter-target','alias':'f','filter':{'no_such_query':{}}}}]}"));
        assertThat(filter.status()).isEqualTo(400);
        assertThat(filter.errorReason()).isEqualTo("failed to parse filter for alias [f]");
    }

    @Test
    void getAliasWithoutANameListsEveryIndex() {
        es.put("/bare");
        assertThat(es.get("/_alias").json().path("bare").toString()).isEqualTo("{\"aliases\":{}}");
        assertThat(es.get("/bare/_alias").json().toString()).isEqualTo("{\"bare\":{\"aliases\":{}}}");
    }
}
