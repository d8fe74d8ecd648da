package io.qdrant.esgateway.domain.aggregation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.aggregation.parse.AggregationParser;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Scripts in aggregations: read through {@link AggregationPlan#scripted} as the values of a reserved field. */
class ScriptedFieldTest {
    private static final JsonValue.JsonObject NO_SOURCE = JsonValue.JsonObject.of();

    private static String run(String aggs, Map<String, String> stored, List<MemoryDoc> docs) {
        AggregationPlan plan = AggregationPlan.of("idx", AggregationParser.parse(Json.parse(aggs)),
                PartitionedReduceTest.MAPPINGS, () -> 0L, id -> {
                    String source = stored.get(id);
                    if (source == null) {
                        throw new GatewayException(ErrorKind.RESOURCE_NOT_FOUND, "unable to find script [" + id
                                + "] in cluster state");
                    }
                    return source;
                });
        assertThat(plan.runsScripts()).isTrue();
        NamedCollectors collectors = plan.newCollectors();
        docs.forEach(d -> collectors.collect(plan.scripted(d, NO_SOURCE)));
        return Json.write(collectors.partial().render());
    }

    private static List<MemoryDoc> docs() {
        return List.of(new MemoryDoc("1").keyword("brand", "b", "a").longs("n", 3, 7),
                new MemoryDoc("2").keyword("brand", "c").longs("n", 10),
                new MemoryDoc("3").keyword("brand", "a").longs("n", 1));
    }

    @Test
    void termsOverAScriptReadStringsAndValueScriptsKeepTheFieldsKind() {
        assertThat(run("{\"t\":{\"terms\":{\"script\":\"doc['n'].value\"}}}", Map.of(), docs()))
                .isEqualTo("{\"t\":{\"doc_count_error_upper_bound\":0,\"sum_other_doc_count\":0,\"buckets\":["
                        + "{\"key\":\"1\",\"doc_count\":1},{\"key\":\"10\",\"doc_count\":1},"
                        + "{\"key\":\"3\",\"doc_count\":1}]}}");
        assertThat(run("{\"t\":{\"terms\":{\"field\":\"n\",\"script\":\"_value * 2\"}},"
                + "\"k\":{\"terms\":{\"field\":\"brand\",\"script\":\"_value + '!'\"}}}", Map.of(), docs()))
                .isEqualTo("{\"t\":{\"doc_count_error_upper_bound\":0,\"sum_other_doc_count\":0,\"buckets\":["
                        + "{\"key\":2.0,\"doc_count\":1},{\"key\":6.0,\"doc_count\":1},{\"key\":14.0,\"doc_count\":1},"
                        + "{\"key\":20.0,\"doc_count\":1}]},\"k\":{\"doc_count_error_upper_bound\":0,"
                        + "\"sum_other_doc_count\":0,\"buckets\":[{\"key\":\"a!\",\"doc_count\":2},"
                        + "{\"key\":\"b!\",\"doc_count\":1},{\"key\":\"c!\",\"doc_count\":1}]}}");
    }

    @Test
    void metricsOverScriptsReadEveryReturnedValue() {
        assertThat(run("{\"s\":{\"stats\":{\"script\":\"doc['n']\"}},\"a\":{\"avg\":{\"script\":"
                + "\"doc['n'].value * 2\"}},\"c\":{\"value_count\":{\"script\":\"doc['n']\"}},"
                + "\"v\":{\"sum\":{\"field\":\"n\",\"script\":{\"source\":\"_value * params.k\","
                + "\"params\":{\"k\":10}}}}}", Map.of(), docs()))
                .isEqualTo("{\"s\":{\"count\":4,\"min\":1.0,\"max\":10.0,\"avg\":5.25,\"sum\":21.0},"
                        + "\"a\":{\"value\":9.333333333333334},\"c\":{\"value\":4},\"v\":{\"value\":210.0}}");
    }

    @Test
    void aStringScriptsRepeatedValuesAreCountedByValueCountAndOnceByTerms() {
        String script = "[doc['brand'].value, doc['brand'].value, 'z']";
        assertThat(run("{\"c\":{\"value_count\":{\"script\":\"" + script + "\"}},"
                + "\"d\":{\"cardinality\":{\"script\":\"" + script + "\"}},"
                + "\"t\":{\"terms\":{\"script\":\"" + script + "\"}}}", Map.of(), docs()))
                .isEqualTo("{\"c\":{\"value\":9},\"d\":{\"value\":3},\"t\":{\"doc_count_error_upper_bound\":0,"
                        + "\"sum_other_doc_count\":0,\"buckets\":[{\"key\":\"z\",\"doc_count\":3},"
                        + "{\"key\":\"a\",\"doc_count\":2},{\"key\":\"c\",\"doc_count\":1}]}}");
    }

    @Test
    void storedScriptsAreReadByIdAndAnUnknownOneFails() {
        assertThat(run("{\"m\":{\"max\":{\"script\":{\"id\":\"half\",\"params\":{\"by\":2}}}}}",
                Map.of("half", "doc['n'].value / params.by"), docs())).isEqualTo("{\"m\":{\"value\":5.0}}");
        assertThatThrownBy(() -> run("{\"m\":{\"max\":{\"script\":{\"id\":\"nope\"}}}}", Map.of(), docs()))
                .hasMessage("unable to find script [nope] in cluster state");
    }

    @Test
    void aScriptThatFailsOrGivesNoNumberFails() {
        assertThatThrownBy(() -> run("{\"m\":{\"max\":{\"script\":\"doc['price'].value\"}}}", Map.of(), docs()))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.SCRIPT));
        assertThatThrownBy(() -> run("{\"m\":{\"max\":{\"script\":\"'x'\"}}}", Map.of(), docs()))
                .hasMessageContaining("Unsupported script value [x]");
        assertThatThrownBy(() -> AggregationParser.parse(Json.parse("{\"m\":{\"max\":{\"script\":{\"nope\":1}}}}")))
                .hasMessage("[script] unknown field [nope]");
    }

    @Test
    void aReservedNameIsNeverAMappedField() {
        String name = ScriptedField.name(Json.parse("\"1\""), null, false);
        assertThat(ScriptedField.is(name)).isTrue();
        assertThat(ScriptedField.is("n")).isFalse();
        assertThat(PartitionedReduceTest.MAPPINGS.field(name)).isEmpty();
    }
}
