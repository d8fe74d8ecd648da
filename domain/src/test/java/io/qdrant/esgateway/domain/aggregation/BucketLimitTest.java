package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.parse.AggregationParser;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BucketLimitTest {
    private static final String HISTOGRAM = "{\"histogram\":{\"field\":\"n\",\"interval\":1}}";
    private static final String FILLED_HISTOGRAM = "{\"histogram\":{\"field\":\"n\",\"interval\":1,\"min_doc_count\":0}}";

    /** {@code n} buckets, the first {@code filled} with one document, the rest empty, each holding {@code inner}. */
    private static String buckets(int n, int filled, String inner) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : ",").append("{\"key\":").append(i).append(".0,\"doc_count\":")
                    .append(i < filled ? 1 : 0).append(inner.isEmpty() ? "" : "," + inner).append('}');
        }
        return b.append(']').toString();
    }

    private static Map<String, Aggregation> aggs(String json) {
        return AggregationParser.parse(Json.parse(json));
    }

    private static JsonObject check(String answer, String request) {
        return BucketLimit.check((JsonObject) Json.parse(answer), aggs(request));
    }

    private static void assertTooMany(String answer, String request) {
        assertThatThrownBy(() -> check(answer, request))
                .satisfies(e -> assertThat(((GatewayException) e).kind()).isEqualTo(ErrorKind.SEARCH_PHASE_EXECUTION))
                .satisfies(e -> assertThat(((GatewayException) e).gatewayCause().kind())
                        .isEqualTo(ErrorKind.TOO_MANY_BUCKETS))
                .satisfies(e -> assertThat(((GatewayException) e).gatewayCause().getMessage())
                        .contains("Must be less than or equal to: [65536]"));
    }

    @Test
    void theLimitItselfPassesAndOneMoreFails() {
        String request = "{\"h\":" + HISTOGRAM + "}";
        assertThat(check("{\"h\":{\"buckets\":" + buckets(65_536, 65_536, "") + "}}", request).members())
                .containsKey("h");
        assertTooMany("{\"h\":{\"buckets\":" + buckets(65_537, 65_537, "") + "}}", request);
        // typed keys name the same answer
        assertTooMany("{\"histogram#h\":{\"buckets\":" + buckets(65_537, 65_537, "") + "}}", request);
    }

    @Test
    void emptyBucketsAddedByAHistogramCountAsElasticsearchReportsThem() {
        // measured on Elasticsearch 8.15: 2 filled buckets and 35,534 empty ones pass, one more empty one fails
        String request = "{\"h\":" + FILLED_HISTOGRAM + "}";
        assertThat(check("{\"h\":{\"buckets\":" + buckets(35_536, 2, "") + "}}", request).members()).hasSize(1);
        assertTooMany("{\"h\":{\"buckets\":" + buckets(35_537, 2, "") + "}}", request);
    }

    @Test
    void bucketsOfEveryAggregationAtEveryDepthCountTogether() {
        // two sibling histograms of 40,000 buckets: each under the limit, together over it
        assertTooMany("{\"a\":{\"buckets\":" + buckets(40_000, 40_000, "") + "},\"b\":{\"buckets\":"
                + buckets(40_000, 40_000, "") + "}}", "{\"a\":" + HISTOGRAM + ",\"b\":" + HISTOGRAM + "}");
        // two terms buckets each with a filled histogram of 16,385 (passes, as in ES) or 20,001 buckets (fails)
        String terms = "{\"t\":{\"terms\":{\"field\":\"k\"},\"aggs\":{\"h\":" + FILLED_HISTOGRAM + "}}}";
        assertThat(check("{\"t\":{\"buckets\":[{\"key\":\"a\",\"doc_count\":1,\"h\":{\"buckets\":"
                + buckets(16_385, 1, "") + "}},{\"key\":\"b\",\"doc_count\":1,\"h\":{\"buckets\":"
                + buckets(16_385, 1, "") + "}}]}}", terms).members()).hasSize(1);
        assertTooMany("{\"t\":{\"buckets\":[{\"key\":\"a\",\"doc_count\":1,\"h\":{\"buckets\":"
                + buckets(20_001, 1, "") + "}},{\"key\":\"b\",\"doc_count\":1,\"h\":{\"buckets\":"
                + buckets(20_001, 1, "") + "}}]}}", terms);
        // through a single-bucket aggregation (filter) and keyed buckets (filters)
        String keyed = "{\"k1\":{\"doc_count\":1,\"h\":{\"buckets\":" + buckets(33_000, 33_000, "") + "}},"
                + "\"k2\":{\"doc_count\":1,\"h\":{\"buckets\":" + buckets(33_000, 33_000, "") + "}}}";
        assertTooMany("{\"f\":{\"doc_count\":2,\"fs\":{\"buckets\":" + keyed + "}}}",
                "{\"f\":{\"filter\":{\"match_all\":{}},\"aggs\":{\"fs\":{\"filters\":{\"filters\":{"
                        + "\"k1\":{\"match_all\":{}},\"k2\":{\"match_all\":{}}}},\"aggs\":{\"h\":" + HISTOGRAM + "}}}}}");
    }

    @Test
    void metricsCountNothingWhateverTheyHold() {
        // a top_hits answer whose sources hold "buckets", a sub-aggregation named "buckets" under a filter
        assertThat(check("{\"f\":{\"doc_count\":3,\"buckets\":{\"value\":1}},"
                + "\"top\":{\"hits\":{\"total\":{\"value\":1,\"relation\":\"eq\"},\"hits\":[{\"_source\":{"
                + "\"buckets\":" + buckets(70_000, 70_000, "") + "}}]}}}", "{\"f\":{\"filter\":{\"match_all\":{}},"
                + "\"aggs\":{\"buckets\":{\"max\":{\"field\":\"n\"}}}},\"top\":{\"top_hits\":{}}}").members())
                .hasSize(2);
    }
}
