package io.qdrant.esgateway.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SummaryTest {
    private static Results.Trial valid(int trial, String engine, double p50, double p95) {
        return new Results.Trial(trial, 1, engine, "w", 1, Status.VALID, "", 100, p50, p95, 1000 / p50, null);
    }

    @Test
    void mediansOfTrialPercentilesAndTheRangeOfTrialMedians() {
        Results.Cell cell = Summary.cell(List.of(valid(1, "g", 3, 9), valid(2, "g", 1, 5), valid(3, "g", 2, 7)));
        assertThat(cell.status()).isEqualTo(Status.VALID);
        assertThat(cell.p50Ms()).isEqualTo(2);
        assertThat(cell.p95Ms()).isEqualTo(7);
        assertThat(cell.p50MinMs()).isEqualTo(1);
        assertThat(cell.p50MaxMs()).isEqualTo(3);
        assertThat(cell.trials()).isEqualTo(3);
        assertThat(cell.cpuMsPerRequest()).isNull();
    }

    @Test
    void theEngineCpuPerRequestIsTheMedianOfTheTrialsThatHaveOne() {
        Results.Cell cell = Summary.cell(List.of(valid(1, "g", 3, 9).withCpu(0.4), valid(2, "g", 1, 5).withCpu(0.2),
                valid(3, "g", 2, 7).withCpu(0.9), valid(4, "g", 2, 7)));
        assertThat(cell.cpuMsPerRequest()).isEqualTo(0.4);
    }

    @Test
    void oneInvalidTrialMakesTheCellInvalidWithoutTimings() {
        Results.Trial wrong = new Results.Trial(2, 1, "g", "w", 1, Status.INVALID, "wrong answer at /hits/0/_id", 0,
                null, null, null, null);
        Results.Cell cell = Summary.cell(List.of(valid(1, "g", 3, 9), wrong, valid(3, "g", 2, 7)));
        assertThat(cell.status()).isEqualTo(Status.INVALID);
        assertThat(cell.detail()).isEqualTo("trial 2: wrong answer at /hits/0/_id");
        assertThat(cell.p50Ms()).isNull();
    }

    @Test
    void ratiosAreAgainstTheFastestValidNativeEngine() {
        List<Results.Trial> trials = List.of(valid(1, "gateway", 4, 8), valid(1, "es", 2, 10), valid(1, "os", 5, 6));
        List<Results.EngineFacts> engines = List.of(
                new Results.EngineFacts("gateway", "gateway", false, "", "", null, null, null, null, null, List.of()),
                new Results.EngineFacts("es", "elasticsearch", true, "", "", null, null, null, null, null, List.of()),
                new Results.EngineFacts("os", "opensearch", true, "", "", null, null, null, null, null, List.of()));
        Results results = new Results(Map.of(), Map.of(), engines, Map.of("w", "t"), trials,
                Summary.cells(trials));
        Results.Cell gateway = Ratios.cell(results, "gateway", "w", 1).orElseThrow();
        assertThat(Ratios.ratio(results, gateway, false)).contains(2.0);
        assertThat(Ratios.ratio(results, gateway, true)).hasValueSatisfying(r -> assertThat(r).isEqualTo(8 / 6.0));
    }
}
