package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code function_score} query over HTTP on both backends (on Qdrant the gateway scores the candidates):
 * {@code field_value_factor}, weights with filters, the decay functions, a script function, {@code random_score},
 * {@code score_mode}, {@code boost_mode}, {@code max_boost}, {@code min_score} and {@code boost}, with the scores
 * computed by hand from Elasticsearch's formulas.
 */
class FunctionScoreHttpTest {
    @RegisterExtension
    static final BothBackends.PerClass gateways = BothBackends.perClass();

    static Stream<String> backends() {
        return BothBackends.names();
    }

    private static void index(EsClient es) {
        if (es.get("/fs").status() == 200) {
            return;
        }
        assertThat(es.put("/fs", json("{'mappings':{'properties':{'tag':{'type':'keyword'},'n':{'type':'long'},"
                + "'d':{'type':'double'},'day':{'type':'date'},'title':{'type':'text'}}}}")).status()).isEqualTo(200);
        String[] docs = {
            "{'tag':['b','a'],'n':[7,3],'d':1.5,'day':'2024-01-02','title':'red fox'}",
            "{'tag':'c','n':10,'d':2.25,'day':'2024-01-05T12:00:00Z','title':'red dog'}",
            "{'tag':'a','n':1,'title':'blue fox'}"};
        for (int i = 0; i < docs.length; i++) {
            assertThat(es.put("/fs/_doc/" + (i + 1) + "?refresh=true", json(docs[i])).status()).isEqualTo(201);
        }
    }

    private static Map<String, Double> scores(EsClient es, String functionScore) {
        EsClient.Reply r = es.post("/fs/_search", j("{'query':{'function_score':" + functionScore + "}}"));
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        Map<String, Double> out = new LinkedHashMap<>();
        for (JsonNode hit : r.json().at("/hits/hits")) {
            out.put(hit.path("_id").asText(), hit.path("_score").asDouble());
        }
        return out;
    }

    /** Single quotes to double quotes outside double-quoted strings (the scripts keep their single quotes). */
    private static String j(String relaxed) {
        StringBuilder out = new StringBuilder();
        boolean inString = false;
        for (char c : relaxed.toCharArray()) {
            if (c == '"') {
                inString = !inString;
            }
            out.append(c == '\'' && !inString ? '"' : c);
        }
        return out.toString();
    }

    @ParameterizedTest
    @MethodSource("backends")
    void functionsModesAndBoosts(String backend) {
        EsClient es = gateways.client(backend);
        index(es);
        // sqrt(1.2 * d), missing 0.3 for the document without d; ordered by score
        Map<String, Double> fvf = scores(es, "{'field_value_factor':{'field':'d','factor':1.2,'modifier':'sqrt',"
                + "'missing':0.3}}");
        assertThat(fvf.keySet()).containsExactly("2", "1", "3");
        assertThat(fvf.get("2")).isCloseTo((float) Math.sqrt(1.2f * 2.25), within(1e-6));
        assertThat(fvf.get("3")).isCloseTo((float) Math.sqrt(1.2f * 0.3), within(1e-6));
        // filters and weights, score_mode sum, boost_mode replace: tag a → 2, n >= 3 → 3.5
        Map<String, Double> weights = scores(es, "{'functions':[{'filter':{'term':{'tag':'a'}},'weight':2},"
                + "{'filter':{'range':{'n':{'gte':3}}},'weight':3.5}],'score_mode':'sum','boost_mode':'replace'}");
        assertThat(weights).containsExactly(Map.entry("1", 5.5), Map.entry("2", 3.5), Map.entry("3", 2.0));
        // avg divides by the weights of the matching functions: doc 1 (n min 3): (2*3 + 4) / (2 + 4)
        Map<String, Double> avg = scores(es, "{'functions':[{'filter':{'term':{'tag':'a'}},'weight':2,"
                + "'field_value_factor':{'field':'n'}},{'filter':{'range':{'n':{'gte':3}}},'weight':4}],"
                + "'score_mode':'avg'}");
        assertThat(avg.get("1")).isCloseTo(10.0 / 6, within(1e-6));
        assertThat(avg.get("3")).isCloseTo(1.0, within(1e-6));
        // boost reaches the inner query (constant 2 * 1.5 = 3), max_boost caps n at 5, min_score drops below 6
        Map<String, Double> capped = scores(es, "{'query':{'constant_score':{'filter':{'match_all':{}},'boost':2}},"
                + "'field_value_factor':{'field':'n'},'max_boost':5,'boost':1.5,'boost_mode':'sum','min_score':6}");
        assertThat(capped).containsExactly(Map.entry("2", 8.0), Map.entry("1", 6.0));
        // boost_mode replace drops the boost, as Elasticsearch
        Map<String, Double> replaced = scores(es, "{'field_value_factor':{'field':'n'},'boost':3,"
                + "'boost_mode':'replace'}");
        assertThat(replaced).containsExactly(Map.entry("2", 10.0), Map.entry("1", 3.0), Map.entry("3", 1.0));
    }

