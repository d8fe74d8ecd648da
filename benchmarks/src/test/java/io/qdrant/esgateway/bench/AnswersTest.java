package io.qdrant.esgateway.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The checker must catch a wrong answer; these are the answers it exists to reject (and the ones it must accept). */
class AnswersTest {
    private static final String PAGE = """
            {"took":3,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},
             "hits":{"total":{"value":42,"relation":"eq"},"max_score":null,"hits":[
               {"_index":"bench","_id":"d1","_score":null,"_source":{"rank":7,"price":900},"sort":[900,7]},
               {"_index":"bench","_id":"d2","_score":null,"_source":{"rank":3,"price":800},"sort":[800,3]}]},
             "aggregations":{"categories":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[
               {"key":"cat-01","doc_count":30},{"key":"cat-02","doc_count":12}]},
               "counts":{"buckets":{"cheap":{"doc_count":5},"category":{"doc_count":9}}}}}""";

    private static Optional<String> check(String expected, String actual) {
        return Answers.difference(Answers.canonical(Answers.Shape.SEARCH, Json.parse(expected)),
                Answers.canonical(Answers.Shape.SEARCH, Json.parse(actual)));
    }

    @Test
    void theSameAnswerPassesWhateverTheTimingsScoresAndKeyOrder() {
        String other = PAGE.replace("\"took\":3", "\"took\":99").replace("\"max_score\":null", "\"max_score\":1.5")
                .replace("{\"rank\":7,\"price\":900}", "{\"price\":900,\"rank\":7}");
        assertThat(check(PAGE, other)).isEmpty();
    }

    @Test
    void wrongIdOrderFails() {
        String swapped = PAGE.replace("\"_id\":\"d1\"", "\"_id\":\"X\"").replace("\"_id\":\"d2\"", "\"_id\":\"d1\"")
                .replace("\"_id\":\"X\"", "\"_id\":\"d2\"");
        assertThat(check(PAGE, swapped)).hasValueSatisfying(d -> assertThat(d).startsWith("/hits/0/_id"));
    }

    @Test
    void wrongTotalFails() {
        assertThat(check(PAGE, PAGE.replace("\"value\":42", "\"value\":41")))
                .hasValueSatisfying(d -> assertThat(d).contains("/total/value").contains("42").contains("41"));
        assertThat(check(PAGE, PAGE.replace("\"relation\":\"eq\"", "\"relation\":\"gte\"")))
                .hasValueSatisfying(d -> assertThat(d).contains("/total/relation"));
    }

    @Test
    void wrongBucketCountsFail() {
        assertThat(check(PAGE, PAGE.replace("\"doc_count\":12", "\"doc_count\":13")))
                .hasValueSatisfying(d -> assertThat(d).contains("/aggregations/categories/1/doc_count"));
        assertThat(check(PAGE, PAGE.replace(",{\"key\":\"cat-02\",\"doc_count\":12}", "")))
                .hasValueSatisfying(d -> assertThat(d).contains("/aggregations/categories").contains("1 elements"));
        assertThat(check(PAGE, PAGE.replace("\"cheap\":{\"doc_count\":5}", "\"cheap\":{\"doc_count\":6}")))
                .hasValueSatisfying(d -> assertThat(d).contains("/aggregations/counts/cheap"));
    }

    @Test
    void wrongSourcesAndSortValuesFail() {
        assertThat(check(PAGE, PAGE.replace("{\"rank\":7,\"price\":900}", "{\"rank\":7,\"price\":901}")))
                .hasValueSatisfying(d -> assertThat(d).contains("/hits/0/_source/price"));
        assertThat(check(PAGE, PAGE.replace("\"sort\":[800,3]", "\"sort\":[800,4]")))
                .hasValueSatisfying(d -> assertThat(d).contains("/hits/1/sort/1"));
        assertThat(check(PAGE, PAGE.replace("{\"rank\":7,\"price\":900}", "{\"rank\":7}")))
                .hasValueSatisfying(d -> assertThat(d).contains("/hits/0/_source/price: missing"));
    }

    @Test
    void aMissingHitOrAggregationFails() {
        String oneHit = PAGE.replace(",\n   {\"_index\":\"bench\",\"_id\":\"d2\",\"_score\":null,\"_source\":{\"rank\":3,"
                + "\"price\":800},\"sort\":[800,3]}", "");
        assertThat(oneHit).isNotEqualTo(PAGE);
        assertThat(check(PAGE, oneHit)).hasValueSatisfying(d -> assertThat(d).contains("/hits"));
        JsonNode noAggs = Json.parse(PAGE);
        ((com.fasterxml.jackson.databind.node.ObjectNode) noAggs).remove("aggregations");
        assertThat(check(PAGE, Json.compact(noAggs))).hasValueSatisfying(d -> assertThat(d).contains("aggregations"));
    }

    @Test
    void numbersCompareByValueButNotAcrossTypes() {
        assertThat(check(PAGE, PAGE.replace("\"value\":42", "\"value\":42.0"))).isEmpty();
        assertThat(check(PAGE, PAGE.replace("\"value\":42", "\"value\":\"42\""))).isPresent();
    }

    @Test
    void rankedSearchesIgnoreTheScoreInTheSortValuesButNotTheOrder() {
        String ranked = PAGE.replace("\"sort\":[900,7]", "\"sort\":[2.5,7]");
        String rescaled = PAGE.replace("\"sort\":[900,7]", "\"sort\":[1.1363,7]");
        JsonNode want = Answers.canonical(Answers.Shape.SEARCH_IGNORING_SORT_VALUES, Json.parse(ranked));
        assertThat(Answers.difference(want, Answers.canonical(Answers.Shape.SEARCH_IGNORING_SORT_VALUES,
                Json.parse(rescaled)))).isEmpty();
        String reordered = rescaled.replace("\"_id\":\"d1\"", "\"_id\":\"d9\"");
        assertThat(Answers.difference(want, Answers.canonical(Answers.Shape.SEARCH_IGNORING_SORT_VALUES,
                Json.parse(reordered)))).isPresent();
    }

    @Test
    void documentsAndCountsAreChecked() {
        String doc = "{\"_index\":\"bench\",\"_id\":\"d1\",\"_version\":1,\"found\":true,\"_source\":{\"rank\":7}}";
        JsonNode want = Answers.canonical(Answers.Shape.DOCUMENT, Json.parse(doc));
        assertThat(Answers.difference(want, Answers.canonical(Answers.Shape.DOCUMENT,
                Json.parse(doc.replace("\"_version\":1", "\"_version\":3"))))).isEmpty();
        assertThat(Answers.difference(want, Answers.canonical(Answers.Shape.DOCUMENT,
                Json.parse("{\"_index\":\"bench\",\"_id\":\"d1\",\"found\":false}")))).isPresent();
        assertThat(Answers.difference(Answers.canonical(Answers.Shape.COUNT, Json.parse("{\"count\":3}")),
                Answers.canonical(Answers.Shape.COUNT, Json.parse("{\"count\":4}")))).isPresent();
    }
}
