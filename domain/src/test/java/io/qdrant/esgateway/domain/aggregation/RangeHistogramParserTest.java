package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.parse.AggregationParser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.Json;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RangeHistogramParserTest {
    private static Aggregation parse(String json) {
        Map<String, Aggregation> aggs = AggregationParser.parse(Json.parse(json));
        return aggs.values().iterator().next();
    }

    private static ErrorKind kindOf(String json) {
        try {
            parse(json);
        } catch (GatewayException e) {
            return e.kind();
        }
        throw new AssertionError("accepted: " + json);
    }

    @Test
    void parsesEveryOption() {
        HistogramAggregation h = (HistogramAggregation) parse("""
                {"h":{"histogram":{"field":"n","interval":"2.5","offset":1,"min_doc_count":3,"keyed":true,
                 "extended_bounds":{"min":0,"max":10},"hard_bounds":{"min":-5},"order":{"_count":"asc"},
                 "missing":4,"format":"0.0"},"aggs":{"m":{"max":{"field":"n"}}}}}""");
        assertThat(h.interval()).isEqualTo(2.5);
        assertThat(h.offset()).isEqualTo(1);
        assertThat(h.minDocCount()).isEqualTo(3);
        assertThat(h.hardMin()).contains(-5.0);
        assertThat(h.hardMax()).isEmpty();
        assertThat(h.order()).isEqualTo(new Aggregation.TermsOrder("_count", true));
        assertThat(h.subs()).containsKey("m");
        CompositeAggregation c = (CompositeAggregation) parse("""
                {"c":{"composite":{"size":5,"after":{"a":"x","b":1},"sources":[{"a":{"terms":{"field":"brand",
                 "order":"desc","missing_bucket":true,"missing_order":"first"}}},{"b":{"date_histogram":{
                 "field":"d","fixed_interval":"90m","time_zone":"+01:00","offset":"-1h","format":"yyyy"}}}]}}}""");
        assertThat(c.sources()).extracting(CompositeAggregation.Source::name).containsExactly("a", "b");
        assertThat(c.sources().get(0).missingFirst()).isTrue();
        assertThat(c.sources().get(1).rounding()).isNotNull();
        RangeAggregation r = (RangeAggregation) parse("""
                {"r":{"date_range":{"field":"d","time_zone":"Europe/Paris","ranges":[{"from":"now-1d/d","key":"k"},
                 {"to":null}]}}}""");
        assertThat(r.ranges()).hasSize(2);
        assertThat(r.ranges().get(1).to()).isEmpty();
    }

    @Test
    void refusesWhatElasticsearchRefusesWhileParsing() {
        assertThat(kindOf("{\"h\":{\"histogram\":{\"field\":\"n\",\"interval\":1,\"colour\":1}}}"))
                .isEqualTo(ErrorKind.X_CONTENT_PARSE);
        assertThat(kindOf("{\"r\":{\"range\":{\"field\":\"n\",\"time_zone\":\"UTC\",\"ranges\":[]}}}"))
                .isEqualTo(ErrorKind.X_CONTENT_PARSE);
        assertThat(kindOf("{\"h\":{\"date_histogram\":{\"field\":\"d\",\"interval\":\"day\"}}}"))
                .isEqualTo(ErrorKind.X_CONTENT_PARSE);
        assertThat(kindOf("{\"h\":{\"date_histogram\":{\"field\":\"d\",\"calendar_interval\":\"3M\"}}}"))
                .isEqualTo(ErrorKind.X_CONTENT_PARSE);
        assertThat(kindOf("{\"c\":{\"composite\":{\"sources\":[{\"a\":{\"terms\":{\"field\":\"x\"}}},"
                + "{\"a\":{\"terms\":{\"field\":\"y\"}}}]}}}")).isEqualTo(ErrorKind.X_CONTENT_PARSE);
        assertThat(kindOf("{\"c\":{\"composite\":{\"sources\":[{\"a\":{\"terms\":{\"field\":\"x\","
                + "\"missing_order\":\"middle\"}}}]}}}")).isEqualTo(ErrorKind.X_CONTENT_PARSE);
        assertThat(kindOf("{\"h\":{\"date_histogram\":{\"field\":\"d\",\"calendar_interval\":\"day\","
                + "\"script\":\"x\"}}}")).isEqualTo(ErrorKind.UNSUPPORTED);
        assertThat(kindOf("{\"r\":{\"date_range\":{\"field\":\"d\",\"ranges\":[],\"script\":\"x\"}}}"))
                .isEqualTo(ErrorKind.UNSUPPORTED);
    }

    @Test
    void leavesPerIndexChecksToThePlan() {
        // Elasticsearch reports these as shard failures: the parser accepts them, the plan of each index refuses
        assertThat(parse("{\"h\":{\"histogram\":{\"field\":\"n\"}}}")).isInstanceOf(HistogramAggregation.class);
        assertThat(parse("{\"h\":{\"date_histogram\":{\"field\":\"d\"}}}"))
                .isInstanceOf(DateHistogramAggregation.class);
        assertThat(parse("{\"r\":{\"range\":{\"field\":\"n\"}}}")).isInstanceOf(RangeAggregation.class);
        assertThatThrownBy(() -> AggregationPlan.of("i", AggregationParser.parse(Json.parse(
                "{\"c\":{\"composite\":{\"after\":{\"b\":1},"
                        + "\"sources\":[{\"a\":{\"terms\":{\"field\":\"n\"}}}]}}}")),
                PartitionedReduceTest.MAPPINGS, System::currentTimeMillis)).hasMessage("Missing value for [after.a]");
        assertThatThrownBy(() -> AggregationPlan.of("i", AggregationParser.parse(Json.parse(
                "{\"r\":{\"range\":{\"field\":\"n\"}}}")), PartitionedReduceTest.MAPPINGS, System::currentTimeMillis))
                .hasMessage("No [ranges] specified for the [r] aggregation");
    }
}
