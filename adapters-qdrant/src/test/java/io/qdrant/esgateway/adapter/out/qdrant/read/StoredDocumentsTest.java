package io.qdrant.esgateway.adapter.out.qdrant.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParser;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.json.Json;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;
import io.qdrant.esgateway.adapter.out.qdrant.filter.QdrantFilterTranslatorTest;

/** The streaming decoder of a points retrieve: the same documents the tree-based reading gave, and the same faults. */
class StoredDocumentsTest {
    private static final IndexMetadata INDEX = QdrantFilterTranslatorTest.INDEX;

    private static Map<String, StoredDocument> decode(String result, Set<String> wanted) throws IOException {
        try (JsonParser parser = QdrantClient.MAPPER.createParser(result)) {
            parser.nextToken();
            Map<String, StoredDocument> out = StoredDocuments.retrieved(INDEX, wanted).decode(parser);
            assertThat(parser.nextToken()).as("the whole value consumed").isNull();
            return out;
        }
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
