package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.parse.AggregationParser;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class CardinalityAggregatorTest {
    @Test
    void countsDistinctValuesOfEveryKind() {
        List<MemoryDoc> docs = List.of(new MemoryDoc("1").keyword("brand", "a", "b").longs("n", 1, 1, 2)
                        .doubles("price", 0.5),
                new MemoryDoc("2").keyword("brand", "b").longs("n", 2).doubles("price", 0.5, 1.5),
                new MemoryDoc("3"));
        assertThat(Json.write(StatsAggregatorTest.run("{\"k\":{\"cardinality\":{\"field\":\"brand\"}},"
                + "\"n\":{\"cardinality\":{\"field\":\"n\"}},\"p\":{\"cardinality\":{\"field\":\"price\"}},"
                + "\"u\":{\"cardinality\":{\"field\":\"nope\"}}}", docs)))
                .isEqualTo("{\"k\":{\"value\":2},\"n\":{\"value\":2},\"p\":{\"value\":2},\"u\":{\"value\":0}}");
    }

    @Test
    void missingAddsOneValueForDocumentsWithout() {
        List<MemoryDoc> docs = List.of(new MemoryDoc("1").keyword("brand", "a"), new MemoryDoc("2"),
                new MemoryDoc("3"));
        assertThat(Json.write(StatsAggregatorTest.run("{\"k\":{\"cardinality\":{\"field\":\"brand\","
                + "\"missing\":\"zz\"}},\"same\":{\"cardinality\":{\"field\":\"brand\",\"missing\":\"a\"}},"
                + "\"u\":{\"cardinality\":{\"field\":\"nope\",\"missing\":3}}}", docs)))
                .isEqualTo("{\"k\":{\"value\":2},\"same\":{\"value\":1},\"u\":{\"value\":1}}");
    }

    @Test
    void mergingCountsAValueSeenInBothPartitionsOnce() {
        AggregationPlan plan = AggregationPlan.of("idx", AggregationParser.parse(Json.parse(
                "{\"k\":{\"cardinality\":{\"field\":\"brand\"}}}")), PartitionedReduceTest.MAPPINGS, System::currentTimeMillis);
        NamedCollectors a = plan.newCollectors();
        a.collect(new MemoryDoc("1").keyword("brand", "x", "y"));
        NamedCollectors b = plan.newCollectors();
        b.collect(new MemoryDoc("2").keyword("brand", "y", "z"));
        assertThat(Json.write(a.partial().merge(b.partial()).render())).isEqualTo("{\"k\":{\"value\":3}}");
    }

    @Test
    void aFractionalMissingOnALongFieldIsANewValueAndAnIntegralOneIsNot() {
        List<MemoryDoc> docs = List.of(new MemoryDoc("1").longs("n", 1, 2), new MemoryDoc("2"));
        assertThat(Json.write(StatsAggregatorTest.run("{\"a\":{\"cardinality\":{\"field\":\"n\",\"missing\":1.5}},"
                + "\"b\":{\"cardinality\":{\"field\":\"n\",\"missing\":1.0}},"
                + "\"s\":{\"sum\":{\"field\":\"n\",\"missing\":1.5}}}", docs)))
                .isEqualTo("{\"a\":{\"value\":3},\"b\":{\"value\":2},\"s\":{\"value\":4.5}}");
    }
}
