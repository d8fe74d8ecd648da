package io.qdrant.esgateway.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The per-request breakdown: medians per distinct request, the unexplained tail, and the comparison per request. */
class PerRequestTest {
    private static final long MS = 1_000_000;

    private static Measurement.Outcome outcome(long[] latencies, int[] keys) {
        return new Measurement.Outcome(Status.VALID, "", latencies, keys, 1);
    }

    @Test
    void mediansAreTakenPerDistinctRequestOverTrialsAndTheTailIsWhatTheRequestCostDoesNotExplain() {
        PerRequest per = new PerRequest();
        // request 0 costs ~1 ms, request 1 ~5 ms; one 1 ms request took 3 ms (tail), the 5 ms ones never exceed 10
        per.add("gw", "w", 1, outcome(new long[] {1 * MS, 5 * MS, 1 * MS, 6 * MS}, new int[] {0, 1, 0, 1}));
        per.add("gw", "w", 1, outcome(new long[] {3 * MS, 5 * MS, 1 * MS}, new int[] {0, 1, 0}));
        per.add("gw", "w", 1, new Measurement.Outcome(Status.INVALID, "wrong", new long[0], new int[0], 0));
        per.add("gw", "writes", 1, outcome(new long[] {9 * MS}, new int[] {-1}));

        List<Results.RequestCosts> costs = per.costs();

        assertThat(costs).hasSize(1);
        Results.RequestCosts c = costs.getFirst();
        assertThat(c.medianMs()).containsExactly(1.0, 5.0);
        assertThat(c.samples()).containsExactly(4, 3);
        assertThat(c.tailShare()).isCloseTo(1 / 7.0, within(1e-9));
        assertThat(PerRequest.spread(c)).containsExactly(1.0, 5.0);
    }

    @Test
    void aRequestThatWasNeverMeasuredHasNoMedian() {
        Results.RequestCosts c = PerRequest.fold("gw", "w", 8, Map.of(2, List.of(2 * MS)));
        assertThat(c.medianMs()).containsExactly(null, null, 2.0);
        assertThat(c.samples()).containsExactly(0, 0, 1);
    }

    @Test
    void eachRequestIsComparedWithTheFasterNativeEngineOnThatRequest() {
        Results.RequestCosts gateway = new Results.RequestCosts("gw", "w", 1, List.of(1.0, 2.5, 3.0, 0.5),
                List.of(8, 8, 8, 8), 0);
        Results.RequestCosts es = new Results.RequestCosts("es", "w", 1, List.of(2.0, 1.0, 1.0, 1.0),
                List.of(8, 8, 8, 8), 0);
        Results.RequestCosts os = new Results.RequestCosts("os", "w", 1, List.of(0.5, 4.0, 2.0, 1.0),
                List.of(8, 8, 8, 8), 0);

        PerRequest.Comparison cmp = PerRequest.compare(gateway, List.of(es, os)).orElseThrow();

        // faster native per request: 0.5, 1.0, 1.0, 1.0 → the gateway is slower on 0, 1, 2
        assertThat(cmp.compared()).isEqualTo(4);
        assertThat(cmp.slower()).isEqualTo(3);
        assertThat(cmp.worst()).extracting(PerRequest.Worst::request).containsExactly(2, 1, 0);
        assertThat(cmp.worst()).extracting(PerRequest.Worst::ratio).containsExactly(3.0, 2.5, 2.0);
        assertThat(PerRequest.compare(gateway, List.of())).isEmpty();
    }

    @Test
    void theReportShowsTheBreakdownPerConcurrencyLevel() {
        Results.RequestCosts gateway = new Results.RequestCosts("gateway", "terms", 1, List.of(1.0, 4.0),
                List.of(4, 4), 0.25);
        Results.RequestCosts es = new Results.RequestCosts("elasticsearch", "terms", 1, List.of(2.0, 1.0),
                List.of(4, 4), 0.0);
        List<Results.EngineFacts> engines = List.of(
                new Results.EngineFacts("gateway", "gateway", false, "u", "v", null, null, null, null, null, List.of()),
                new Results.EngineFacts("elasticsearch", "elasticsearch", true, "u", "v", null, null, null, null, null,
                        List.of()));
        Results r = new Results(Map.of("clients", List.of(1)), Map.of(), engines, Map.of("terms", "t"), List.of(),
                List.of(), List.of(gateway, es));

        String md = MarkdownReport.render(r);

        assertThat(md).contains("## Latency per distinct request")
                .contains("| terms | gateway | 1.00 / 4.00 | 25.0 % | 1 of 2 | #1 4.00×, #0 0.50× |")
                .contains("| terms | elasticsearch | 1.00 / 2.00 | 0.0 % | – | – |");
    }
}
