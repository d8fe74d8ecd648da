package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The single-document APIs over HTTP on a real gateway (Lucene store, SQLite catalog). */
class DocumentHttpTest {
    @TempDir
    static Path data;
    static RunningGateway gateway;
    static EsClient es;

    @BeforeAll
    static void start() {
        gateway = RunningGateway.start(data);
        es = gateway.client;
        es.put("/docs", json("{'mappings':{'properties':{'title':{'type':'text'},'n':{'type':'long'},"
                + "'tags':{'type':'keyword'}}}}"));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @Test
    void indexGetOverwriteAndDeleteWithRealVersions() {
        EsClient.Reply created = es.put("/docs/_doc/a1", json("{'title':'Dune','n':1}"));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        JsonNode c = created.json();
        assertThat(c.fieldNames()).toIterable()
                .containsExactly("_index", "_id", "_version", "result", "_shards", "_seq_no", "_primary_term");
        assertThat(c.path("_index").asText()).isEqualTo("docs");
        assertThat(c.path("_id").asText()).isEqualTo("a1");
        assertThat(c.path("_version").asLong()).isEqualTo(1);
        assertThat(c.path("result").asText()).isEqualTo("created");
        assertThat(c.path("_primary_term").asLong()).isEqualTo(1);
        long seq = c.path("_seq_no").asLong();

        EsClient.Reply got = es.get("/docs/_doc/a1");
        assertThat(got.status()).isEqualTo(200);
        assertThat(got.json().toString()).isEqualTo("{\"_index\":\"docs\",\"_id\":\"a1\",\"_version\":1,\"_seq_no\":"
                + seq + ",\"_primary_term\":1,\"found\":true,\"_source\":{\"title\":\"Dune\",\"n\":1}}");

        EsClient.Reply updated = es.send("POST", "/docs/_doc/a1", json("{'title':'Dune Messiah','n':2}"),
                "application/json");
        assertThat(updated.status()).isEqualTo(200);
        assertThat(updated.json().path("result").asText()).isEqualTo("updated");
        assertThat(updated.json().path("_version").asLong()).isEqualTo(2);
        assertThat(updated.json().path("_seq_no").asLong()).isEqualTo(seq + 1);

        EsClient.Reply deleted = es.delete("/docs/_doc/a1");
        assertThat(deleted.status()).isEqualTo(200);
        assertThat(deleted.json().path("result").asText()).isEqualTo("deleted");
        assertThat(deleted.json().path("_version").asLong()).isEqualTo(3);
        EsClient.Reply gone = es.get("/docs/_doc/a1");
        assertThat(gone.status()).isEqualTo(404);
        assertThat(gone.json().toString()).isEqualTo("{\"_index\":\"docs\",\"_id\":\"a1\",\"found\":false}");
        assertThat(es.head("/docs/_doc/a1").status()).isEqualTo(404);
        EsClient.Reply again = es.delete("/docs/_doc/a1");
        assertThat(again.status()).isEqualTo(404);
        assertThat(again.json().path("result").asText()).isEqualTo("not_found");
        EsClient.Reply recreated = es.put("/docs/_doc/a1", json("{'n':5}"));
        assertThat(recreated.status()).isEqualTo(201);
        assertThat(recreated.json().path("_version").asLong()).as("continues after the tombstone").isEqualTo(5);
    }

    @Test
    void postWithoutIdGeneratesOne() {
        EsClient.Reply r = es.post("/docs/_doc", json("{'title':'generated'}"));
        assertThat(r.status()).isEqualTo(201);
        String id = r.json().path("_id").asText();
        assertThat(id).hasSizeGreaterThanOrEqualTo(20);
        assertThat(es.get("/docs/_doc/" + id).json().at("/_source/title").asText()).isEqualTo("generated");
    }

    @Test
    void createNeverOverwrites() {
        assertThat(es.put("/docs/_create/c1", json("{'n':1}")).status()).isEqualTo(201);
        EsClient.Reply conflict = es.put("/docs/_create/c1", json("{'n':2}"));
        assertThat(conflict.status()).isEqualTo(409);
        assertThat(conflict.errorType()).isEqualTo("version_conflict_engine_exception");
        assertThat(conflict.errorReason()).isEqualTo("[c1]: version conflict, document already exists (current version [1])");
        assertThat(conflict.json().at("/error/index").asText()).isEqualTo("docs");
        assertThat(conflict.json().at("/error/shard").asText()).isEqualTo("0");
        EsClient.Reply opType = es.put("/docs/_doc/c1?op_type=create", json("{'n':3}"));
        assertThat(opType.status()).isEqualTo(409);
        assertThat(es.get("/docs/_doc/c1").json().at("/_source/n").asInt()).isEqualTo(1);
    }

    @Test
    void optimisticConcurrencyWithSeqNoAndPrimaryTerm() {
        long seq = es.put("/docs/_doc/o1", json("{'n':1}")).json().path("_seq_no").asLong();
        EsClient.Reply stale = es.put("/docs/_doc/o1?if_seq_no=" + (seq + 100) + "&if_primary_term=1", json("{'n':2}"));
        assertThat(stale.status()).isEqualTo(409);
        assertThat(stale.errorReason()).isEqualTo("[o1]: version conflict, required seqNo [" + (seq + 100)
                + "], primary term [1]. current document has seqNo [" + seq + "] and primary term [1]");
        EsClient.Reply ok = es.put("/docs/_doc/o1?if_seq_no=" + seq + "&if_primary_term=1", json("{'n':3}"));
        assertThat(ok.status()).isEqualTo(200);
        assertThat(es.delete("/docs/_doc/o1?if_seq_no=" + seq + "&if_primary_term=1").status()).isEqualTo(409);
        EsClient.Reply missing = es.put("/docs/_doc/never?if_seq_no=1&if_primary_term=1", json("{'n':1}"));
        assertThat(missing.status()).isEqualTo(409);
        assertThat(missing.errorReason()).endsWith("but no document was found");
        assertThat(es.put("/docs/_doc/half?if_seq_no=1", json("{'n':1}")).status()).isEqualTo(400);
    }

    @Test
    void updateMergesDetectsNoopsAndUpserts() {
        es.put("/docs/_doc/u1", json("{'title':'a','meta':{'x':1,'y':[1,2]},'tags':['p','q']}"));
        EsClient.Reply merged = es.post("/docs/_update/u1", json("{'doc':{'meta':{'y':[3]},'tags':['r']}}"));
        assertThat(merged.status()).as(merged.toString()).isEqualTo(200);
        assertThat(merged.json().path("result").asText()).isEqualTo("updated");
        assertThat(es.get("/docs/_doc/u1").json().path("_source").toString())
                .isEqualTo("{\"title\":\"a\",\"meta\":{\"x\":1,\"y\":[3]},\"tags\":[\"r\"]}");

        EsClient.Reply noop = es.post("/docs/_update/u1", json("{'doc':{'title':'a'}}"));
        assertThat(noop.json().path("result").asText()).isEqualTo("noop");
        assertThat(noop.json().path("_version").asLong()).isEqualTo(2);
        assertThat(noop.json().at("/_shards/total").asInt()).isZero();
        EsClient.Reply forced = es.post("/docs/_update/u1", json("{'doc':{'title':'a'},'detect_noop':false}"));
        assertThat(forced.json().path("result").asText()).isEqualTo("updated");
        assertThat(forced.json().path("_version").asLong()).isEqualTo(3);

        EsClient.Reply missing = es.post("/docs/_update/nope", json("{'doc':{'a':1}}"));
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.errorType()).isEqualTo("document_missing_exception");
        assertThat(missing.errorReason()).isEqualTo("[nope]: document missing");

        EsClient.Reply docAsUpsert = es.post("/docs/_update/u2", json("{'doc':{'n':7},'doc_as_upsert':true}"));
        assertThat(docAsUpsert.status()).isEqualTo(201);
        assertThat(es.get("/docs/_doc/u2").json().path("_source").toString()).isEqualTo("{\"n\":7}");
        EsClient.Reply upsert = es.post("/docs/_update/u3?_source=true", json("{'doc':{'n':1},'upsert':{'n':0}}"));
        assertThat(upsert.status()).isEqualTo(201);
        assertThat(upsert.json().at("/get/_source").toString()).isEqualTo("{\"n\":0}");
        assertThat(upsert.json().at("/get/found").asBoolean()).isTrue();

        EsClient.Reply both = es.post("/docs/_update/u1", json("{'script':'ctx._source.n = 1','doc':{'n':2}}"));
        assertThat(both.status()).isEqualTo(400);
        assertThat(both.errorReason()).isEqualTo("Validation Failed: 1: can't provide both script and doc;");
    }

