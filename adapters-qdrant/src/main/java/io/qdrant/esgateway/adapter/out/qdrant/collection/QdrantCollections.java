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
        this.calls = new CollectionCalls(http, this::forget, new CollectionCalls.Layout() {
            @Override
            public void ensure(IndexMetadata index, String collection) {
                ensureLayout(index, collection);
            }

            @Override
            public boolean repair(IndexMetadata index, String collection) {
                return repairLayout(index, collection);
            }
        });
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
            for (Map.Entry<String, PayloadIndex> e : layoutIndexes(index).entrySet()) {
                createPayloadIndexAt(index, collection, e.getKey(), e.getValue());
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
        state.layoutChecked = true;
        states.put(collection, state);
    }

    /** A payload index of the layout: the field it serves (for messages) and its schema. */
    private record PayloadIndex(String field, ObjectNode schema) {
    }

    /**
     * Every payload index the layout of the index needs, by payload key: {@code _id}; the mapped fields' indexes
     * under {@code _f}; the indexed metadata fields {@code _ignored} and {@code _routing}; the {@code _seq_no} range
     * index of index order ({@link QdrantLayout#position}); and, with the gateway's full-text scoring, the indexes of
     * the analysed terms and field lengths.
     */
    private Map<String, PayloadIndex> layoutIndexes(IndexMetadata index) {
        return layoutIndexes(index, textPayloads);
    }

    private static Map<String, PayloadIndex> layoutIndexes(IndexMetadata index, boolean textPayloads) {
        Map<String, ObjectNode> fields = new LinkedHashMap<>();
        FilterTranslator.payloadIndexes("", index.mappings().properties(), fields);
        metadataIndexes(fields);
        Map<String, PayloadIndex> out = new LinkedHashMap<>();
        out.put(QdrantLayout.ID, new PayloadIndex(QdrantLayout.ID, keywordSchema()));
        fields.forEach((field, schema) -> out.put(QdrantLayout.fieldPath(field), new PayloadIndex(field, schema)));
        out.put(QdrantLayout.SEQ_NO, new PayloadIndex(QdrantLayout.SEQ_NO, QdrantLayout.seqNoSchema()));
        if (textPayloads) {
            TextPayload.payloadIndexes(index.mappings()).forEach((key, schema) ->
                    out.put(key, new PayloadIndex(key, schema)));
        }
        return out;
    }

    /**
     * The payload indexes the layout of the index needs, by payload key, with the {@code field_schema} each is created
     * with; {@code textPayloads}: with the indexes of the gateway's full-text scoring.
     */
    public static Map<String, ObjectNode> layoutSchemas(IndexMetadata index, boolean textPayloads) {
        Map<String, ObjectNode> out = new LinkedHashMap<>();
        layoutIndexes(index, textPayloads).forEach((key, payloadIndex) -> out.put(key, payloadIndex.schema()));
        return out;
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

    /** Creates one payload index; Qdrant accepts the same index created again (several gateways may race to it). */
    private void createPayloadIndexAt(IndexMetadata index, String collection, String key, PayloadIndex payloadIndex) {
        ObjectNode body = QdrantClient.object();
        body.put("field_name", key);
        body.set("field_schema", payloadIndex.schema());
        calls.layoutCall(index, "PUT", collection, "/index", Map.of("wait", "true"), body, false,
                "create the payload index of [" + payloadIndex.field() + "] of index [" + index.name() + "]");
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
        checkLayout(index, calls.collection(index), true, false);
    }

    /**
     * The layout step before a call on the collection ({@link CollectionCalls.Layout#ensure}): the first time this
     * process uses the collection, reads its payload schema and creates every payload index of the layout it lacks
     * (a collection created by an older gateway, or by another gateway before a mapping it did not know); afterwards
     * a remembered answer, no call. Indexes are only ever added, so the answer stays true for other gateways' changes.
     */
    void ensureLayout(IndexMetadata index, String collection) {
        CollectionState state = states.get(collection);
        if (state == null || !state.layoutChecked) {
            checkLayout(index, collection, false, true);
        }
    }

    /** After Qdrant reported a payload index missing: the layout checked again; whether an index was created. */
    boolean repairLayout(IndexMetadata index, String collection) {
        return checkLayout(index, collection, true, true);
    }

    /**
     * Reads the collection's payload schema and creates the missing payload indexes of the layout
     * ({@link #layoutIndexes}), once per collection at a time; {@code again}: even when it was checked before.
     * {@code quietWhenMissing}: a missing collection is left for the call that follows to report. Whether an index
     * was created.
     */
    private boolean checkLayout(IndexMetadata index, String collection, boolean again, boolean quietWhenMissing) {
        CollectionState state = state(collection);
        state.layout.lock();
        try {
            if (!again && state.layoutChecked) {
                return false;
            }
            String what = "read the collection of index [" + index.name() + "]";
            JsonNode info;
            if (quietWhenMissing) {
                QdrantClient http = calls.client();
                try {
                    info = http.call("GET", "/collections/" + QdrantClient.segment(collection), Map.of(), null,
                            true, what);
                } catch (QdrantError e) {
                    if (e.status == 404) {
                        forget(collection);
                        return false;
                    }
                    throw http.failure(e, what);
                }
            } else {
                info = calls.layoutCall(index, "GET", collection, "", Map.of(), null, true, what);
            }
            JsonNode schema = info.path("payload_schema");
            boolean created = false;
            for (Map.Entry<String, PayloadIndex> e : layoutIndexes(index).entrySet()) {
                if (!schema.has(e.getKey())) {
                    createPayloadIndexAt(index, collection, e.getKey(), e.getValue());
                    created = true;
                }
            }
            if (state.vectors == null) {
                state.vectors = vectorNames(info);
            }
            state.layoutChecked = true;
            return created;
        } finally {
            state.layout.unlock();
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
        ensureLayout(index, collection); // its first use reads the collection, vectors included
        known = state.vectors;
        if (known != null) {
            return known;
        }
        JsonNode info = calls.layoutCall(index, "GET", collection, "", Map.of(), null, true,
                "read the collection of index [" + index.name() + "]");
        state.vectors = vectorNames(info);
        return state.vectors;
    }

    /** The named vectors of a collection's information ({@code GET /collections/{name}}). */
    private static Set<String> vectorNames(JsonNode info) {
        Set<String> names = new HashSet<>();
        JsonNode vectors = info.path("config").path("params").path("vectors");
        if (vectors.isObject() && !vectors.has("size")) {
            vectors.fieldNames().forEachRemaining(names::add);
        }
        return Set.copyOf(names);
    }
}
