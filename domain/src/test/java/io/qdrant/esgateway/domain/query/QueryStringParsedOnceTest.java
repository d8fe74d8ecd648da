package io.qdrant.esgateway.domain.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.query.Query.BoostedField;
import io.qdrant.esgateway.domain.query.Query.Operator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A query string is parsed once, when it is built; its syntax error is thrown where its tree is used. */
class QueryStringParsedOnceTest {

    private static Query.QueryString queryString(String text, boolean simple, float boost) {
        return new Query.QueryString(text, List.of(new BoostedField("title", 1f)), Operator.OR, simple, false, false,
                boost);
    }

    @Test
    void everyUseReadsTheOneTreeParsedWhenTheQueryWasBuilt() {
        Query.QueryString q = queryString("title:fox AND year:1999", false, 1f);
        Query first = QueryStringParser.parse(q);
        assertThat(QueryStringParser.parse(q)).isSameAs(first);
        assertThat(QueryStringParser.unboosted(q)).isSameAs(first);
        assertThat(q.parsed().tree()).isSameAs(first);
    }

    @Test
    void theBoostWrapsTheUnboostedTree() {
        Query.QueryString q = queryString("fox", false, 2f);
        Query unboosted = QueryStringParser.unboosted(q);
        assertThat(unboosted.boost()).isEqualTo(1f);
        assertThat(QueryStringParser.parse(q)).isEqualTo(new Query.Bool(List.of(unboosted), List.of(), List.of(),
                List.of(), MinimumShouldMatch.UNSPECIFIED, 2f));
    }

    @Test
    void aSyntaxErrorIsThrownWhereTheTreeIsUsedNotWhenTheQueryIsBuilt() {
        assertThatCode(() -> queryString("title:(fox", false, 1f)).doesNotThrowAnyException();
        Query.QueryString q = queryString("title:(fox", false, 1f);
        assertThatThrownBy(() -> QueryStringParser.parse(q)).isInstanceOf(GatewayException.class);
        assertThatThrownBy(() -> QueryStringParser.unboosted(q)).isInstanceOf(GatewayException.class);
    }

    @Test
    void aSimpleQueryStringThatDoesNotParseMatchesNothingWithItsBoost() {
        Query.QueryString q = queryString("\"open", true, 3f);
        assertThat(QueryStringParser.parse(q)).isEqualTo(new Query.MatchNone(3f));
        assertThat(QueryStringParser.unboosted(q)).isEqualTo(new Query.MatchNone(1f));
    }

    @Test
    void theParsedTreeTakesNoPartInEquality() {
        assertThat(queryString("a b", false, 1f)).isEqualTo(queryString("a b", false, 1f))
                .hasSameHashCodeAs(queryString("a b", false, 1f));
        assertThat(queryString("a b", false, 1f)).isNotEqualTo(queryString("a c", false, 1f));
    }
}
