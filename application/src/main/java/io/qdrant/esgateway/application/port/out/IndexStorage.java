package io.qdrant.esgateway.application.port.out;

import io.qdrant.esgateway.application.port.out.DocumentStore.StoreStats;
import io.qdrant.esgateway.domain.index.IndexMetadata;

/**
 * The storage unit of each index (a Lucene directory, a Qdrant collection), keyed by the index's name and uuid so that
 * a deleted and re-created index never sees the old one's documents: its creation, deletion, mapping updates and size.
 */
public interface IndexStorage {

    /** Creates empty storage for a new index. On failure nothing is left behind. */
    void createIndex(IndexMetadata index);

    /** Deletes the index's storage and everything in it; a missing storage is not an error. */
    void dropIndex(IndexMetadata index);

    /** Makes the storage ready for fields added to the mapping (e.g. payload indexes); no-op where not needed. */
    void updateMappings(IndexMetadata index);

    /** Document count and size on disk, for {@code _cat/indices}. */
    StoreStats stats(IndexMetadata index);

    /**
     * Refuses (a 400 naming the fields) a change of a closed index's analysis settings that the storage cannot apply
     * as Elasticsearch does: {@code before} and {@code after} are the index with its current and its new settings.
     * Accepts every change unless the storage says otherwise.
     */
    default void checkAnalysisChange(IndexMetadata before, IndexMetadata after) {
    }
}
