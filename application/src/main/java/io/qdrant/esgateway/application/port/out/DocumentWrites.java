package io.qdrant.esgateway.application.port.out;

import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import java.util.List;

/**
 * Document writes, planned by the application (versions, sequence numbers, conditions) and executed here in order,
 * durably: at once ({@link #write}) or in two steps that let concurrent writers share the wait ({@link #apply}).
 */
public interface DocumentWrites {

    /**
     * Applies the writes in order as one durable unit: when this returns, every write survives a crash of the process
     * and is visible to the next {@link PointReads#get}. {@code maxSeqNo} (the highest sequence number among these
     * writes) is recorded with them. A failure means none of them may be assumed written.
     */
    void write(IndexMetadata index, List<DocumentWrite> writes, long maxSeqNo);

    /**
     * {@link #write} in two steps, so that a caller can release its own locks before the wait for durability and
     * concurrent writers can share it (group commit): when this returns, the writes are applied in order — visible
     * to {@link PointReads#get} and counted in {@link #maxSeqNo}, so the next batch can be planned on them — and when
     * {@link Durability#await()} of the result returns, they are durable as {@code write} promises. A failure of
     * either step means none of them may be assumed written (after a failed {@code await} they may still be there,
     * whole). A later batch's {@code await} covers every batch applied before it. The default writes durably at once.
     */
    default Durability apply(IndexMetadata index, List<DocumentWrite> writes, long maxSeqNo) {
        write(index, writes, maxSeqNo);
        return Durability.DONE;
    }

    /** The second step of {@link #apply}: waits until the applied writes are durable. */
    @FunctionalInterface
    interface Durability {
        Durability DONE = () -> {
        };

        /** Returns once durable; throws the store's {@code GatewayException} if they could not be made so. */
        void await();
    }

    /** The highest sequence number ever recorded by {@link #write} for this index, or -1 before the first write. */
    long maxSeqNo(IndexMetadata index);
}
