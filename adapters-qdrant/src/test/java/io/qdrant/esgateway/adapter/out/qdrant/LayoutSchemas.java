package io.qdrant.esgateway.adapter.out.qdrant;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantCollections;
import io.qdrant.esgateway.domain.index.IndexMetadata;

/**
 * Canned Qdrant answers for tests that stub Qdrant: the {@code payload_schema} of a collection that has every payload
 * index of its index's layout, as Qdrant reports it ({@code PayloadIndexInfo}: data type, parameters, points), so the
 * adapter's check on a collection's first use finds nothing to create.
 */
public final class LayoutSchemas {
    private LayoutSchemas() {
    }

    /** The {@code payload_schema} object, as JSON text. */
    public static String payloadSchema(IndexMetadata index, boolean textPayloads) {
        ObjectNode schema = FakeQdrant.NODES.objectNode();
        QdrantCollections.layoutSchemas(index, textPayloads).forEach((key, fieldSchema) -> {
            ObjectNode info = schema.putObject(key);
            info.put("data_type", fieldSchema.get("type").asText());
            info.set("params", fieldSchema);
            info.put("points", 0);
        });
        return schema.toString();
    }

    /** The whole answer to {@code GET /collections/{name}} for a collection without named vectors. */
    public static String collectionInfo(IndexMetadata index, boolean textPayloads) {
        return """
                {"result": {"status": "green", "optimizer_status": "ok", "points_count": 0, "segments_count": 1,
                  "config": {"params": {"vectors": {}, "shard_number": 1, "replication_factor": 1,
                                        "write_consistency_factor": 1, "on_disk_payload": true},
                             "hnsw_config": {"m": 16, "ef_construct": 100, "full_scan_threshold": 10000},
                             "optimizer_config": {"deleted_threshold": 0.2, "vacuum_min_vector_number": 1000,
                                                  "default_segment_number": 0, "flush_interval_sec": 5}},
                  "payload_schema": %s},
                 "status": "ok", "time": 0.0001}""".formatted(payloadSchema(index, textPayloads));
    }
}
