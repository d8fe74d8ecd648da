package io.qdrant.esgateway.bench;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Ratios against the fastest native engine (Elasticsearch or OpenSearch) of the same workload and concurrency: 1.0 is
 * as fast as the faster of the two, 2.0 twice as slow. A cell that is not valid has no ratio; a row without a valid
 * native cell has no baseline.
 */
public final class Ratios {
    private Ratios() {
    }

    public static Optional<Double> baseline(Results results, String workload, int clients, boolean p95) {
        Set<String> natives = results.engines().stream().filter(Results.EngineFacts::nativeEngine)
                .map(Results.EngineFacts::name).collect(Collectors.toSet());
        return cells(results, workload, clients).stream()
                .filter(c -> natives.contains(c.engine()) && c.status() == Status.VALID)
                .map(c -> p95 ? c.p95Ms() : c.p50Ms())
                .min(Double::compare);
    }

    public static Optional<Double> ratio(Results results, Results.Cell cell, boolean p95) {
        if (cell.status() != Status.VALID) {
            return Optional.empty();
        }
        return baseline(results, cell.workload(), cell.clients(), p95)
                .filter(b -> b > 0)
                .map(b -> (p95 ? cell.p95Ms() : cell.p50Ms()) / b);
    }

    static List<Results.Cell> cells(Results results, String workload, int clients) {
        return results.cells().stream().filter(c -> c.workload().equals(workload) && c.clients() == clients).toList();
    }

    static Optional<Results.Cell> cell(Results results, String engine, String workload, int clients) {
        return results.cells().stream()
                .filter(c -> c.engine().equals(engine) && c.workload().equals(workload) && c.clients() == clients)
                .findFirst();
    }
}
