package io.qdrant.esgateway.domain.query.dsl;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.script.FunctionScoring;
import io.qdrant.esgateway.domain.script.Script;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The {@code function_score} query, parsed as Elasticsearch 8's {@code FunctionScoreQueryBuilder} reads it. */
final class FunctionScoreQueries {
    private static final Set<String> FUNCTIONS = Set.of("script_score", "field_value_factor", "random_score", "gauss",
            "linear", "exp");
    private static final Set<String> GEO = Set.of("geo_distance");

    private FunctionScoreQueries() {
    }

    static Query functionScore(JsonValue body) {
        if (!(body instanceof JsonObject object)) {
            throw DslObject.malformed("function_score");
        }
        Query query = new Query.MatchAll(1f);
        List<Query.ScoreFunction> functions = new ArrayList<>();
        boolean array = false;
        String single = null;
        Optional<Float> topWeight = Optional.empty();
        String scoreMode = "multiply";
        String boostMode = "multiply";
        float maxBoost = Float.MAX_VALUE;
        Optional<Float> minScore = Optional.empty();
        float boost = 1f;
        for (Map.Entry<String, JsonValue> e : object.members().entrySet()) {
            String key = e.getKey();
            JsonValue v = e.getValue();
            switch (key) {
                case "query" -> query = QueryDsl.parse(v);
                case "boost" -> boost = number(key, v);
                case "_name" -> {
                }
                case "min_score" -> minScore = Optional.of(number(key, v));
                case "max_boost" -> maxBoost = number(key, v);
                case "weight" -> topWeight = Optional.of(weight(v));
                case "score_mode" -> scoreMode = mode(v, FunctionScoring.SCORE_MODES, "FunctionScoreQuery.ScoreMode");
                case "boost_mode" -> boostMode = mode(v, FunctionScoring.BOOST_MODES, "CombineFunction");
                case "functions" -> {
                    if (single != null) {
                        throw GatewayException.parsingAt("failed to parse [function_score] query. [you can either"
                                + " define [functions] array or a single function, not both. already found [" + single
                                + "], now encountering [functions].]", v.at());
                    }
                    if (!(v instanceof JsonArray list)) {
                        throw DslObject.parsing("failed to parse [function_score] query. [functions] must be an"
                                + " array");
                    }
                    array = true;
                    for (JsonValue element : list.elements()) {
                        functions.add(element(element));
                    }
                }
                default -> {
                    if (array) {
                        throw GatewayException.parsingAt("failed to parse [function_score] query. [you can either"
                                + " define [functions] array or a single function, not both. already found [functions]"
                                + " array, now encountering [" + key + "].]", v.at());
                    }
                    if (single != null) {
                        throw GatewayException.parsingAt("failed to parse [function_score] query. already found"
                                + " function [" + single + "], now encountering [" + key + "]. use [functions] array"
                                + " if you want to define several functions.", v.at());
                    }
                    single = key;
                    functions.add(new Query.ScoreFunction(Optional.empty(), Optional.empty(), function(key, v)));
                }
            }
        }
        if (topWeight.isPresent()) {
            if (array) {
                throw DslObject.parsing("failed to parse [function_score] query. already found [functions] array,"
                        + " now encountering [weight]. use [functions] array if you want to define several"
                        + " functions.");
            }
            if (functions.isEmpty()) {
                functions.add(new Query.ScoreFunction(Optional.empty(), topWeight, new FunctionScoring.WeightOnly()));
            } else {
                Query.ScoreFunction only = functions.get(0);
                functions.set(0, new Query.ScoreFunction(Optional.empty(), topWeight, only.fn()));
            }
        }
        return new Query.FunctionScore(query, List.copyOf(functions), scoreMode, boostMode, maxBoost, minScore, boost);
    }

    private static Query.ScoreFunction element(JsonValue element) {
        if (!(element instanceof JsonObject object)) {
            throw DslObject.parsing("failed to parse [function_score] query. [functions] must contain objects");
        }
        Optional<Query> filter = Optional.empty();
        Optional<Float> weight = Optional.empty();
        FunctionScoring.Fn fn = null;
        String name = null;
        for (Map.Entry<String, JsonValue> e : object.members().entrySet()) {
            switch (e.getKey()) {
                case "filter" -> filter = Optional.of(QueryDsl.parse(e.getValue()));
                case "weight" -> weight = Optional.of(weight(e.getValue()));
                default -> {
                    if (name != null) {
                        throw GatewayException.parsingAt("failed to parse function_score functions. already found ["
                                + name + "], now encountering [" + e.getKey() + "].", e.getValue().at());
                    }
                    name = e.getKey();
                    fn = function(name, e.getValue());
                }
            }
        }
        if (fn == null) {
            if (weight.isEmpty()) {
                // ES reads the whole entry first: the position is its closing brace
                throw GatewayException.parsingAt("failed to parse [function_score] query. an entry in functions list"
                        + " is missing a function.", object.end());
            }
            fn = new FunctionScoring.WeightOnly();
        }
        return new Query.ScoreFunction(filter, weight, fn);
    }

    private static FunctionScoring.Fn function(String name, JsonValue v) {
        if (GEO.contains(name)) {
            throw GatewayException.unsupported("the [" + name + "] score function");
        }
        if (!FUNCTIONS.contains(name)) {
            throw DslObject.parsing("unknown field [" + name + "]");
        }
        if (!(v instanceof JsonObject object)) {
            throw DslObject.parsing("failed to parse [function_score] query. malformed score function [" + name
                    + "], expected an object");
        }
        return switch (name) {
            case "script_score" -> scriptScore(object);
            case "field_value_factor" -> fieldValueFactor(object);
            case "random_score" -> randomScore(object);
            default -> decay(name, object);
        };
    }

