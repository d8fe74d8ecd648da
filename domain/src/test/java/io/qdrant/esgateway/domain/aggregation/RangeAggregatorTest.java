package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.parse.AggregationParser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class RangeAggregatorTest {
    static String render(String aggs, List<MemoryDoc> docs) {
        AggregationPlan plan = AggregationPlan.of("idx", AggregationParser.parse(Json.parse(aggs)),
                PartitionedReduceTest.MAPPINGS, System::currentTimeMillis);
        return Json.write(Reduction.onePass(plan, docs));
    }

    private static final List<MemoryDoc> DOCS = List.of(new MemoryDoc("1").longs("n", 1, 2, 7),
            new MemoryDoc("2").longs("n", -3), new MemoryDoc("3"));

    @Test
    void rangesAreSortedByBoundsAndCountEachDocumentOnce() {
        assertThat(render("""
                {"r":{"range":{"field":"n","ranges":[{"from":5},{"to":0},{"from":0,"to":5,"key":"low"}]}}}""", DOCS))
                .isEqualTo("{\"r\":{\"buckets\":[{\"key\":\"*-0.0\",\"to\":0.0,\"doc_count\":1},"
                        + "{\"key\":\"low\",\"from\":0.0,\"to\":5.0,\"doc_count\":1},"
                        + "{\"key\":\"5.0-*\",\"from\":5.0,\"doc_count\":1}]}}");
    }

    @Test
    void numericFormatsRoundHalfEven() {
        assertThat(render("""
                {"r":{"range":{"field":"n","format":"0.00","ranges":[{"from":2.125}]}},
                 "h":{"histogram":{"field":"n","interval":2.5,"format":"0","min_doc_count":1}}}""", DOCS))
                .isEqualTo("{\"r\":{\"buckets\":[{\"key\":\"2.12-*\",\"from\":2.125,\"from_as_string\":\"2.12\","
                        + "\"doc_count\":1}]},\"h\":{\"buckets\":[{\"key_as_string\":\"-5\",\"key\":-5.0,"
                        + "\"doc_count\":1},{\"key_as_string\":\"0\",\"key\":0.0,\"doc_count\":1},"
                        + "{\"key_as_string\":\"5\",\"key\":5.0,\"doc_count\":1}]}}");
    }

    @Test
    void keyedWithMissing() {
        assertThat(render("""
                {"r":{"range":{"field":"n","keyed":true,"missing":10,"ranges":[{"from":5}]}}}""", DOCS))
                .isEqualTo("{\"r\":{\"buckets\":{\"5.0-*\":{\"from\":5.0,\"doc_count\":2}}}}");
    }

    @Test
    void dateRangesParseAndRenderInTheirZone() {
        List<MemoryDoc> docs = List.of(new MemoryDoc("1").longs("d", 1_577_836_800_000L));
        assertThat(render("""
                {"r":{"date_range":{"field":"d","time_zone":"+01:00","format":"yyyy-MM-dd",
                 "ranges":[{"from":"2020-01-01","to":"2020-01-01||+1d"}]}}}""", docs))
                .isEqualTo("{\"r\":{\"buckets\":[{\"key\":\"2020-01-01-2020-01-02\",\"from\":1.5778332E12,"
                        + "\"from_as_string\":\"2020-01-01\",\"to\":1.5779196E12,\"to_as_string\":\"2020-01-02\","
                        + "\"doc_count\":1}]}}");
    }

    @Test
    void keywordFieldsAndMissingRangesAreRefusedPerIndex() {
        assertThatThrownBy(() -> render("{\"r\":{\"range\":{\"field\":\"brand\",\"ranges\":[{\"to\":1}]}}}",
                List.of())).satisfies(e -> assertThat(((GatewayException) e).kind())
                        .isEqualTo(ErrorKind.ILLEGAL_ARGUMENT))
                .hasMessage("Field [brand] of type [keyword] is not supported for aggregation [range]");
        assertThatThrownBy(() -> render("{\"r\":{\"range\":{\"field\":\"n\"}}}", List.of()))
                .hasMessage("No [ranges] specified for the [r] aggregation");
    }
}
