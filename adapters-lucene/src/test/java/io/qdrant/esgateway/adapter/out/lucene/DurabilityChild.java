package io.qdrant.esgateway.adapter.out.lucene;

import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * The process {@link LuceneDurabilityTest} kills: opens the store in {@code args[0]}, prints {@code READY}, then
 * writes {@code args[1]} documents with ids {@code <args[2]><n>}, one {@code write} call each, and prints
 * {@code ACK <id> <seqNo>} after each call returns. It never closes the store.
 */
public final class DurabilityChild {
    static final IndexMetadata INDEX = new IndexMetadata("durable", "durable-uuid", Instant.EPOCH,
            IndexSettings.DEFAULTS, Mappings.parse(Json.parse(
                    "{\"properties\": {\"tag\": {\"type\": \"keyword\"}, \"n\": {\"type\": \"long\"},"
                            + " \"v\": {\"type\": \"dense_vector\", \"dims\": 4, \"similarity\": \"l2_norm\"}}}")));

    private DurabilityChild() {
    }

    /** The document the child writes under {@code id}; the test expects exactly its source back. */
    static IndexableDocument document(String id, long seqNo) {
        JsonObject source = (JsonObject) Json.parse("{\"id\": \"" + id + "\", \"n\": " + seqNo
                + ", \"tag\": \"t" + (seqNo % 10) + "\", \"v\": [" + seqNo + ", 1, 2, 3], \"text\": \""
                + "x".repeat(200) + "\"}");
        return new IndexableDocument(id, new DocumentVersion(1, seqNo, DocumentVersion.PRIMARY_TERM), source, List.of(
                new IndexedValue.Keyword("tag", "t" + (seqNo % 10)), new IndexedValue.LongValue("n", seqNo),
                new IndexedValue.Vector("v", new float[] {seqNo, 1, 2, 3})));
    }

    public static void main(String[] args) {
        LuceneStores.Handle store = LuceneStores.open(Path.of(args[0]));
        int count = Integer.parseInt(args[1]);
        String prefix = args[2];
        long seqNo = store.maxSeqNo(INDEX) + 1;
        System.out.println("READY");
        System.out.flush();
        for (int i = 0; i < count; i++, seqNo++) {
            String id = prefix + i;
            store.write(INDEX, List.of(new DocumentWrite.Upsert(document(id, seqNo))), seqNo);
            System.out.println("ACK " + id + " " + seqNo);
            System.out.flush();
        }
        System.out.println("DONE");
        System.out.flush();
    }
}
