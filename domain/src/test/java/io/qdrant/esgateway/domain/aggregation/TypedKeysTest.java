package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.parse.AggregationParser;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code typed_keys=true}: every aggregation answer named {@code <type>#<name>} with Elasticsearch 8.15's type names
 * ({@code sterms}/{@code lterms}/{@code dterms} by field type, {@code sterms} for an unmapped field,
 * {@code tdigest_percentiles}, …), at every depth, and otherwise the same answer.
 */
class TypedKeysTest {
    private static final List<MemoryDoc> DOCS = List.of(
            new MemoryDoc("1").keyword("brand", "a").longs("n", 1).doubles("price", 1.5).longs("d", 86_400_000L)
                    .longs("flag", 1).filters(true, false),
            new MemoryDoc("2").keyword("brand", "b", "a").doubles("price", 2.5).filters(false, false),
            new MemoryDoc("3").longs("n", 3, 3).longs("flag", 0).filters(true, true),
            new MemoryDoc("4").keyword("brand", "c").longs("n", 2).longs("d", 0L).filters(false, true));

    private static final String SUBS = """
            "aggs":{"avg":{"avg":{"field":"n"}},"inner":{"terms":{"field":"n"},
                    "aggs":{"mx":{"max":{"field":"price"}}}}}""";

    private static final String AGGS = """
            {"t_kw":{"terms":{"field":"brand"},%1$s},
             "t_long":{"terms":{"field":"n"}},
             "t_double":{"terms":{"field":"price"}},
             "t_date":{"terms":{"field":"d"}},
             "t_bool":{"terms":{"field":"flag"}},
             "t_none":{"terms":{"field":"nope"}},
             "t_none_missing":{"terms":{"field":"nope","missing":"x"}},
             "a":{"avg":{"field":"n"}},"s":{"sum":{"field":"n"}},"mn":{"min":{"field":"n"}},"mx":{"max":{"field":"n"}},
             "vc":{"value_count":{"field":"brand"}},"card":{"cardinality":{"field":"brand"}},
             "st":{"stats":{"field":"n"}},"est":{"extended_stats":{"field":"n"}},
             "pct":{"percentiles":{"field":"n"}},
             "h":{"histogram":{"field":"n","interval":1},%1$s},
             "dh":{"date_histogram":{"field":"d","calendar_interval":"day"},%1$s},
             "r":{"range":{"field":"n","ranges":[{"to":2},{"from":2}]},%1$s},
             "dr":{"date_range":{"field":"d","ranges":[{"to":"now"}]},%1$s},
             "f":{"filter":{"term":{"brand":"a"}},%1$s},
             "fs":{"filters":{"filters":{"x":{"match_all":{}},"y":{"match_all":{}}}},%1$s},
             "afs":{"filters":{"filters":[{"match_all":{}}],"other_bucket":true,"keyed":false},%1$s},
             "comp":{"composite":{"sources":[{"b":{"terms":{"field":"brand"}}}]},%1$s},
             "th":{"top_hits":{"size":1}},
             "m":{"missing":{"field":"brand"},%1$s},
             "g":{"global":{},%1$s}}""".formatted(SUBS);

    private static final Map<String, String> TYPES = Map.ofEntries(
            Map.entry("t_kw", "sterms"), Map.entry("t_long", "lterms"), Map.entry("t_double", "dterms"),
            Map.entry("t_date", "lterms"), Map.entry("t_bool", "lterms"), Map.entry("t_none", "sterms"),
            Map.entry("t_none_missing", "sterms"), Map.entry("a", "avg"), Map.entry("s", "sum"),
            Map.entry("mn", "min"), Map.entry("mx", "max"), Map.entry("vc", "value_count"),
            Map.entry("card", "cardinality"), Map.entry("st", "stats"), Map.entry("est", "extended_stats"),
            Map.entry("pct", "tdigest_percentiles"), Map.entry("h", "histogram"), Map.entry("dh", "date_histogram"),
            Map.entry("r", "range"), Map.entry("dr", "date_range"), Map.entry("f", "filter"),
            Map.entry("fs", "filters"), Map.entry("afs", "filters"), Map.entry("comp", "composite"),
            Map.entry("th", "top_hits"), Map.entry("m", "missing"), Map.entry("g", "global"));

    private static NamedPartials collect(String aggs, Mappings mappings, List<MemoryDoc> docs) {
        AggregationPlan plan = AggregationPlan.of("idx", AggregationParser.parse(Json.parse(aggs)), mappings, () -> 0L);
        NamedPartials all = plan.allDocuments().map(p -> Reduction.collectOnce(p, docs)).orElse(NamedPartials.EMPTY);
        return plan.complete(Reduction.collectOnce(plan, docs), all);
    }

    @Test
    void everyAggregationIsNamedWithItsElasticsearchTypeAtTheTopLevel() {
        JsonObject typed = collect(AGGS, PartitionedReduceTest.MAPPINGS, DOCS).render(true);
        List<String> expected = new ArrayList<>();
        obj(Json.parse(AGGS)).members().keySet().forEach(name -> expected.add(TYPES.get(name) + "#" + name));
        assertThat(typed.members().keySet()).containsExactlyElementsOf(expected);
    }

    @Test
    void subAggregationsAreTypedInsideEveryBucketAndSingleBucket() {
        JsonObject typed = collect(AGGS, PartitionedReduceTest.MAPPINGS, DOCS).render(true);
        int[] seen = {0};
        for (String parent : List.of("sterms#t_kw", "histogram#h", "date_histogram#dh", "range#r", "date_range#dr",
                "filters#fs", "filters#afs", "composite#comp")) {
            JsonValue buckets = obj(typed.members().get(parent)).members().get("buckets");
            List<JsonValue> each = buckets instanceof JsonArray a ? a.elements()
                    : List.copyOf(obj(buckets).members().values());
            assertThat(each).as(parent).isNotEmpty();
            for (JsonValue bucket : each) {
                assertTypedSubs(parent, obj(bucket));
                seen[0]++;
            }
        }
        for (String single : List.of("filter#f", "missing#m", "global#g")) {
            assertTypedSubs(single, obj(typed.members().get(single)));
            seen[0]++;
        }
        assertThat(seen[0]).isGreaterThan(15);
    }

    private static JsonObject obj(JsonValue value) {
        return (JsonObject) value;
    }

    private static void assertTypedSubs(String parent, JsonObject bucket) {
        assertThat(bucket.members()).as(parent).containsKeys("avg#avg", "lterms#inner")
                .doesNotContainKeys("avg", "inner");
        for (JsonValue inner : ((JsonArray) obj(bucket.members().get("lterms#inner")).members().get("buckets"))
                .elements()) {
            assertThat(obj(inner).members()).as(parent).containsKey("max#mx").doesNotContainKey("mx");
        }
    }

    @Test
    void typedAnswersDifferOnlyInTheirNames() {
        NamedPartials partials = collect(AGGS, PartitionedReduceTest.MAPPINGS, DOCS);
        assertThat(Json.write(untype(partials.render(true)))).isEqualTo(Json.write(partials.render(false)));
        assertThat(Json.write(partials.render(false))).doesNotContain("#");
    }

    /** The answer with every {@code type#} prefix of a key removed (no name here contains {@code #}). */
    private static JsonValue untype(JsonValue value) {
        return switch (value) {
            case JsonObject o -> {
                JsonObjectBuilder out = JsonObjectBuilder.object();
                o.members().forEach((k, v) -> out.put(k.substring(k.indexOf('#') + 1), untype(v)));
                yield out.build();
            }
            case JsonArray a -> new JsonArray(a.elements().stream().map(TypedKeysTest::untype).toList());
            default -> value;
        };
    }

    @Test
    void termsTakeTheTypeOfTheIndexWhereTheFieldIsMappedAndFloatingPointWinsOverIntegral() {
        String aggs = "{\"t\":{\"terms\":{\"field\":\"v\"}}}";
        Mappings unmapped = Mappings.parse(Json.parse("{\"properties\":{}}"));
        Mappings longs = Mappings.parse(Json.parse("{\"properties\":{\"v\":{\"type\":\"long\"}}}"));
        Mappings doubles = Mappings.parse(Json.parse("{\"properties\":{\"v\":{\"type\":\"double\"}}}"));
        List<MemoryDoc> docs = List.of(new MemoryDoc("1").longs("v", 3));
        NamedPartials none = collect(aggs, unmapped, docs);
        NamedPartials asLong = collect(aggs, longs, docs);
        NamedPartials asDouble = collect(aggs, doubles, List.of(new MemoryDoc("2").doubles("v", 2.5)));
        assertThat(keys(none)).isEqualTo("sterms#t");
        assertThat(keys(none.merge(asLong))).isEqualTo("lterms#t");
        assertThat(keys(asLong.merge(none))).isEqualTo("lterms#t");
        assertThat(keys(asLong.merge(asDouble))).isEqualTo("dterms#t");
        assertThat(keys(asDouble.merge(asLong))).isEqualTo("dterms#t");
    }

    private static String keys(NamedPartials partials) {
        return String.join(",", partials.render(true).members().keySet());
    }

    @Test
    void metaIsEchoedUnderTypedNames() {
        String aggs = "{\"t\":{\"terms\":{\"field\":\"brand\"},\"meta\":{\"x\":1},"
                + "\"aggs\":{\"s\":{\"sum\":{\"field\":\"n\"},\"meta\":{\"y\":2}}}},"
                + "\"f\":{\"filter\":{\"term\":{\"brand\":\"a\"}},\"aggs\":{\"s\":{\"sum\":{\"field\":\"n\"},"
                + "\"meta\":{\"z\":3}}}}}";
        NamedPartials partials = collect(aggs, PartitionedReduceTest.MAPPINGS, DOCS);
        AggregationMeta meta = AggregationMeta.of(Optional.of(Json.parse(aggs)).map(a -> JsonObjectBuilder.object()
                .put("aggs", a).build()));
        String typed = Json.write(meta.apply(partials.render(true), true));
        assertThat(typed).startsWith("{\"sterms#t\":{\"meta\":{\"x\":1},")
                .contains("\"sum#s\":{\"meta\":{\"y\":2},")
                .contains("\"filter#f\":{\"doc_count\":2,\"sum#s\":{\"meta\":{\"z\":3},");
        assertThat(Json.write(untype(Json.parse(typed)))).isEqualTo(Json.write(meta.apply(partials.render(false))));
    }
}
