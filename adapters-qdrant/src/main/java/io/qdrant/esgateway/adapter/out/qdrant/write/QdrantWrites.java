package io.qdrant.esgateway.adapter.out.qdrant.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.adapter.out.qdrant.collection.CollectionState;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantCollections;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.payload.QdrantJson;
import io.qdrant.esgateway.adapter.out.qdrant.payload.TextPayload;
import io.qdrant.esgateway.adapter.out.qdrant.transport.CollectionCalls;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;
import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite;
import io.qdrant.esgateway.application.port.out.RelevanceScorer;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes: documents encoded as points (ids, exact source, version triple, indexed values, named vectors, and the
 * analysed text the gateway's scoring reads), sent as one {@code points/batch} request with {@code wait=true} (upserts
 * and deletes in order, then the metadata point with the highest sequence number), split only when the body would
 * exceed Qdrant's request limit.
 */
public final class QdrantWrites {
    /** Qdrant's default {@code max_request_size_mb} is 32 MiB; batches stay well below it. */
    static final int MAX_BATCH_BYTES = 16 << 20;

    private final QdrantCollections collections;
    private final CollectionCalls calls;
    /** Adds the analysed text of the gateway's full-text scoring to every point; null: none. */
    private final RelevanceScorer scorer;

    public QdrantWrites(QdrantCollections collections, RelevanceScorer scorer) {
        this.collections = collections;
        this.calls = collections.calls();
        this.scorer = scorer;
    }

    /**
     * Applies the writes in order and records {@code maxSeqNo} (or the higher one already recorded). With other
     * writers (shared mode) the numbers come from the shared catalog's counter, one writer of an index at a time, so
     * each batch's {@code maxSeqNo} is above every one recorded before: it is recorded as is, without reading the
     * recorded one first.
     */
    public void write(IndexMetadata index, List<DocumentWrite> writes, long maxSeqNo) {
        String collection = calls.collection(index);
        CollectionState state = collections.state(collection);
        state.writing.lock();
        try {
            boolean shared = calls.sharedWriters();
            if (shared && writes.isEmpty()) {
                return;
            }
            long current = shared ? -1 : currentMaxSeqNo(index, collection, state);
            long recorded = Math.max(current, maxSeqNo);
            if (writes.isEmpty() && recorded == current) {
                return;
            }
            Set<String> vectors = collections.vectors(index, collection, state);
            List<ObjectNode> operations = new ArrayList<>();
            ArrayNode run = null;
            boolean runIsUpsert = false;
            for (DocumentWrite write : writes) {
                boolean upsert = write instanceof DocumentWrite.Upsert;
                if (run == null || runIsUpsert != upsert) {
                    ObjectNode op = QdrantClient.object();
                    run = upsert ? op.putObject("upsert").putArray("points")
                            : op.putObject("delete").putArray("points");
                    runIsUpsert = upsert;
                    operations.add(op);
                }
                switch (write) {
                    case DocumentWrite.Upsert u -> run.add(point(index, u.document(), vectors, scorer));
                    case DocumentWrite.Delete d -> run.add(QdrantLayout.pointId(index, d.id()));
                }
            }
            ObjectNode meta = QdrantClient.object();
            ObjectNode metaPoint = meta.putObject("upsert").putArray("points").addObject();
            metaPoint.put("id", QdrantLayout.META_POINT);
            metaPoint.putObject("vector");
            metaPoint.putObject("payload").put(QdrantLayout.MAX_SEQ_NO, recorded);
            operations.add(meta);
            for (ObjectNode batch : batches(operations)) {
                calls.call(index, "POST", collection, "/points/batch", Map.of("wait", "true"), batch, false,
                        "write to the collection of index [" + index.name() + "]");
            }
            state.maxSeqNo = recorded;
        } catch (RuntimeException e) {
            // the outcome may be partial or unknown: read the sequence number again next time
            state.maxSeqNo = null;
            throw e;
        } finally {
            state.writing.unlock();
        }
    }

