package io.qdrant.esgateway.application.port.out;

import io.qdrant.esgateway.domain.plan.ExecutionPlan;

/**
 * Told, for every search on every index, which path each part of the answer took and why (metrics and debug logs:
 * {@code qeg_plan_path_total{part,path,reason}}).
 */
@FunctionalInterface
public interface PlanObserver {
    PlanObserver NONE = (index, plan) -> {
    };

    void planned(String index, ExecutionPlan plan);
}
