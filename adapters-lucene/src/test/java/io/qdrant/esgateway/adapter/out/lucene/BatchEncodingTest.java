package io.qdrant.esgateway.adapter.out.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexableField;
import org.junit.jupiter.api.Test;

/** Encoding a batch in two halves gives exactly what encoding it in order on one thread gives. */
class BatchEncodingTest {
    private static final Mappings MAPPINGS = Mappings.parse(Json.parse("{\"properties\": {\"tag\": {\"type\": "
            + "\"keyword\"}, \"title\": {\"type\": \"text\"}, \"n\": {\"type\": \"long\"}, \"v\": {\"type\": "
            + "\"dense_vector\", \"dims\": 2, \"similarity\": \"l2_norm\"}}}"));

    private static DocumentWrite upsert(int i, IndexedValue... values) {
        JsonObject source = (JsonObject) Json.parse("{\"tag\": \"t" + i + "\", \"title\": \"é ü " + i + "\", \"n\": " + i
                + "}");
        return new DocumentWrite.Upsert(new IndexableDocument("d" + i, new DocumentVersion(1, i, 1), source,
                List.of(values)), i % 2 == 0);
    }

    private static List<DocumentWrite> batch(int size) {
        List<DocumentWrite> writes = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            writes.add(i % 7 == 3 ? new DocumentWrite.Delete("d" + (i - 1)) : upsert(i,
                    new IndexedValue.Keyword("tag", "t" + i), new IndexedValue.Text("title", "é ü " + i),
                    new IndexedValue.LongValue("n", i), new IndexedValue.Vector("v", new float[] {i, -i})));
        }
        return writes;
    }

    /** The reference: every write encoded in order on this thread, as the store did before. */
    private static BatchEncoding.Encoded inOrder(List<DocumentWrite> writes) {
        List<Document> documents = new ArrayList<>();
        List<Translog.Op> ops = new ArrayList<>();
        for (DocumentWrite write : writes) {
            switch (write) {
                case DocumentWrite.Upsert u -> {
                    documents.add(FieldEncoding.encode(MAPPINGS, u.document()));
                    ops.add(new Translog.Op.Upsert(u.id(), u.document().version(),
                            FieldEncoding.sourceBytes(u.document().source()), u.document().values()));
                }
                case DocumentWrite.Delete d -> {
                    documents.add(null);
                    ops.add(new Translog.Op.Delete(d.id()));
                }
            }
        }
        return new BatchEncoding.Encoded(documents, Translog.prepare(ops));
    }

    private static List<String> describe(List<Document> documents) {
        List<String> out = new ArrayList<>();
        for (Document d : documents) {
            if (d == null) {
                out.add("delete");
                continue;
            }
            StringBuilder sb = new StringBuilder();
            for (IndexableField f : d.getFields()) {
                sb.append(f.name()).append('|').append(f.fieldType()).append('|').append(f.stringValue()).append('|')
                        .append(f.binaryValue()).append('|').append(f.numericValue()).append(';');
            }
            out.add(sb.toString());
        }
        return out;
    }

    @Test
    void aSplitBatchEncodesToTheSameDocumentsAndRecordBytes() {
        for (int size : new int[] {1, BatchEncoding.SPLIT_AT - 1, BatchEncoding.SPLIT_AT, 1001}) {
            List<DocumentWrite> writes = batch(size);
            BatchEncoding.Encoded split = BatchEncoding.encode(MAPPINGS, writes);
            BatchEncoding.Encoded reference = inOrder(writes);
            assertThat(split.record().ops()).as("record of %d writes", size).isEqualTo(reference.record().ops());
            assertThat(describe(split.documents())).as("documents of %d writes", size)
                    .isEqualTo(describe(reference.documents()));
        }
    }

    @Test
    void theFailureReportedIsTheFirstInBatchOrderWhicheverHalfItIsIn() {
        String immense = "é".repeat(16_384); // 32768 UTF-8 bytes: over Lucene's term limit
        for (int[] positions : new int[][] {{10, 900}, {900, 10}, {600, 700}}) {
            List<DocumentWrite> writes = new ArrayList<>(batch(1000));
            // a refused keyword at the first position, a vector of the wrong size at the second
            writes.set(positions[0], upsert(positions[0], new IndexedValue.Keyword("tag", immense)));
            writes.set(positions[1], upsert(positions[1], new IndexedValue.Vector("v", new float[] {1, 2, 3})));
            Throwable thrown = catchThrowable(() -> BatchEncoding.encode(MAPPINGS, writes));
            assertThat(thrown).as("failures at %d (keyword) and %d (vector)", positions[0], positions[1])
                    .isInstanceOf(positions[0] < positions[1] ? FieldEncoding.RejectedValue.class
                            : FieldEncoding.BrokenInvariant.class);
        }
    }
}
