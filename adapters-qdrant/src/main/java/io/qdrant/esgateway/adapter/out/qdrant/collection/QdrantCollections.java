package io.qdrant.esgateway.adapter.out.qdrant.collection;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator;
import io.qdrant.esgateway.adapter.out.qdrant.payload.TextPayload;
import io.qdrant.esgateway.adapter.out.qdrant.transport.CollectionCalls;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient.QdrantError;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.VectorIndexOptions;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.Mappings;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The collections behind the indexes: creating one (its named vectors and payload indexes), adding the payload indexes
 * of new mappings, dropping it, and what the adapter remembers of each ({@link CollectionState}).
 */
public final class QdrantCollections {
    private final ConcurrentHashMap<String, CollectionState> states = new ConcurrentHashMap<>();
    private final CollectionCalls calls;
    /** Whether the payload indexes of the gateway's full-text scoring are created too. */
    private final boolean textPayloads;

    /** {@code calls} must forget through {@link #forget}; see {@link #calls}. */
    public QdrantCollections(QdrantClient http, boolean textPayloads) {
        this.calls = new CollectionCalls(http, this::forget);
        this.textPayloads = textPayloads;
    }

    /** The collection-scoped calls, which forget a collection they find missing. */
    public CollectionCalls calls() {
        return calls;
    }