    private static FunctionScoring.Fn scriptScore(JsonObject object) {
        DslObject o = new DslObject("script_score", object);
        JsonValue scriptJson = o.take("script").orElseThrow(() -> DslObject.parsing("script_score function requires"
                + " 'script' field"));
        o.done();
        Script script = Script.parse(scriptJson);
        // a stored script's source (null here) is read when the search starts
        return new FunctionScoring.ScriptFn(script, script.source().orElse(null));
    }

    private static FunctionScoring.Fn fieldValueFactor(JsonObject object) {
        DslObject o = new DslObject("field_value_factor", object);
        String field = o.string("field").orElseThrow(() -> DslObject.parsing("[field_value_factor] required field"
                + " 'field' missing"));
        double factor = o.floatValue("factor").orElse(1f);
        String modifier = o.string("modifier").map(m -> m.toLowerCase(Locale.ROOT)).orElse("none");
        if (!FunctionScoring.MODIFIERS.contains(modifier)) {
            throw GatewayException.illegalArgument("No enum constant org.elasticsearch.common.lucene.search.function."
                    + "FieldValueFactorFunction.Modifier." + modifier.toUpperCase(Locale.ROOT));
        }
        Optional<Double> missing = o.take("missing").map(m -> JsonReads.text(m).map(t -> {
            try {
                return Double.parseDouble(t);
            } catch (NumberFormatException e) {
                return null;
            }
        }).orElseThrow(() -> DslObject.parsing("[field_value_factor] [missing] must be a number")));
        o.done();
        return new FunctionScoring.FieldValueFactor(field, factor, modifier, missing);
    }

    private static FunctionScoring.Fn randomScore(JsonObject object) {
        DslObject o = new DslObject("random_score", object);
        Optional<Integer> seed = o.take("seed").map(s -> {
            Optional<Long> n = JsonReads.integer(s);
            if (n.isPresent()) {
                long l = n.get();
                return l == (int) l ? (int) l : Long.hashCode(l);
            }
            return JsonReads.text(s).map(String::hashCode).orElseThrow(() -> DslObject.parsing("random_score seed"
                    + " must be an int, long or string, not '" + s.tokenName() + "'"));
        });
        Optional<String> field = o.string("field");
        o.done();
        return new FunctionScoring.RandomScore(seed.orElseGet(() -> java.util.concurrent.ThreadLocalRandom.current().nextInt()), field);
    }

    private static FunctionScoring.Fn decay(String kind, JsonObject object) {
        String field = null;
        JsonObject params = null;
        String mode = "min";
        for (Map.Entry<String, JsonValue> e : object.members().entrySet()) {
            if (e.getKey().equals("multi_value_mode")) {
                mode = JsonReads.text(e.getValue()).map(m -> m.toLowerCase(Locale.ROOT)).orElse("");
                if (!List.of("min", "max", "avg", "sum").contains(mode)) {
                    throw GatewayException.illegalArgument("Unknown MultiValueMode [" + mode + "]");
                }
            } else {
                if (field != null) {
                    throw DslObject.parsing("[" + kind + "] can only have one field, found [" + field + "] and ["
                            + e.getKey() + "]");
                }
                field = e.getKey();
                if (!(e.getValue() instanceof JsonObject p)) {
                    throw DslObject.parsing("[" + kind + "] the parameters of [" + field + "] must be an object");
                }
                params = p;
            }
        }
        if (field == null) {
            throw DslObject.parsing("[" + kind + "] requires a field");
        }
        DslObject o = new DslObject(kind, params);
        Optional<String> origin = o.take("origin").map(v -> text(kind, "origin", v));
        String scale = o.take("scale").map(v -> text(kind, "scale", v)).orElseThrow(() ->
                GatewayException.illegalArgument("[" + kind + "] must be set for numeric fields: [scale]"));
        Optional<String> offset = o.take("offset").map(v -> text(kind, "offset", v));
        double decay = o.floatValue("decay").map(Float::doubleValue).orElse(0.5);
        o.done();
        return new FunctionScoring.Decay(kind, field, origin, scale, offset, decay, mode);
    }

    private static String text(String kind, String key, JsonValue v) {
        if (v instanceof JsonObject) {
            throw GatewayException.unsupported("a geo point as the [" + key + "] of [" + kind + "] (there are no"
                    + " geo fields)");
        }
        return JsonReads.text(v).orElseThrow(() -> DslObject.parsing("[" + kind + "] [" + key + "] must be a number"
                + " or a string"));
    }

    private static float weight(JsonValue v) {
        float w = number("weight", v);
        if (w < 0) {
            throw GatewayException.illegalArgument("[weight] cannot be negative for a filtering function");
        }
        return w;
    }

    private static float number(String key, JsonValue v) {
        try {
            return Float.parseFloat(JsonReads.text(v).orElseThrow());
        } catch (RuntimeException e) {
            throw DslObject.parsing("[function_score] [" + key + "] must be a number, got [" + v.tokenName() + "]");
        }
    }

    private static String mode(JsonValue v, List<String> allowed, String what) {
        String m = JsonReads.text(v).map(s -> s.toLowerCase(Locale.ROOT)).orElse("");
        if (!allowed.contains(m)) {
            // Elasticsearch's words (Enum.valueOf's)
            throw GatewayException.illegalArgument("No enum constant org.elasticsearch.common.lucene.search.function."
                    + what + "." + JsonReads.text(v).orElse("").toUpperCase(Locale.ROOT));
        }
        return m;
    }
}
