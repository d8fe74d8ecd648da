package io.qdrant.esgateway.adapter.out.qdrant;

import com.fasterxml.jackson.databind.JsonNode;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import java.time.Instant;
import java.util.List;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;

/**
 * A test-only bridge from the bootstrap tests to the Qdrant adapter's package-private contract helpers: the
 * {@code openapi.json} validator of its test jar and the payload layout's collection and point-id naming. Lets a
 * scenario served by canned answers (WireMock) use the same spec checks and the same ids as the adapter.
 */
public final class QdrantContract {
    private QdrantContract() {
    }

    /** Problems of a request body the gateway sent to {@code method path} (empty when the spec accepts it). */
    public static List<String> requestProblems(String method, String path, JsonNode body) {
        return OpenApiValidator.QDRANT.request(method, path, body);
    }

    /** Problems of a canned answer for {@code method path} with {@code status} (empty when the spec accepts it). */
    public static List<String> responseProblems(String method, String path, int status, JsonNode body) {
        return OpenApiValidator.QDRANT.response(method, path, status, body);
    }

    /** The collection the adapter uses for index {@code name} with uuid {@code uuid} (default prefix). */
    public static String collection(String name, String uuid) {
        return QdrantLayout.collection(index(name, uuid));
    }

    /** The point id of document {@code id} in index {@code name} with uuid {@code uuid}. */
    public static String pointId(String name, String uuid, String id) {
        return QdrantLayout.pointId(index(name, uuid), id);
    }

    private static IndexMetadata index(String name, String uuid) {
        return new IndexMetadata(name, uuid, Instant.EPOCH, IndexSettings.DEFAULTS, Mappings.parse(Json.parse("{}")));
    }
}
