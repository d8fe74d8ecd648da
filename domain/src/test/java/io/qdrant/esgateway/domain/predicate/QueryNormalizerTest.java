package io.qdrant.esgateway.domain.predicate;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.predicate.Predicate.Always;
import io.qdrant.esgateway.domain.predicate.Predicate.And;
import io.qdrant.esgateway.domain.predicate.Predicate.AtLeast;
import io.qdrant.esgateway.domain.predicate.Predicate.Condition;
import io.qdrant.esgateway.domain.predicate.Predicate.Never;
import io.qdrant.esgateway.domain.predicate.Predicate.Not;
import io.qdrant.esgateway.domain.predicate.Predicate.Or;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.query.dsl.QueryDsl;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QueryNormalizerTest {

    static Query q(String json) {
        return QueryDsl.parse(Json.parse(json.replace('\'', '"')));
    }

    static Predicate p(String json) {
        return QueryNormalizer.predicate(q(json));
    }

    static Condition term(String field, String value) {
        return new Condition(field, q("{'term':{'" + field + "':'" + value + "'}}"));
    }

    @Test
    void conditionsOnTheMetadataFieldsAreConditionsOnThem() {
        assertThat(p("{'exists':{'field':'_ignored'}}")).isEqualTo(new Condition("_ignored",
                q("{'exists':{'field':'_ignored'}}")));
        assertThat(p("{'bool':{'filter':{'term':{'_routing':'r'}}}}")).isEqualTo(term("_routing", "r"));
    }

    @Test
    void noQueryMatchesEverythingAndRanksNothing() {
        NormalizedQuery n = QueryNormalizer.normalize(Optional.empty());
        assertThat(n.predicate()).isEqualTo(new Always());
        assertThat(n.ranking()).isEmpty();
    }

    @Test
    void shouldIsOptionalNextToMustOrFilterAndRequiredAlone() {
        assertThat(p("{'bool':{'filter':{'term':{'a':'x'}},'should':{'term':{'b':'y'}}}}"))
                .isEqualTo(term("a", "x"));
        assertThat(p("{'bool':{'should':[{'term':{'a':'x'}},{'term':{'b':'y'}}]}}"))
                .isEqualTo(new Or(List.of(term("a", "x"), term("b", "y"))));
        assertThat(p("{'bool':{'filter':{'term':{'a':'x'}},'should':{'term':{'b':'y'}},'minimum_should_match':1}}"))
                .isEqualTo(new And(List.of(term("a", "x"), term("b", "y"))));
    }

    @Test
    void minimumShouldMatchBecomesAtLeast() {
        assertThat(p("{'bool':{'should':[{'term':{'a':'1'}},{'term':{'a':'2'}},{'term':{'a':'3'}}],"
                + "'minimum_should_match':2}}")).isEqualTo(new AtLeast(2, List.of(term("a", "1"), term("a", "2"),
                term("a", "3"))));
        assertThat(p("{'bool':{'should':[{'term':{'a':'1'}},{'term':{'a':'2'}}],'minimum_should_match':'100%'}}"))
                .isEqualTo(new And(List.of(term("a", "1"), term("a", "2"))));
        assertThat(p("{'bool':{'should':[{'term':{'a':'1'}}],'minimum_should_match':5}}"))
                .as("more than there are: nothing, as Lucene").isEqualTo(new Never());
        assertThat(p("{'bool':{'should':[{'term':{'a':'1'}},{'term':{'a':'2'}}],'minimum_should_match':'150%'}}"))
                .isEqualTo(new Never());
        assertThat(p("{'bool':{'must':{'term':{'a':'1'}},'minimum_should_match':1}}"))
                .as("no should clause to match").isEqualTo(new Never());
        assertThat(p("{'bool':{'should':[{'term':{'a':'1'}},{'term':{'a':'2'}},{'term':{'a':'3'}},"
                + "{'term':{'a':'4'}}],'minimum_should_match':'3<90%'}}")).isEqualTo(new AtLeast(3, List.of(
                term("a", "1"), term("a", "2"), term("a", "3"), term("a", "4"))));
    }

    @Test
    void aMinimumThatComputesZeroStillNeedsOneShouldWithoutMustOrFilter() {
        Predicate one = term("flag", "true");
        for (String msm : List.of("'50%'", "-1", "0", "'0%'", "'-100%'", "-5", "'0<-1'", "'0 < 50%'")) {
            assertThat(p("{'bool':{'should':[{'term':{'flag':'true'}}],'minimum_should_match':" + msm + "}}"))
                    .as(msm).isEqualTo(one);
            assertThat(p("{'bool':{'should':[{'term':{'flag':'true'}}],'must_not':{'term':{'a':'x'}},"
                    + "'minimum_should_match':" + msm + "}}")).as("with must_not " + msm)
                    .isEqualTo(new And(List.of(one, new Not(term("a", "x")))));
            assertThat(p("{'bool':{'must_not':{'bool':{'should':[{'term':{'flag':'true'}}],"
                    + "'minimum_should_match':" + msm + "}}}}")).as("negated " + msm).isEqualTo(new Not(one));
            assertThat(p("{'bool':{'filter':{'term':{'a':'x'}},'should':[{'term':{'flag':'true'}}],"
                    + "'minimum_should_match':" + msm + "}}")).as("beside a filter " + msm).isEqualTo(term("a", "x"));
        }
        assertThat(p("{'bool':{'should':[{'term':{'a':'1'}},{'term':{'a':'2'}}],'minimum_should_match':'-50%'}}"))
                .isEqualTo(new Or(List.of(term("a", "1"), term("a", "2"))));
        assertThat(p("{'constant_score':{'filter':{'bool':{'should':[{'term':{'a':'1'}},{'term':{'a':'2'}}],"
                + "'minimum_should_match':'49%'}}}}")).as("in filter context too")
                .isEqualTo(new Or(List.of(term("a", "1"), term("a", "2"))));
    }

    @Test
    void aPureNegationIgnoresTheMinimumAndAnEmptyBoolMatchesAll() {
        assertThat(p("{'bool':{'must_not':{'term':{'a':'x'}},'minimum_should_match':2}}"))
                .isEqualTo(new Not(term("a", "x")));
        assertThat(p("{'bool':{'minimum_should_match':2}}")).isEqualTo(new Always());
    }

    @Test
    void mustNotAloneMatchesTheRestAndNegationsSimplify() {
        assertThat(p("{'bool':{'must_not':{'term':{'a':'x'}}}}")).isEqualTo(new Not(term("a", "x")));
        assertThat(p("{'bool':{'must_not':{'match_all':{}}}}")).isEqualTo(new Never());
        assertThat(p("{'bool':{'must_not':{'bool':{'must_not':{'term':{'a':'x'}}}}}}")).isEqualTo(term("a", "x"));
        assertThat(p("{'bool':{}}")).isEqualTo(new Always());
    }

    @Test
    void constantsAreAbsorbedAndNestingFlattened() {
        assertThat(p("{'bool':{'must':[{'match_all':{}},{'term':{'a':'x'}}]}}")).isEqualTo(term("a", "x"));
        assertThat(p("{'bool':{'must':[{'match_none':{}},{'term':{'a':'x'}}]}}")).isEqualTo(new Never());
        assertThat(p("{'bool':{'must':[{'bool':{'filter':[{'term':{'a':'x'}},{'term':{'b':'y'}}]}},"
                + "{'term':{'c':'z'}}]}}")).isEqualTo(new And(List.of(term("a", "x"), term("b", "y"), term("c", "z"))));
        assertThat(p("{'dis_max':{'queries':[{'term':{'a':'x'}},{'match_all':{}}]}}")).isEqualTo(new Always());
        assertThat(p("{'terms':{'a':[]}}")).isEqualTo(new Never());
    }

    @Test
    void wrappersMatchWhatTheirPartsMatch() {
        assertThat(p("{'constant_score':{'filter':{'term':{'a':'x'}}}}")).isEqualTo(term("a", "x"));
        assertThat(p("{'boosting':{'positive':{'term':{'a':'x'}},'negative':{'term':{'b':'y'}},'negative_boost':0.1}}"))
                .as("a negative match only lowers the score").isEqualTo(term("a", "x"));
        assertThat(p("{'multi_match':{'query':'fox','fields':['t','b']}}")).isInstanceOf(Or.class);
        assertThat(p("{'multi_match':{'query':'fox'}}")).as("no fields: the default fields, all")
                .isEqualTo(new Condition("*", q("{'multi_match':{'query':'fox'}}")));
        assertThat(p("{'query_string':{'query':'a:x AND b:y'}}")).isInstanceOf(And.class);
    }

    @Test
    void onlyScoringQueriesKeepARankingPart() {
        assertThat(QueryNormalizer.normalize(Optional.of(q("{'bool':{'filter':{'term':{'a':'x'}}}}"))).ranking())
                .isEmpty();
        assertThat(QueryNormalizer.normalize(Optional.of(q("{'range':{'n':{'gte':1}}}"))).ranking()).isEmpty();
        assertThat(QueryNormalizer.normalize(Optional.of(q("{'match':{'t':'fox'}}"))).ranking()).isPresent();
        assertThat(QueryNormalizer.normalize(Optional.of(q("{'bool':{'must':{'match':{'t':'fox'}},"
                + "'filter':{'term':{'a':'x'}}}}"))).ranking()).isPresent();
    }
}
