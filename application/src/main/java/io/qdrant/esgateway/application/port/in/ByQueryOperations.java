package io.qdrant.esgateway.application.port.in;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.script.Script;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code _delete_by_query} and {@code _update_by_query}: every document a query matches, deleted or re-indexed with
 * its current source, in batches through the ordinary write path. Not a transaction, as in Elasticsearch: the result
 * says how far it got.
 */
public interface ByQueryOperations {

    /** Deletes every matching document (up to {@code maxDocs}). */
    default ByQueryResult deleteByQuery(String target, ByQueryRequest request, CatalogView.Options options) {
        return deleteByQuery(target, request, options, TaskControl.unwatched());
    }

    /**
     * As {@link #deleteByQuery(String, ByQueryRequest, CatalogView.Options)}, throttled, watched and cancelled
     * through {@code control} (a cancelled operation ends before its next batch with the counters so far).
     */
    ByQueryResult deleteByQuery(String target, ByQueryRequest request, CatalogView.Options options,
                                TaskControl control);

    /** Re-indexes every matching document with its own source ("touch": new version, mappings applied again). */
    default ByQueryResult updateByQuery(String target, ByQueryRequest request, CatalogView.Options options) {
        return updateByQuery(target, request, options, TaskControl.unwatched());
    }

    /** As {@link #updateByQuery(String, ByQueryRequest, CatalogView.Options)}, through {@code control}. */
    ByQueryResult updateByQuery(String target, ByQueryRequest request, CatalogView.Options options,
                                TaskControl control);

    /**
     * @param query      the documents to change (all when empty)
     * @param proceed    {@code conflicts=proceed}: count version conflicts and go on; else the first batch with a
     *                   conflict is the last
     * @param maxDocs    the most documents to change successfully (all when empty)
     * @param batchSize  documents per batch (Elasticsearch's {@code scroll_size}, 1,000 by default)
     * @param script     {@code _update_by_query}'s script, run over each matching document ({@code ctx.op}:
     *                   index, noop or delete)
     */
    record ByQueryRequest(Optional<Query> query, boolean proceed, OptionalLong maxDocs, int batchSize,
                          Optional<Script> script) {
        public ByQueryRequest {
            if (batchSize < 1) {
                throw new IllegalArgumentException("batch size must be positive");
            }
        }

        public ByQueryRequest(Optional<Query> query, boolean proceed, OptionalLong maxDocs, int batchSize) {
            this(query, proceed, maxDocs, batchSize, Optional.empty());
        }
    }

    /**
     * Elasticsearch's counters: {@code total} is the number of documents the operation set out to change
     * (the matches, at most {@code max_docs}); {@code batches} the number of batches written; {@code failures} the
     * writes that failed (ending the operation after their batch).
     */
    record ByQueryResult(long total, long updated, long deleted, int batches, long versionConflicts, long noops,
                         List<Failure> failures) {
        public ByQueryResult {
            failures = List.copyOf(failures);
        }
    }

    /** One failed write: the index and id it addressed and why. */
    record Failure(String index, String id, GatewayException cause) {
    }
}
