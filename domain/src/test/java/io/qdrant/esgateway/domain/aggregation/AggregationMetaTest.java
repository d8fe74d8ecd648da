package io.qdrant.esgateway.domain.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code meta} lands first under the aggregation's name, in every bucket for sub-aggregations, nowhere else. */
class AggregationMetaTest {

    private static String apply(String body, String rendered) {
        return Json.write(AggregationMeta.of(Optional.of(Json.parse(body))).apply((JsonObject) Json.parse(rendered)));
    }

    @Test
    void topLevelMetaComesFirst() {
        assertThat(apply("{\"aggs\":{\"a\":{\"max\":{\"field\":\"n\"},\"meta\":{\"x\":1}},\"b\":{\"min\":{\"field\":\"n\"}}}}",
                "{\"a\":{\"value\":3.0},\"b\":{\"value\":1.0}}"))
                .isEqualTo("{\"a\":{\"meta\":{\"x\":1},\"value\":3.0},\"b\":{\"value\":1.0}}");
    }

    @Test
    void subAggregationMetaInEveryBucketOfArraysAndKeyedObjects() {
        String body = "{\"aggregations\":{\"t\":{\"terms\":{\"field\":\"k\"},\"aggs\":{\"s\":{\"sum\":{\"field\":\"n\"},"
                + "\"meta\":{\"u\":\"n\"}}}},\"r\":{\"range\":{\"field\":\"n\"},\"aggs\":{\"f\":{\"filter\":{},"
                + "\"aggs\":{\"c\":{\"value_count\":{\"field\":\"n\"},\"meta\":{}}}}}}}}";
        assertThat(apply(body, "{\"t\":{\"buckets\":[{\"key\":\"a\",\"doc_count\":1,\"s\":{\"value\":1.0}},"
                + "{\"key\":\"b\",\"doc_count\":1,\"s\":{\"value\":2.0}}]},"
                + "\"r\":{\"buckets\":{\"*-3.0\":{\"doc_count\":2,\"f\":{\"doc_count\":1,\"c\":{\"value\":1}}}}}}"))
                .isEqualTo("{\"t\":{\"buckets\":[{\"key\":\"a\",\"doc_count\":1,\"s\":{\"meta\":{\"u\":\"n\"},\"value\":1.0}},"
                        + "{\"key\":\"b\",\"doc_count\":1,\"s\":{\"meta\":{\"u\":\"n\"},\"value\":2.0}}]},"
                        + "\"r\":{\"buckets\":{\"*-3.0\":{\"doc_count\":2,\"f\":{\"doc_count\":1,"
                        + "\"c\":{\"meta\":{},\"value\":1}}}}}}");
    }

    @Test
    void withoutMetaTheAnswerIsUntouched() {
        AggregationMeta none = AggregationMeta.of(Optional.of(Json.parse("{\"aggs\":{\"a\":{\"max\":{\"field\":\"n\"}}}}")));
        assertThat(none.isEmpty()).isTrue();
        JsonValue rendered = Json.parse("{\"a\":{\"value\":3.0}}");
        assertThat(none.apply((JsonObject) rendered)).isSameAs(rendered);
        assertThat(AggregationMeta.of(Optional.empty()).isEmpty()).isTrue();
    }
}
