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
 * The {@code script_score} query over HTTP on both backends (on Qdrant the gateway runs the script over the
 * candidates): doc values of each field type, {@code _score}, {@code params}, the vector and decay functions,
 * {@code boost} and {@code min_score}, and Elasticsearch's errors as shard failures.
 */
class ScriptScoreHttpTest {
    @RegisterExtension
    static final BothBackends.PerClass gateways = BothBackends.perClass();

    static Stream<String> backends() {
        return BothBackends.names();
    }

    private static final float[][] VECTORS = {{1f, 0f, 0f}, {0.5f, 0.5f, 0f}, {0f, 0f, 2f}};

    private static void index(EsClient es, String name) {
        if (es.get("/" + name).status() == 200) {
            return;
        }
        assertThat(es.put("/" + name, json("{'mappings':{'properties':{'tag':{'type':'keyword'},'n':{'type':'long'},"
                + "'d':{'type':'double'},'f':{'type':'float'},'day':{'type':'date'},'ok':{'type':'boolean'},"
                + "'title':{'type':'text'},'v':{'type':'dense_vector','dims':3,'similarity':'cosine'}}}}")).status())
                .isEqualTo(200);
        String[] docs = {
            "{'tag':['b','a'],'n':[7,3],'d':1.5,'f':0.25,'day':'2024-01-02','ok':true,'title':'one','v':[1,0,0]}",
            "{'tag':'c','n':10,'d':-2.0,'f':1.5,'day':'2024-01-05T12:00:00Z','ok':false,'title':'two','v':[0.5,0.5,0]}",
            "{'tag':'a','n':1,'title':'three','v':[0,0,2]}"};
        for (int i = 0; i < docs.length; i++) {
            assertThat(es.put("/" + name + "/_doc/" + (i + 1) + "?refresh=true", json(docs[i])).status()).isEqualTo(201);
        }
    }

    private static Map<String, Double> scores(EsClient.Reply r) {
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        Map<String, Double> out = new LinkedHashMap<>();
        for (JsonNode hit : r.json().at("/hits/hits")) {
            out.put(hit.path("_id").asText(), hit.path("_score").asDouble());
        }
        return out;
    }

