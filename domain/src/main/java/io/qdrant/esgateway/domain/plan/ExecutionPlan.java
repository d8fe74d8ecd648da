package io.qdrant.esgateway.domain.plan;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The path each part of one search on one index takes: the page of hits (order, {@code search_after}, window), the
 * total, and each top-level aggregation by name.
 */
public record ExecutionPlan(ExecutionPath hits, ExecutionPath total, Map<String, ExecutionPath> aggregations) {
    public ExecutionPlan {
        aggregations = Collections.unmodifiableMap(new LinkedHashMap<>(aggregations));
    }

    /** Whether any part needs the complete scan. */
    public boolean scans() {
        return hits instanceof ExecutionPath.Scan || total instanceof ExecutionPath.Scan
                || aggregations.values().stream().anyMatch(p -> p instanceof ExecutionPath.Scan);
    }
}
