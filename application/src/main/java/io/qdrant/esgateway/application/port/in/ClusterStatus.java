package io.qdrant.esgateway.application.port.in;

import java.util.List;
import java.util.Optional;

/** What {@code _cluster/health}, {@code _cat/indices} and the readiness probe report. */
public interface ClusterStatus {

    /** Health of the whole gateway, or of the indices an expression names ({@code INDEX_NOT_FOUND} if none). */
    Health health(Optional<String> expression);

    /** One row per index the expression names (all when empty), sorted by name. */
    List<IndexSummary> indices(Optional<String> expression);

    /** As {@link #indices(Optional)}; with {@code expandHidden} wildcards and {@code _all} also name hidden indices. */
    default List<IndexSummary> indices(Optional<String> expression, boolean expandHidden) {
        return indices(expression);
    }

    /** As {@link #indices(Optional)}, the expression resolved with {@code options} ({@code expand_wildcards}). */
    default List<IndexSummary> indices(Optional<String> expression,
                                       io.qdrant.esgateway.domain.index.CatalogView.Options options) {
        return indices(expression, options.expandHidden());
    }

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
                        long docsDeleted, long storeSizeBytes, boolean closed) {
        /** An open index's row. */
        public IndexSummary(String name, String uuid, Status health, int primaries, int replicas, long docsCount,
                            long docsDeleted, long storeSizeBytes) {
            this(name, uuid, health, primaries, replicas, docsCount, docsDeleted, storeSizeBytes, false);
        }
    }

    /**
     * Ready when every dependency answers; {@code problems} lists the failures as {@code "<dependency>: <why>"},
     * {@code dependencies} every dependency checked, in order (the catalog, the document backend, the shared
     * response cache when there is one).
     */
    record Readiness(boolean ready, List<String> problems, List<Dependency> dependencies) {
        public Readiness {
            problems = List.copyOf(problems);
            dependencies = List.copyOf(dependencies);
        }

        /** Readiness from the dependencies' checks alone. */
        public static Readiness of(List<Dependency> dependencies) {
            List<String> problems = dependencies.stream().filter(d -> d.problem().isPresent())
                    .map(d -> d.name() + ": " + d.problem().get()).toList();
            return new Readiness(problems.isEmpty(), problems, dependencies);
        }
    }

    /** One dependency's check: its name, and why it failed (empty when it answered). */
    record Dependency(String name, Optional<String> problem) {
    }
}
