package io.qdrant.esgateway.domain.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.aggregation.ValuesDoc;
import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.sort.SortParser;
import io.qdrant.esgateway.domain.sort.SortSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code _script} sorts computed by {@link GatewaySort} and {@code script_fields} computed by {@link ScriptField}. */
class ScriptSortAndFieldsTest {
    private static final Mappings MAPPINGS = Mappings.parse(Json.parse("""
            {"properties":{"k":{"type":"keyword"},"l":{"type":"long"},"d":{"type":"double"},"t":{"type":"date"},
             "x":{"type":"text"}}}"""));

    private static List<String> order(String sort, float[] scores, String... sources) {
        GatewaySort s = GatewaySort.of("idx", SortParser.parse(Json.parse(sort)), MAPPINGS, () -> 0L);
        List<GatewaySort.Key> keys = new ArrayList<>();
        for (int i = 0; i < sources.length; i++) {
            JsonValue.JsonObject source = (JsonValue.JsonObject) Json.parse(sources[i]);
            ValuesDoc doc = new ValuesDoc("" + i, scores == null ? Float.NaN : scores[i],
                    DocumentParser.parse(MAPPINGS, source, "" + i).values(), f -> false);
            keys.add(s.key(doc, i, source));
        }
        keys.sort(s.order());
        return keys.stream().map(k -> k.position() + "=" + Json.write(new JsonValue.JsonArray(s.render(k))))
                .toList();
    }

    @Test
    void aNumberScriptKeyIsADoubleInEitherDirection() {
        String[] docs = {"{\"l\":[5,1]}", "{\"l\":3}", "{\"l\":[2,9]}"};
        String script = "{\"type\":\"number\",\"script\":{\"source\":\"doc['l'].value * params.k\","
                + "\"params\":{\"k\":-1}}";
        assertThat(order("[{\"_script\":" + script + "}}]", null, docs))
                .containsExactly("1=[-3.0]", "2=[-2.0]", "0=[-1.0]");
        assertThat(order("[{\"_script\":" + script + ",\"order\":\"desc\"}}]", null, docs))
                .containsExactly("0=[-1.0]", "2=[-2.0]", "1=[-3.0]");
    }

    @Test
    void aStringScriptKeyComparesByCodePointAndTiesKeepIndexOrder() {
        assertThat(order("[{\"_script\":{\"type\":\"string\",\"script\":\"params._source.k\"}}, {\"l\":\"desc\"}]",
                null, "{\"k\":\"b\",\"l\":1}", "{\"k\":\"B\",\"l\":1}", "{\"k\":\"b\",\"l\":2}",
                "{\"k\":\"\uD83D\uDE00\"}", "{\"k\":\"B\",\"l\":1}"))
                .containsExactly("1=[\"B\",1]", "4=[\"B\",1]", "2=[\"b\",2]", "0=[\"b\",1]",
                        "3=[\"\uD83D\uDE00\",-9223372036854775808]");
    }

    @Test
    void aSortScriptReadingAVectorFieldIsRefusedByName() {
        Mappings withVector = Mappings.parse(Json.parse(
                "{\"properties\":{\"v\":{\"type\":\"dense_vector\",\"dims\":2}}}"));
        GatewaySort s = GatewaySort.of("idx", SortParser.parse(Json.parse(
                "[{\"_script\":{\"type\":\"number\",\"script\":\"doc['v'].size()\"}}]")), withVector, () -> 0L);
        JsonValue.JsonObject source = (JsonValue.JsonObject) Json.parse("{\"v\":[0.5,0.5]}");
        ValuesDoc doc = new ValuesDoc("0", Float.NaN, DocumentParser.parse(withVector, source, "0").values(),
                f -> false);
        // the gateway's values hold no vectors: a count of 0 would be a wrong answer, so the read is refused
        assertThatThrownBy(() -> s.key(doc, 0, source)).hasStackTraceContaining("dense_vector");
    }

    @Test
    void aSortScriptReadsTheScore() {
        assertThat(order("[{\"_script\":{\"type\":\"number\",\"script\":\"_score * 2\"}}]", new float[] {1f, 3f, 2f},
                "{}", "{}", "{}")).containsExactly("0=[2.0]", "2=[4.0]", "1=[6.0]");
    }