    private static EsClient.Reply search(EsClient es, String index, String scriptScore) {
        return es.post("/" + index + "/_search", j("{'query':{'script_score':" + scriptScore + "}}"));
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
    void docValuesOfEachTypeScoreTheMatches(String backend) {
        EsClient es = gateways.client(backend);
        index(es, "ss");
        // numbers: the smallest of a multi-valued field first; params; ordered by score
        Map<String, Double> byN = scores(search(es, "ss", "{'query':{'match_all':{}},'script':{'source':"
                + "\"doc['n'].value * params.k + doc['n'].size()\",'params':{'k':2}}}"));
        assertThat(byN).containsExactly(Map.entry("2", 21.0), Map.entry("1", 8.0), Map.entry("3", 3.0));
        // keyword (sorted), double, float, boolean, date, emptiness
        Map<String, Double> mixed = scores(search(es, "ss", "{'query':{'match_all':{}},'script':{'source':"
                + "\"if (doc['d'].empty) { return 0.5 } double s = doc['tag'][0] == 'a' ? 100 : 0;"
                + " s += doc['ok'].value ? 10 : 0; s += doc['d'].value + doc['f'].value;"
                + " s += doc['day'].value.getDayOfMonth(); return s\"}}"));
        assertThat(mixed).containsExactly(Map.entry("1", 100 + 10 + 1.5 + 0.25 + 2), Map.entry("2", -2.0 + 1.5 + 5),
                Map.entry("3", 0.5));
        // _score is the inner query's score; boost multiplies the script's value; min_score drops the rest
        Map<String, Double> boosted = scores(search(es, "ss", "{'query':{'constant_score':{'filter':{'terms':"
                + "{'tag':['a','c']}},'boost':2}},'script':{'source':\"_score * 3 + doc['n'].value\"},'boost':0.5,"
                + "'min_score':4}"));
        assertThat(boosted).containsExactly(Map.entry("2", 8.0), Map.entry("1", 4.5));
    }

    @ParameterizedTest
    @MethodSource("backends")
    void vectorAndDecayFunctions(String backend) {
        EsClient es = gateways.client(backend);
        index(es, "ss");
        float[] q = {1f, 1f, 0f};
        Map<String, Double> cosine = scores(search(es, "ss", "{'query':{'match_all':{}},'script':{'source':"
                + "\"cosineSimilarity(params.q, 'v') + 1.0\",'params':{'q':[1,1,0]}}}"));
        for (int i = 0; i < VECTORS.length; i++) {
            assertThat(cosine.get("" + (i + 1))).isCloseTo((float) (cosine(q, VECTORS[i]) + 1.0), within(1e-6));
        }
        assertThat(cosine.keySet()).containsExactly("2", "1", "3");
        Map<String, Double> dot = scores(search(es, "ss", "{'query':{'match_all':{}},'script':{'source':"
                + "\"dotProduct(params.q, 'v') + l1norm(params.q, 'v') + l2norm(params.q, 'v')\","
                + "'params':{'q':[1,1,0]}}}"));
        assertThat(dot.get("3")).isCloseTo(0 + 4 + Math.sqrt(6), within(1e-5));
        Map<String, Double> decay = scores(search(es, "ss", "{'query':{'ids':{'values':['1','2']}},'script':{'source':"
                + "\"decayNumericGauss(params.o, 2, 1, 0.5, doc['n'].value) + decayNumericLinear(params.o, 4, 0, 0.5,"
                + " doc['n'].value) + decayDateExp('2024-01-01', '2d', '0d', 0.5, doc['day'].value)"
                + " + saturation(doc['n'].value, 5) + sigmoid(doc['n'].value, 2, 3)\",'params':{'o':5}}}"));
        double n1 = 3;
        double expected1 = Math.exp(0.5 * Math.pow(Math.max(0, Math.abs(n1 - 5) - 1), 2) / (0.5 * 4 / Math.log(0.5)))
                + Math.max(0, (8 - Math.abs(n1 - 5)) / 8) + Math.exp(Math.log(0.5) / 172_800_000d * 86_400_000d)
                + n1 / (5 + n1) + Math.pow(n1, 3) / (8 + Math.pow(n1, 3));
        assertThat(decay.get("1")).isCloseTo((float) expected1, within(1e-5));
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return dot / Math.sqrt(na) / Math.sqrt(nb);
    }

    @ParameterizedTest
    @MethodSource("backends")
    void errorsAreShardFailuresAsInElasticsearch(String backend) {
        EsClient es = gateways.client(backend);
        index(es, "ss");
        EsClient.Reply text = search(es, "ss", "{'query':{'match_all':{}},'script':{'source':\"doc['title'].value.length()\"}}");
        assertThat(text.status()).as(text.toString()).isEqualTo(400);
        assertThat(text.errorType()).isEqualTo("search_phase_execution_exception");
        JsonNode failure = text.json().at("/error/failed_shards/0/reason");
        assertThat(failure.path("type").asText()).isEqualTo("script_exception");
        assertThat(failure.path("reason").asText()).isEqualTo("runtime error");
        assertThat(failure.at("/caused_by/type").asText()).isEqualTo("illegal_argument_exception");
        assertThat(failure.at("/caused_by/reason").asText()).startsWith("Fielddata is disabled on [title] in [ss]");

        EsClient.Reply missing = search(es, "ss", "{'query':{'match_all':{}},'script':{'source':\"doc['d'].value + 10\"}}");
        assertThat(missing.json().at("/error/failed_shards/0/reason/caused_by/type").asText())
                .isEqualTo("illegal_state_exception");
        EsClient.Reply unmapped = search(es, "ss", "{'query':{'match_all':{}},'script':{'source':\"doc['nope'].value\"}}");
        assertThat(unmapped.json().at("/error/failed_shards/0/reason/caused_by/reason").asText())
                .isEqualTo("No field found for [nope] in mapping");

        EsClient.Reply negative = search(es, "ss", "{'query':{'match_all':{}},'script':{'source':\"-1\"}}");
        assertThat(negative.status()).isEqualTo(400);
        assertThat(negative.json().at("/error/failed_shards/0/reason/type").asText())
                .isEqualTo("illegal_argument_exception");
        assertThat(negative.json().at("/error/failed_shards/0/reason/reason").asText())
                .startsWith("script_score script returned an invalid score [-1.0] for doc [");

        EsClient.Reply compile = search(es, "ss", "{'query':{'match_all':{}},'script':{'source':\"doc['n'].value +\"}}");
        assertThat(compile.status()).isEqualTo(400);
        assertThat(compile.json().at("/error/root_cause/0/type").asText()).isEqualTo("script_exception");
        assertThat(compile.json().at("/error/failed_shards/0/reason/reason").asText()).isEqualTo("compile error");

        EsClient.Reply shorthand = search(es, "ss", "{'query':{'match_all':{}},'script':\"1\"}");
        assertThat(shorthand.errorType()).isEqualTo("x_content_parse_exception");
        assertThat(shorthand.errorReason()).isEqualTo("[script_score] script doesn't support values of type:"
                + " VALUE_STRING");
        EsClient.Reply noScript = search(es, "ss", "{'query':{'match_all':{}}}");
        assertThat(noScript.status()).isEqualTo(400);
        assertThat(noScript.errorReason()).isEqualTo("Required [script]");
    }
}
