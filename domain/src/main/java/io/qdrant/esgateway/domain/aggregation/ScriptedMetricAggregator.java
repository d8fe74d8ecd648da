package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.script.PainlessScript;
import io.qdrant.esgateway.domain.script.ScoreScript;
import io.qdrant.esgateway.domain.script.Script;
import io.qdrant.esgateway.domain.script.ScriptContext;
import io.qdrant.esgateway.domain.script.ScriptValues;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code scripted_metric}, as Elasticsearch runs it on each shard and then once over all shards: per partition (an
 * index read by the gateway, or one bucket of it) a {@code state} map, prepared by {@code init_script}, filled by
 * {@code map_script} for each document ({@code doc}, {@code _score}, {@code params} with {@code _source}) and turned
 * by {@code combine_script} into the partition's value; the final answer is {@code reduce_script} over the list of
 * those values ({@code states}), rendered as {@code {"value": …}}. The aggregation's {@code params} are every
 * script's {@code params}.
 */
final class ScriptedMetricAggregator {
    private ScriptedMetricAggregator() {
    }

    /** The compiled scripts of one {@code scripted_metric} on one index. */
    record Bound(Optional<PainlessScript> init, ScoreScript map, PainlessScript combine, PainlessScript reduce,
                 Map<String, Object> params) {
        /** The params for one run (a script may change its params). */
        Map<String, Object> paramsForRun() {
            return new HashMap<>(params);
        }
    }

    static Bound bind(String name, Aggregation.ScriptedMetric agg, String index, Mappings mappings,
                      Function<String, String> stored) {
        if (agg.map().isEmpty()) {
            throw GatewayException.illegalArgument("[mapScript] must not be null: [" + name + "]");
        }
        if (agg.combine().isEmpty()) {
            throw GatewayException.illegalArgument("[combineScript] must not be null: [" + name + "]");
        }
        if (agg.reduce().isEmpty()) {
            throw GatewayException.illegalArgument("[reduceScript] must not be null: [" + name + "]");
        }
        Map<String, Object> params = ScriptValues.toScriptMap(agg.params(), false);
        // every script sees the aggregation's params
        Script map = new Script(agg.map().get().source(), agg.map().get().id(), agg.params());
        return new Bound(agg.init().map(s -> PainlessScript.compile(ScriptContext.SCRIPTED_INIT, source(s, stored))),
                ScoreScript.compile(ScriptContext.SCRIPTED_MAP, source(map, stored), map, mappings, index),
                PainlessScript.compile(ScriptContext.SCRIPTED_COMBINE, source(agg.combine().get(), stored)),
                PainlessScript.compile(ScriptContext.SCRIPTED_REDUCE, source(agg.reduce().get(), stored)), params);
    }

    private static String source(Script script, Function<String, String> stored) {
        return script.source().orElseGet(() -> stored.apply(script.id().orElseThrow()));
    }

    static Collector collector(Bound bound) {
        Map<String, Object> state = new HashMap<>();
        bound.init().ifPresent(init -> init.execute(bound.paramsForRun(), state));
        return new Collector() {
            @Override
            public void collect(AggregationDoc doc) {
                JsonObject source = doc instanceof ScriptedDoc s ? s.source() : JsonObject.of();
                bound.map().value(new AggregationDocReader(doc, doc.position()), doc.score(), source, state);
            }

            @Override
            public Partial partial() {
                List<Object> states = new ArrayList<>();
                states.add(bound.combine().execute(bound.paramsForRun(), state));
                return new States(bound, states);
            }
        };
    }

    /** The combined values of the partitions so far. */
    private record States(Bound bound, List<Object> states) implements Partial {
        @Override
        public Partial merge(Partial other) {
            List<Object> all = new ArrayList<>(states);
            all.addAll(((States) other).states);
            return new States(bound, all);
        }

        @Override
        public JsonValue render(boolean typedKeys) {
            Object value = bound.reduce().execute(bound.paramsForRun(), new ArrayList<>(states));
            JsonValue json;
            try {
                json = ScriptValues.toJson(value);
            } catch (IllegalArgumentException e) {
                throw GatewayException.illegalArgument(e.getMessage());
            }
            return JsonObjectBuilder.object().put("value", json).build();
        }

        @Override
        public String typedName() {
            return "scripted_metric";
        }
    }
}
