package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Painless scripts over HTTP on both backends: {@code _update} with {@code ctx.op}, upserts, the error envelope,
 * {@code _bulk} update items, {@code _update_by_query}, stored scripts.
 */
class ScriptHttpTest {
    @RegisterExtension
    static final BothBackends.PerClass gateways = BothBackends.perClass();

    static Stream<String> backends() {
        return BothBackends.names();
    }

    private static JsonNode source(EsClient es, String path) {
        return es.get(path).json().path("_source");
    }

    @ParameterizedTest
    @MethodSource("backends")
    void updateRunsTheScriptOverCtx(String backend) {
        EsClient es = gateways.client(backend);
        assertThat(es.put("/counters/_doc/1?refresh=true", json("{'views':5,'tags':['a']}")).status()).isEqualTo(201);
        EsClient.Reply r = es.post("/counters/_update/1?_source=true", json("{'script':{'source':"
                + "'ctx._source.views += params.n; ctx._source.tags.add(params.tag)','params':{'n':2,'tag':'b'}}}"));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.json().path("result").asText()).isEqualTo("updated");
        assertThat(r.json().path("_version").asLong()).isEqualTo(2);
        assertThat(r.json().at("/get/_source").toString()).isEqualTo("{\"views\":7,\"tags\":[\"a\",\"b\"]}");

        EsClient.Reply noop = es.post("/counters/_update/1", json("{'script':'ctx.op = \\\"noop\\\"'}"));
        assertThat(noop.json().path("result").asText()).isEqualTo("noop");
        assertThat(noop.json().path("_version").asLong()).isEqualTo(2);

        EsClient.Reply unchanged = es.post("/counters/_update/1", json("{'script':'ctx._source.views = ctx._source.views'}"));
        assertThat(unchanged.json().path("result").asText()).as("no no-op detection for scripts").isEqualTo("updated");

