package io.qdrant.esgateway.adapter.in.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.application.port.in.DocumentOperations.Result;
import io.qdrant.esgateway.application.port.in.DocumentOperations.Written;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The streamed {@code _bulk} answer is byte for byte the compact serialisation of its tree form. */
class BulkResponseTest {
    private final JsonCodec codec = new JsonCodec();

    private static Written written(String id, Result result, long version, long seqNo, Optional<StoredDocument> got) {
        return new Written("books", id, result, new DocumentVersion(version, seqNo, 1), got);
    }

    private static List<BulkResponse.Item> everyKind() {
        JsonObject source = new JsonObject(Map.of("title", new JsonValue.JsonString("Dune \"é\" 😀")));
        GatewayException conflict = new GatewayException(ErrorKind.VERSION_CONFLICT, "[3]: version conflict",
                Map.of("index_uuid", "u", "shard", "0", "index", "books"), null);
        JsonObjectBuilder failure = DocumentResponses.failed("books", "3", conflict).put("status", 409)
                .put("error", ErrorBodies.cause(conflict, true));
        return List.of(
                new BulkResponse.Item("index", written("1", Result.CREATED, 1, 0, Optional.empty()), null),
                new BulkResponse.Item("index", written("1", Result.UPDATED, 2, 1, Optional.empty()), null),
                new BulkResponse.Item("delete", written("2", Result.NOT_FOUND, 1, 2, Optional.empty()), null),
                new BulkResponse.Item("delete", written("1", Result.DELETED, 3, 3, Optional.empty()), null),
                new BulkResponse.Item("update", written("4", Result.NOOP, 5, 7, Optional.empty()), null),
                new BulkResponse.Item("update", written("5", Result.UPDATED, 2, 8,
                        Optional.of(new StoredDocument("5", new DocumentVersion(2, 8, 1), source))), null),
                new BulkResponse.Item("create", null, failure));
    }

    @Test
    void theStreamedAnswerEqualsTheTreeForEveryKindOfItem() {
        for (boolean forced : new boolean[] {false, true}) {
            List<BulkResponse.Item> items = everyKind();
            String tree = new String(codec.write(BulkResponse.tree(12, items, forced), false), StandardCharsets.UTF_8);
            String streamed = new String(codec.write(g -> BulkResponse.write(g, 12, items, forced), 16),
                    StandardCharsets.UTF_8);
            assertThat(streamed).isEqualTo(tree);
            assertThat(streamed).startsWith("{\"errors\":true,\"took\":12,\"items\":[{\"index\":{\"_index\":\"books\","
                    + "\"_id\":\"1\",\"_version\":1,\"result\":\"created\"" + (forced ? ",\"forced_refresh\":true" : "")
                    + ",\"_shards\":{\"total\":1,\"successful\":1,\"failed\":0},\"_seq_no\":0,\"_primary_term\":1,"
                    + "\"status\":201}}");
            assertThat(streamed).contains("\"result\":\"noop\",\"_shards\":{\"total\":0,\"successful\":0,"
                    + "\"failed\":0},\"_seq_no\":7,\"_primary_term\":1,\"status\":200}");
        }
    }

    @Test
    void errorsIsFalseWhenEveryItemWasWritten() {
        List<BulkResponse.Item> items = everyKind().subList(0, 3);
        String streamed = new String(codec.write(g -> BulkResponse.write(g, 0, items, false), 16), StandardCharsets.UTF_8);
        assertThat(streamed).startsWith("{\"errors\":false,\"took\":0,").isEqualTo(
                new String(codec.write(BulkResponse.tree(0, items, false), false), StandardCharsets.UTF_8));
    }
}
