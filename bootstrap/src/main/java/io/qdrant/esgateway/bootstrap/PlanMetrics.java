package io.qdrant.esgateway.bootstrap;

import io.micrometer.core.instrument.MeterRegistry;
import io.qdrant.esgateway.application.port.out.PlanObserver;
import io.qdrant.esgateway.domain.plan.ExecutionPath;
import io.qdrant.esgateway.domain.plan.ExecutionPlan;

/**
 * Counts which path each part of every search took: {@code qeg_plan_path_total{part,path,reason}} with
 * {@code part} = {@code hits}, {@code total} or {@code aggs} (bounded labels: aggregation names are not labels).
 */
final class PlanMetrics implements PlanObserver {
    private final MeterRegistry registry;

    PlanMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void planned(String index, ExecutionPlan plan) {
        count("hits", plan.hits());
        count("total", plan.total());
        plan.aggregations().values().forEach(path -> count("aggs", path));
    }

    private void count(String part, ExecutionPath path) {
        registry.counter("qeg_plan_path", "part", part, "path", path.label(), "reason", path.reason()).increment();
    }
}
