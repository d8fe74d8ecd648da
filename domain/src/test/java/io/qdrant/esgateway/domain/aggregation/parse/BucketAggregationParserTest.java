package io.qdrant.esgateway.domain.aggregation.parse;

import io.qdrant.esgateway.domain.aggregation.Aggregation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.CompactPositions;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.Test;

/** The parser of terms options and of the filter-like aggregations, and its errors (read from ES 8.15). */
class BucketAggregationParserTest {

    private static Map<String, Aggregation> parse(String json) {
        return AggregationParser.parse(Json.parse(json));
    }

    private static void fails(ThrowableAssert.ThrowingCallable call, ErrorKind kind, String reason) {
        assertThatThrownBy(call).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.kind()).isEqualTo(kind);
            assertThat(e.reason()).isEqualTo(reason);
        });
    }

    @Test
    void filtersKeyedAreSortedByNameAndAnonymousAreArrays() {
        Aggregation.Filters keyed = (Aggregation.Filters) parse("""
                {"f":{"filters":{"filters":{"z":{"match_all":{}},"a":{"match_all":{}}},"other_bucket":true}}}""")
                .get("f");
        assertThat(keyed.names()).containsExactly("a", "z");
        assertThat(keyed.keyed()).isTrue();
        assertThat(keyed.otherBucketKey()).contains("_other_");
        Aggregation.Filters anonymous = (Aggregation.Filters) parse("""
                {"f":{"filters":{"filters":[{"match_all":{}}],"keyed":true,"other_bucket_key":"rest"}}}""").get("f");
        assertThat(anonymous.keyed()).isFalse();
        assertThat(anonymous.otherBucketKey()).contains("rest");
    }

    @Test
    void termsOptions() {
        Aggregation.Terms t = (Aggregation.Terms) parse("""
                {"t":{"terms":{"field":"f","size":3,"shard_size":9,"min_doc_count":0,"missing":"x",
                 "order":[{"_count":"asc"},{"m.value":"desc"}],"include":"a.*","exclude":["b"]}}}""").get("t");
        assertThat(t.size()).isEqualTo(3);
        assertThat(t.minDocCount()).isZero();
        assertThat(t.order()).containsExactly(new Aggregation.TermsOrder("_count", true),
                new Aggregation.TermsOrder("m.value", false));
        assertThat(t.includeExclude().includeRegex()).contains("a.*");
        assertThat(t.includeExclude().excludeValues()).isPresent();
    }

    @Test
    void errorsAsElasticsearchGivesThem() {
        fails(() -> parse("{\"x\":{\"termz\":{\"field\":\"f\"}}}"), ErrorKind.PARSING,
                "Unknown aggregation type [termz] did you mean [terms]?");
        fails(() -> parse("{\"x\":{\"stat\":{\"field\":\"f\"}}}"), ErrorKind.PARSING,
                "Unknown aggregation type [stat] did you mean [stats]?");
        fails(() -> parse("{\"x\":{\"qwertyuiop\":{}}}"), ErrorKind.PARSING, "Unknown aggregation type [qwertyuiop]");
        fails(() -> parse("{\"x\":{\"avg\":{\"field\":\"n\"},\"aggs\":{\"y\":{\"avg\":{\"field\":\"n\"}}}}}"),
                ErrorKind.ILLEGAL_ARGUMENT, "Aggregator [x] of type [avg] cannot accept sub-aggregations");
        fails(() -> parse("{\"x\":{\"terms\":{\"field\":\"f\",\"colour\":1}}}"), ErrorKind.X_CONTENT_PARSE,
                "[terms] unknown field [colour]");
        fails(() -> parse("{\"x\":{\"terms\":{\"field\":true}}}"), ErrorKind.X_CONTENT_PARSE,
                "[terms] field doesn't support values of type: VALUE_BOOLEAN");
        fails(() -> parse("{\"x\":{\"terms\":{\"field\":\"f\",\"size\":0}}}"), ErrorKind.X_CONTENT_PARSE,
                "[terms] failed to parse field [size]");
        fails(() -> parse("{\"x\":{\"filters\":{\"filters\":[]}}}"), ErrorKind.ILLEGAL_ARGUMENT,
                "[filters] cannot be empty.");
        fails(() -> parse("{\"x\":{\"filters\":{\"filters\":{\"a\":{\"match_all\":{}}},\"colour\":1}}}"),
                ErrorKind.PARSING, "Unknown key for a VALUE_NUMBER in [x]: [colour].");
        fails(() -> parse("{\"x\":{\"missing\":{}}}"), ErrorKind.ILLEGAL_ARGUMENT,
                "Required one of fields [field, script], but none were specified. ");
        fails(() -> parse("{\"x\":{\"global\":{\"colour\":1}}}"), ErrorKind.PARSING,
                "Expected [FIELD_NAME] under a [START_OBJECT], but got a [VALUE_NUMBER] in [x]");
    }

    @Test
    void suggestionsKeepOnlyCloseNames() {
        assertThat(BucketAggregationParser.didYouMean("filterz", java.util.Set.of())).isEqualTo(
                " did you mean any of [filter, filters]?");
        assertThat(BucketAggregationParser.didYouMean("zzz", java.util.Set.of())).isEmpty();
        assertThat(io.qdrant.esgateway.domain.json.ObjectParseErrors.similarity("terms", "termz")).isEqualTo(0.8f);
        assertThat(List.of(BucketAggregationParser.didYouMean("avgg", java.util.Set.of()))).containsExactly(
                " did you mean [avg]?");
    }

    /** Parsed with the positions of the compact text (one line, as the test's text). */
    private static Map<String, Aggregation> positioned(String json) {
        return AggregationParser.parse(CompactPositions.of((JsonObject) Json.parse(json)));
    }

    @Test
    void badTermsValuesFailAtTheValueWithElasticsearchsCause() {
        String size = "{\"t\":{\"terms\":{\"field\":\"n\",\"size\":\"x\"}}}";
        fails(() -> positioned(size), ErrorKind.X_CONTENT_PARSE, "[1:35] [terms] failed to parse field [size]");
        assertThatThrownBy(() -> positioned(size)).isInstanceOfSatisfying(GatewayException.class,
                e -> assertThat(((GatewayException) e.getCause()).reason()).isEqualTo("For input string: \"x\""));
        fails(() -> positioned("{\"t\":{\"terms\":{\"field\":\"n\",\"min_doc_count\":-1}}}"),
                ErrorKind.X_CONTENT_PARSE, "[1:44] [terms] failed to parse field [min_doc_count]");
        fails(() -> positioned("{\"t\":{\"terms\":{\"field\":true}}}"), ErrorKind.X_CONTENT_PARSE,
                "[1:24] [terms] field doesn't support values of type: VALUE_BOOLEAN");
        // where ES reads a whole object first, the position is its closing brace
        fails(() -> positioned("{\"t\":{\"terms\":{\"field\":\"n\",\"order\":{\"\":\"asc\"}}}}"),
                ErrorKind.X_CONTENT_PARSE, "[1:45] [terms] failed to parse field [order]");
    }
}