    @Test
    void searchAfterReadsScriptKeys() {
        GatewaySort s = GatewaySort.of("idx", SortParser.parse(Json.parse(
                "[{\"_script\":{\"type\":\"number\",\"script\":\"1\"}},{\"_script\":{\"type\":\"string\","
                        + "\"script\":\"'a'\"}}]")), MAPPINGS, () -> 0L);
        Object[] after = s.parseAfter(List.of(new JsonValue.JsonNumber(1.0), new JsonValue.JsonString("a")));
        assertThat(after).containsExactly(1.0, "a");
        assertThatThrownBy(() -> s.parseAfter(List.of(new JsonValue.JsonString("x"), new JsonValue.JsonString("a"))))
                .hasMessageContaining("Failed to parse search_after value [x] for sort field [_script]");
    }

    @Test
    void aScriptOfTheWrongTypeFailsAtRunTime() {
        assertThatThrownBy(() -> order("[{\"_script\":{\"type\":\"number\",\"script\":\"params._source.k\"}}]", null,
                "{\"k\":\"a\"}")).isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ErrorKind.SCRIPT);
                    assertThat(((GatewayException) e.getCause()).getMessage())
                            .isEqualTo("cannot implicitly cast def [java.lang.String] to double");
                });
        assertThatThrownBy(() -> order("[{\"_script\":{\"type\":\"string\",\"script\":\"doc['l'].value\"}}]", null,
                "{\"l\":1}")).isInstanceOfSatisfying(GatewayException.class, e ->
                assertThat(((GatewayException) e.getCause()).getMessage())
                        .isEqualTo("cannot implicitly cast def [long] to java.lang.String"));
    }

    @Test
    void theSortParserReadsScriptSortsWithElasticsearchsErrors() {
        List<SortSpec> sort = SortParser.parse(Json.parse("[{\"_script\":{\"type\":\"STRING\",\"script\":{\"id\":"
                + "\"s\"},\"order\":\"desc\"}}]"));
        assertThat(sort.get(0)).isInstanceOfSatisfying(SortSpec.Script.class, s -> {
            assertThat(s.type()).isEqualTo(SortSpec.ScriptType.STRING);
            assertThat(s.source()).isNull();
            assertThat(s.script().id()).contains("s");
            assertThat(s.order()).isEqualTo(SortSpec.Order.DESC);
        });
        assertThatThrownBy(() -> SortParser.parse(Json.parse("[{\"_script\":{\"script\":\"1\"}}]")))
                .hasMessage("Required [type]");
        assertThatThrownBy(() -> SortParser.parse(Json.parse("[{\"_script\":{\"type\":\"number\"}}]")))
                .hasMessage("Required [script]");
        assertThatThrownBy(() -> SortParser.parse(Json.parse("[{\"_script\":{}}]")))
                .hasMessage("Required [script, type]");
        assertThatThrownBy(() -> SortParser.parse(Json.parse("[{\"_script\":{\"type\":\"foo\",\"script\":\"1\"}}]")))
                .hasMessage("[_script] failed to parse field [type]")
                .cause().hasMessage("Unknown ScriptSortType [foo]");
        assertThatThrownBy(() -> SortParser.parse(Json.parse("[{\"_script\":{\"type\":\"number\",\"script\":\"1\","
                + "\"bar\":1}}]"))).hasMessage("[_script] unknown field [bar]");
        assertThatThrownBy(() -> SortParser.parse(Json.parse("[{\"_script\":{\"typ\":\"number\"}}]")))
                .hasMessage("[_script] unknown field [typ] did you mean [type]?");
        assertThatThrownBy(() -> SortParser.parse(Json.parse("[{\"f\":{\"mode\":\"foo\"}}]")))
                .hasMessage("[field_sort] failed to parse field [mode]")
                .cause().hasMessage("Unknown SortMode [foo]");
        assertThatThrownBy(() -> SortParser.parse(Json.parse("[{\"f\":{\"oodeo\":1}}]")))
                .hasMessage("[field_sort] unknown field [oodeo] did you mean any of [mode, order]?");
        // _score takes only an order; _doc is a field sort to Elasticsearch's parser
        assertThatThrownBy(() -> SortParser.parse(Json.parse("[{\"_score\":{\"mode\":\"min\"}}]")))
                .hasMessage("[_score] unknown field [mode]");
        assertThatThrownBy(() -> SortParser.parse(Json.parse("[{\"_doc\":{\"order\":\"up\"}}]")))
                .hasMessage("[field_sort] failed to parse field [order]");
        // a stored script not yet read from the catalog cannot be run
        assertThatThrownBy(() -> GatewaySort.of("idx", sort, MAPPINGS, () -> 0L))
                .isInstanceOfSatisfying(GatewayException.class, e ->
                        assertThat(e.kind()).isEqualTo(ErrorKind.UNSUPPORTED));
    }

    private static Map<String, List<JsonValue>> fields(String scriptFields, String source) {
        return ScriptField.values("idx", "1", (JsonValue.JsonObject) Json.parse(source), MAPPINGS,
                ScriptField.parse(Json.parse(scriptFields)));
    }

    @Test
    void scriptFieldsRenderCollectionsAsTheirElementsAndOtherValuesAsOne() {
        Map<String, List<JsonValue>> out = fields("""
                {"a":{"script":{"source":"doc['l'].value * params.k","params":{"k":2}}},
                 "b":{"script":"params._source.k"}, "c":{"script":"null"}, "e":{"script":"[1,[2,3]]"},
                 "m":{"script":"['z':doc['l'].size()]"}, "all":{"script":"doc['l']"},
                 "t":{"script":"doc['t'].value"}}""",
                "{\"l\":[7,3],\"k\":[\"y\",\"x\"],\"t\":\"2024-01-02T03:04:05.5Z\"}");
        Map<String, JsonValue> rendered = new java.util.LinkedHashMap<>();
        out.forEach((name, values) -> rendered.put(name, new JsonValue.JsonArray(values)));
        assertThat(Json.write(new JsonValue.JsonObject(rendered)))
                .isEqualTo("{\"a\":[6],\"b\":[\"y\",\"x\"],\"c\":[null],\"e\":[1,[2,3]],\"m\":[{\"z\":2}],"
                        + "\"all\":[3,7],\"t\":[\"2024-01-02T03:04:05.500Z\"]}");
    }

    @Test
    void ignoreFailureLeavesTheFieldOutAndOtherwiseTheFailureIsThrown() {
        assertThat(fields("{\"d\":{\"script\":\"doc['d'].value\",\"ignore_failure\":true},\"l\":{\"script\":\"1\"}}",
                "{}")).containsOnlyKeys("l");
        assertThatThrownBy(() -> fields("{\"d\":{\"script\":\"doc['d'].value\"}}", "{}"))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.SCRIPT))
                .hasMessage("runtime error");
    }

    @Test
    void aFieldScriptHasNoScoreAndTheParserChecksItsShape() {
        assertThatThrownBy(() -> fields("{\"s\":{\"script\":\"_score\"}}", "{}"))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.getMessage()).isEqualTo("compile error");
                    assertThat(e.getCause().getMessage()).isEqualTo("cannot resolve symbol [_score]");
                });
        assertThatThrownBy(() -> ScriptField.parse(Json.parse("{\"s\":\"1\"}")))
                .hasMessage("Expected [START_OBJECT] in [s] but found [VALUE_STRING]");
        assertThatThrownBy(() -> ScriptField.parse(Json.parse("{\"s\":{\"script\":\"1\",\"foo\":1}}")))
                .hasMessage("Unknown key for a VALUE_NUMBER in [foo].");
        assertThatThrownBy(() -> ScriptField.parse(Json.parse("{\"s\":{\"script\":\"1\",\"ignore_failure\":\"y\"}}")))
                .hasMessage("Failed to parse value [y] as only [true] or [false] are allowed.");
        assertThatThrownBy(() -> ScriptField.parse(Json.parse("[]")))
                .hasMessage("Unknown key for a START_ARRAY in [script_fields].");
    }
}
