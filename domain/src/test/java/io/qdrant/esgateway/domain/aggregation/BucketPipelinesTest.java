package io.qdrant.esgateway.domain.aggregation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.aggregation.parse.AggregationParser;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code bucket_script} and {@code bucket_selector} over a rendered answer. */
class BucketPipelinesTest {
    private static final String RENDERED = "{\"t\":{\"buckets\":[{\"key\":\"a\",\"doc_count\":2,\"m\":{\"value\":7.0},"
            + "\"st\":{\"count\":3,\"avg\":4.0},\"f\":{\"doc_count\":1,\"x\":{\"value\":5.0}}},"
            + "{\"key\":\"b\",\"doc_count\":1,\"m\":{\"value\":null},\"st\":{\"count\":0,\"avg\":null},"
            + "\"f\":{\"doc_count\":0,\"x\":{\"value\":null}}}]}}";

    private static String run(String subs, boolean typed) {
        String body = "{\"aggs\":{\"t\":{\"terms\":{\"field\":\"brand\"},\"aggs\":{\"m\":{\"max\":{\"field\":\"n\"}},"
                + "\"st\":{\"stats\":{\"field\":\"n\"}},\"f\":{\"filter\":{\"match_all\":{}},\"aggs\":{\"x\":{\"max\":"
                + "{\"field\":\"n\"}}}}," + subs + "}}}}";
        JsonValue parsed = Json.parse(body);
        // the parser accepts the pipelines and leaves them out of the computed aggregations
        assertThat(AggregationParser.parse(((JsonValue.JsonObject) parsed).get("aggs")).get("t").subs())
                .containsOnlyKeys("m", "st", "f");
        String rendered = typed ? RENDERED.replace("\"t\":", "\"sterms#t\":") : RENDERED;
        return Json.write(BucketPipelines.of(Optional.of(parsed)).apply((JsonValue.JsonObject) Json.parse(rendered),
                typed, id -> "params.c + 1000"));
    }

    @Test
    void bucketScriptAddsTheValueAndSkipsBucketsWithAGap() {
        assertThat(run("\"bs\":{\"bucket_script\":{\"buckets_path\":{\"c\":\"_count\",\"m\":\"m\",\"a\":\"st.avg\","
                + "\"x\":\"f>x\"},\"script\":\"params.c * 100 + params.m + params.a + params.x\",\"format\":\"0.0\"}}",
                false)).isEqualTo("{\"t\":{\"buckets\":[{\"key\":\"a\",\"doc_count\":2,\"m\":{\"value\":7.0},"
                + "\"st\":{\"count\":3,\"avg\":4.0},\"f\":{\"doc_count\":1,\"x\":{\"value\":5.0}},"
                + "\"bs\":{\"value\":216.0,\"value_as_string\":\"216.0\"}},"
                + "{\"key\":\"b\",\"doc_count\":1,\"m\":{\"value\":null},\"st\":{\"count\":0,\"avg\":null},"
                + "\"f\":{\"doc_count\":0,\"x\":{\"value\":null}}}]}}");
    }

    @Test
    void insertZerosAndStoredScriptsAndTypedKeys() {
        assertThat(run("\"z\":{\"bucket_script\":{\"buckets_path\":{\"c\":\"m\"},\"script\":{\"id\":\"s\"},"
                + "\"gap_policy\":\"insert_zeros\"}}", true))
                .contains("\"simple_value#z\":{\"value\":1007.0}").contains("\"simple_value#z\":{\"value\":1000.0}");
    }

    @Test
    void bucketSelectorDropsTheBucketsItRefuses() {
        assertThat(run("\"keep\":{\"bucket_selector\":{\"buckets_path\":{\"c\":\"_count\"},"
                + "\"script\":\"params.c > 1\"}}", false))
                .contains("\"key\":\"a\"").doesNotContain("\"key\":\"b\"");
    }

    @Test
    void theParserChecksPipelinesAsElasticsearch() {
        assertThatThrownBy(() -> AggregationParser.parse(Json.parse("{\"bs\":{\"bucket_script\":{\"buckets_path\":"
                + "{\"c\":\"_count\"},\"script\":\"1\"}}}")))
                .isInstanceOfSatisfying(GatewayException.class, e ->
                        assertThat(e.kind()).isEqualTo(ErrorKind.ACTION_REQUEST_VALIDATION))
                .hasMessage("Validation Failed: 1: bucket_script aggregation [bs] must be declared inside of another"
                        + " aggregation;");
        assertThatThrownBy(() -> AggregationParser.parse(Json.parse("{\"t\":{\"terms\":{\"field\":\"brand\"},"
                + "\"aggs\":{\"bs\":{\"bucket_script\":{\"buckets_path\":{\"c\":\"nope\"},\"script\":\"1\"}}}}}")))
                .hasMessage("Validation Failed: 1: No aggregation found for path [nope];");
        assertThatThrownBy(() -> AggregationParser.parse(Json.parse("{\"t\":{\"terms\":{\"field\":\"brand\"},"
                + "\"aggs\":{\"bs\":{\"bucket_script\":{\"buckets_path\":{\"c\":\"_count\"}}}}}}")))
                .hasMessageContaining("[script]");
        assertThatThrownBy(() -> AggregationParser.parse(Json.parse("{\"f\":{\"filter\":{\"match_all\":{}},"
                + "\"aggs\":{\"bs\":{\"bucket_script\":{\"buckets_path\":{\"c\":\"_count\"},\"script\":\"1\"}}}}}")))
                .isInstanceOfSatisfying(GatewayException.class, e ->
                        assertThat(e.kind()).isEqualTo(ErrorKind.UNSUPPORTED));
    }
}
