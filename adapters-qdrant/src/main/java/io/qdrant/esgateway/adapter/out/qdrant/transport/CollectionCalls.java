package io.qdrant.esgateway.adapter.out.qdrant.transport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient.QdrantError;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Calls scoped to one index's collection, and the mapping of Qdrant's error answers to the gateway's errors: a missing
 * collection is a backend fault naming it (the catalog says the index exists), anything else as
 * {@link QdrantClient#failure} maps it.
 *
 * <p>Every call first makes sure the collection has the payload indexes of its index's layout ({@link Layout}: a
 * remembered answer once the collection was checked), and a read that Qdrant refuses for a missing payload index
 * ({@code facet}, {@code order_by}) is sent once more after the layout created it.
 */
public final class CollectionCalls {
    /** The payload indexes a collection needs: checked on its first use, repaired when Qdrant reports one missing. */
    public interface Layout {
        /** Before a call on the collection: creates the missing indexes the first time; nothing afterwards. */
        void ensure(IndexMetadata index, String collection);

        /** Reads the collection's payload schema again and creates what is missing; whether it created anything. */
        boolean repair(IndexMetadata index, String collection);
    }

    /** The starts of Qdrant's error messages for a payload index that a read needs and the collection lacks. */
    private static final String[] MISSING_INDEX = {"No range index for `order_by` key",
            "No appropriate index for faceting"};

    private final QdrantClient http;
    /** Told the name of a collection found missing, so that what is remembered of it is forgotten. */
    private final Consumer<String> missing;
    private final Layout layout;

    public CollectionCalls(QdrantClient http, Consumer<String> missing, Layout layout) {
        this.http = http;
        this.missing = missing;
        this.layout = layout;
    }

    /** The client, for calls that interpret Qdrant's error answers themselves (create, delete, ping). */
    public QdrantClient client() {
        return http;
    }

    /** The name of the index's collection. */
    public String collection(IndexMetadata index) {
        return QdrantLayout.collection(http.settings().collectionPrefix(), index);
    }

    /** Whether other gateway processes write to the same collections (their sequence numbers are not remembered). */
    public boolean sharedWriters() {
        return http.settings().sharedWriters();
    }

    /** A read-only POST to a collection-scoped endpoint ({@code rest} after the collection). */
    public JsonNode read(IndexMetadata index, String rest, ObjectNode body, String what) {
        return call(index, "POST", collection(index), rest, Map.of(), body, true, what);
    }

    /** A collection-scoped call; a missing collection is a backend fault (the catalog says the index exists). */
    public JsonNode call(IndexMetadata index, String method, String collection, String rest,
                         Map<String, String> query, JsonNode body, boolean idempotentRead, String what) {
        layout.ensure(index, collection);
        try {
            return http.call(method, path(collection, rest), query, body, idempotentRead, what);
        } catch (QdrantError e) {
            if (!repaired(index, collection, idempotentRead, e)) {
                throw collectionFailure(index, collection, what, e);
            }
        }
        return layoutCall(index, method, collection, rest, query, body, idempotentRead, what);
    }

    /**
     * {@link #call}, without the layout's check and repair: the calls of the layout itself (reading the collection's
     * payload schema and vectors, creating payload indexes).
     */
    public JsonNode layoutCall(IndexMetadata index, String method, String collection, String rest,
                               Map<String, String> query, JsonNode body, boolean idempotentRead, String what) {
        try {
            return http.call(method, path(collection, rest), query, body, idempotentRead, what);
        } catch (QdrantError e) {
            throw collectionFailure(index, collection, what, e);
        }
    }

    /** {@link #call}, its result read by a streaming {@code decoder} (no tree). */
    public <T> T call(IndexMetadata index, String method, String collection, String rest, Map<String, String> query,
                      JsonNode body, boolean idempotentRead, String what, QdrantClient.ResultDecoder<T> decoder) {
        return call(index, method, collection, rest, query, body, idempotentRead, what, decoder, null);
    }

    /** {@link #call}, with a read sent beside it ({@link QdrantClient.Beside}; null: none). */
    public <T> T call(IndexMetadata index, String method, String collection, String rest, Map<String, String> query,
                      JsonNode body, boolean idempotentRead, String what, QdrantClient.ResultDecoder<T> decoder,
                      QdrantClient.Beside<?> beside) {
        layout.ensure(index, collection);
        try {
            return http.call(method, path(collection, rest), query, body, idempotentRead, what, decoder, beside);
        } catch (QdrantError e) {
            if (!repaired(index, collection, idempotentRead, e)) {
                throw collectionFailure(index, collection, what, e);
            }
        }
        // the beside read went with the first attempt (it is received whatever that attempt's outcome)
        try {
            return http.call(method, path(collection, rest), query, body, idempotentRead, what, decoder, null);
        } catch (QdrantError e) {
            throw collectionFailure(index, collection, what, e);
        }
    }

    /** Whether a read's error answer was a missing payload index that the layout has now created. */
    private boolean repaired(IndexMetadata index, String collection, boolean idempotentRead, QdrantError e) {
        if (!idempotentRead || e.status != 400 || e.qdrantMessage == null) {
            return false;
        }
        for (String start : MISSING_INDEX) {
            if (e.qdrantMessage.contains(start)) {
                return layout.repair(index, collection);
            }
        }
        return false;
    }

    /** A collection-scoped read prepared to go beside another call ({@link QdrantClient.Beside}). */
    public <T> QdrantClient.Beside<T> beside(IndexMetadata index, String rest, JsonNode body, String what,
                                             QdrantClient.ResultDecoder<T> decoder) {
        layout.ensure(index, collection(index));
        return http.beside("POST", path(collection(index), rest), Map.of(), body, what, decoder);
    }

    /** A beside read's result, its error answer reported as {@link #call} reports it. */
    public <T> T result(IndexMetadata index, QdrantClient.Beside<T> beside, String what) {
        try {
            return beside.result();
        } catch (QdrantError e) {
            throw collectionFailure(index, collection(index), what, e);
        }
    }

    /** Whether Qdrant answers at all: its failure is the gateway's "backend unavailable". */
    public void ping() {
        try {
            http.call("GET", "/collections", Map.of(), null, true, "reach Qdrant");
        } catch (QdrantError e) {
            GatewayException g = http.failure(e, "reach Qdrant");
            throw GatewayException.backendUnavailable(g.getMessage(), e);
        } catch (GatewayException e) {
            throw e.kind() == ErrorKind.BACKEND_UNAVAILABLE ? e : GatewayException.backendUnavailable(e.getMessage(),
                    e);
        }
    }

    private static String path(String collection, String rest) {
        return "/collections/" + QdrantClient.segment(collection) + rest;
    }

    /** A collection-scoped call's error answer: a missing collection is a backend fault naming it. */
    private GatewayException collectionFailure(IndexMetadata index, String collection, String what, QdrantError e) {
        if (e.status == 404) {
            missing.accept(collection);
            return new GatewayException(ErrorKind.BACKEND_FAILURE, "cannot " + what + ": its Qdrant collection ["
                    + collection + "] does not exist (" + e.qdrantMessage + ")", meta(index), e);
        }
        return http.failure(e, what);
    }

    private static Map<String, String> meta(IndexMetadata index) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("index_uuid", index.uuid());
        m.put("index", index.name());
        return m;
    }

    public void close() {
        http.close();
    }
}
