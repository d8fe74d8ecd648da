package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.parse.AggregationParser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatsAggregatorTest {
    static JsonValue run(String aggs, List<MemoryDoc> docs) {
        AggregationPlan plan = AggregationPlan.of("idx", AggregationParser.parse(Json.parse(aggs)),
                PartitionedReduceTest.MAPPINGS, System::currentTimeMillis);
        return Reduction.onePass(plan, docs);
    }

    @Test
    void statsOfMultiValuedDocumentsWithMissing() {
        List<MemoryDoc> docs = List.of(new MemoryDoc("1").longs("n", 1, 3), new MemoryDoc("2").longs("n", 8),
                new MemoryDoc("3"));
        assertThat(Json.write(run("{\"s\":{\"stats\":{\"field\":\"n\"}},\"m\":{\"stats\":{\"field\":\"n\","
                + "\"missing\":-4}}}", docs))).isEqualTo("{\"s\":{\"count\":3,\"min\":1.0,\"max\":8.0,\"avg\":4.0,"
                + "\"sum\":12.0},\"m\":{\"count\":4,\"min\":-4.0,\"max\":8.0,\"avg\":2.0,\"sum\":8.0}}");
    }

    @Test
    void extendedStatsAsElasticsearchComputesThem() {
        // the oracle's answer for [1, 2, 3, 4, 10]
        List<MemoryDoc> docs = List.of(new MemoryDoc("1").doubles("price", 1, 2), new MemoryDoc("2")
                .doubles("price", 3, 4, 10));
        assertThat(Json.write(run("{\"e\":{\"extended_stats\":{\"field\":\"price\"}}}", docs))).isEqualTo(
                "{\"e\":{\"count\":5,\"min\":1.0,\"max\":10.0,\"avg\":4.0,\"sum\":20.0,\"sum_of_squares\":130.0,"
                + "\"variance\":10.0,\"variance_population\":10.0,\"variance_sampling\":12.5,"
                + "\"std_deviation\":3.1622776601683795,\"std_deviation_population\":3.1622776601683795,"
                + "\"std_deviation_sampling\":3.5355339059327378,\"std_deviation_bounds\":{"
                + "\"upper\":10.32455532033676,\"lower\":-2.324555320336759,\"upper_population\":10.32455532033676,"
                + "\"lower_population\":-2.324555320336759,\"upper_sampling\":11.071067811865476,"
                + "\"lower_sampling\":-3.0710678118654755}}}");
    }

    @Test
    void oneValueHasNaNSamplingFiguresAndNoValuesHaveNulls() {
        String one = Json.write(run("{\"e\":{\"extended_stats\":{\"field\":\"n\"}}}",
                List.of(new MemoryDoc("1").longs("n", 1))));
        assertThat(one).contains("\"variance_sampling\":\"NaN\"", "\"variance_population\":0.0",
                "\"upper_sampling\":\"NaN\"");
        String none = Json.write(run("{\"e\":{\"extended_stats\":{\"field\":\"n\"}}}", List.of(new MemoryDoc("1"))));
        assertThat(none).startsWith("{\"e\":{\"count\":0,\"min\":null,\"max\":null,\"avg\":null,\"sum\":0.0,"
                + "\"sum_of_squares\":null").contains("\"upper\":null").doesNotContain("as_string");
    }

    @Test
    void datesAndBooleansAreFormattedAsElasticsearchFormatsThem() {
        String dates = Json.write(run("{\"s\":{\"stats\":{\"field\":\"d\"}}}",
                List.of(new MemoryDoc("1").longs("d", 1_577_836_800_000L))));
        assertThat(dates).contains("\"min_as_string\":\"2020-01-01T00:00:00.000Z\"",
                "\"sum_as_string\":\"2020-01-01T00:00:00.000Z\"");
        String flags = Json.write(run("{\"e\":{\"extended_stats\":{\"field\":\"flag\"}}}",
                List.of(new MemoryDoc("1").longs("flag", 0), new MemoryDoc("2").longs("flag", 1))));
        assertThat(flags).contains("\"min_as_string\":false", "\"avg_as_string\":true",
                "\"variance_as_string\":true", "\"std_deviation_as_string\":\"true\"");
    }

    @Test
    void keywordFieldsAreRefusedForThisIndex() {
        assertThatThrownBy(() -> run("{\"s\":{\"stats\":{\"field\":\"brand\"}}}", List.of()))
                .isInstanceOf(GatewayException.class)
                .hasMessage("Field [brand] of type [keyword] is not supported for aggregation [stats]");
    }

    @Test
    void partialsMergeTheirCompensatedSums() {
        // 1e16 + 1 + 1 loses both ones in plain double addition; the compensated partials keep them
        AggregationPlan plan = AggregationPlan.of("idx", AggregationParser.parse(Json.parse(
                "{\"s\":{\"stats\":{\"field\":\"price\"}}}")), PartitionedReduceTest.MAPPINGS, System::currentTimeMillis);
        NamedCollectors a = plan.newCollectors();
        a.collect(new MemoryDoc("1").doubles("price", 1e16));
        a.collect(new MemoryDoc("1b").doubles("price", 1));
        NamedCollectors b = plan.newCollectors();
        b.collect(new MemoryDoc("2").doubles("price", 1));
        assertThat(Json.write(a.partial().merge(b.partial()).render())).contains("\"sum\":1.0000000000000002E16");
    }

    @Test
    void singleValueMetricsTakeADateMissingAndFormatDatesAndBooleans() {
        List<MemoryDoc> docs = List.of(new MemoryDoc("1").longs("d", 0).longs("flag", 1), new MemoryDoc("2"));
        assertThat(Json.write(run("{\"mx\":{\"max\":{\"field\":\"d\",\"missing\":\"1970-01-02\"}},"
                + "\"su\":{\"sum\":{\"field\":\"d\"}},\"b\":{\"min\":{\"field\":\"flag\"}},"
                + "\"vc\":{\"value_count\":{\"field\":\"brand\",\"missing\":\"x\"}}}", docs))).isEqualTo(
                "{\"mx\":{\"value\":8.64E7,\"value_as_string\":\"1970-01-02T00:00:00.000Z\"},"
                + "\"su\":{\"value\":0.0,\"value_as_string\":\"1970-01-01T00:00:00.000Z\"},"
                + "\"b\":{\"value\":1.0,\"value_as_string\":\"true\"},\"vc\":{\"value\":2}}");
    }
}
