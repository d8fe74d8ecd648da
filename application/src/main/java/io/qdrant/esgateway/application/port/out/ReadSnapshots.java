package io.qdrant.esgateway.application.port.out;

import io.qdrant.esgateway.domain.index.IndexMetadata;

/**
 * A store that can hold a point-in-time view of an index (the embedded store: one Lucene reader), so that a scroll
 * reads the documents as they were when it was opened, whatever is written meanwhile.
 */
public interface ReadSnapshots {

    /** The index's documents as they are now (every acknowledged write included), readable until closed. */
    Snapshot open(IndexMetadata index);

    /**
     * A held view: its reads ({@link DocumentStore#search}, {@link DocumentStore#aggregate},
     * {@link DocumentStore#scan}, {@link DocumentStore#fetch}, {@link DocumentStore#count}) answer from the moment it
     * was opened; it does not write. Closing it releases what it holds; reads after that fail.
     */
    interface Snapshot extends AutoCloseable {
        DocumentStore reads();

        @Override
        void close();
    }
}
