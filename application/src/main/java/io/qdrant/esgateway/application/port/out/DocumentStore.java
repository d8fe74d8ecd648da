package io.qdrant.esgateway.application.port.out;

import io.qdrant.esgateway.domain.index.IndexMetadata;

/**
 * The backend that holds the documents of every index (embedded Lucene, or Qdrant). One storage unit
 * (a Lucene directory, a Qdrant collection) per concrete index, keyed by the index's name and uuid, so a deleted and
 * re-created index never sees the old one's documents.
 *
 * <p>This is the lifecycle part of the port; document writes and reads, scroll, count, facet and ranked queries
 * join it with the document and search capabilities, each with its contract cases.
 */
public interface DocumentStore {

    /** Creates empty storage for a new index. On failure nothing is left behind. */
    void createIndex(IndexMetadata index);

    /** Deletes the index's storage and everything in it; a missing storage is not an error. */
    void dropIndex(IndexMetadata index);

    /** Makes the storage ready for fields added to the mapping (e.g. payload indexes); no-op where not needed. */
    void updateMappings(IndexMetadata index);

    /** Document count and size on disk, for {@code _cat/indices}. */
    StoreStats stats(IndexMetadata index);

    /** Throws {@code BACKEND_UNAVAILABLE} unless the backend can serve requests now. */
    void ping();

    /** A short name for health output and metrics ({@code lucene}, {@code qdrant}). */
    String name();

    record StoreStats(long docCount, long deletedDocs, long sizeInBytes) {
        public static final StoreStats EMPTY = new StoreStats(0, 0, 0);
    }
}
