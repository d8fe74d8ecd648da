package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParser;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.json.Json;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.domain.json.CompactMembers;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.RandomJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The streaming decoder of a points retrieve: the same documents the tree-based reading gave, and the same faults. */
class StoredDocumentsTest {
    private static final IndexMetadata INDEX = QdrantFilterTranslatorTest.INDEX;

    private static Map<String, StoredDocument> decode(String result, Set<String> wanted) throws IOException {
        Map<String, StoredDocument> out;
        try (JsonParser parser = QdrantHttp.MAPPER.createParser(result)) {
            parser.nextToken();
            out = StoredDocuments.retrieved(INDEX, wanted).decode(parser);
            assertThat(parser.nextToken()).as("the whole value consumed").isNull();
        }
        // the same from the answer's bytes, as QdrantHttp decodes (the sources then kept as UTF-8 where verbatim)
        assertThat(decodeBytes(result.getBytes(StandardCharsets.UTF_8), wanted)).isEqualTo(out);
        return out;
    }

    /** As {@code QdrantHttp.call} decodes: a parser over the answer's bytes, and the bytes. */
    private static Map<String, StoredDocument> decodeBytes(byte[] answer, Set<String> wanted) throws IOException {
        try (JsonParser parser = QdrantHttp.MAPPER.createParser(answer)) {
            parser.nextToken();
            Map<String, StoredDocument> out = StoredDocuments.retrieved(INDEX, wanted).decode(parser, answer);
            assertThat(parser.nextToken()).as("the whole value consumed").isNull();
            return out;
        }
    }

    /**
     * Random sources (some verbatim, some needing escapes, non-BMP characters, odd numbers) written into a retrieve
     * answer as Qdrant writes a string: read from the bytes, each is the document the decoded text gives, verbatim
     * sources are kept as the UTF-8 bytes (not decoded), and rendering one gives the text.
     */
    @Test
    void sourcesReadFromTheAnswersBytesAreTheDecodedSources() throws IOException {
        RandomJson documents = new RandomJson(List.of("", "a", "Dune", "é", "😀", "中文", "a\"b", "back\\slash",
                "line\nbreak", "tab\t", "\u0001", "\u007f", "a/b", "\u2028", "ß", "\"\"", "\\\""));
        Random random = new Random(5);
        int kept = 0;
        for (int round = 0; round < 300; round++) {
            ArrayNode result = QdrantHttp.MAPPER.createArrayNode();
            Map<String, String> texts = new HashMap<>();
            int n = 1 + random.nextInt(20);
            for (int i = 0; i < n; i++) {
                String id = "d" + i;
                String text = Json.write(documents.object(random, 0));
                texts.put(id, text);
                ObjectNode record = result.addObject();
                record.put("id", i);
                ObjectNode payload = record.putObject("payload");
                if (random.nextBoolean()) {
                    payload.put("_id", id).put("_src", text);
                } else {
                    payload.put("_src", text).put("_version", i).put("_id", id);
                }
            }
            ObjectNode envelope = QdrantHttp.MAPPER.createObjectNode();
            envelope.put("status", "ok");
            envelope.set("result", result);
            byte[] answer = QdrantHttp.MAPPER.writeValueAsBytes(envelope);
            Map<String, StoredDocument> docs;
            try (JsonParser parser = QdrantHttp.MAPPER.createParser(answer)) {
                parser.nextToken();
                parser.nextToken();
                parser.nextToken(); // "status"'s value
                parser.nextToken();
                parser.nextToken(); // result's START_ARRAY, at an offset inside the answer
                docs = StoredDocuments.retrieved(INDEX, texts.keySet()).decode(parser, answer);
            }
            assertThat(docs).hasSize(n);
            for (Map.Entry<String, String> e : texts.entrySet()) {
                JsonObject source = docs.get(e.getKey()).source();
                assertThat(source).as(e.getValue()).isEqualTo(Json.compactObject(e.getValue()));
                if (source.members() instanceof CompactMembers m) {
                    assertThat(m.verbatimText()).isEqualTo(e.getValue());
                    if (m.isUtf8()) {
                        kept++;
                    }
                } else {
                    assertThat(((JsonObject) Json.compactObject(e.getValue())).members()).isNotInstanceOf(CompactMembers.class);
                }
            }
        }
        assertThat(kept).as("verbatim sources kept as bytes").isGreaterThan(300);
    }

