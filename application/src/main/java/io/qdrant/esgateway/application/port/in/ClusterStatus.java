package io.qdrant.esgateway.application.port.in;

import java.util.List;
import java.util.Optional;

/** What {@code _cluster/health}, {@code _cat/indices} and the readiness probe report. */
public interface ClusterStatus {

    /** Health of the whole gateway, or of the indices an expression names ({@code INDEX_NOT_FOUND} if none). */
    Health health(Optional<String> expression);

    /** One row per index the expression names (all when empty), sorted by name. */
    List<IndexSummary> indices(Optional<String> expression);

    /** Whether the catalog and the document backend answer now; the reasons when not. */
    Readiness readiness();

    enum Status {
        GREEN, YELLOW, RED;

        public String esName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * The gateway has one logical shard per index and no replicas of its own (the backend replicates), so a
     * reachable backend is green with every primary active.
     */
    record Health(Status status, int numberOfIndices, int activePrimaryShards, int activeShards) {
    }

    record IndexSummary(String name, String uuid, Status health, int primaries, int replicas, long docsCount,
                        long docsDeleted, long storeSizeBytes) {
    }

    record Readiness(boolean ready, List<String> problems) {
    }
}
