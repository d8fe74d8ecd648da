package io.qdrant.esgateway.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The per-cell p50 / p95 of the gateway's own time, from its histogram's buckets before and after a cell. */
class OwnTimeHistogramTest {

    /** A scrape with the buckets (s) 0.00005, 0.0001, 0.0002 and +Inf, cumulative counts as given. */
    static String scrape(double search50, double search100, double search200, double searchInf, double scrapes) {
        return """
                # TYPE qeg_request_own_seconds histogram
                qeg_request_own_seconds_bucket{api="search",le="5.0E-5"} %s
                qeg_request_own_seconds_bucket{api="search",le="1.0E-4"} %s
                qeg_request_own_seconds_bucket{api="search",le="2.0E-4"} %s
                qeg_request_own_seconds_bucket{api="search",le="+Inf"} %s
                qeg_request_own_seconds_count{api="search"} %s
                qeg_request_own_seconds_bucket{api="get",le="5.0E-5"} 1
                qeg_request_own_seconds_bucket{api="get",le="1.0E-4"} 1
                qeg_request_own_seconds_bucket{api="get",le="2.0E-4"} 1
                qeg_request_own_seconds_bucket{api="get",le="+Inf"} 1
                qeg_request_own_seconds_bucket{api="gateway.metrics",le="5.0E-5"} 0
                qeg_request_own_seconds_bucket{api="gateway.metrics",le="1.0E-4"} 0
                qeg_request_own_seconds_bucket{api="gateway.metrics",le="2.0E-4"} %s
                qeg_request_own_seconds_bucket{api="gateway.metrics",le="+Inf"} %s
                """.formatted(search50, search100, search200, searchInf, searchInf, scrapes, scrapes);
    }

    @Test
    void theP50AndP95AreTakenFromTheCellsBucketsOnly() {
        // before the cell: 10 fast searches (and one get) that must not count
        GatewayMetrics before = GatewayMetrics.parse(scrape(10, 10, 10, 10, 3));
        // the cell: 100 searches, 30 at <= 50 µs, 30 in (50, 100], 35 in (100, 200], 5 above 200 µs
        GatewayMetrics after = GatewayMetrics.parse(scrape(40, 70, 105, 110, 4));
        OwnTimeHistogram cell = after.own().since(before.own());
        assertThat(cell.count()).isEqualTo(100);
        // rank 50 falls in (50, 100] µs: the bucket's upper bound
        assertThat(cell.quantileMs(0.50)).isCloseTo(0.1, within(1e-12));
        // rank 30 is the last of the first bucket
        assertThat(cell.quantileMs(0.30)).isCloseTo(0.05, within(1e-12));
        assertThat(cell.quantileMs(0.95)).isCloseTo(0.2, within(1e-12));
        // rank 96 is beyond the last finite bound: no figure rather than a made-up one
        assertThat(cell.quantileMs(0.96)).isNull();

        Results.BackendUse use = after.perRequestSince(before, 100);
        assertThat(use.ownP50Ms()).isCloseTo(0.1, within(1e-12));
        assertThat(use.ownP95Ms()).isCloseTo(0.2, within(1e-12));
    }

    @Test
    void twoReplicasScrapesAddUpBucketByBucketAndTotalByTotal() {
        // replica a: 10 searches at <= 50 µs; replica b: 10 searches in (100, 200] µs (one get each)
        GatewayMetrics a = GatewayMetrics.parse(scrape(10, 10, 10, 10, 1)
                + "qeg_backend_requests_total{operation=\"x\"} 20\nes_requests_seconds_sum{api=\"search\"} 0.5\n");
        GatewayMetrics b = GatewayMetrics.parse(scrape(0, 0, 10, 10, 1)
                + "qeg_backend_requests_total{operation=\"x\"} 30\nes_requests_seconds_sum{api=\"search\"} 1.5\n");
        GatewayMetrics both = a.plus(b);
        assertThat(both.own().count()).isEqualTo(22);
        // 12 of the 22 at <= 50 µs (a's searches and both gets), the other 10 in (100, 200] µs
        assertThat(both.own().quantileMs(0.50)).isCloseTo(0.05, within(1e-12));
        assertThat(both.own().quantileMs(0.60)).isCloseTo(0.2, within(1e-12));
        assertThat(both.backendCalls()).isEqualTo(50);
        assertThat(both.gatewaySeconds()).isEqualTo(2.0);
        Results.BackendUse use = both.perRequestSince(GatewayMetrics.parse(""), 50);
        assertThat(use.backendCallsPerRequest()).isEqualTo(1.0);
    }

    @Test
    void withoutTheMetricThereIsNoPercentile() {
        GatewayMetrics none = GatewayMetrics.parse("es_requests_seconds_count{api=\"search\"} 5\n");
        assertThat(none.own().count()).isZero();
        assertThat(none.perRequestSince(none, 5).ownP50Ms()).isNull();
    }

    @Test
    void summaryTakesTheMedianOfTheTrialsPercentiles() {
        java.util.List<Results.Trial> trials = java.util.stream.IntStream.of(1, 2, 3).mapToObj(t -> new Results.Trial(
                t, 1, "g", "get", 1, Status.VALID, "", 10, 1.0, 2.0, 100.0, null,
                new Results.BackendUse(10, 1, 1, 1, 1, 1, 0, 0.05 * t, 0.1 * t))).toList();
        Results.BackendUse median = Summary.backend(trials);
        assertThat(median.ownP50Ms()).isCloseTo(0.10, within(1e-12));
        assertThat(median.ownP95Ms()).isCloseTo(0.20, within(1e-12));
    }
}
