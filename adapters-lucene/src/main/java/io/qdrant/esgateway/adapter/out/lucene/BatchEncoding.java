package io.qdrant.esgateway.adapter.out.lucene;

import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.index.Mappings;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinTask;
import org.apache.lucene.document.Document;

/**
 * A write batch turned into what the store applies and logs, before any lock of the index is taken: the Lucene
 * document of each write (null for a delete) and the batch's translog record. A batch of at least {@link #SPLIT_AT}
 * writes is encoded in two halves, the second on the common fork-join pool while the calling thread encodes the
 * first (or, if no worker took it meanwhile, after it). The result is the one encoding in order on one thread gives:
 * the same documents in the same order, the same record bytes, and, if writes fail to encode, the failure of the
 * first of them in batch order.
 */
final class BatchEncoding {
    /** Smaller batches are encoded on the calling thread alone: handing half of them over costs more than it saves. */
    static final int SPLIT_AT = 128;
    private static final boolean SEVERAL_CORES = Runtime.getRuntime().availableProcessors() > 1;

    private BatchEncoding() {
    }

    /** The documents (null for a delete) and the translog record of a batch. */
    record Encoded(List<Document> documents, Translog.Prepared record) {
    }

    /** One consecutive part of a batch encoded, or the first failure in it (handed back, never thrown across threads). */
    private record Part(List<Document> documents, byte[] ops, RuntimeException failure) {
    }

    /**
     * Encodes {@code writes} (see the class comment).
     *
     * @throws FieldEncoding.RejectedValue as {@link FieldEncoding#encode} does, for the first write that fails
     * @throws FieldEncoding.BrokenInvariant likewise
     */
    static Encoded encode(Mappings mappings, List<DocumentWrite> writes) {
        if (writes.size() < SPLIT_AT || !SEVERAL_CORES) {
            Part all = part(mappings, writes);
            return encoded(List.of(all), writes.size());
        }
        int half = writes.size() / 2;
        ForkJoinTask<Part> second = ForkJoinTask.adapt(() -> part(mappings, writes.subList(half, writes.size())));
        second.fork();
        Part first = part(mappings, writes.subList(0, half));
        Part rest = second.tryUnfork() ? second.invoke() : second.join();
        return encoded(List.of(first, rest), writes.size());
    }

    private static Encoded encoded(List<Part> parts, int count) {
        List<Document> documents = new ArrayList<>(count);
        List<byte[]> ops = new ArrayList<>(parts.size());
        for (Part part : parts) {
            if (part.failure() != null) {
                throw part.failure();
            }
            documents.addAll(part.documents());
            ops.add(part.ops());
        }
        return new Encoded(documents, Translog.prepare(ops, count));
    }

    private static Part part(Mappings mappings, List<DocumentWrite> writes) {
        List<Document> documents = new ArrayList<>(writes.size());
        List<Translog.Op> ops = new ArrayList<>(writes.size());
        try {
            for (DocumentWrite write : writes) {
                switch (write) {
                    case DocumentWrite.Upsert upsert -> {
                        IndexableDocument doc = upsert.document();
                        // one array for the stored field and the log record: neither changes it
                        byte[] source = FieldEncoding.sourceBytes(doc.source());
                        documents.add(FieldEncoding.encode(mappings, doc.id(), doc.version(), source, doc.values()));
                        ops.add(new Translog.Op.Upsert(doc.id(), doc.version(), source, doc.values()));
                    }
                    case DocumentWrite.Delete delete -> {
                        documents.add(null);
                        ops.add(new Translog.Op.Delete(delete.id()));
                    }
                }
            }
        } catch (RuntimeException e) {
            return new Part(null, null, e);
        }
        return new Part(documents, Translog.encodeOps(ops), null);
    }
}