    @Test
    void aStringIsCopiedOnlyWithItsQuotesUnescaped() {
        byte[] answer = "x\"a\\\"b\\\"\"".getBytes(StandardCharsets.UTF_8); // x"a\"b\""
        assertThat(RawStrings.content(answer, 2)).isEqualTo("a\"b\"".getBytes(StandardCharsets.UTF_8));
        assertThat(RawStrings.content("\"a\\nb\"".getBytes(StandardCharsets.UTF_8), 1)).isNull();
        assertThat(RawStrings.content("\"a\\u0041\"".getBytes(StandardCharsets.UTF_8), 1)).isNull();
        assertThat(RawStrings.content("\"a\u0001\"".getBytes(StandardCharsets.UTF_8), 1)).isNull();
        assertThat(RawStrings.content("\"abc".getBytes(StandardCharsets.UTF_8), 1)).isNull();
        assertThat(RawStrings.content("\"é\"".getBytes(StandardCharsets.UTF_8), 1))
                .isEqualTo("é".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void recordsBecomeDocumentsWithTheirExactSourceAndVersions() throws IOException {
        String result = """
                [{"id":"0b6c7a6e-0000-0000-0000-000000000001","version":3,"vector":{"v":[0.5,1.0]},
                  "payload":{"_id":"a","_src":"{\\"n\\":1.50,\\"t\\":\\"x\\\\\\"y\\",\\"o\\":{\\"k\\":[1,{}]}}",
                             "_version":4,"_seq_no":17,"_primary_term":2,"_f":{"n":[1.5]},"other":[{"x":1}]}},
                 {"id":2,"payload":{"_src":"{}","_id":"b"}},
                 {"id":3,"payload":{"_id":"not-wanted","_src":"{}","_version":1}}]
                """;
        Map<String, StoredDocument> docs = decode(result, Set.of("a", "b", "c"));
        assertThat(docs).containsOnlyKeys("a", "b");
        StoredDocument a = docs.get("a");
        assertThat(a.version()).isEqualTo(new DocumentVersion(4, 17, 2));
        assertThat(a.source()).isEqualTo(Json.parse("{\"n\":1.50,\"t\":\"x\\\"y\",\"o\":{\"k\":[1,{}]}}"));
        // absent numbers read as JsonNode.asLong did: 0, and 1 for the primary term
        assertThat(docs.get("b").version()).isEqualTo(new DocumentVersion(0, 0, 1));
    }

    @Test
    void noRecordsOrANullResultIsNothing() throws IOException {
        assertThat(decode("[]", Set.of("a"))).isEmpty();
        assertThat(decode("null", Set.of("a"))).isEmpty();
    }

    @Test
    void aPointNotWrittenByTheGatewayIsABackendFault() {
        assertThatThrownBy(() -> decode("[{\"id\":1,\"payload\":{\"_id\":\"a\"}}]", Set.of("a")))
                .isInstanceOf(GatewayException.class).hasMessageContaining("has no [_id] or [_src] payload");
        assertThatThrownBy(() -> decode("[{\"id\":1,\"payload\":{\"_id\":7,\"_src\":\"{}\"}}]", Set.of("a")))
                .isInstanceOf(GatewayException.class).hasMessageContaining("not written by the gateway");
        assertThatThrownBy(() -> decode("[{\"id\":1}]", Set.of("a"))).isInstanceOf(GatewayException.class);
    }
}
