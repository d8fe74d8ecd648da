package io.qdrant.esgateway.domain.aggregation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.aggregation.parse.AggregationParser;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code scripted_metric}: init, map, combine per partition, reduce over the partitions' values. */
class ScriptedMetricTest {
    private static AggregationPlan plan(String aggs, Map<String, String> stored) {
        return AggregationPlan.of("idx", AggregationParser.parse(Json.parse(aggs)), PartitionedReduceTest.MAPPINGS,
                () -> 0L, stored::get);
    }

    private static NamedPartials collect(AggregationPlan plan, List<MemoryDoc> docs) {
        NamedCollectors c = plan.newCollectors();
        docs.forEach(d -> c.collect(plan.scripted(d, JsonValue.JsonObject.of())));
        return c.partial();
    }

    private static final String PROFIT = "{\"p\":{\"scripted_metric\":{\"params\":{\"f\":2},"
            + "\"init_script\":\"state.t = []\",\"map_script\":\"state.t.add(doc.n.value * params.f)\","
            + "\"combine_script\":\"double s = 0; for (x in state.t) { s += x } return s\","
            + "\"reduce_script\":{\"id\":\"sum\"}}}}";

    @Test
    void eachPartitionCombinesItsStateAndTheReduceSeesEveryPartition() {
        AggregationPlan plan = plan(PROFIT, Map.of("sum", "double s = 0; for (a in states) { s += a } return [s, states.size()]"));
        assertThat(plan.runsScripts()).isTrue();
        NamedPartials a = collect(plan, List.of(new MemoryDoc("1").longs("n", 3), new MemoryDoc("2").longs("n", 10)));
        NamedPartials b = collect(plan, List.of(new MemoryDoc("3").longs("n", 1)));
        assertThat(Json.write(a.merge(b).render())).isEqualTo("{\"p\":{\"value\":[28.0,2]}}");
    }

    @Test
    void underBucketsEachBucketHasItsOwnState() {
        AggregationPlan plan = plan("{\"t\":{\"terms\":{\"field\":\"brand\"},\"aggs\":{\"c\":{\"scripted_metric\":{"
                + "\"map_script\":\"state.c = (state.c ?: 0) + 1\",\"combine_script\":\"return state\","
                + "\"reduce_script\":\"return states\"}}}}}", Map.of());
        assertThat(Json.write(collect(plan, List.of(new MemoryDoc("1").keyword("brand", "a"),
                new MemoryDoc("2").keyword("brand", "a", "b"))).render()))
                .isEqualTo("{\"t\":{\"doc_count_error_upper_bound\":0,\"sum_other_doc_count\":0,\"buckets\":["
                        + "{\"key\":\"a\",\"doc_count\":2,\"c\":{\"value\":[{\"c\":2}]}},"
                        + "{\"key\":\"b\",\"doc_count\":1,\"c\":{\"value\":[{\"c\":1}]}}]}}");
    }

    @Test
    void theRequiredScriptsAreCheckedWhenItRuns() {
        assertThatThrownBy(() -> plan("{\"s\":{\"scripted_metric\":{\"map_script\":\"state.c = 1\"}}}", Map.of()))
                .hasMessage("[combineScript] must not be null: [s]");
        assertThatThrownBy(() -> AggregationParser.parse(Json.parse("{\"s\":{\"scripted_metric\":{\"nope\":1}}}")))
                .hasMessage("[scripted_metric] unknown field [nope]");
    }
}
