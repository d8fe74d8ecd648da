package io.qdrant.esgateway.domain.aggregation.parse;

import io.qdrant.esgateway.domain.aggregation.Aggregation;

import io.qdrant.esgateway.domain.document.SourceFilter;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import io.qdrant.esgateway.domain.json.ObjectParseErrors;
import io.qdrant.esgateway.domain.sort.SortParser;
import io.qdrant.esgateway.domain.sort.SortSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The options of {@code stats}, {@code extended_stats}, {@code cardinality}, {@code percentiles} and {@code top_hits},
 * with Elasticsearch 8.15's errors: an unknown or ill-typed option of the metrics is an {@code x_content_parse_exception}
 * ("[l:c] [stats] unknown field [x]" at the key, with ES's suggestion; "[l:c] [extended_stats] failed to parse field
 * [sigma]" at the value), an unknown {@code top_hits} key a {@code parsing_exception} with the value's line and col.
 * Options ES has and the gateway does not ({@code script}, {@code format}, {@code hdr}, highlighting in top_hits,
 * …) are rejected by name.
 */
final class MetricsParser {
    private static final List<Double> DEFAULT_PERCENTS = List.of(1.0, 5.0, 25.0, 50.0, 75.0, 95.0, 99.0);

    private MetricsParser() {
    }

    static Aggregation.Stats stats(String name, String type, JsonObject options) {
        String field = null;
        JsonValue script = null;
        double sigma = 2;
        Optional<JsonValue> missing = Optional.empty();
        boolean extended = type.equals("extended_stats");
        for (Map.Entry<String, JsonValue> e : options.members().entrySet()) {
            JsonValue v = e.getValue();
            switch (e.getKey()) {
                case "field" -> field = field(type, v);
                case "script" -> script = v;
                case "missing" -> missing = Optional.of(missing(type, v));
                case "sigma" -> {
                    if (!extended) {
                        throw AggregationFields.unknown(type, "sigma", options);
                    }
                    sigma = number(v).orElseThrow(() -> failed(type, "sigma", v));
                    if (sigma < 0) {
                        throw failed(type, "sigma", v, "[sigma] must be greater than or equal to 0. Found [" + sigma
                                + "] in [" + name + "]");
                    }
                }
                default -> common(type, e.getKey(), options);
            }
        }
        return new Aggregation.Stats(required(scripted(field, script, false)), extended, sigma, missing);
    }

    static Aggregation.Cardinality cardinality(String name, JsonObject options) {
        String type = "cardinality";
        String field = null;
        JsonValue script = null;
        Optional<JsonValue> missing = Optional.empty();
        for (Map.Entry<String, JsonValue> e : options.members().entrySet()) {
            JsonValue v = e.getValue();
            switch (e.getKey()) {
                case "field" -> field = field(type, v);
                case "script" -> script = v;
                case "missing" -> missing = Optional.of(missing(type, v));
                // the gateway counts exactly whatever the threshold: ES is exact below it
                case "precision_threshold" -> {
                    long n = JsonReads.integer(v).orElseThrow(() -> failed(type, "precision_threshold", v));
                    if (n < 0) {
                        throw failed(type, "precision_threshold", v, "[precisionThreshold] must be greater than or"
                                + " equal to 0. Found [" + n + "] in [" + name + "]");
                    }
                }
                case "execution_hint" -> {
                    if (!(v instanceof JsonString)) {
                        throw failed(type, "execution_hint", v);
                    }
                }
                case "rehash" -> JsonReads.bool(v).orElseThrow(() -> failed(type, "rehash", v));
                default -> common(type, e.getKey(), options);
            }
        }
        return new Aggregation.Cardinality(required(scripted(field, script, true)), missing);
    }

    static Aggregation.Percentiles percentiles(String name, JsonObject options) {
        String type = "percentiles";
        String field = null;
        JsonValue script = null;
        Optional<JsonValue> missing = Optional.empty();
        List<Double> percents = DEFAULT_PERCENTS;
        boolean keyed = true;
        for (Map.Entry<String, JsonValue> e : options.members().entrySet()) {
            JsonValue v = e.getValue();
            switch (e.getKey()) {
                case "field" -> field = field(type, v);
                case "script" -> script = v;
                case "missing" -> missing = Optional.of(missing(type, v));
                case "keyed" -> keyed = JsonReads.bool(v).orElseThrow(() -> failed(type, "keyed", v,
                        "Failed to parse value [" + JsonReads.text(v).orElse(v.tokenName()) + "] as only [true] or"
                                + " [false] are allowed."));
                case "percents" -> {
                    List<Double> list = new ArrayList<>();
                    for (JsonValue p : v instanceof JsonArray a ? a.elements() : List.of(v)) {
                        list.add(number(p).orElseThrow(() -> failed(type, "percents", p)));
                    }
                    TreeSet<Double> sorted = new TreeSet<>();
                    String problem = list.isEmpty() ? "[percents] must not be empty" : null;
                    for (double p : list) {
                        if (problem == null && (p < 0 || p > 100)) {
                            problem = "percent must be in [0,100], got [" + p + "]";
                        } else if (problem == null && !sorted.add(p)) {
                            problem = "percent [" + p + "] has been specified twice";
                        }
                    }
                    if (problem != null) {
                        throw new GatewayException(ErrorKind.X_CONTENT_PARSE, "Failed to build [percentiles] after"
                                + " last required field arrived", Map.of(),
                                GatewayException.illegalArgument(problem + ": [" + name + "]"));
                    }
                    percents = List.copyOf(sorted);
                }
                case "tdigest" -> {
                    // the gateway keeps every value: compression and execution hint do not change its answers
                    JsonObject digest = JsonReads.object(v, m -> failed(type, "tdigest", v), "tdigest");
                    for (Map.Entry<String, JsonValue> d : digest.members().entrySet()) {
                        switch (d.getKey()) {
                            case "compression" -> number(d.getValue()).orElseThrow(() -> failed(type, "tdigest", v));
                            case "execution_hint" -> JsonReads.text(d.getValue())
                                    .orElseThrow(() -> failed(type, "tdigest", v));
                            default -> throw failed(type, "tdigest", v);
                        }
                    }
                }
                case "hdr", "method", "number_of_significant_value_digits", "compression" ->
                        throw GatewayException.unsupported("[" + e.getKey() + "] in a [percentiles] aggregation");
                default -> common(type, e.getKey(), options);
            }
        }
        return new Aggregation.Percentiles(required(scripted(field, script, false)), percents, keyed, missing);
    }

    static Aggregation.TopHits topHits(String name, JsonObject options) {
        int from = 0;
        int size = 3;
        List<SortSpec> sort = List.of();
        SourceFilter source = SourceFilter.ALL;
        boolean trackScores = false;
        for (Map.Entry<String, JsonValue> e : options.members().entrySet()) {
            JsonValue v = e.getValue();
            switch (e.getKey()) {
                case "from" -> from = nonNegative(name, "from", v);
                case "size" -> size = nonNegative(name, "size", v);
                case "sort" -> sort = SortParser.parse(v);
                case "_source" -> source = SourceFilter.fromJson(v);
                case "track_scores" -> trackScores = JsonReads.bool(v).orElseThrow(() -> new GatewayException(
                        ErrorKind.PARSING, "Unknown key for a " + v.tokenName() + " in [track_scores]."));
                case "version", "seq_no_primary_term", "explain", "highlight", "stored_fields", "docvalue_fields",
                     "fields", "script_fields" ->
                        throw GatewayException.unsupported("[" + e.getKey() + "] in a [top_hits] aggregation");
                default -> throw GatewayException.parsingAt("Unknown key for a " + v.tokenName() + " in ["
                        + e.getKey() + "].", v.at());
            }
        }
        for (SortSpec spec : sort) {
            if (spec instanceof SortSpec.Script) {
                throw GatewayException.unsupported("a [_script] sort in a [top_hits] aggregation");
            }
            if (spec instanceof SortSpec.Field f) {
                if (f.mode().isPresent() && f.mode().get() != SortSpec.Mode.MIN && f.mode().get() != SortSpec.Mode.MAX) {
                    throw GatewayException.unsupported("[mode] " + f.mode().get().name().toLowerCase(
                            java.util.Locale.ROOT) + " in a [top_hits] sort");
                }
                if (f.unmappedType().isPresent()) {
                    throw GatewayException.unsupported("[unmapped_type] in a [top_hits] sort");
                }
            }
        }
        // ES: a sort of just _score descending is no sort (hits keep their scores and render no sort values)
        if (sort.size() == 1 && sort.get(0) instanceof SortSpec.Score s && s.order() == SortSpec.Order.DESC) {
            sort = List.of();
        }
        return new Aggregation.TopHits(name, from, size, sort, source, trackScores);
    }

    /** {@code scripted_metric}: its four scripts and {@code params}. */
    static Aggregation.ScriptedMetric scriptedMetric(JsonObject options) {
        Optional<io.qdrant.esgateway.domain.script.Script> init = Optional.empty();
        Optional<io.qdrant.esgateway.domain.script.Script> map = Optional.empty();
        Optional<io.qdrant.esgateway.domain.script.Script> combine = Optional.empty();
        Optional<io.qdrant.esgateway.domain.script.Script> reduce = Optional.empty();
        JsonObject params = JsonObject.of();
        for (Map.Entry<String, JsonValue> e : options.members().entrySet()) {
            JsonValue v = e.getValue();
            switch (e.getKey()) {
                case "init_script" -> init = Optional.of(io.qdrant.esgateway.domain.script.Script.parse(v));
                case "map_script" -> map = Optional.of(io.qdrant.esgateway.domain.script.Script.parse(v));
                case "combine_script" -> combine = Optional.of(io.qdrant.esgateway.domain.script.Script.parse(v));
                case "reduce_script" -> reduce = Optional.of(io.qdrant.esgateway.domain.script.Script.parse(v));
                case "params" -> {
                    if (!(v instanceof JsonObject p)) {
                        throw new GatewayException(ErrorKind.X_CONTENT_PARSE, "[scripted_metric] params doesn't"
                                + " support values of type: " + v.tokenName());
                    }
                    params = p;
                }
                default -> throw AggregationFields.unknown("scripted_metric", e.getKey(), options);
            }
        }
        return new Aggregation.ScriptedMetric(init, map, combine, reduce, params);
    }

    private static void common(String type, String key, JsonObject options) {
        switch (key) {
            case "script" -> throw GatewayException.unsupported("[script] in a [" + type + "] aggregation");
            case "format" -> throw GatewayException.unsupported("[format] in a [" + type + "] aggregation");
            case "value_type" -> throw GatewayException.unsupported("[value_type] in a [" + type + "] aggregation");
            default -> throw AggregationFields.unknown(type, key, options);
        }
    }

    private static String field(String type, JsonValue v) {
        if (v instanceof JsonObject || v instanceof JsonArray) {
            throw AggregationParser.unsupportedTokenAt(type, "field", v);
        }
        return JsonReads.text(v).orElseThrow(() -> failed(type, "field", v));
    }

    private static JsonValue missing(String type, JsonValue v) {
        if (v instanceof JsonObject || v instanceof JsonArray || JsonReads.text(v).isEmpty()) {
            throw failed(type, "missing", v);
        }
        return v;
    }

    /** The field an aggregation reads: its {@code script}'s reserved name when it has one ({@link ScriptedField}). */
    static String scripted(String field, JsonValue script, boolean strings) {
        return script == null ? field
                : io.qdrant.esgateway.domain.aggregation.ScriptedField.name(script, field, strings);
    }

    private static String required(String field) {
        if (field == null) {
            throw new GatewayException(ErrorKind.ILLEGAL_ARGUMENT, "Required one of fields [field, script], but"
                    + " none were specified. ");
        }
        return field;
    }

    private static Optional<Double> number(JsonValue v) {
        if (v instanceof JsonNumber n) {
            return Optional.of(n.value().doubleValue());
        }
        if (v instanceof JsonString s) {
            try {
                return Optional.of(Double.parseDouble(s.value().trim()));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    private static int nonNegative(String name, String key, JsonValue v) {
        long n = JsonReads.integer(v).orElseThrow(() -> new GatewayException(ErrorKind.PARSING, "[top_hits] failed"
                + " to parse field [" + key + "]"));
        if (n < 0 || n > Integer.MAX_VALUE) {
            throw GatewayException.illegalArgument("[" + key + "] must be greater than or equal to 0. Found [" + n
                    + "] in [" + name + "]");
        }
        return (int) n;
    }

    /** ES's "[l:c] [type] failed to parse field [key]" at the start of {@code at}, the reason in {@code caused_by}. */
    private static GatewayException failed(String type, String key, JsonValue at, String cause) {
        return ObjectParseErrors.failedToParse(type, key, at.at(), GatewayException.illegalArgument(cause));
    }

    private static GatewayException failed(String type, String key, JsonValue at) {
        return new GatewayException(ErrorKind.X_CONTENT_PARSE, JsonValue.Position.prefix(at.at()) + "[" + type
                + "] failed to parse field [" + key + "]");
    }
}
