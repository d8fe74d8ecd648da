package io.qdrant.esgateway.domain.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.document.SourceFilter;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.sort.SortSpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SearchRequestParserTest {

    static SearchRequest parse(String body, Map<String, String> params) {
        return SearchRequestParser.parse(Optional.ofNullable(body).map(b -> Json.parse(b.replace('\'', '"'))), params);
    }

    static ErrorKind kindOf(String body) {
        try {
            parse(body, Map.of());
        } catch (GatewayException e) {
            return e.kind();
        }
        throw new AssertionError("no failure for " + body);
    }

    @Test
    void defaults() {
        SearchRequest r = parse(null, Map.of());
        assertThat(r.query()).isEmpty();
        assertThat(r.from()).isZero();
        assertThat(r.size()).isEqualTo(10);
        assertThat(r.sort()).isEmpty();
        assertThat(r.trackTotalHits()).isEqualTo(new TrackTotalHits.UpTo(10_000));
        assertThat(r.source()).isEqualTo(SourceFilter.ALL);
        assertThat(r.sortsByScore()).isTrue();
    }

    @Test
    void bodyFields() {
        SearchRequest r = parse("{'query':{'term':{'a':1}},'from':5,'size':2,'sort':['b',{'c':'desc'},"
                + "{'d':{'order':'asc','missing':'_first','mode':'max','unmapped_type':'long'}},'_score'],"
                + "'_source':['x'],'track_total_hits':true,'track_scores':true}", Map.of());
        assertThat(r.query()).contains(new Query.Term("a", JsonValue.number(1), false, 1f));
        assertThat(r.from()).isEqualTo(5);
        assertThat(r.size()).isEqualTo(2);
        assertThat(r.sort()).containsExactly(
                new SortSpec.Field("b", SortSpec.Order.ASC, new SortSpec.Missing.Last(), Optional.empty(),
                        Optional.empty(), Optional.empty()),
                new SortSpec.Field("c", SortSpec.Order.DESC, new SortSpec.Missing.Last(), Optional.empty(),
                        Optional.empty(), Optional.empty()),
                new SortSpec.Field("d", SortSpec.Order.ASC, new SortSpec.Missing.First(),
                        Optional.of(SortSpec.Mode.MAX), Optional.of("long"), Optional.empty()),
                new SortSpec.Score(SortSpec.Order.DESC));
        assertThat(r.source().includes()).containsExactly("x");
        assertThat(r.trackTotalHits()).isEqualTo(new TrackTotalHits.Exact());
        assertThat(r.trackScores()).isTrue();
        assertThat(r.needsScores()).isTrue();
        assertThat(((SortSpec.Field) r.sort().get(0)).effectiveMode()).isEqualTo(SortSpec.Mode.MIN);
        assertThat(((SortSpec.Field) r.sort().get(1)).effectiveMode()).isEqualTo(SortSpec.Mode.MAX);
    }

    @Test
    void urlParametersOverrideTheBody() {
        SearchRequest r = parse("{'size':2,'query':{'match_all':{}}}", Map.of("size", "7", "from", "1",
                "q", "title:dune", "sort", "year:desc,_score", "track_total_hits", "false", "_source", "false"));
        assertThat(r.size()).isEqualTo(7);
        assertThat(r.from()).isEqualTo(1);
        assertThat(r.query().orElseThrow()).isInstanceOf(Query.QueryString.class);
        assertThat(r.sort()).hasSize(2);
        assertThat(r.sort().get(0).order()).isEqualTo(SortSpec.Order.DESC);
        assertThat(r.trackTotalHits()).isEqualTo(new TrackTotalHits.Disabled());
        assertThat(r.source().fetch()).isFalse();
    }

    @Test
    void searchAfterNeedsASortOfTheSameLengthAndFromZero() {
        SearchRequest r = parse("{'sort':['a','b'],'search_after':[1,'x']}", Map.of());
        assertThat(r.searchAfter()).contains(List.of(JsonValue.number(1), JsonValue.string("x")));
        assertThatThrownBy(() -> parse("{'sort':['a'],'search_after':[1],'from':2}", Map.of()))
                .hasMessage("Validation Failed: 1: [from] parameter must be set to 0 when [search_after] is used;");
        assertThat(parse("{'sort':['a'],'search_after':[1,2]}", Map.of()).searchAfterProblem())
                .contains("search_after has 2 value(s) but sort has 1.");
        assertThat(parse("{'search_after':[1]}", Map.of()).searchAfterProblem())
                .contains("Sort must contain at least one field.");
        assertThat(r.searchAfterProblem()).isEmpty();
    }

    @Test
    void knnSectionsTakeTheirKFromSize() {
        SearchRequest r = parse("{'size':3,'knn':{'field':'v','query_vector':[1,0]}}", Map.of());
        assertThat(r.knn()).hasSize(1);
        assertThat(r.knn().get(0).k()).isEqualTo(3);
        assertThat(parse("{'knn':[{'field':'v','query_vector':[1],'k':2},{'field':'w','query_vector':[0],'k':1}]}",
                Map.of()).knn()).hasSize(2);
    }

    @Test
    void unknownAndUnsupportedKeys() {
        assertThat(kindOf("{'quary':{}}")).isEqualTo(ErrorKind.PARSING);
        assertThatThrownBy(() -> parse("{'quary':{}}", Map.of())).hasMessage("Unknown key for a START_OBJECT in [quary].");
        assertThat(kindOf("{'aggs':{'x':{'geo_bounds':{'field':'f'}}}}")).isEqualTo(ErrorKind.UNSUPPORTED);
        assertThat(kindOf("{'highlight':{'type':'fvh','fields':{'a':{}}}}")).isEqualTo(ErrorKind.UNSUPPORTED);
        assertThat(parse("{'highlight':{'fields':{'a':{}}}}", Map.of()).highlight()).isPresent();
        // Elasticsearch 8.15's types and messages
        assertThat(kindOf("{'size':-1}")).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
        assertThatThrownBy(() -> parse("{'size':-1}", Map.of()))
                .hasMessage("[size] parameter cannot be negative, found [-1]");
        assertThat(kindOf("{'from':-1}")).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
        assertThatThrownBy(() -> parse("{'from':-1}", Map.of()))
                .hasMessage("[from] parameter cannot be negative but was [-1]");
        assertThat(kindOf("{'sort':[{'a':{'order':'up'}}]}")).isEqualTo(ErrorKind.X_CONTENT_PARSE);
        assertThatThrownBy(() -> parse("{'sort':[{'a':{'order':'up'}}]}", Map.of()))
                .hasMessage("[field_sort] failed to parse field [order]")
                .cause().hasMessage("No enum constant org.elasticsearch.search.sort.SortOrder.UP");
        assertThat(kindOf("{'sort':[{'a':'sideways'}]}")).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
        assertThat(kindOf("{'sort':['_geo_distance']}")).isEqualTo(ErrorKind.UNSUPPORTED);
        assertThat(kindOf("{'track_total_hits':-5}")).isEqualTo(ErrorKind.ACTION_REQUEST_VALIDATION);
    }
}