    /** The operations as few {@code points/batch} bodies as Qdrant's request limit allows (usually one). */
    private static List<ObjectNode> batches(List<ObjectNode> operations) {
        List<ObjectNode> out = new ArrayList<>();
        ObjectNode body = QdrantClient.object();
        ArrayNode ops = body.putArray("operations");
        long size = 0;
        for (ObjectNode op : operations) {
            long opSize = op.toString().length() * 2L;
            if (size > 0 && size + opSize > MAX_BATCH_BYTES) {
                out.add(body);
                body = QdrantClient.object();
                ops = body.putArray("operations");
                size = 0;
            }
            ops.add(op);
            size += opSize;
        }
        out.add(body);
        return out;
    }

    private static ObjectNode point(IndexMetadata index, IndexableDocument document, Set<String> vectors,
                                    RelevanceScorer scorer) {
        ObjectNode point = QdrantClient.object();
        point.put("id", QdrantLayout.pointId(index, document.id()));
        ObjectNode vector = point.putObject("vector");
        ObjectNode payload = point.putObject("payload");
        payload.put(QdrantLayout.ID, document.id());
        payload.put(QdrantLayout.SOURCE_TEXT, QdrantJson.exactText(document.source()));
        payload.set(QdrantLayout.SOURCE, QdrantJson.toNode(document.source()));
        payload.put(QdrantLayout.VERSION, document.version().version());
        payload.put(QdrantLayout.SEQ_NO, document.version().seqNo());
        payload.put(QdrantLayout.PRIMARY_TERM, document.version().primaryTerm());
        document.routing().ifPresent(r -> payload.put(QdrantLayout.ROUTING, r));
        ObjectNode fields = payload.putObject(QdrantLayout.FIELDS);
        for (IndexedValue value : document.values()) {
            switch (value) {
                case IndexedValue.Vector v -> {
                    if (vectors.contains(v.field())) {
                        ArrayNode array = vector.putArray(v.field());
                        for (float f : v.values()) {
                            array.add(f);
                        }
                    }
                }
                case IndexedValue.Keyword k -> values(fields, k.field()).add(k.value());
                case IndexedValue.Text t -> values(fields, t.field()).add(t.value());
                case IndexedValue.LongValue l -> values(fields, l.field()).add(l.value());
                case IndexedValue.DoubleValue d -> values(fields, d.field()).add(d.value());
                case IndexedValue.FloatValue f -> values(fields, f.field()).add((double) f.value());
                case IndexedValue.BooleanValue b -> values(fields, b.field()).add(b.value());
                case IndexedValue.DateValue d -> values(fields, d.field()).add(d.epochMillis());
            }
        }
        if (scorer != null) {
            TextPayload.add(payload, scorer, index, document.values());
        }
        return point;
    }

    private static ArrayNode values(ObjectNode fields, String field) {
        JsonNode existing = fields.get(field);
        return existing instanceof ArrayNode a ? a : fields.putArray(field);
    }

    /** The highest sequence number written to the index, read from its metadata point when not remembered. */
    public long maxSeqNo(IndexMetadata index) {
        String collection = calls.collection(index);
        CollectionState state = collections.state(collection);
        Long known = calls.sharedWriters() ? null : state.maxSeqNo;
        return known != null ? known : currentMaxSeqNo(index, collection, state);
    }

    private long currentMaxSeqNo(IndexMetadata index, String collection, CollectionState state) {
        // with other writers the remembered number may be behind theirs: read it from Qdrant every time
        Long known = calls.sharedWriters() ? null : state.maxSeqNo;
        if (known != null) {
            return known;
        }
        ObjectNode body = QdrantClient.object();
        body.putArray("ids").add(QdrantLayout.META_POINT);
        body.putArray("with_payload").add(QdrantLayout.MAX_SEQ_NO);
        body.put("with_vector", false);
        JsonNode result = calls.call(index, "POST", collection, "/points", Map.of(), body, true,
                "read the sequence number of index [" + index.name() + "]");
        long value = -1;
        for (JsonNode record : result) {
            value = record.path("payload").path(QdrantLayout.MAX_SEQ_NO).asLong(-1);
        }
        state.maxSeqNo = value;
        return value;
    }
}