    public void createIndex(IndexMetadata index) {
        String collection = calls.collection(index);
        QdrantClient http = calls.client();
        ObjectNode body = QdrantClient.object();
        Map<String, FieldMapping.DenseVectorField> vectors = new LinkedHashMap<>();
        denseVectors("", index.mappings().properties(), vectors);
        vectors.values().removeIf(v -> !v.hasDims()); // dims fixed later by a document: kept in _source only
        if (!vectors.isEmpty()) {
            ObjectNode config = body.putObject("vectors");
            vectors.forEach((name, v) -> {
                ObjectNode params = config.putObject(name);
                params.put("size", v.dims());
                params.put("distance", switch (v.similarity()) {
                    case COSINE -> "Cosine";
                    case DOT_PRODUCT, MAX_INNER_PRODUCT -> "Dot";
                    case L2_NORM -> "Euclid";
                });
                if (v.indexOptions().isPresent()) {
                    // index_options: a graph type builds Qdrant's HNSW graph with its m and ef_construction (Qdrant's
                    // ef_construct is at least 4); a flat type builds none (m 0), so every search of it is exact.
                    // Vectors stay float: the quantized types are not quantized here
                    String type = VectorIndexOptions.type(v.indexOptions());
                    ObjectNode hnsw = params.putObject("hnsw_config");
                    if (VectorIndexOptions.graph(type)) {
                        hnsw.put("m", Math.max(0, VectorIndexOptions.intParam(v.indexOptions(), "m", 16)));
                        hnsw.put("ef_construct", Math.max(4, VectorIndexOptions.intParam(v.indexOptions(),
                                "ef_construction", 100)));
                    } else {
                        hnsw.put("m", 0);
                    }
                }
            });
        }
        body.put("on_disk_payload", true);
        String what = "create the collection of index [" + index.name() + "]";
        try {
            http.call("PUT", "/collections/" + QdrantClient.segment(collection), Map.of(), body, false, what);
        } catch (QdrantError e) {
            if (e.status == 409) {
                throw GatewayException.alreadyExists(index.name(), index.uuid());
            }
            throw http.failure(e, what);
        }
        try {
            Map<String, ObjectNode> indexes = new LinkedHashMap<>();
            indexes.put(QdrantLayout.ID, keywordSchema());
            FilterTranslator.payloadIndexes("", index.mappings().properties(), indexes);
            metadataIndexes(indexes);
            for (Map.Entry<String, ObjectNode> e : indexes.entrySet()) {
                createPayloadIndex(index, collection, e.getKey(), e.getValue());
            }
            // index order (QdrantLayout.position): the scroll's order_by over _seq_no
            createPayloadIndexAt(index, collection, QdrantLayout.SEQ_NO, QdrantLayout.seqNoSchema(),
                    QdrantLayout.SEQ_NO);
            if (textPayloads) {
                for (Map.Entry<String, ObjectNode> e : TextPayload.payloadIndexes(index.mappings()).entrySet()) {
                    createPayloadIndexAt(index, collection, e.getKey(), e.getValue(), e.getKey());
                }
            }
        } catch (RuntimeException e) {
            try {
                http.call("DELETE", "/collections/" + QdrantClient.segment(collection), Map.of(), null, false,
                        "remove the half-created collection of index [" + index.name() + "]");
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        CollectionState state = new CollectionState();
        state.vectors = Set.copyOf(vectors.keySet());
        state.maxSeqNo = -1L;
        states.put(collection, state);
    }

    /** The indexed metadata fields {@code _ignored} and {@code _routing}: keywords in {@code _f}, as any keyword. */
    private static void metadataIndexes(Map<String, ObjectNode> indexes) {
        indexes.put(Mappings.IGNORED, keywordSchema());
        indexes.put(Mappings.ROUTING, keywordSchema());
    }

    private static ObjectNode keywordSchema() {
        ObjectNode s = QdrantClient.object();
        s.put("type", "keyword");
        return s;
    }

    private void createPayloadIndex(IndexMetadata index, String collection, String field, ObjectNode schema) {
        createPayloadIndexAt(index, collection, field.equals(QdrantLayout.ID) ? QdrantLayout.ID
                : QdrantLayout.fieldPath(field), schema, field);
    }

    private void createPayloadIndexAt(IndexMetadata index, String collection, String key, ObjectNode schema,
                                      String field) {
        ObjectNode body = QdrantClient.object();
        body.put("field_name", key);
        body.set("field_schema", schema);
        calls.call(index, "PUT", collection, "/index", Map.of("wait", "true"), body, false,
                "create the payload index of [" + field + "] of index [" + index.name() + "]");
    }

    private static void denseVectors(String prefix, Map<String, FieldMapping> fields,
                                     Map<String, FieldMapping.DenseVectorField> out) {
        fields.forEach((name, mapping) -> {
            switch (mapping) {
                case FieldMapping.DenseVectorField v -> out.put(prefix + name, v);
                case FieldMapping.ObjectField o -> denseVectors(prefix + name + ".", o.properties(), out);
                default -> {
                }
            }
        });
    }

    public void dropIndex(IndexMetadata index) {
        String collection = calls.collection(index);
        String what = "delete the collection of index [" + index.name() + "]";
        QdrantClient http = calls.client();
        try {
            // a missing collection answers 200 with result false: not an error
            http.call("DELETE", "/collections/" + QdrantClient.segment(collection), Map.of(), null, false, what);
        } catch (QdrantError e) {
            if (e.status != 404) {
                throw http.failure(e, what);
            }
        } finally {
            forget(collection);
        }
    }

    /** Creates the payload indexes of fields the collection does not index yet (read from its payload schema). */
    public void updateMappings(IndexMetadata index) {
        String collection = calls.collection(index);
        JsonNode info = calls.call(index, "GET", collection, "", Map.of(), null, true,
                "read the collection of index [" + index.name() + "]");
        JsonNode schema = info.path("payload_schema");
        Map<String, ObjectNode> indexes = new LinkedHashMap<>();
        FilterTranslator.payloadIndexes("", index.mappings().properties(), indexes);
        metadataIndexes(indexes);
        for (Map.Entry<String, ObjectNode> e : indexes.entrySet()) {
            if (!schema.has(QdrantLayout.fieldPath(e.getKey()))) {
                createPayloadIndex(index, collection, e.getKey(), e.getValue());
            }
        }
        if (!schema.has(QdrantLayout.SEQ_NO)) {
            createPayloadIndexAt(index, collection, QdrantLayout.SEQ_NO, QdrantLayout.seqNoSchema(),
                    QdrantLayout.SEQ_NO);
        }
        if (textPayloads) {
            for (Map.Entry<String, ObjectNode> e : TextPayload.payloadIndexes(index.mappings()).entrySet()) {
                if (!schema.has(e.getKey())) {
                    createPayloadIndexAt(index, collection, e.getKey(), e.getValue(), e.getKey());
                }
            }
        }
    }

    /** What is remembered of the collection, created empty when nothing is. */
    public CollectionState state(String collection) {
        return states.computeIfAbsent(collection, c -> new CollectionState());
    }

    /** Forgets what is remembered of the collection (dropped, or found missing). */
    public void forget(String collection) {
        states.remove(collection);
    }

    /** The named vectors of the index's collection. */
    public Set<String> vectorNames(IndexMetadata index) {
        String collection = calls.collection(index);
        return vectors(index, collection, state(collection));
    }

    /** The named vectors of the collection, read from its configuration the first time. */
    public Set<String> vectors(IndexMetadata index, String collection, CollectionState state) {
        Set<String> known = state.vectors;
        if (known != null) {
            return known;
        }
        JsonNode info = calls.call(index, "GET", collection, "", Map.of(), null, true,
                "read the collection of index [" + index.name() + "]");
        Set<String> names = new HashSet<>();
        JsonNode vectors = info.path("config").path("params").path("vectors");
        if (vectors.isObject() && !vectors.has("size")) {
            vectors.fieldNames().forEachRemaining(names::add);
        }
        state.vectors = Set.copyOf(names);
        return state.vectors;
    }
}