    @ParameterizedTest
    @MethodSource("backends")
    void decayScriptAndRandomFunctions(String backend) {
        EsClient es = gateways.client(backend);
        index(es);
        Map<String, Double> gauss = scores(es, "{'gauss':{'n':{'origin':5,'scale':3,'offset':1,'decay':0.5}},"
                + "'boost_mode':'replace'}");
        // the smallest distance of doc 1's values (3 and 7): 2 - offset 1 = 1
        assertThat(gauss.get("1")).isCloseTo((float) Math.exp(Math.log(0.5) * 1 / 9.0), within(1e-6));
        Map<String, Double> dates = scores(es, "{'exp':{'day':{'origin':'2024-01-01','scale':'2d','offset':'12h'}},"
                + "'boost_mode':'replace'}");
        // 1 day from the origin, 12 hours past the offset; a document without the field scores 1
        assertThat(dates.get("1")).isCloseTo((float) Math.exp(Math.log(0.5) / 2.0 * 0.5), within(1e-6));
        assertThat(dates.get("3")).isEqualTo(1.0);
        Map<String, Double> script = scores(es, "{'query':{'match':{'title':'fox'}},'script_score':{'script':"
                + "{'source':\"doc['n'].value * params.k\",'params':{'k':2}}},'boost_mode':'replace'}");
        assertThat(script).containsExactly(Map.entry("1", 6.0), Map.entry("3", 2.0));
        // random_score: in [0, 1), the same for a seed and a field value, another order for another seed
        Map<String, Double> random = scores(es, "{'random_score':{'seed':42,'field':'tag'},'boost_mode':'replace'}");
        assertThat(random.values()).allSatisfy(v -> assertThat(v).isBetween(0.0, 1.0));
        assertThat(scores(es, "{'random_score':{'seed':42,'field':'tag'},'boost_mode':'replace'}")).isEqualTo(random);
        assertThat(scores(es, "{'random_score':{'seed':7,'field':'tag'},'boost_mode':'replace'}").values())
                .isNotEqualTo(random.values());
    }

    @ParameterizedTest
    @MethodSource("backends")
    void storedScriptsScoreByTheirId(String backend) {
        EsClient es = gateways.client(backend);
        index(es);
        assertThat(es.put("/_scripts/fs-times", j("{'script':{'lang':'painless','source':"
                + "\"doc['n'].value * params.k\"}}")).status()).isEqualTo(200);
        EsClient.Reply query = es.post("/fs/_search", j("{'query':{'script_score':{'query':{'match_all':{}},"
                + "'script':{'id':'fs-times','params':{'k':3}}}}}"));
        assertThat(query.status()).as(query.toString()).isEqualTo(200);
        assertThat(query.json().at("/hits/hits/0/_id").asText()).isEqualTo("2");
        assertThat(query.json().at("/hits/hits/0/_score").asDouble()).isEqualTo(30.0);
        Map<String, Double> function = scores(es, "{'query':{'bool':{'must':{'match':{'title':'fox'}}}},"
                + "'script_score':{'script':{'id':'fs-times','params':{'k':2}}},'boost_mode':'replace'}");
        assertThat(function).containsExactly(Map.entry("1", 6.0), Map.entry("3", 2.0));
        EsClient.Reply missing = es.post("/fs/_search", j("{'query':{'script_score':{'query':{'match_all':{}},"
                + "'script':{'id':'fs-nope'}}}}"));
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.json().at("/error/reason").asText()).isEqualTo("unable to find script [fs-nope] in"
                + " cluster state");
    }

    @ParameterizedTest
    @MethodSource("backends")
    void errorsAre400sNamingTheProblem(String backend) {
        EsClient es = gateways.client(backend);
        index(es);
        EsClient.Reply negative = es.post("/fs/_search", j("{'query':{'function_score':{'script_score':"
                + "{'script':\"doc['n'].value - 5\"}}}}"));
        assertThat(negative.status()).isEqualTo(400);
        assertThat(negative.json().at("/error/root_cause/0/reason").asText())
                .startsWith("script score function must not produce negative scores, but got: [-");
        EsClient.Reply geo = es.post("/fs/_search", json("{'query':{'function_score':{'gauss':{'n':"
                + "{'origin':{'lat':1,'lon':2},'scale':'2km'}}}}}"));
        assertThat(geo.status()).isEqualTo(400);
        assertThat(geo.body()).contains("geo");
        EsClient.Reply keyword = es.post("/fs/_search", json("{'query':{'function_score':{'linear':{'tag':"
                + "{'origin':1,'scale':2}}}}}"));
        assertThat(keyword.status()).isEqualTo(400);
        assertThat(keyword.json().at("/error/root_cause/0/type").asText()).isEqualTo("query_shard_exception");
    }
}
