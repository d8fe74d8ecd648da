package io.qdrant.esgateway.adapter.out.qdrant.collection;

import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/** What the adapter remembers of a collection: the vectors it has, and the sequence number (when known). */
public final class CollectionState {
    /** Held by a write from reading the sequence number to recording the new one. */
    public final ReentrantLock writing = new ReentrantLock();
    /** The collection's named vectors; null until read. */
    public volatile Set<String> vectors;
    /** The highest sequence number written; null when unknown (read again from the metadata point). */
    public volatile Long maxSeqNo;
}
