package io.qdrant.esgateway.domain.aggregation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopHitsAggregatorTest {
    @Test
    void defaultsRankByScoreThenIndexOrderWithScoresAndSource() {
        List<MemoryDoc> docs = List.of(new MemoryDoc("a").longs("n", 1).score(1f),
                new MemoryDoc("b").longs("n", 2).score(2.5f), new MemoryDoc("c").score(1f),
                new MemoryDoc("d").score(0.5f));
        assertThat(Json.write(StatsAggregatorTest.run("{\"t\":{\"top_hits\":{}}}", docs))).isEqualTo(
                "{\"t\":{\"hits\":{\"total\":{\"value\":4,\"relation\":\"eq\"},\"max_score\":2.5,\"hits\":["
                + "{\"_index\":\"idx\",\"_id\":\"b\",\"_score\":2.5,\"_source\":{\"n\":2}},"
                + "{\"_index\":\"idx\",\"_id\":\"a\",\"_score\":1.0,\"_source\":{\"n\":1}},"
                + "{\"_index\":\"idx\",\"_id\":\"c\",\"_score\":1.0,\"_source\":{}}]}}}");
    }

    @Test
    void aFieldSortRendersSortValuesAndNoScores() {
        List<MemoryDoc> docs = List.of(new MemoryDoc("a").longs("n", 1, 9), new MemoryDoc("b").longs("n", 5),
                new MemoryDoc("c"), new MemoryDoc("d").keyword("brand", "x"));
        String asc = Json.write(StatsAggregatorTest.run("{\"t\":{\"top_hits\":{\"size\":4,\"_source\":false,"
                + "\"sort\":[{\"n\":\"asc\"}]}}}", docs));
        assertThat(asc).isEqualTo("{\"t\":{\"hits\":{\"total\":{\"value\":4,\"relation\":\"eq\"},\"max_score\":null,"
                + "\"hits\":[{\"_index\":\"idx\",\"_id\":\"a\",\"_score\":null,\"sort\":[1]},"
                + "{\"_index\":\"idx\",\"_id\":\"b\",\"_score\":null,\"sort\":[5]},"
                + "{\"_index\":\"idx\",\"_id\":\"c\",\"_score\":null,\"sort\":[9223372036854775807]},"
                + "{\"_index\":\"idx\",\"_id\":\"d\",\"_score\":null,\"sort\":[9223372036854775807]}]}}}");
        String desc = Json.write(StatsAggregatorTest.run("{\"t\":{\"top_hits\":{\"size\":2,\"from\":1,"
                + "\"_source\":false,\"sort\":[{\"n\":{\"order\":\"desc\",\"missing\":\"_first\"}}]}}}", docs));
        assertThat(desc).contains("{\"_id\":\"d\"".substring(1), "\"sort\":[9]")
                .doesNotContain("\"_id\":\"b\"");
    }

    @Test
    void onlyTheDocumentsOfTheTopAreLoaded() {
        List<MemoryDoc> docs = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            docs.add(new MemoryDoc("d" + i).longs("n", i));
        }
        StatsAggregatorTest.run("{\"t\":{\"top_hits\":{\"size\":2,\"sort\":[{\"n\":\"desc\"}]}}}", docs);
        assertThat(docs.stream().filter(d -> d.loads > 0).map(d -> d.id).toList()).containsExactly("d48", "d49");
    }

    @Test
    void sizeZeroFailsOnceADocumentArrives() {
        assertThat(Json.write(StatsAggregatorTest.run("{\"t\":{\"top_hits\":{\"size\":0}}}", List.of())))
                .contains("\"total\":{\"value\":0");
        assertThatThrownBy(() -> StatsAggregatorTest.run("{\"t\":{\"top_hits\":{\"size\":0}}}",
                List.of(new MemoryDoc("1")))).isInstanceOf(GatewayException.class).hasMessageStartingWith(
                "numHits must be > 0");
    }

    @Test
    void aWindowAboveTheLimitAndAnUnmappedSortFailTheIndex() {
        assertThatThrownBy(() -> StatsAggregatorTest.run("{\"big\":{\"top_hits\":{\"from\":90,\"size\":11}}}",
                List.of())).hasMessageContaining("the top hits aggregator [big]'s from + size must be less than or"
                + " equal to: [100] but was [101]");
        assertThatThrownBy(() -> StatsAggregatorTest.run("{\"t\":{\"top_hits\":{\"sort\":[\"nope\"]}}}",
                List.of())).hasMessage("No mapping found for [nope] in order to sort on");
    }

    @Test
    void aMissingValueAndADateFormatInTheSort() {
        List<MemoryDoc> docs = List.of(new MemoryDoc("a").longs("n", 1).longs("d", 86_400_000L),
                new MemoryDoc("b").longs("n", 5), new MemoryDoc("c"));
        assertThat(Json.write(StatsAggregatorTest.run("{\"t\":{\"top_hits\":{\"_source\":false,"
                + "\"sort\":[{\"n\":{\"order\":\"asc\",\"missing\":3}}]}}}", docs)))
                .contains("\"_id\":\"c\",\"_score\":null,\"sort\":[3]").matches(".*\"a\".*\"c\".*\"b\".*");
        assertThat(Json.write(StatsAggregatorTest.run("{\"t\":{\"top_hits\":{\"_source\":false,\"size\":1,"
                + "\"sort\":[{\"d\":{\"order\":\"asc\",\"format\":\"yyyy-MM-dd\"}}]}}}", docs)))
                .contains("\"sort\":[\"1970-01-02\"]");
    }
}
