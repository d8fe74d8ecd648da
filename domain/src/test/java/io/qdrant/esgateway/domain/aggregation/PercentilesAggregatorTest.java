package io.qdrant.esgateway.domain.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class PercentilesAggregatorTest {
    private static final List<MemoryDoc> DOCS = List.of(new MemoryDoc("1").doubles("price", 10, 1),
            new MemoryDoc("2").doubles("price", 3), new MemoryDoc("3").doubles("price", 4, 2), new MemoryDoc("4"));

    @Test
    void interpolatesAsElasticsearchsDigestDoesOnSmallInputs() {
        // the oracle's answer for [1, 2, 3, 4, 10], to the last digit
        assertThat(Json.write(StatsAggregatorTest.run("{\"p\":{\"percentiles\":{\"field\":\"price\"}}}", DOCS)))
                .isEqualTo("{\"p\":{\"values\":{\"1.0\":1.04,\"5.0\":1.2,\"25.0\":2.0,\"50.0\":3.0,\"75.0\":4.0,"
                        + "\"95.0\":8.799999999999999,\"99.0\":9.76}}}");
    }

    @Test
    void notKeyedWithPercentsSortedAndMissing() {
        assertThat(Json.write(StatsAggregatorTest.run("{\"p\":{\"percentiles\":{\"field\":\"price\",\"keyed\":false,"
                + "\"percents\":[100,0],\"missing\":20}}}", DOCS)))
                .isEqualTo("{\"p\":{\"values\":[{\"key\":0.0,\"value\":1.0},{\"key\":100.0,\"value\":20.0}]}}");
    }

    @Test
    void noValuesGiveNullsAndDatesAString() {
        assertThat(Json.write(StatsAggregatorTest.run("{\"p\":{\"percentiles\":{\"field\":\"price\","
                + "\"percents\":[50]}}}", List.of(new MemoryDoc("1"))))).isEqualTo("{\"p\":{\"values\":{\"50.0\":null}}}");
        assertThat(Json.write(StatsAggregatorTest.run("{\"p\":{\"percentiles\":{\"field\":\"d\",\"percents\":[50],"
                + "\"keyed\":false}}}", List.of(new MemoryDoc("1").longs("d", 0, 86_400_000L)))))
                .isEqualTo("{\"p\":{\"values\":[{\"key\":50.0,\"value\":4.32E7,"
                        + "\"value_as_string\":\"1970-01-01T12:00:00.000Z\"}]}}");
    }

    @Test
    void aSingleValueIsEveryPercentile() {
        assertThat(PercentilesAggregator.PercentilesPartial.percentile(new double[] {7}, 99)).isEqualTo(7);
        assertThat(PercentilesAggregator.PercentilesPartial.percentile(new double[] {1, 2}, 50)).isEqualTo(1.5);
    }
}
