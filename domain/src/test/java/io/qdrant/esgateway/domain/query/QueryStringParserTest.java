package io.qdrant.esgateway.domain.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.query.Query.BoostedField;
import io.qdrant.esgateway.domain.query.Query.Operator;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QueryStringParserTest {

    private static Query parse(String text, Operator op, String... fields) {
        List<BoostedField> f = java.util.Arrays.stream(fields).map(n -> new BoostedField(n, 1f)).toList();
        return QueryStringParser.parse(new Query.QueryString(text, f, op, false, false, false, 1f));
    }

    private static Query simple(String text, String... fields) {
        List<BoostedField> f = java.util.Arrays.stream(fields).map(n -> new BoostedField(n, 1f)).toList();
        return QueryStringParser.parse(new Query.QueryString(text, f, Operator.OR, true, false, false, 1f));
    }

    private static Query match(String field, String text) {
        return new Query.Match(field, text, Operator.OR, MinimumShouldMatch.UNSPECIFIED, Optional.empty(), 0, 50, true,
                Query.ZeroTermsQuery.NONE, 1f);
    }

    private static Query.Bool bool(List<Query> must, List<Query> should, List<Query> mustNot) {
        return new Query.Bool(must, List.of(), should, mustNot, MinimumShouldMatch.UNSPECIFIED, 1f);
    }

    @Test
    void aSingleTermIsAMatchOnTheDefaultField() {
        assertThat(parse("fox", Operator.OR, "title")).isEqualTo(match("title", "fox"));
        assertThat(parse("fox", Operator.OR)).isEqualTo(match("*", "fox"));
    }

    @Test
    void fieldsOperatorsAndPrefixes() {
        assertThat(parse("title:fox AND year:1999", Operator.OR, "body"))
                .isEqualTo(bool(List.of(match("title", "fox"), match("year", "1999")), List.of(), List.of()));
        assertThat(parse("a b", Operator.OR, "t")).isEqualTo(bool(List.of(), List.of(match("t", "a"), match("t", "b")),
                List.of()));
        assertThat(parse("a b", Operator.AND, "t")).isEqualTo(bool(List.of(match("t", "a"), match("t", "b")), List.of(),
                List.of()));
        assertThat(parse("+a -b c", Operator.OR, "t")).isEqualTo(bool(List.of(match("t", "a")),
                List.of(match("t", "c")), List.of(match("t", "b"))));
        assertThat(parse("a OR b", Operator.AND, "t")).isEqualTo(bool(List.of(),
                List.of(match("t", "a"), match("t", "b")), List.of()));
        assertThat(parse("NOT a", Operator.OR, "t")).isEqualTo(bool(List.of(new Query.MatchAll(1f)), List.of(),
                List.of(match("t", "a"))));
    }

    @Test
    void phrasesRangesPatternsAndGroups() {
        assertThat(parse("title:\"quick fox\"~2", Operator.OR))
                .isEqualTo(new Query.MatchPhrase("title", "quick fox", 2, Query.ZeroTermsQuery.NONE, 1f));
        assertThat(parse("n:[1 TO 5}", Operator.OR)).isEqualTo(new Query.Range("n",
                Optional.of(new Query.Bound(JsonValue.string("1"), true)),
                Optional.of(new Query.Bound(JsonValue.string("5"), false)), Optional.empty(), Optional.empty(), 1f));
        assertThat(parse("n:>=3", Operator.OR)).isEqualTo(new Query.Range("n",
                Optional.of(new Query.Bound(JsonValue.string("3"), true)), Optional.empty(), Optional.empty(),
                Optional.empty(), 1f));
        assertThat(parse("t:qu*", Operator.OR)).isEqualTo(new Query.Prefix("t", "qu", false, 1f));
        assertThat(parse("t:q?ick", Operator.OR)).isEqualTo(new Query.Wildcard("t", "q?ick", false, 1f));
        assertThat(parse("t:/qu.*k/", Operator.OR)).isEqualTo(new Query.Regexp("t", "qu.*k", false, 10_000, 1f));
        assertThat(parse("t:*", Operator.OR)).isEqualTo(new Query.Exists("t", 1f));
        assertThat(parse("t:(a OR b)", Operator.OR)).isEqualTo(bool(List.of(),
                List.of(match("t", "a"), match("t", "b")), List.of()));
        assertThat(parse("t:quikc~1", Operator.OR)).isEqualTo(new Query.Fuzzy("t", JsonValue.string("quikc"),
                new Fuzziness.Fixed(1), 0, 50, true, 1f));
    }

    @Test
    void severalDefaultFieldsBecomeADisMax() {
        assertThat(parse("fox", Operator.OR, "title", "body")).isEqualTo(new Query.DisMax(
                List.of(match("title", "fox"), match("body", "fox")), 0f, 1f));
    }

    @Test
    void badSyntaxIsA400ButSimpleSyntaxNeverFails() {
        assertThatThrownBy(() -> parse("title:(fox", Operator.OR)).isInstanceOf(GatewayException.class)
                .hasMessage("Failed to parse query [title:(fox]");
        assertThatThrownBy(() -> parse("\"open", Operator.OR)).isInstanceOf(GatewayException.class);
        assertThat(simple("(fox", "t")).isEqualTo(match("t", "fox"));
    }

    @Test
    void simpleSyntax() {
        assertThat(simple("a + b", "t")).isEqualTo(bool(List.of(match("t", "a"), match("t", "b")), List.of(),
                List.of()));
        assertThat(simple("a | b", "t")).isEqualTo(bool(List.of(), List.of(match("t", "a"), match("t", "b")),
                List.of()));
        assertThat(simple("a -b", "t")).isEqualTo(bool(List.of(), List.of(match("t", "a")), List.of(match("t", "b"))));
        assertThat(simple("qu*", "t")).isEqualTo(new Query.Prefix("t", "qu", false, 1f));
        assertThat(simple("title:fox", "t")).as("no field syntax in the simple form").isEqualTo(match("t", "title:fox"));
    }
}
