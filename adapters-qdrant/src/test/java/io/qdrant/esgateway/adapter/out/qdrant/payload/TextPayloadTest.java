package io.qdrant.esgateway.adapter.out.qdrant.payload;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.adapter.out.lucene.LuceneStores;
import io.qdrant.esgateway.application.port.out.RelevanceScorer.FieldStatistics;
import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import io.qdrant.esgateway.adapter.out.qdrant.scoring.QdrantStatistics;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;
import io.qdrant.esgateway.adapter.out.qdrant.OpenApiValidator;
import io.qdrant.esgateway.adapter.out.qdrant.FakeQdrant;
import io.qdrant.esgateway.adapter.out.qdrant.filter.QdrantFilterTranslatorTest;

/**
 * The per-point text layout ({@code _t} tokens, {@code _n} length bits) and the statistics read back from it: a
 * facet over the length bits sums any lengths exactly, whatever their number of distinct values.
 */
class TextPayloadTest {

    @Test
    void lengthsAreTheMarkerAndTheSetBits() {
        assertThat(TextPayload.bits(13).toString()).isEqualTo("[-1,0,2,3]");
        assertThat(TextPayload.bits(1).toString()).isEqualTo("[-1,0]");
        assertThat(TextPayload.bits(1 << 20).toString()).isEqualTo("[-1,20]");
    }

    @Test
    void aPointKeepsTokensOfTextFieldsAndLengthsOfTermFields() {
        ObjectNode payload = QdrantClient.object();
        TextPayload.add(payload, LuceneStores.relevanceScorer(), QdrantFilterTranslatorTest.INDEX.mappings(),
                DocumentParser.parse(QdrantFilterTranslatorTest.INDEX.mappings(), Json.parse(
                        "{\"title\": [\"The quick fox\", \"the FOX!\"], \"tag\": [\"a\", \"b\", \"a\"],"
                                + " \"active\": true, \"count\": 3}"), "x").values());
        assertThat(payload.path("_t").toString()).isEqualTo("{\"title\":[\"fox\",\"quick\",\"the\"]}");
        // title: 5 tokens; title.raw: 2 distinct values; tag: 2 distinct; active: 1
        assertThat(payload.path("_n").toString()).isEqualTo(
                "{\"active\":[-1,0],\"tag\":[-1,1],\"title\":[-1,0,2],\"title.raw\":[-1,1]}");
    }

    @Test
    void oneFacetGivesDocCountAndTheSumOfLengths() {
        int[] lengths = {1, 7, 300, 4096, 12345, 7, 0};
        Map<Long, Long> counts = new TreeMap<>();
        long docs = 0;
        long sum = 0;
        for (int length : lengths) {
            if (length == 0) {
                continue; // no terms: no _n, as Lucene does not count the document
            }
            docs++;
            sum += length;
            TextPayload.bits(length).forEach(v -> counts.merge(v.asLong(), 1L, Long::sum));
        }
        List<String> asked = new ArrayList<>();
        QdrantStatistics statistics = new QdrantStatistics(QdrantFilterTranslatorTest.INDEX, (rest, body, what) -> {
            asked.add(rest + " " + body);
            ObjectNode result = QdrantClient.object();
            ArrayNode hits = result.putArray("hits");
            counts.forEach((v, c) -> hits.addObject().put("value", v).put("count", c));
            return (JsonNode) result;
        });
        assertThat(statistics.field("title")).isEqualTo(new FieldStatistics(docs, sum));
        assertThat(statistics.field("title")).isEqualTo(new FieldStatistics(docs, sum));
        assertThat(asked).containsExactly("/facet {\"key\":\"_n.title\",\"limit\":64,\"exact\":true}");
        assertThat(OpenApiValidator.QDRANT.request("POST", "/collections/c/facet",
                FakeQdrant.MAPPER.valueToTree(Map.of("key", "_n.title", "limit", 64, "exact", true)))).isEmpty();
    }
}
