package io.qdrant.esgateway.adapter.in.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.json.Json;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code filter_path} on answer trees, each expectation Elasticsearch 8.15's answer to the same filter (the compat
 * scenario {@code filter-path} checks them against the engine too).
 */
class FilterPathTest {
    private static final String HITS = """
            {"took":1,"hits":{"total":{"value":2,"relation":"eq"},"hits":[
             {"_id":"1","_source":{"tag":["a","b"],"o":{"x":1,"y":{"z":2}},"e":{}}},
             {"_id":"2","_source":{"arr":[{"k":1},{"k":2,"j":3}],"sc":[1,[2,3]],"e":{}}}]}}""";

    private static String filter(String path, String json) {
        return FilterPath.parse(path).orElseThrow().apply(Json.parse(json)).map(Json::write).orElse("<empty>");
    }

    @Test
    void includesKeepWhatAPathReachesAndTheObjectsOnTheWay() {
        assertThat(filter("hits.hits._id", HITS)).isEqualTo("{\"hits\":{\"hits\":[{\"_id\":\"1\"},{\"_id\":\"2\"}]}}");
        assertThat(filter("hits.hits._source.tag", HITS))
                .isEqualTo("{\"hits\":{\"hits\":[{\"_source\":{\"tag\":[\"a\",\"b\"]}}]}}");
        assertThat(filter("hits.hits._source.arr.k", HITS))
                .isEqualTo("{\"hits\":{\"hits\":[{\"_source\":{\"arr\":[{\"k\":1},{\"k\":2}]}}]}}");
        assertThat(filter("hits.hits._source.sc.x", HITS)).isEqualTo("{}");
        assertThat(filter("hits.hits._source.e", HITS))
                .isEqualTo("{\"hits\":{\"hits\":[{\"_source\":{\"e\":{}}},{\"_source\":{\"e\":{}}}]}}");
        assertThat(filter("nope", HITS)).isEqualTo("{}");
        assertThat(filter("took,nope.x", HITS)).isEqualTo("{\"took\":1}");
    }

    @Test
    void wildcards() {
        assertThat(filter("**._id", HITS)).isEqualTo(filter("hits.hits._id", HITS));
        assertThat(filter("hits.**.z", HITS))
                .isEqualTo("{\"hits\":{\"hits\":[{\"_source\":{\"o\":{\"y\":{\"z\":2}}}}]}}");
        assertThat(filter("hits.hits.**.k", HITS)).isEqualTo(filter("hits.hits._source.arr.k", HITS));
        assertThat(filter("hits.*.value", HITS)).isEqualTo("{\"hits\":{\"total\":{\"value\":2}}}");
        assertThat(filter("**", HITS)).isEqualTo(Json.write(Json.parse(HITS)));
        assertThat(filter("*", HITS)).isEqualTo(Json.write(Json.parse(HITS)));
        assertThat(filter("hits.hits._s*ce.t*g,hits.hits._source.a*", HITS))
                .isEqualTo("{\"hits\":{\"hits\":[{\"_source\":{\"tag\":[\"a\",\"b\"]}},"
                        + "{\"_source\":{\"arr\":[{\"k\":1},{\"k\":2,\"j\":3}]}}]}}");
        assertThat(filter("hits.hits._source.t?g", HITS)).isEqualTo("{}");
    }

    @Test
    void excludesDropWhatAPathReachesAndWhatTheyLeaveEmpty() {
        assertThat(filter("-hits", HITS)).isEqualTo("{\"took\":1}");
        assertThat(filter("-**", HITS)).isEqualTo("{}");
        assertThat(filter("-hits.hits._source.arr.k", HITS)).contains("\"arr\":[{\"j\":3}]");
        assertThat(filter("-hits.hits._source.arr.k,-hits.hits._source.arr.j", HITS)).doesNotContain("arr");
        assertThat(filter("-hits.hits._source.o.x,-hits.hits._source.o.y", HITS)).doesNotContain("\"o\"")
                .contains("\"e\":{}");
        // an object on an exclusion's way that ends up empty goes, also one that was empty already
        assertThat(filter("-hits.hits._source.e.q", HITS)).doesNotContain("\"e\"").contains("\"o\":{");
        assertThat(filter("-**.x", HITS)).doesNotContain("\"e\"").contains("\"o\":{\"y\":{\"z\":2}}");
        assertThat(filter("-hits.hits._source.sc.x", HITS)).contains("\"sc\":[1,[2,3]]");
    }

    @Test
    void includesThenExcludes() {
        assertThat(filter("hits.total,-hits.total.relation", HITS)).isEqualTo("{\"hits\":{\"total\":{\"value\":2}}}");
        assertThat(filter("took,-took", HITS)).isEqualTo("{}");
        assertThat(filter("hits.hits._source.o,-hits.hits._source.o.x", HITS))
                .isEqualTo("{\"hits\":{\"hits\":[{\"_source\":{\"o\":{\"y\":{\"z\":2}}}}]}}");
    }

    @Test
    void rootArraysAndParsing() {
        String cat = "[{\"index\":\"a\",\"docs.count\":\"1\"},{\"index\":\"b\",\"docs.count\":\"2\"}]";
        assertThat(filter("index", cat)).isEqualTo("[{\"index\":\"a\"},{\"index\":\"b\"}]");
        assertThat(filter("docs.count", cat)).isEqualTo("<empty>");
        assertThat(filter(" count , ,_shards.total", "{\"count\":1,\"_shards\":{\"total\":1,\"failed\":0}}"))
                .isEqualTo("{\"count\":1,\"_shards\":{\"total\":1}}");
        assertThat(filter("_shards..total", "{\"_shards\":{\"total\":1}}")).isEqualTo("{}");
        assertThat(FilterPath.parse("")).isEqualTo(Optional.empty());
        assertThat(FilterPath.parse(" , ")).isEqualTo(Optional.empty());
    }

    @Test
    void globs() {
        assertThat(FilterPath.glob("a*b*c", "axxbyyc")).isTrue();
        assertThat(FilterPath.glob("a*b*c", "axxbyy")).isFalse();
        assertThat(FilterPath.glob("*ab", "ab")).isTrue();
        assertThat(FilterPath.glob("a*a", "a")).isFalse();
        assertThat(FilterPath.glob("**", "")).isTrue();
        assertThat(FilterPath.glob("x", "xy")).isFalse();
    }
}
