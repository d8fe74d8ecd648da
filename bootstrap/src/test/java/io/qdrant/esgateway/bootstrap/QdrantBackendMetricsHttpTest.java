package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.adapter.out.qdrant.FakeQdrant;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Qdrant backend's calls on {@code /metrics}: per operation (a path template, never a collection name) and
 * status, the call count equals what the (spec-checked) fake Qdrant received, and bytes read from Qdrant grow with
 * the page the gateway asked for.
 */
class QdrantBackendMetricsHttpTest {
    @Test
    void backendCallsBytesAndLatencyAreOnTheMetricsEndpoint(@TempDir Path data) {
        try (FakeQdrant qdrant = new FakeQdrant();
             RunningGateway gateway = RunningGateway.start(data, "QEG_BACKEND", "qdrant", "QEG_QDRANT_URL",
                     qdrant.uri().toString(), "QEG_QDRANT_POOL_SIZE", "3")) {
            EsClient es = gateway.client;
            assertThat(es.put("/items", json("{'mappings':{'properties':{'n':{'type':'integer'}}}}")).status())
                    .isEqualTo(200);
            StringBuilder bulk = new StringBuilder();
            for (int i = 1; i <= 30; i++) {
                bulk.append("{\"index\":{\"_index\":\"items\",\"_id\":\"").append(i).append("\"}}\n{\"n\":").append(i)
                        .append(",\"pad\":\"").append("x".repeat(50)).append("\"}\n");
            }
            assertThat(es.send("POST", "/_bulk?refresh=true", bulk.toString(), "application/x-ndjson").status())
                    .isEqualTo(200);
            String before = es.get("/metrics").body();
            assertThat(es.post("/items/_search", json("{'size':2,'sort':[{'n':'asc'}]}")).status()).isEqualTo(200);
            String small = es.get("/metrics").body();
            assertThat(es.post("/items/_search", json("{'size':20,'sort':[{'n':'asc'}]}")).status()).isEqualTo(200);
            String large = es.get("/metrics").body();

            // a field-sorted page is an order_by query on Qdrant's query API
            String scroll = "operation=\"POST /collections/{name}/points/query\"";
            assertThat(qdrant.requests("POST", "/points/query")).isNotEmpty();
            assertThat(sum(large, "qeg_backend_requests_total", scroll, "status=\"200\""))
                    .isEqualTo(qdrant.requests("POST", "/points/query").size());
            assertThat(sum(large, "qeg_backend_requests_total", "operation=\"PUT /collections/{name}\""))
                    .isEqualTo(1);
            assertThat(sum(large, "qeg_backend_request_seconds_count", scroll))
                    .isEqualTo(qdrant.requests("POST", "/points/query").size());
            assertThat(sum(large, "qeg_backend_request_seconds_sum", scroll)).isPositive();
            assertThat(sum(large, "qeg_backend_bytes_sent_total", "operation=\"POST /collections/{name}/points/batch\""))
                    .isGreaterThan(30 * 50);
            double smallPage = sum(small, "qeg_backend_bytes_received_total") - sum(before,
                    "qeg_backend_bytes_received_total");
            double largePage = sum(large, "qeg_backend_bytes_received_total") - sum(small,
                    "qeg_backend_bytes_received_total");
            assertThat(smallPage).isPositive();
            assertThat(largePage).as("20 hits read more than 2").isGreaterThan(smallPage + 18 * 50);
            assertThat(large).doesNotContain("qeg-items");
            // the own time of each search is its time minus its time in Qdrant calls: below its whole time
            String search = "api=\"search\"";
            assertThat(sum(large, "qeg_request_own_seconds_count", search) - sum(before,
                    "qeg_request_own_seconds_count", search)).isEqualTo(2);
            double whole = sum(large, "es_requests_seconds_sum", search) - sum(before, "es_requests_seconds_sum",
                    search);
            double own = sum(large, "qeg_request_own_seconds_sum", search) - sum(before,
                    "qeg_request_own_seconds_sum", search);
            double inQdrant = sum(large, "qeg_backend_request_seconds_sum", scroll) - sum(before,
                    "qeg_backend_request_seconds_sum", scroll);
            assertThat(own).isPositive().isLessThan(whole).isLessThanOrEqualTo(whole - inQdrant + 1e-3);
            assertThat(large).contains("qeg_request_own_seconds_bucket{api=\"search\",le=\"1.0E-4\"}");
            assertThat(qdrant.violations).isEmpty();
        }
    }

    /** The sum of every sample of {@code metric} whose labels contain all of {@code labels}. */
    static double sum(String prometheus, String metric, String... labels) {
        double total = 0;
        for (String line : prometheus.split("\n")) {
            if (!line.startsWith(metric + "{") && !line.startsWith(metric + " ")) {
                continue;
            }
            boolean all = true;
            for (String label : labels) {
                all &= line.contains(label);
            }
            if (all) {
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }
}
