package io.qdrant.esgateway.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/** Folds the trials of each (engine, workload, clients) into one {@link Results.Cell}. */
public final class Summary {
    private Summary() {
    }

    public static List<Results.Cell> cells(List<Results.Trial> trials) {
        Map<String, List<Results.Trial>> byCell = new LinkedHashMap<>();
        for (Results.Trial t : trials) {
            byCell.computeIfAbsent(t.engine() + "\u0000" + t.workload() + "\u0000" + t.clients(), k -> new ArrayList<>())
                    .add(t);
        }
        List<Results.Cell> cells = new ArrayList<>();
        for (List<Results.Trial> group : byCell.values()) {
            cells.add(cell(group));
        }
        return cells;
    }

    /** Any wrong answer makes the cell invalid; else any refusal unsupported; else any error an error; else timed. */
    static Results.Cell cell(List<Results.Trial> group) {
        Results.Trial first = group.getFirst();
        for (Status status : List.of(Status.INVALID, Status.UNSUPPORTED, Status.ERROR, Status.SKIPPED)) {
            for (Results.Trial t : group) {
                if (t.status() == status) {
                    return new Results.Cell(first.engine(), first.workload(), first.clients(), status,
                            "trial " + t.trial() + ": " + t.detail(), group.size(), null, null, null, null, null, null);
                }
            }
        }
        List<Double> p50 = group.stream().map(Results.Trial::p50Ms).filter(Objects::nonNull).toList();
        List<Double> p95 = group.stream().map(Results.Trial::p95Ms).filter(Objects::nonNull).toList();
        List<Double> thr = group.stream().map(Results.Trial::throughput).filter(Objects::nonNull).toList();
        List<Double> dps = group.stream().map(Results.Trial::docsPerSecond).filter(Objects::nonNull).toList();
        return new Results.Cell(first.engine(), first.workload(), first.clients(), Status.VALID, "", group.size(),
                Stats.median(p50), Stats.median(p95),
                p50.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN),
                p50.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN),
                Stats.median(thr), dps.isEmpty() ? null : Stats.median(dps), backend(group),
                medianOrNull(group.stream().map(Results.Trial::cpuMsPerRequest).filter(Objects::nonNull).toList()));
    }

    /** Per figure the median over the trials that have one (gateway-overhead mode), else null. */
    static Results.BackendUse backend(List<Results.Trial> group) {
        List<Results.BackendUse> uses = group.stream().map(Results.Trial::backend).filter(Objects::nonNull).toList();
        if (uses.isEmpty()) {
            return null;
        }
        return new Results.BackendUse(uses.stream().mapToLong(Results.BackendUse::requests).sum(),
                median(uses, Results.BackendUse::backendCallsPerRequest),
                median(uses, Results.BackendUse::bytesReadPerRequest),
                median(uses, Results.BackendUse::bytesSentPerRequest),
                median(uses, Results.BackendUse::gatewayMsPerRequest),
                median(uses, Results.BackendUse::backendMsPerRequest),
                median(uses, Results.BackendUse::ownMsPerRequest),
                medianOrNull(uses.stream().map(Results.BackendUse::ownP50Ms).filter(Objects::nonNull).toList()),
                medianOrNull(uses.stream().map(Results.BackendUse::ownP95Ms).filter(Objects::nonNull).toList()));
    }

    private static Double medianOrNull(List<Double> values) {
        return values.isEmpty() ? null : Stats.median(values);
    }

    private static double median(List<Results.BackendUse> uses, ToDoubleFunction<Results.BackendUse> figure) {
        return Stats.median(uses.stream().map(u -> figure.applyAsDouble(u)).toList());
    }
}
