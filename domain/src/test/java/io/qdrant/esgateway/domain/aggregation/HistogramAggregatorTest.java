package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.parse.AggregationParser;

import static io.qdrant.esgateway.domain.aggregation.RangeAggregatorTest.render;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class HistogramAggregatorTest {
    private static final List<MemoryDoc> DOCS = List.of(new MemoryDoc("1").longs("n", -4, -3),
            new MemoryDoc("2").longs("n", 7), new MemoryDoc("3"));

    @Test
    void negativeValuesOffsetsAndFilledGaps() {
        assertThat(render("{\"h\":{\"histogram\":{\"field\":\"n\",\"interval\":5,\"offset\":2}}}", DOCS))
                .isEqualTo("{\"h\":{\"buckets\":[{\"key\":-8.0,\"doc_count\":1},{\"key\":-3.0,\"doc_count\":1},"
                        + "{\"key\":2.0,\"doc_count\":0},{\"key\":7.0,\"doc_count\":1}]}}");
        assertThat(render("{\"h\":{\"histogram\":{\"field\":\"n\",\"interval\":5,\"min_doc_count\":1,"
                + "\"order\":{\"_key\":\"desc\"}}}}", DOCS))
                .isEqualTo("{\"h\":{\"buckets\":[{\"key\":5.0,\"doc_count\":1},{\"key\":-5.0,\"doc_count\":1}]}}");
    }

    @Test
    void extendedBoundsFillEvenWithoutDocuments() {
        assertThat(render("{\"h\":{\"histogram\":{\"field\":\"n\",\"interval\":10,"
                + "\"extended_bounds\":{\"min\":-1,\"max\":10}}}}", List.of()))
                .isEqualTo("{\"h\":{\"buckets\":[{\"key\":-10.0,\"doc_count\":0},{\"key\":0.0,\"doc_count\":0},"
                        + "{\"key\":10.0,\"doc_count\":0}]}}");
    }

    @Test
    void hardBoundsDropValues() {
        assertThat(render("{\"h\":{\"histogram\":{\"field\":\"n\",\"interval\":5,"
                + "\"hard_bounds\":{\"min\":0,\"max\":10}}}}", DOCS))
                .isEqualTo("{\"h\":{\"buckets\":[{\"key\":5.0,\"doc_count\":1}]}}");
    }

    @Test
    void dateHistogramKeysAndStrings() {
        List<MemoryDoc> docs = List.of(new MemoryDoc("1").longs("d", 1_577_836_800_000L + 3_600_000L),
                new MemoryDoc("2").longs("d", 1_577_836_800_000L + 2 * 86_400_000L));
        assertThat(render("{\"h\":{\"date_histogram\":{\"field\":\"d\",\"calendar_interval\":\"day\","
                + "\"format\":\"yyyy-MM-dd\",\"keyed\":true}}}", docs))
                .isEqualTo("{\"h\":{\"buckets\":{"
                        + "\"2020-01-01\":{\"key_as_string\":\"2020-01-01\",\"key\":1577836800000,\"doc_count\":1},"
                        + "\"2020-01-02\":{\"key_as_string\":\"2020-01-02\",\"key\":1577923200000,\"doc_count\":0},"
                        + "\"2020-01-03\":{\"key_as_string\":\"2020-01-03\",\"key\":1578009600000,\"doc_count\":1}}}}");
    }

    @Test
    void dateHardBoundsAreRoundedAndLeaveOutTheMaximumsBucket() {
        long day = 86_400_000L;
        long start = 1_577_836_800_000L;
        List<MemoryDoc> docs = List.of(new MemoryDoc("1").longs("d", start + 3_600_000L),
                new MemoryDoc("2").longs("d", start + day + 1), new MemoryDoc("3").longs("d", start + 2 * day + 5));
        assertThat(render("{\"h\":{\"date_histogram\":{\"field\":\"d\",\"calendar_interval\":\"day\","
                + "\"hard_bounds\":{\"min\":\"2020-01-01T12:00:00Z\",\"max\":\"2020-01-03T01:00:00Z\"}}}}", docs))
                .isEqualTo("{\"h\":{\"buckets\":["
                        + "{\"key_as_string\":\"2020-01-01T00:00:00.000Z\",\"key\":1577836800000,\"doc_count\":1},"
                        + "{\"key_as_string\":\"2020-01-02T00:00:00.000Z\",\"key\":1577923200000,\"doc_count\":1}]}}");
    }

    @Test
    void anIndexWithoutTheFieldMergesIntoTheMappedOnesFormat() {
        Mappings unmapped = Mappings.parse(Json.parse("{\"properties\":{\"brand\":{\"type\":\"keyword\"}}}"));
        String aggs = "{\"h\":{\"date_histogram\":{\"field\":\"d\",\"calendar_interval\":\"year\"}},"
                + "\"r\":{\"range\":{\"field\":\"d\",\"ranges\":[{\"to\":1577836800000}]}}}";
        Mappings mapped = Mappings.parse(Json.parse(
                "{\"properties\":{\"d\":{\"type\":\"date\",\"format\":\"yyyy/MM/dd\"}}}"));
        NamedCollectors a = AggregationPlan.of("a", AggregationParser.parse(Json.parse(aggs)), mapped, System::currentTimeMillis).newCollectors();
        a.collect(new MemoryDoc("1").longs("d", 1_577_836_800_000L));
        NamedCollectors b = AggregationPlan.of("b", AggregationParser.parse(Json.parse(aggs)), unmapped, System::currentTimeMillis)
                .newCollectors();
        String expected = "{\"h\":{\"buckets\":[{\"key_as_string\":\"2020/01/01\",\"key\":1577836800000,"
                + "\"doc_count\":1}]},\"r\":{\"buckets\":[{\"key\":\"*-2020/01/01\",\"to\":1.5778368E12,"
                + "\"to_as_string\":\"2020/01/01\",\"doc_count\":0}]}}";
        assertThat(Json.write(b.partial().merge(a.partial()).render())).isEqualTo(expected);
        assertThat(Json.write(a.partial().merge(b.partial()).render())).isEqualTo(expected);
    }

    @Test
    void tooManyBucketsInTheFinalReduce() {
        List<MemoryDoc> docs = List.of(new MemoryDoc("1").longs("n", 0), new MemoryDoc("2").longs("n", 70_000));
        assertThatThrownBy(() -> render("{\"h\":{\"histogram\":{\"field\":\"n\",\"interval\":1}}}", docs))
                .satisfies(e -> assertThat(((GatewayException) e).kind()).isEqualTo(ErrorKind.SEARCH_PHASE_EXECUTION))
                .satisfies(e -> assertThat(((GatewayException) e).gatewayCause().kind())
                        .isEqualTo(ErrorKind.TOO_MANY_BUCKETS));
        assertThat(render("{\"h\":{\"histogram\":{\"field\":\"n\",\"interval\":2}}}", docs)).contains("70000.0");
    }

    @Test
    void termsCannotOrderByBucketAggregations() {
        assertThatThrownBy(() -> render("{\"t\":{\"terms\":{\"field\":\"brand\",\"order\":{\"h>m\":\"desc\"}},"
                + "\"aggs\":{\"h\":{\"histogram\":{\"field\":\"n\",\"interval\":1},"
                + "\"aggs\":{\"m\":{\"max\":{\"field\":\"n\"}}}}}}}", List.of()))
                .satisfies(e -> assertThat(((GatewayException) e).gatewayCause()).hasMessage("Invalid aggregation"
                        + " order path [h>m]. Can't sort by a descendant of a [histogram] aggregation [m]"));
        assertThatThrownBy(() -> render("{\"t\":{\"terms\":{\"field\":\"brand\",\"order\":{\"c\":\"desc\"}},"
                + "\"aggs\":{\"c\":{\"composite\":{\"sources\":[{\"b\":{\"terms\":{\"field\":\"brand\"}}}]}}}}}",
                List.of()))
                .satisfies(e -> assertThat(((GatewayException) e).gatewayCause()).hasMessage("Invalid aggregation"
                        + " order path [c]. Can't sort a [composite] aggregation [c]"));
    }

    @Test
    void badOptionsAreRefused() {
        assertThatThrownBy(() -> render("{\"h\":{\"histogram\":{\"field\":\"n\"}}}", List.of()))
                .hasMessage("interval must be positive, got: 0.0");
        assertThatThrownBy(() -> render("{\"h\":{\"histogram\":{\"field\":\"n\",\"interval\":-1}}}", List.of()))
                .satisfies(e -> assertThat(((GatewayException) e).kind()).isEqualTo(ErrorKind.X_CONTENT_PARSE))
                .hasMessage("[histogram] failed to parse field [interval]");
        assertThatThrownBy(() -> render("{\"h\":{\"histogram\":{\"field\":\"n\",\"interval\":1,"
                + "\"hard_bounds\":{\"min\":0},\"extended_bounds\":{\"min\":-5}}}}", List.of()))
                .hasMessage("Extended bounds have to be inside hard bounds, hard bounds: [0.0--null], extended"
                        + " bounds: [-5.0--null]");
        assertThatThrownBy(() -> render("{\"h\":{\"date_histogram\":{\"field\":\"d\"}}}", List.of()))
                .hasMessage("Invalid interval specified, must be non-null and non-empty");
        assertThatThrownBy(() -> render("{\"h\":{\"date_histogram\":{\"field\":\"d\",\"calendar_interval\":\"day\","
                + "\"fixed_interval\":\"1d\"}}}", List.of()))
                .hasMessage("[date_histogram] failed to parse field [fixed_interval]")
                .cause().hasMessage("Cannot use [fixed_interval] with [calendar_interval] configuration option.");
    }
}