    @Test
    void sourceEndpointAndSourceFiltering() {
        es.put("/docs/_doc/s1", json("{'title':'t','meta':{'a':1,'b':2},'n':3}"));
        assertThat(es.get("/docs/_source/s1").json().toString())
                .isEqualTo("{\"title\":\"t\",\"meta\":{\"a\":1,\"b\":2},\"n\":3}");
        assertThat(es.get("/docs/_source/s1?_source_includes=meta.a").json().toString())
                .isEqualTo("{\"meta\":{\"a\":1}}");
        assertThat(es.get("/docs/_doc/s1?_source_excludes=meta").json().path("_source").toString())
                .isEqualTo("{\"title\":\"t\",\"n\":3}");
        assertThat(es.get("/docs/_doc/s1?_source=false").json().has("_source")).isFalse();
        assertThat(es.get("/docs/_doc/s1?_source=title,n").json().path("_source").toString())
                .isEqualTo("{\"title\":\"t\",\"n\":3}");
        EsClient.Reply missing = es.get("/docs/_source/none");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.errorType()).isEqualTo("resource_not_found_exception");
        assertThat(missing.errorReason()).isEqualTo("Document not found [docs]/[none]");
    }

    @Test
    void idsArePercentDecodedAndLimitedTo512Bytes() {
        assertThat(es.put("/docs/_doc/a%2Fb%20c", json("{'n':1}")).json().path("_id").asText()).isEqualTo("a/b c");
        assertThat(es.get("/docs/_doc/a%2Fb%20c").json().path("found").asBoolean()).isTrue();
        assertThat(es.put("/docs/_doc/" + "x".repeat(512), json("{'n':1}")).status()).isEqualTo(201);
        EsClient.Reply tooLong = es.put("/docs/_doc/" + "x".repeat(513), json("{'n':1}"));
        assertThat(tooLong.status()).isEqualTo(400);
        assertThat(tooLong.errorType()).isEqualTo("action_request_validation_exception");
        assertThat(tooLong.errorReason()).contains("is too long, must be no longer than 512 bytes but was: 513");
    }

    @Test
    void missingIndicesAreCreatedOnWriteButNotOnReadOrDelete() {
        assertThat(es.get("/auto-made/_doc/1").errorType()).isEqualTo("index_not_found_exception");
        assertThat(es.delete("/auto-made/_doc/1").errorType()).isEqualTo("index_not_found_exception");
        assertThat(es.head("/auto-made").status()).isEqualTo(404);
        EsClient.Reply r = es.put("/auto-made/_doc/1", json("{'name':'x','count':3,'price':1.5,'ok':true,"
                + "'when':'2024-01-02T03:04:05Z','obj':{'inner':'y'}}"));
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        JsonNode props = es.get("/auto-made/_mapping").json().at("/auto-made/mappings/properties");
        assertThat(props.path("name").toString()).isEqualTo(
                "{\"type\":\"text\",\"fields\":{\"keyword\":{\"type\":\"keyword\",\"ignore_above\":256}}}");
        assertThat(props.at("/count/type").asText()).isEqualTo("long");
        assertThat(props.at("/price/type").asText()).isEqualTo("float");
        assertThat(props.at("/ok/type").asText()).isEqualTo("boolean");
        assertThat(props.at("/when/type").asText()).isEqualTo("date");
        assertThat(props.at("/obj/properties/inner/type").asText()).isEqualTo("text");
        assertThat(es.put("/Bad-Name/_doc/1", json("{'a':1}")).errorType()).isEqualTo("invalid_index_name_exception");
    }

    @Test
    void strictAndFalseDynamicMappings() {
        es.put("/strict", json("{'mappings':{'dynamic':'strict','properties':{'a':{'type':'keyword'}}}}"));
        EsClient.Reply r = es.put("/strict/_doc/1", json("{'a':'x','b':1}"));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.errorType()).isEqualTo("strict_dynamic_mapping_exception");
        assertThat(r.errorReason()).contains("mapping set to strict, dynamic introduction of [b] within [_doc] is not allowed");
        assertThat(es.get("/strict/_doc/1").status()).isEqualTo(404);

        es.put("/loose", json("{'mappings':{'dynamic':false,'properties':{'a':{'type':'keyword'}}}}"));
        assertThat(es.put("/loose/_doc/1", json("{'a':'x','b':1}")).status()).isEqualTo(201);
        assertThat(es.get("/loose/_doc/1").json().at("/_source/b").asInt()).isEqualTo(1);
        assertThat(es.get("/loose/_mapping").json().at("/loose/mappings/properties").has("b")).isFalse();
    }

    @Test
    void valuesThatDoNotFitTheirTypeAre400s() {
        EsClient.Reply r = es.put("/docs/_doc/bad", json("{'n':'abc'}"));
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.errorType()).isEqualTo("document_parsing_exception");
        assertThat(r.errorReason()).contains("failed to parse field [n] of type [long]");
        assertThat(es.get("/docs/_doc/bad").status()).isEqualTo(404);
        assertThat(es.put("/docs/_doc/arr", "[1,2]").status()).isEqualTo(400);
    }

    @Test
    void writesThroughAnAliasGoToItsWriteIndexAndReportIt() {
        es.put("/aliased-1", json("{'aliases':{'writer':{'is_write_index':true}}}"));
        es.put("/aliased-2", json("{'aliases':{'writer':{}}}"));
        EsClient.Reply r = es.put("/writer/_doc/1", json("{'n':1}"));
        assertThat(r.json().path("_index").asText()).isEqualTo("aliased-1");
        EsClient.Reply read = es.get("/writer/_doc/1");
        assertThat(read.status()).isEqualTo(400);
        assertThat(read.errorReason()).contains("has more than one index associated with it");
        assertThat(es.get("/aliased-1/_doc/1").json().path("found").asBoolean()).isTrue();
        EsClient.Reply required = es.put("/aliased-1/_doc/2?require_alias=true", json("{'n':1}"));
        assertThat(required.status()).isEqualTo(404);
        assertThat(required.errorReason()).contains("[require_alias] request flag is [true] and [aliased-1] is not an alias");
    }

    @Test
    void refreshTrueIsReportedAndOtherParametersAreChecked() {
        EsClient.Reply r = es.put("/docs/_doc/r1?refresh=true", json("{'n':1}"));
        assertThat(r.json().path("forced_refresh").asBoolean()).isTrue();
        assertThat(es.put("/docs/_doc/r2?refresh=wait_for&routing=x&timeout=1m", json("{'n':1}")).json()
                .has("forced_refresh")).isFalse();
        assertThat(es.put("/docs/_doc/r3?refresh=soon", json("{'n':1}")).errorReason())
                .isEqualTo("Unknown value for refresh: [soon].");
        // internal versions are refused in 8.x: external ones are taken (scenario external-versioning)
        assertThat(es.put("/docs/_doc/r4?version=3", json("{'n':1}")).errorType())
                .isEqualTo("action_request_validation_exception");
        assertThat(es.get("/docs/_doc/r1?stored_fields=n").status()).isEqualTo(400);
    }

    @Test
    void catIndicesCountsDocuments() {
        es.put("/counted/_doc/1", json("{'n':1}"));
        es.put("/counted/_doc/2", json("{'n':2}"));
        es.delete("/counted/_doc/1");
        assertThat(es.get("/_cat/indices/counted?format=json&h=docs.count").json().at("/0/docs.count").asText())
                .isEqualTo("1");
    }
}