        EsClient.Reply deleted = es.post("/counters/_update/1", json("{'script':'if (ctx._source.views > 1) { ctx.op = \\\"delete\\\" }'}"));
        assertThat(deleted.json().path("result").asText()).isEqualTo("deleted");
        assertThat(es.get("/counters/_doc/1").status()).isEqualTo(404);
    }

    @ParameterizedTest
    @MethodSource("backends")
    void upsertAndScriptedUpsert(String backend) {
        EsClient es = gateways.client(backend);
        EsClient.Reply plain = es.post("/ups/_update/a", json("{'script':'ctx._source.n += 1','upsert':{'n':0}}"));
        assertThat(plain.status()).as(plain.toString()).isEqualTo(201);
        assertThat(source(es, "/ups/_doc/a").toString()).isEqualTo("{\"n\":0}");
        EsClient.Reply scripted = es.post("/ups/_update/b", json("{'script':'ctx._source.n += 1; ctx._source.op = ctx.op',"
                + "'upsert':{'n':0},'scripted_upsert':true}"));
        assertThat(scripted.status()).isEqualTo(201);
        assertThat(source(es, "/ups/_doc/b").toString()).isEqualTo("{\"n\":1,\"op\":\"create\"}");
        EsClient.Reply again = es.post("/ups/_update/a", json("{'script':'ctx._source.n += 1','upsert':{'n':0}}"));
        assertThat(again.json().path("result").asText()).isEqualTo("updated");
        assertThat(source(es, "/ups/_doc/a").toString()).isEqualTo("{\"n\":1}");
        EsClient.Reply missing = es.post("/ups/_update/zz", json("{'script':'ctx._source.n += 1'}"));
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.errorType()).isEqualTo("document_missing_exception");
    }

    @ParameterizedTest
    @MethodSource("backends")
    void failuresAreScriptExceptionsAsElasticsearchRendersThem(String backend) {
        EsClient es = gateways.client(backend);
        es.put("/errs/_doc/1?refresh=true", json("{'n':1}"));
        EsClient.Reply compile = es.post("/errs/_update/1", json("{'script':'ctx._source.a = '}"));
        assertThat(compile.status()).isEqualTo(400);
        JsonNode error = compile.json().path("error");
        assertThat(error.at("/root_cause/0/type").asText()).isEqualTo("illegal_argument_exception");
        assertThat(error.path("reason").asText()).isEqualTo("failed to execute script");
        JsonNode script = error.path("caused_by");
        assertThat(script.path("type").asText()).isEqualTo("script_exception");
        assertThat(script.path("reason").asText()).isEqualTo("compile error");
        assertThat(script.path("script_stack").toString()).isEqualTo("[\"ctx._source.a = \",\"                ^---- HERE\"]");
        assertThat(script.path("script").asText()).isEqualTo("ctx._source.a = ");
        assertThat(script.path("lang").asText()).isEqualTo("painless");
        assertThat(script.path("position").toString()).isEqualTo("{\"offset\":16,\"start\":0,\"end\":16}");
        assertThat(script.at("/caused_by/type").asText()).isEqualTo("illegal_argument_exception");
        assertThat(script.at("/caused_by/reason").asText()).isEqualTo("unexpected end of script.");

        EsClient.Reply runtime = es.post("/errs/_update/1", json("{'script':'ctx._source.missing.x = 1'}"));
        assertThat(runtime.status()).isEqualTo(400);
        assertThat(runtime.json().at("/error/caused_by/reason").asText()).isEqualTo("runtime error");
        assertThat(runtime.json().at("/error/caused_by/caused_by/type").asText()).isEqualTo("null_pointer_exception");
        assertThat(source(es, "/errs/_doc/1").toString()).isEqualTo("{\"n\":1}");

        EsClient.Reply lang = es.post("/errs/_update/1", json("{'script':{'source':'1','lang':'expression'}}"));
        assertThat(lang.status()).isEqualTo(400);
        assertThat(lang.errorReason()).contains("[lang] [expression]");
    }

    @ParameterizedTest
    @MethodSource("backends")
    void bulkUpdateItemsRunScriptsAndFailOneByOne(String backend) {
        EsClient es = gateways.client(backend);
        es.put("/bulky/_doc/1?refresh=true", json("{'n':1}"));
        String body = json("{'update':{'_index':'bulky','_id':'1'}}\n{'script':{'source':'ctx._source.n *= params.k',"
                + "'params':{'k':10}}}\n{'update':{'_index':'bulky','_id':'1'}}\n{'script':'ctx._source.n.foo()'}\n"
                + "{'update':{'_index':'bulky','_id':'2'}}\n{'script':'ctx._source.n = 1','upsert':{'n':5}}\n");
        EsClient.Reply r = es.send("POST", "/_bulk?refresh=true", body, "application/x-ndjson");
        assertThat(r.status()).isEqualTo(200);
        JsonNode items = r.json().path("items");
        assertThat(r.json().path("errors").asBoolean()).isTrue();
        assertThat(items.at("/0/update/result").asText()).isEqualTo("updated");
        assertThat(items.at("/1/update/status").asInt()).isEqualTo(400);
        assertThat(items.at("/1/update/error/type").asText()).isEqualTo("illegal_argument_exception");
        assertThat(items.at("/1/update/error/caused_by/type").asText()).isEqualTo("script_exception");
        assertThat(items.at("/1/update/error/caused_by/caused_by/reason").asText())
                .isEqualTo("dynamic method [java.lang.Integer, foo/0] not found");
        assertThat(items.at("/2/update/result").asText()).isEqualTo("created");
        assertThat(source(es, "/bulky/_doc/1").toString()).isEqualTo("{\"n\":10}");
    }

    @ParameterizedTest
    @MethodSource("backends")
    void updateByQueryRunsTheScriptOnEachMatch(String backend) {
        EsClient es = gateways.client(backend);
        StringBuilder bulk = new StringBuilder();
        for (int n = 1; n <= 6; n++) {
            bulk.append(json("{'index':{'_id':'" + n + "'}}\n{'n':" + n + "}\n"));
        }
        es.send("POST", "/ubqs/_bulk?refresh=true", bulk.toString(), "application/x-ndjson");
        EsClient.Reply r = es.post("/ubqs/_update_by_query?refresh=true", json("{'script':{'source':"
                + "'if (ctx._source.n == 1) { ctx.op = \\\"noop\\\" } else if (ctx._source.n == 2) { ctx.op = \\\"delete\\\" }"
                + " else { ctx._source.n += params.add }','params':{'add':100}}}"));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        assertThat(r.json().path("total").asLong()).isEqualTo(6);
        assertThat(r.json().path("updated").asLong()).isEqualTo(4);
        assertThat(r.json().path("deleted").asLong()).isEqualTo(1);
        assertThat(r.json().path("noops").asLong()).isEqualTo(1);
        assertThat(source(es, "/ubqs/_doc/3").toString()).isEqualTo("{\"n\":103}");
        assertThat(source(es, "/ubqs/_doc/1").toString()).isEqualTo("{\"n\":1}");
        assertThat(es.get("/ubqs/_doc/2").status()).isEqualTo(404);

        EsClient.Reply broken = es.post("/ubqs/_update_by_query", json("{'script':'ctx._source.n += '}"));
        assertThat(broken.status()).isEqualTo(400);
        assertThat(broken.errorType()).isEqualTo("script_exception");
        EsClient.Reply failing = es.post("/ubqs/_update_by_query", json("{'script':'ctx._source.missing.y = 1'}"));
        assertThat(failing.status()).isEqualTo(400);
        assertThat(failing.json().at("/error/caused_by/type").asText()).isEqualTo("null_pointer_exception");
    }

    @ParameterizedTest
    @MethodSource("backends")
    void storedScriptsAreKeptAndUsedById(String backend) {
        EsClient es = gateways.client(backend);
        EsClient.Reply put = es.put("/_scripts/add-n-" + backend, json("{'script':{'lang':'painless',"
                + "'source':'ctx._source.n += params.n'}}"));
        assertThat(put.status()).as(put.toString()).isEqualTo(200);
        assertThat(put.json().path("acknowledged").asBoolean()).isTrue();
        EsClient.Reply got = es.get("/_scripts/add-n-" + backend);
        assertThat(got.json().toString()).isEqualTo("{\"_id\":\"add-n-" + backend + "\",\"found\":true,\"script\":"
                + "{\"lang\":\"painless\",\"source\":\"ctx._source.n += params.n\"}}");
        es.put("/stored/_doc/1?refresh=true", json("{'n':1}"));
        EsClient.Reply used = es.post("/stored/_update/1", json("{'script':{'id':'add-n-" + backend
                + "','params':{'n':41}}}"));
        assertThat(used.status()).as(used.toString()).isEqualTo(200);
        assertThat(source(es, "/stored/_doc/1").toString()).isEqualTo("{\"n\":42}");

        assertThat(es.delete("/_scripts/add-n-" + backend).status()).isEqualTo(200);
        EsClient.Reply gone = es.get("/_scripts/add-n-" + backend);
        assertThat(gone.status()).isEqualTo(404);
        assertThat(gone.json().path("found").asBoolean()).isFalse();
        EsClient.Reply deleteAgain = es.delete("/_scripts/add-n-" + backend);
        assertThat(deleteAgain.status()).isEqualTo(404);
        assertThat(deleteAgain.errorType()).isEqualTo("resource_not_found_exception");
        EsClient.Reply unknown = es.post("/stored/_update/1", json("{'script':{'id':'add-n-" + backend + "'}}"));
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.json().at("/error/caused_by/type").asText()).isEqualTo("resource_not_found_exception");
        EsClient.Reply noLang = es.put("/_scripts/x", json("{'script':{'source':'1'}}"));
        assertThat(noLang.status()).isEqualTo(400);
        assertThat(noLang.errorReason()).isEqualTo("must specify lang for stored script");
    }
}
