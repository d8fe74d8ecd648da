package io.qdrant.esgateway.domain.query.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.query.Fuzziness;
import io.qdrant.esgateway.domain.query.MinimumShouldMatch;
import io.qdrant.esgateway.domain.query.Query;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class QueryDslTest {

    static Query q(String json) {
        return QueryDsl.parse(Json.parse(json.replace('\'', '"')));
    }

    static GatewayException failure(String json) {
        try {
            q(json);
        } catch (GatewayException e) {
            return e;
        }
        throw new AssertionError("expected a failure for " + json);
    }

    static JsonValue v(String json) {
        return Json.parse(json.replace('\'', '"'));
    }

    @Nested
    class Dispatch {
        @Test
        void unknownQueriesAreParsingExceptionsAndKnownUnsupportedOnesSaySo() {
            GatewayException unknown = failure("{'tern':{'a':1}}");
            assertThat(unknown.kind()).isEqualTo(ErrorKind.PARSING);
            assertThat(unknown.reason()).isEqualTo("unknown query [tern]");
            GatewayException nested = failure("{'nested':{'path':'a','query':{'match_all':{}}}}");
            assertThat(nested.kind()).isEqualTo(ErrorKind.UNSUPPORTED);
            assertThat(nested.reason()).isEqualTo("the [nested] query is not supported by the gateway");
        }

        @Test
        void queriesOnTheRoutingFieldParseAsOnAnyField() {
            assertThat(q("{'term':{'_routing':'r1'}}")).isEqualTo(q("{'term':{'_routing':{'value':'r1'}}}"))
                    .isInstanceOf(Query.Term.class);
            assertThat(q("{'terms':{'_routing':['r1','r2']}}")).isInstanceOf(Query.Terms.class);
            assertThat(q("{'prefix':{'_routing':'r'}}")).isInstanceOf(Query.Prefix.class);
            assertThat(q("{'exists':{'field':'_routing'}}")).isInstanceOf(Query.Exists.class);
            assertThat(q("{'wildcard':{'_routing':{'value':'r*'}}}")).isInstanceOf(Query.Wildcard.class);
        }

        @Test
        void aWrapperQueryIsItsBase64DecodedQuery() {
            String inner = java.util.Base64.getEncoder().encodeToString(
                    "{\"bool\":{\"must\":[{\"term\":{\"a\":1}}]}}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertThat(q("{'wrapper':{'query':'" + inner + "'}}")).isEqualTo(q("{'bool':{'must':[{'term':{'a':1}}]}}"));
            assertThat(failure("{'wrapper':{}}").reason()).isEqualTo("wrapper query has no [query] specified");
            assertThat(failure("{'wrapper':{'query':'" + inner + "','x':1}}").reason())
                    .isEqualTo("[wrapper] query does not support [x]");
            assertThat(failure("{'wrapper':{'query':'!!'}}").kind()).isEqualTo(ErrorKind.PARSING);
            String unknown = java.util.Base64.getEncoder().encodeToString("{\"tern\":{}}".getBytes(
                    java.nio.charset.StandardCharsets.UTF_8));
            assertThat(failure("{'wrapper':{'query':'" + unknown + "'}}").reason()).isEqualTo("unknown query [tern]");
        }

        @Test
        void aQueryObjectHasExactlyOneType() {
            assertThat(failure("{}").reason()).isEqualTo("query malformed, empty clause found");
            assertThat(failure("{'term':{'a':1},'match_all':{}}").kind()).isEqualTo(ErrorKind.PARSING);
            assertThat(failure("[1]").kind()).isEqualTo(ErrorKind.PARSING);
        }

        @Test
        void matchAllAndMatchNoneTakeOnlyBoostAndName() {
            assertThat(q("{'match_all':{}}")).isEqualTo(new Query.MatchAll(1f));
            assertThat(q("{'match_all':{'boost':2,'_name':'x'}}")).isEqualTo(new Query.MatchAll(2f));
            assertThat(q("{'match_none':{}}")).isEqualTo(new Query.MatchNone(1f));
            assertThat(failure("{'match_all':{'size':1}}").reason())
                    .isEqualTo("[match_all] query does not support [size]");
            assertThat(failure("{'match_all':[]}").reason())
                    .isEqualTo("[match_all] query malformed, no start_object after query name");
        }
    }

    @Nested
    class TermLevel {
        @Test
        void termInShortAndLongForm() {
            assertThat(q("{'term':{'tag':'x'}}")).isEqualTo(new Query.Term("tag", v("'x'"), false, 1f));
            assertThat(q("{'term':{'tag':{'value':'X','case_insensitive':true,'boost':3}}}"))
                    .isEqualTo(new Query.Term("tag", v("'X'"), true, 3f));
            assertThat(q("{'term':{'n':5}}")).isEqualTo(new Query.Term("n", v("5"), false, 1f));
            assertThat(failure("{'term':{'a':1,'b':2}}").reason())
                    .isEqualTo("[term] query doesn't support multiple fields, found [a] and [b]");
            assertThat(failure("{'term':{'a':{'value':1,'foo':2}}}").reason())
                    .isEqualTo("[term] query does not support [foo]");
            assertThat(failure("{'term':{'a':[1,2]}}").kind()).isEqualTo(ErrorKind.PARSING);
            assertThat(failure("{'term':{'a':{}}}").reason()).isEqualTo("[term] requires [value]");
        }

        @Test
        void aOneFieldQuerysNameAndBoostAroundTheFieldAndInsideIt() {
            // _name is ignored at both levels; a boost beside the field applies unless the field's own object has one
            assertThat(q("{'term':{'_name':'n','tag':'x','boost':2}}")).isEqualTo(new Query.Term("tag", v("'x'"),
                    false, 2f));
            assertThat(q("{'term':{'boost':2,'tag':{'value':'x','_name':'n','boost':3}}}"))
                    .isEqualTo(new Query.Term("tag", v("'x'"), false, 3f));
            assertThat(q("{'term':{'tag':{'value':'x','_name':'n'},'_name':'m'}}"))
                    .isEqualTo(new Query.Term("tag", v("'x'"), false, 1f));
            // the fields named in a failure leave out _name and boost, in the body's order
            assertThat(failure("{'term':{'b':1,'_name':'n','boost':2,'a':2}}").reason())
                    .isEqualTo("[term] query doesn't support multiple fields, found [b] and [a]");
            assertThat(failure("{'term':{'_name':'n','boost':2}}").reason())
                    .isEqualTo("[term] query doesn't support multiple fields, found []");
            assertThat(failure("{'term':{}}").reason())
                    .isEqualTo("[term] query doesn't support multiple fields, found []");
            assertThat(failure("{'term':'x'}").reason())
                    .isEqualTo("[term] query malformed, no start_object after query name");
            // a boost beside the field is taken by the field's parameters: a query without boost refuses it there
            assertThat(failure("{'term':{'tag':{'value':'x','foo':1},'boost':2}}").reason())
                    .isEqualTo("[term] query does not support [foo]");
        }

        @Test
        void termsTakesAListAndRejectsTheLookupForm() {
            assertThat(q("{'terms':{'tag':['a','b'],'boost':2}}"))
                    .isEqualTo(new Query.Terms("tag", List.of(v("'a'"), v("'b'")), 2f));
            assertThat(failure("{'terms':{'tag':{'index':'i','id':'1','path':'p'}}}").kind())
                    .isEqualTo(ErrorKind.UNSUPPORTED);
            assertThat(failure("{'terms':{'tag':'a'}}").kind()).isEqualTo(ErrorKind.PARSING);
        }

        @Test
        void rangeBoundsInEveryForm() {
            Query.Range r = (Query.Range) q("{'range':{'n':{'gt':1,'lte':5,'format':'yyyy','time_zone':'+01:00'}}}");
            assertThat(r.lower()).contains(new Query.Bound(v("1"), false));
            assertThat(r.upper()).contains(new Query.Bound(v("5"), true));
            assertThat(r.format()).contains("yyyy");
            assertThat(r.timeZone()).contains("+01:00");
            Query.Range legacy = (Query.Range) q("{'range':{'n':{'from':1,'to':5,'include_upper':false}}}");
            assertThat(legacy.lower()).contains(new Query.Bound(v("1"), true));
            assertThat(legacy.upper()).contains(new Query.Bound(v("5"), false));
            Query.Range open = (Query.Range) q("{'range':{'d':{'gte':'now-1d/d','lt':null}}}");
            assertThat(open.upper()).isEmpty();
            assertThat(open.lower()).contains(new Query.Bound(v("'now-1d/d'"), true));
            assertThat(failure("{'range':{'n':{'relation':'within','gt':1}}}").kind())
                    .isEqualTo(ErrorKind.UNSUPPORTED);
            assertThat(failure("{'range':{'n':{'gt':1,'between':2}}}").reason())
                    .isEqualTo("[range] query does not support [between]");
        }

        @Test
        void existsIdsAndPatterns() {
            assertThat(q("{'exists':{'field':'a'}}")).isEqualTo(new Query.Exists("a", 1f));
            assertThat(failure("{'exists':{}}").reason()).isEqualTo("[exists] must be provided with a [field]");
            assertThat(q("{'ids':{'values':['1','2']}}")).isEqualTo(new Query.Ids(List.of("1", "2"), 1f));
            assertThat(q("{'prefix':{'t':'ab'}}")).isEqualTo(new Query.Prefix("t", "ab", false, 1f));
            assertThat(q("{'wildcard':{'t':{'value':'a*b?','case_insensitive':true}}}"))
                    .isEqualTo(new Query.Wildcard("t", "a*b?", true, 1f));
            assertThat(q("{'wildcard':{'t':{'wildcard':'a*'}}}")).isEqualTo(new Query.Wildcard("t", "a*", false, 1f));
            assertThat(q("{'regexp':{'t':'a.*'}}")).isEqualTo(new Query.Regexp("t", "a.*", false, 10_000, 1f));
            assertThat(failure("{'regexp':{'t':{'value':'a','flags':'INTERVAL'}}}").kind())
                    .isEqualTo(ErrorKind.UNSUPPORTED);
            assertThat(failure("{'prefix':{'t':{'value':'a','rewrite':'scoring_boolean'}}}").kind())
                    .isEqualTo(ErrorKind.UNSUPPORTED);
        }

        @Test
        void fuzzyDefaultsToAuto() {
            Query.Fuzzy f = (Query.Fuzzy) q("{'fuzzy':{'t':'quikc'}}");
            assertThat(f.fuzziness()).isEqualTo(new Fuzziness.Auto(3, 6));
            assertThat(f.maxExpansions()).isEqualTo(50);
            assertThat(f.transpositions()).isTrue();
            Query.Fuzzy two = (Query.Fuzzy) q("{'fuzzy':{'t':{'value':'x','fuzziness':2,'prefix_length':1}}}");
            assertThat(two.fuzziness()).isEqualTo(new Fuzziness.Fixed(2));
            assertThat(two.prefixLength()).isEqualTo(1);
        }
    }

    @Nested
    class Compound {
        @Test
        void boolClausesMayBeOneOrMany() {
            Query.Bool b = (Query.Bool) q("{'bool':{'must':{'term':{'a':1}},'filter':[{'term':{'b':2}}],"
                    + "'should':[{'term':{'c':3}},{'term':{'d':4}}],'must_not':{'exists':{'field':'e'}},"
                    + "'minimum_should_match':'50%','boost':2}}");
            assertThat(b.must()).hasSize(1);
            assertThat(b.filter()).hasSize(1);
            assertThat(b.should()).hasSize(2);
            assertThat(b.mustNot()).containsExactly(new Query.Exists("e", 1f));
            assertThat(b.minimumShouldMatch()).isEqualTo(new MinimumShouldMatch.Percent(50));
            assertThat(b.boost()).isEqualTo(2f);
            assertThat(failure("{'bool':{'mustnt':[]}}").reason()).isEqualTo("[bool] query does not support [mustnt]");
            assertThat(failure("{'bool':{'must':{'nope':{}}}}").reason()).isEqualTo("unknown query [nope]");
        }

        @Test
        void constantScoreBoostingAndDisMax() {
            assertThat(q("{'constant_score':{'filter':{'term':{'a':1}},'boost':1.5}}"))
                    .isEqualTo(new Query.ConstantScore(new Query.Term("a", v("1"), false, 1f), 1.5f));
            assertThat(failure("{'constant_score':{}}").reason()).isEqualTo("[constant_score] requires a 'filter' element");
            Query.Boosting boosting = (Query.Boosting) q("{'boosting':{'positive':{'match_all':{}},"
                    + "'negative':{'term':{'a':1}},'negative_boost':0.2}}");
            assertThat(boosting.negativeBoost()).isEqualTo(0.2f);
            assertThat(failure("{'boosting':{'positive':{'match_all':{}},'negative':{'match_all':{}}}}").kind())
                    .isEqualTo(ErrorKind.PARSING);
            Query.DisMax dm = (Query.DisMax) q("{'dis_max':{'queries':[{'term':{'a':1}},{'term':{'b':1}}],"
                    + "'tie_breaker':0.3}}");
            assertThat(dm.queries()).hasSize(2);
            assertThat(dm.tieBreaker()).isEqualTo(0.3f);
        }
    }

    @Nested
    class FullText {
        @Test
        void matchWithOperatorMinimumShouldMatchAndFuzziness() {
            Query.Match m = (Query.Match) q("{'match':{'title':{'query':'quick fox','operator':'AND',"
                    + "'minimum_should_match':-1,'fuzziness':'AUTO:2,5'}}}");
            assertThat(m.operator()).isEqualTo(Query.Operator.AND);
            assertThat(m.minimumShouldMatch()).isEqualTo(new MinimumShouldMatch.Count(-1));
            assertThat(m.fuzziness()).contains(new Fuzziness.Auto(2, 5));
            assertThat(((Query.Match) q("{'match':{'title':'quick'}}")).text()).isEqualTo("quick");
            assertThat(((Query.Match) q("{'match':{'n':5}}")).text()).isEqualTo("5");
            assertThat(((Query.Match) q("{'match':{'t':{'query':'x','analyzer':'english'}}}")).analyzer())
                    .contains("english");
            assertThat(((Query.MatchPhrase) q("{'match_phrase':{'t':{'query':'x','analyzer':'simple'}}}"))
                    .analyzer()).contains("simple");
            assertThat(((Query.MultiMatch) q("{'multi_match':{'query':'x','fields':['t'],'analyzer':'english'}}"))
                    .analyzer()).contains("english");
            Query.QueryString qs = (Query.QueryString) q("{'query_string':{'query':'a \\\"b c\\\"',"
                    + "'default_field':'t','analyzer':'whitespace','quote_analyzer':'stop'}}");
            assertThat(qs.analyzer()).contains("whitespace");
            assertThat(qs.quoteAnalyzer()).contains("stop");
            assertThat(qs.parsed().tree().toString()).contains("analyzer=Optional[whitespace]")
                    .contains("analyzer=Optional[stop]");
            assertThat(failure("{'match':{'t':{'query':'x','operator':'xor'}}}").kind())
                    .isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
        }

        @Test
        void phrasesAndMultiMatch() {
            assertThat(q("{'match_phrase':{'t':{'query':'a b','slop':2}}}"))
                    .isEqualTo(new Query.MatchPhrase("t", "a b", 2, Query.ZeroTermsQuery.NONE, 1f));
            assertThat(q("{'match_phrase_prefix':{'t':'a b'}}"))
                    .isEqualTo(new Query.MatchPhrasePrefix("t", "a b", 0, 50, 1f));
            Query.MultiMatch mm = (Query.MultiMatch) q("{'multi_match':{'query':'x','fields':['title^3','body'],"
                    + "'type':'most_fields'}}");
            assertThat(mm.fields()).containsExactly(new Query.BoostedField("title", 3f),
                    new Query.BoostedField("body", 1f));
            assertThat(mm.type()).isEqualTo(Query.MultiMatchType.MOST_FIELDS);
            assertThat(failure("{'multi_match':{'query':'x','type':'cross_fields'}}").kind())
                    .isEqualTo(ErrorKind.UNSUPPORTED);
            assertThat(failure("{'multi_match':{'query':'x','type':'weird'}}").kind()).isEqualTo(ErrorKind.PARSING);
        }

        @Test
        void queryStrings() {
            Query.QueryString qs = (Query.QueryString) q("{'query_string':{'query':'a AND b','default_field':'t',"
                    + "'default_operator':'and'}}");
            assertThat(qs.fields()).containsExactly(new Query.BoostedField("t", 1f));
            assertThat(qs.defaultOperator()).isEqualTo(Query.Operator.AND);
            assertThat(qs.simple()).isFalse();
            assertThat(((Query.QueryString) q("{'simple_query_string':{'query':'a'}}")).simple()).isTrue();
            assertThat(failure("{'query_string':{}}").reason())
                    .isEqualTo("[query_string] must be provided with a [query]");
        }
    }

    @Nested
    class Vectors {
        @Test
        void knnQueryWithDefaults() {
            Query.Knn knn = (Query.Knn) q("{'knn':{'field':'v','query_vector':[1,0.5],'k':5,"
                    + "'filter':{'term':{'a':1}},'similarity':0.7}}");
            assertThat(knn.queryVector()).containsExactly(1f, 0.5f);
            assertThat(knn.k()).isEqualTo(5);
            assertThat(knn.numCandidates()).isEqualTo(10);
            assertThat(knn.filter()).hasSize(1);
            assertThat(knn.similarity()).contains(0.7f);
            assertThat(VectorQueries.knn(v("{'field':'v','query_vector':[1]}"), Optional.of(40)).numCandidates())
                    .isEqualTo(60);
            assertThat(failure("{'knn':{'field':'v','query_vector':[1],'k':20,'num_candidates':5}}").reason())
                    .isEqualTo("[num_candidates] cannot be less than [k]");
            assertThat(failure("{'knn':{'field':'v','query_vector':[]}}").kind()).isEqualTo(ErrorKind.PARSING);
            assertThat(failure("{'knn':{'field':'v','query_vector_builder':{}}}").kind())
                    .isEqualTo(ErrorKind.UNSUPPORTED);
        }
    }

    @Nested
    class Shared {
        @Test
        void minimumShouldMatchRoundsAsElasticsearch() {
            assertThat(MinimumShouldMatch.parse(v("2")).required(3)).isEqualTo(2);
            assertThat(MinimumShouldMatch.parse(v("-1")).required(3)).isEqualTo(2);
            assertThat(MinimumShouldMatch.parse(v("'75%'")).required(3)).isEqualTo(2);
            assertThat(MinimumShouldMatch.parse(v("'-25%'")).required(4)).isEqualTo(3);
            assertThat(MinimumShouldMatch.parse(v("'-25%'")).required(3)).isEqualTo(3);
            assertThat(MinimumShouldMatch.parse(v("7")).required(3)).as("more than there are: not capped")
                    .isEqualTo(7);
            assertThat(MinimumShouldMatch.parse(v("'150%'")).required(2)).isEqualTo(3);
            assertThat(MinimumShouldMatch.parse(v("-7")).required(3)).isEqualTo(0);
            assertThat(MinimumShouldMatch.parse(v("'50%'")).required(1)).isEqualTo(0);
            assertThat(MinimumShouldMatch.parse(v("'-50%'")).required(3)).as("all but 1.5, truncated").isEqualTo(2);
            assertThat(MinimumShouldMatch.parse(v("'-100%'")).required(3)).isEqualTo(0);
            assertThat(MinimumShouldMatch.parse(v("' 2 '")).required(3)).isEqualTo(2);
        }

        @Test
        void percentagesAreComputedInFloatAsElasticsearch() {
            // Elasticsearch: (int) ((clauses * percent) * (1 / 100f)), all but the truncated share when negative
            for (int clauses = 0; clauses <= 40; clauses++) {
                for (int percent = -150; percent <= 150; percent++) {
                    float share = (clauses * percent) * 0.01f;
                    int expected = Math.max(0, share < 0 ? clauses + (int) share : (int) share);
                    assertThat(new MinimumShouldMatch.Percent(percent).required(clauses)).isEqualTo(expected);
                }
            }
            assertThat(new MinimumShouldMatch.Percent(29).required(100)).isEqualTo(29);
            assertThat(new MinimumShouldMatch.Percent(-34).required(3)).isEqualTo(2);
        }

        @Test
        void conditionalFormsAsElasticsearch() {
            MinimumShouldMatch m = MinimumShouldMatch.parse(v("'3<90%'"));
            assertThat(m).isEqualTo(new MinimumShouldMatch.Conditional(List.of(new MinimumShouldMatch.Step(3,
                    new MinimumShouldMatch.Percent(90)))));
            assertThat(List.of(m.required(0), m.required(2), m.required(3), m.required(4), m.required(10)))
                    .as("all up to 3, then 90%").containsExactly(0, 2, 3, 3, 9);
            MinimumShouldMatch two = MinimumShouldMatch.parse(v("'2<-25% 9<-3'"));
            assertThat(List.of(two.required(1), two.required(2), two.required(3), two.required(8), two.required(9),
                    two.required(10), two.required(12))).containsExactly(1, 2, 3, 6, 7, 7, 9);
            assertThat(MinimumShouldMatch.parse(v("'2 < 50%'")).required(4)).isEqualTo(2);
            assertThat(MinimumShouldMatch.parse(v("'1<-1'")).required(1)).isEqualTo(1);
            assertThat(MinimumShouldMatch.parse(v("'1<-1'")).required(2)).isEqualTo(1);
            for (String bad : List.of("'3<'", "'<2'", "'a<2'", "'2<x'", "'1.5'", "'abc'", "'2<3<4'")) {
                assertThatThrownBy(() -> MinimumShouldMatch.parse(v(bad))).as(bad).isInstanceOfSatisfying(
                        GatewayException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT));
            }
        }

        @Test
        void fuzzinessAutoBoundaries() {
            Fuzziness auto = Fuzziness.parse(v("'AUTO'"), "t");
            assertThat(List.of(auto.editsFor(2), auto.editsFor(3), auto.editsFor(5), auto.editsFor(6)))
                    .containsExactly(0, 1, 1, 2);
            assertThat(Fuzziness.parse(v("1"), "t")).isEqualTo(new Fuzziness.Fixed(1));
            assertThatThrownBy(() -> Fuzziness.parse(v("3"), "t")).isInstanceOf(GatewayException.class);
        }
    }
}
