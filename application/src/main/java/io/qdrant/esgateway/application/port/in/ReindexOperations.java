package io.qdrant.esgateway.application.port.in;

import io.qdrant.esgateway.application.port.in.ByQueryOperations.Failure;
import io.qdrant.esgateway.domain.document.SourceFilter;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.query.Query;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code _reindex} from indices of this gateway: every document a query matches in the source, written to the
 * destination in batches through the ordinary write path. Not a transaction, as in Elasticsearch: the result says how
 * far it got.
 */
public interface ReindexOperations {

    default ReindexResult reindex(ReindexRequest request) {
        return reindex(request, TaskControl.unwatched());
    }

    /**
     * As {@link #reindex(ReindexRequest)}, throttled, watched and cancelled through {@code control} (a cancelled
     * operation ends before its next batch with the counters so far).
     */
    ReindexResult reindex(ReindexRequest request, TaskControl control);

    /**
     * @param source     the source expression (indices, aliases, patterns; comma-separated)
     * @param options    how the source expression resolves
     * @param query      the documents to copy (all when empty)
     * @param sourceFilter the part of each {@code _source} copied
     * @param batchSize  documents per batch ({@code source.size}, 1,000 by default)
     * @param maxDocs    the most documents to copy successfully (all when empty)
     * @param dest       the destination index or alias (created with dynamic mappings when absent)
     * @param createOnly {@code op_type: create}: a document that exists in the destination is a version conflict
     * @param proceed    {@code conflicts=proceed}: count version conflicts and go on
     */
    record ReindexRequest(String source, CatalogView.Options options, Optional<Query> query,
                          SourceFilter sourceFilter, int batchSize, OptionalLong maxDocs, String dest,
                          boolean createOnly, boolean proceed) {
        public ReindexRequest {
            if (batchSize < 1) {
                throw new IllegalArgumentException("batch size must be positive");
            }
        }
    }

    /** Elasticsearch's counters for {@code _reindex} (see {@link ByQueryOperations.ByQueryResult}). */
    record ReindexResult(long total, long created, long updated, int batches, long versionConflicts, long noops,
                         List<Failure> failures) {
        public ReindexResult {
            failures = List.copyOf(failures);
        }
    }
}
