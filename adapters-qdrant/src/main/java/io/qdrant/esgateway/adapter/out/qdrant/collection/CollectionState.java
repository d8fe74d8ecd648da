package io.qdrant.esgateway.adapter.out.qdrant.collection;

import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What the adapter remembers of a collection: the vectors it has, the sequence number (when known), and whether its
 * payload indexes were checked against the layout.
 */
public final class CollectionState {
    /** Held by a write from reading the sequence number to recording the new one. */
    public final ReentrantLock writing = new ReentrantLock();
    /** Held while the collection's payload schema is read and its missing payload indexes are created. */
    final ReentrantLock layout = new ReentrantLock();
    /** The collection's named vectors; null until read. */
    public volatile Set<String> vectors;
    /** The highest sequence number written; null when unknown (read again from the metadata point). */
    public volatile Long maxSeqNo;
    /** Whether the collection has every payload index of the layout (created here, or checked since). */
    volatile boolean layoutChecked;
}
