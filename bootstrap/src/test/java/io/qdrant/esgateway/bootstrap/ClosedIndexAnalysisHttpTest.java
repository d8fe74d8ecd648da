package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.TreeSet;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Analysis settings changed on a closed index ({@code _close}, {@code PUT _settings} with {@code analysis},
 * {@code _open}). Elasticsearch keeps the tokens documents were indexed with: a document written before the change
 * still matches the tokens the old analyzer made. The Lucene store keeps them as Elasticsearch does; the Qdrant store
 * keeps only the distinct tokens and analyses the source again when it matches and scores, so it refuses a new index
 * analyzer for a field documents hold (never a different answer) and accepts every other change.
 */
class ClosedIndexAnalysisHttpTest {
    @RegisterExtension
    static final BothBackends.PerClass gateways = BothBackends.perClass();

    static java.util.stream.Stream<String> backends() {
        return BothBackends.names();
    }

    private static TreeSet<String> ids(EsClient.Reply reply) {
        assertThat(reply.status()).as("%s", reply).isEqualTo(200);
        TreeSet<String> ids = new TreeSet<>();
        reply.json().path("hits").path("hits").forEach(h -> ids.add(h.path("_id").asText()));
        return ids;
    }

    private static void create(EsClient es, String index, String settings, String mappings) {
        assertThat(es.put("/" + index, json("{'settings': {'number_of_replicas': 0, 'analysis': " + settings
                + "}, 'mappings': " + mappings + "}")).status()).isEqualTo(200);
        assertThat(es.post("/" + index + "/_bulk?refresh=true", json("{'index': {'_id': '1'}}\n"
                + "{'title': 'The Quick fox'}\n{'index': {'_id': '2'}}\n{'title': 'the lazy dog'}\n"))
                .json().path("errors").asBoolean(true)).isFalse();
        assertThat(es.post("/" + index + "/_close", "").status()).isEqualTo(200);
    }

    @ParameterizedTest
    @MethodSource("backends")
    void aNewIndexAnalyzerForAFieldDocumentsHold(String backend) {
        EsClient es = gateways.client(backend);
        create(es, "held", "{'analyzer': {'words': {'type': 'custom', 'tokenizer': 'standard', 'filter':"
                + " ['lowercase']}, 'plain': {'type': 'custom', 'tokenizer': 'standard', 'filter': ['lowercase']}}}",
                "{'properties': {'title': {'type': 'text', 'analyzer': 'words', 'search_analyzer': 'plain'}}}");
        EsClient.Reply change = es.put("/held/_settings", json("{'analysis': {'analyzer': {'words': {'type':"
                + " 'custom', 'tokenizer': 'standard', 'filter': ['lowercase', 'stop']}}}}"));
        assertThat(es.post("/held/_open", "").status()).isEqualTo(200);
        if (backend.equals("lucene")) {
            // as Elasticsearch: the documents written before keep their token "the"; a new one is indexed without it
            assertThat(change.status()).as("%s", change).isEqualTo(200);
            assertThat(es.put("/held/_doc/3?refresh=true", json("{'title': 'the end'}")).status()).isEqualTo(201);
            assertThat(ids(es.post("/held/_search", json("{'query': {'match': {'title': 'the'}}}"))))
                    .containsExactly("1", "2");
        } else {
            assertThat(change.status()).as("%s", change).isEqualTo(400);
            assertThat(change.errorType()).isEqualTo("illegal_argument_exception");
            assertThat(change.errorReason()).contains("field [title]").contains("[held]").contains("Qdrant");
            // nothing changed: the analyzer is the old one, the documents match as before
            assertThat(es.get("/held/_settings?flat_settings=true").json().path("held").path("settings")
                    .path("index.analysis.analyzer.words.filter").toString()).isEqualTo("[\"lowercase\"]");
            assertThat(ids(es.post("/held/_search", json("{'query': {'match': {'title': 'the'}}}"))))
                    .containsExactly("1", "2");
        }
        es.delete("/held");
    }

    @ParameterizedTest
    @MethodSource("backends")
    void aNewDefaultAnalyzerForAFieldDocumentsHold(String backend) {
        EsClient es = gateways.client(backend);
        create(es, "held-default", "{}", "{'properties': {'title': {'type': 'text'}, 'other': {'type': 'text',"
                + " 'analyzer': 'standard'}}}");
        EsClient.Reply change = es.put("/held-default/_settings", json("{'analysis': {'analyzer': {'default':"
                + " {'type': 'custom', 'tokenizer': 'whitespace'}}}}"));
        assertThat(change.status()).as("%s", change).isEqualTo(backend.equals("lucene") ? 200 : 400);
        if (backend.equals("qdrant")) {
            // only the field the default analyzer indexes is named
            assertThat(change.errorReason()).contains("field [title]").doesNotContain("other");
        }
        assertThat(es.post("/held-default/_open", "").status()).isEqualTo(200);
        assertThat(ids(es.post("/held-default/_search", json("{'query': {'match': {'title': 'quick'}}}"))))
                .containsExactly("1");
        es.delete("/held-default");
    }

    @ParameterizedTest
    @MethodSource("backends")
    void changesThatKeepTheIndexedTokensAreAccepted(String backend) {
        EsClient es = gateways.client(backend);
        create(es, "kept", "{'analyzer': {'words': {'type': 'custom', 'tokenizer': 'standard', 'filter':"
                + " ['lowercase']}, 'plain': {'type': 'custom', 'tokenizer': 'standard', 'filter': ['lowercase']},"
                + " 'unused': {'type': 'custom', 'tokenizer': 'standard'}}}",
                "{'properties': {'title': {'type': 'text', 'analyzer': 'words', 'search_analyzer': 'plain'},"
                + " 'empty': {'type': 'text', 'analyzer': 'unused'}}}");
        // a new search analyzer, a new index analyzer for a field no document holds, a new analyzer
        EsClient.Reply change = es.put("/kept/_settings", json("{'analysis': {'analyzer': {"
                + "'plain': {'type': 'custom', 'tokenizer': 'standard', 'filter': ['lowercase', 'stop']},"
                + "'unused': {'type': 'custom', 'tokenizer': 'whitespace', 'filter': ['lowercase']},"
                + "'added': {'type': 'custom', 'tokenizer': 'whitespace'}}}}"));
        assertThat(change.status()).as("%s", change).isEqualTo(200);
        assertThat(es.post("/kept/_open", "").status()).isEqualTo(200);
        // the search analyzer now drops "the": only "quick" is searched
        JsonNode hits = es.post("/kept/_search", json("{'query': {'match': {'title': {'query': 'the quick',"
                + " 'operator': 'and'}}}}")).json();
        assertThat(hits.path("hits").path("total").path("value").asInt()).isEqualTo(1);
        assertThat(ids(es.post("/kept/_search", json("{'query': {'match': {'title': 'the'}}}")))).isEmpty();
        assertThat(es.put("/kept/_doc/3?refresh=true", json("{'empty': 'Loud NOISE'}")).status()).isEqualTo(201);
        assertThat(ids(es.post("/kept/_search", json("{'query': {'match': {'empty': 'noise'}}}"))))
                .containsExactly("3");
        es.delete("/kept");
    }
}
