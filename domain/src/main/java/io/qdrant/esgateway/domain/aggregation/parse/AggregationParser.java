package io.qdrant.esgateway.domain.aggregation.parse;

import io.qdrant.esgateway.domain.aggregation.Aggregation;
import io.qdrant.esgateway.domain.aggregation.IncludeExclude;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.ObjectParseErrors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the {@code aggs} (or {@code aggregations}) section of a search body: {@code {"<name>": {"<type>": {…},
 * "aggs": {…}, "meta": {…}}}}, strictly, with Elasticsearch's errors (unknown type or option:
 * {@code parsing_exception}; a type ES has and the gateway does not: a 400 that names it).
 */
public final class AggregationParser {
    /** Aggregation types Elasticsearch 8 has that the gateway does not implement (yet): rejected by name. */
    private static final Set<String> NOT_IMPLEMENTED = Set.of(
            "percentile_ranks", "nested", "reverse_nested", "significant_terms",
            "significant_text", "rare_terms", "multi_terms", "auto_date_histogram", "variable_width_histogram",
            "geo_distance", "geohash_grid", "geotile_grid", "geo_bounds", "geo_centroid", "ip_range", "sampler",
            "diversified_sampler", "adjacency_matrix", "weighted_avg", "median_absolute_deviation",
            "string_stats", "boxplot", "t_test", "top_metrics", "matrix_stats", "avg_bucket", "sum_bucket",
            "max_bucket", "min_bucket", "stats_bucket", "extended_stats_bucket", "percentiles_bucket",
            "bucket_sort", "cumulative_sum", "derivative", "moving_fn",
            "serial_diff", "children", "parent", "random_sampler", "categorize_text", "frequent_item_sets");

    private AggregationParser() {
    }

    /** The aggregations by name, in request order. */
    public static Map<String, Aggregation> parse(JsonValue section) {
        return parse(section, null);
    }

    /**
     * The aggregations by name under a parent of type {@code parentType} (null at the top level). The
     * {@code bucket_script} and {@code bucket_selector} pipelines are checked here and left out: they run over the
     * rendered answer ({@link io.qdrant.esgateway.domain.aggregation.BucketPipelines}).
     */
    private static Map<String, Aggregation> parse(JsonValue section, String parentType) {
        JsonObject aggs = JsonReads.object(section, AggregationParser::parsing, "aggregations");
        Map<String, Aggregation> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonValue> e : aggs.members().entrySet()) {
            String name = e.getKey();
            checkName(name);
            if (e.getValue() instanceof JsonObject body && body.members().size() >= 1 && body.members().keySet()
                    .stream().anyMatch(io.qdrant.esgateway.domain.aggregation.BucketPipelines.TYPES::contains)) {
                pipeline(name, body, aggs.members().keySet(), parentType);
                continue;
            }
            out.put(name, parseOne(name, e.getValue()));
        }
        return out;
    }

    private static void pipeline(String name, JsonObject body, java.util.Set<String> siblings, String parentType) {
        String type = null;
        for (Map.Entry<String, JsonValue> e : body.members().entrySet()) {
            switch (e.getKey()) {
                case "meta" -> { }
                case "aggs", "aggregations" -> throw parsing("Aggregator [" + name + "] of type [" + body.members()
                        .keySet().stream().filter(io.qdrant.esgateway.domain.aggregation.BucketPipelines.TYPES::contains)
                        .findFirst().orElseThrow() + "] cannot accept sub-aggregations");
                default -> {
                    if (type != null) {
                        throw parsing("Found two aggregation type definitions in [" + name + "]: [" + type + "] and ["
                                + e.getKey() + "]");
                    }
                    type = e.getKey();
                }
            }
        }
        if (!(body.get(type) instanceof JsonObject options)) {
            throw parsing("Expected [START_OBJECT] under [" + type + "], but got a [" + body.get(type).tokenName()
                    + "] in [" + name + "]");
        }
        io.qdrant.esgateway.domain.aggregation.BucketPipelines.parse(name, type, options, siblings, parentType);
    }

    private static void checkName(String name) {
        if (name.contains("[") || name.contains("]") || name.contains(">")) {
            throw parsing("Invalid aggregation name [" + name + "]. Aggregation names can contain any character"
                    + " except '[', ']', and '>'");
        }
    }

    private static Aggregation parseOne(String name, JsonValue value) {
        if (!(value instanceof JsonObject body)) {
            throw parsing("Expected [START_OBJECT] under [" + name + "], but got a [" + value.tokenName()
                    + "] in [" + name + "]");
        }
        String type = null;
        JsonObject options = null;
        Map<String, Aggregation> subs = Map.of();
        JsonValue subsSection = null;
        for (Map.Entry<String, JsonValue> e : body.members().entrySet()) {
            String key = e.getKey();
            switch (key) {
                case "aggs", "aggregations" -> subsSection = e.getValue();
                case "meta" -> {
                    if (!(e.getValue() instanceof JsonObject)) {
                        throw GatewayException.parsingAt("Expected [START_OBJECT] under [meta], but got a ["
                                + e.getValue().tokenName() + "] in [" + name + "]", e.getValue().at());
                    }
                }
                default -> {
                    if (type != null) {
                        throw GatewayException.parsingAt("Found two aggregation type definitions in [" + name
                                + "]: [" + type + "] and [" + key + "]", e.getValue().at());
                    }
                    type = key;
                    if (!(e.getValue() instanceof JsonObject o)) {
                        throw parsing("Expected [START_OBJECT] under [" + key + "], but got a ["
                                + e.getValue().tokenName() + "] in [" + name + "]");
                    }
                    options = o;
                }
            }
        }
        if (type == null) {
            throw parsing("Missing definition for aggregation [" + name + "]");
        }
        if (subsSection != null) {
            subs = parse(subsSection, type);
        }
        Aggregation parsed = switch (type) {
            case "terms" -> terms(name, options, subs);
            case "min", "max", "avg", "sum", "value_count" -> metric(name, type, options);
            case "stats", "extended_stats" -> MetricsParser.stats(name, type, options);
            case "cardinality" -> MetricsParser.cardinality(name, options);
            case "percentiles" -> MetricsParser.percentiles(name, options);
            case "top_hits" -> MetricsParser.topHits(name, options);
            case "scripted_metric" -> MetricsParser.scriptedMetric(options);
            case "range", "date_range" -> RangeHistogramParser.range(name, type, options, subs);
            case "histogram" -> RangeHistogramParser.histogram(name, options, subs);
            case "date_histogram" -> RangeHistogramParser.dateHistogram(name, options, subs);
            case "composite" -> RangeHistogramParser.composite(name, options, subs);
            case "filter", "filters", "missing", "global" -> BucketAggregationParser.parse(name, type, options, subs);
            default -> {
                if (NOT_IMPLEMENTED.contains(type)) {
                    throw GatewayException.unsupported("aggregation type [" + type + "]");
                }
                throw parsing("Unknown aggregation type [" + type + "]" + BucketAggregationParser.didYouMean(type,
                        NOT_IMPLEMENTED));
            }
        };
        if (!subs.isEmpty() && (parsed instanceof Aggregation.Metric || parsed instanceof Aggregation.Stats
                || parsed instanceof Aggregation.Cardinality || parsed instanceof Aggregation.Percentiles
                || parsed instanceof Aggregation.TopHits || parsed instanceof Aggregation.ScriptedMetric)) {
            // ES 8.15: illegal_argument_exception for every metric (checked against the oracle)
            throw GatewayException.illegalArgument("Aggregator [" + name + "] of type [" + type
                    + "] cannot accept sub-aggregations");
        }
        return parsed;
    }

    private static Aggregation.Terms terms(String name, JsonObject options, Map<String, Aggregation> subs) {
        String field = null;
        int size = 10;
        List<Aggregation.TermsOrder> order = List.of(Aggregation.TermsOrder.COUNT_DESC);
        long minDocCount = 1;
        Optional<JsonValue> missing = Optional.empty();
        IncludeExclude includeExclude = IncludeExclude.NONE;
        Optional<String> format = Optional.empty();
        Optional<String> executionHint = Optional.empty();
        boolean showError = false;
        JsonValue script = null;
        for (Map.Entry<String, JsonValue> e : options.members().entrySet()) {
            JsonValue v = e.getValue();
            switch (e.getKey()) {
                case "field" -> field = stringAt("terms", "field", v);
                case "size" -> size = termsSize(name, "size", v);
                case "shard_size" -> termsSize(name, "shard_size", v);
                case "include" -> includeExclude = IncludeExclude.parseInclude(includeExclude, v);
                case "format" -> format = Optional.of(stringAt("terms", "format", v));
                case "exclude" -> includeExclude = IncludeExclude.parseExclude(includeExclude, v);
                case "min_doc_count" -> minDocCount = docCount(name, "min_doc_count", "minDocCount", v);
                case "shard_min_doc_count" -> docCount(name, "shard_min_doc_count", "shardMinDocCount", v);
                case "order" -> order = order(v);
                case "missing" -> missing = Optional.of(v);
                case "execution_hint" -> executionHint = Optional.of(stringAt("terms", e.getKey(), v));
                case "collect_mode" -> collectMode(v);
                case "show_term_doc_count_error" -> showError = JsonReads.bool(v).orElseThrow(
                        () -> failedAt("show_term_doc_count_error", v, GatewayException.illegalArgument(
                                "Failed to parse value [" + JsonReads.text(v).orElse("") + "] as only [true] or"
                                + " [false] are allowed.")));
                case "value_type" -> throw GatewayException.unsupported("[value_type] in a [terms] aggregation");
                case "script" -> script = v;
                default -> throw AggregationFields.unknown("terms", e.getKey(), options);
            }
        }
        field = MetricsParser.scripted(field, script, true);
        if (field == null) {
            throw new GatewayException(ErrorKind.ILLEGAL_ARGUMENT, "Required one of fields [field, script], but"
                    + " none were specified. ");
        }
        return new Aggregation.Terms(field, size, order, minDocCount, missing, includeExclude, format, executionHint,
                showError, subs);
    }

    private static void collectMode(JsonValue v) {
        String mode = stringAt("terms", "collect_mode", v);
        if (!mode.equals("breadth_first") && !mode.equals("depth_first")) {
            throw failedAt("collect_mode", v, new GatewayException(ErrorKind.PARSE, "no [collect_mode] found for"
                    + " value [" + mode + "]"));
        }
    }

    /** {@code size}/{@code shard_size}: a positive integer, ES's error wrapped as a failure of that field. */
    private static int termsSize(String name, String key, JsonValue v) {
        long n = integerAt(key, v, true);
        if (n < 1 || n > Integer.MAX_VALUE) {
            throw failedAt(key, v, GatewayException.illegalArgument("[" + key + "] must be greater than 0. Found ["
                    + n + "] in [" + name + "]"));
        }
        return (int) n;
    }

    /** {@code min_doc_count}/{@code shard_min_doc_count}: at least 0, ES's error wrapped as a failure of the field. */
    private static long docCount(String name, String key, String javaName, JsonValue v) {
        long n = integerAt(key, v, false);
        if (n < 0) {
            throw failedAt(key, v, GatewayException.illegalArgument("[" + javaName + "] must be greater than or"
                    + " equal to 0. Found [" + n + "] in [" + name + "]"));
        }
        return n;
    }

    /**
     * A whole number of a terms option, as ES's number field parsers read it: a number or a numeric string; another
     * string fails to parse the field, caused by a {@code number_format_exception} for an int option
     * ({@code size}), an {@code illegal_argument_exception} for a long one ({@code min_doc_count}); another token is
     * not supported.
     */
    private static long integerAt(String key, JsonValue v, boolean intOption) {
        if (!(v instanceof JsonNumber) && !(v instanceof JsonValue.JsonString)) {
            throw unsupportedTokenAt("terms", key, v);
        }
        return JsonReads.integer(v).orElseThrow(() -> {
            String reason = "For input string: \"" + JsonReads.text(v).orElse("") + "\"";
            return failedAt(key, v, intOption ? GatewayException.javaException("number_format_exception", reason)
                    : GatewayException.illegalArgument(reason));
        });
    }

    /** ES's "[l:c] [terms] failed to parse field [key]" at the start of the value, caused by {@code cause}. */
    private static GatewayException failedAt(String key, JsonValue v, GatewayException cause) {
        return ObjectParseErrors.failedToParse("terms", key, v.at(), cause);
    }

    /** ES's "[l:c] [type] key doesn't support values of type: TOKEN" at the start of the value. */
    static GatewayException unsupportedTokenAt(String type, String key, JsonValue v) {
        return new GatewayException(ErrorKind.X_CONTENT_PARSE, JsonValue.Position.prefix(v.at()) + "[" + type + "] "
                + key + " doesn't support values of type: " + v.tokenName());
    }

    /** {@link #string} with ES's [line:col] of the value on a value of the wrong token. */
    static String stringAt(String type, String key, JsonValue v) {
        if (v instanceof JsonObject || v instanceof JsonArray || v instanceof JsonValue.JsonBool) {
            throw unsupportedTokenAt(type, key, v);
        }
        return string(type, key, v);
    }

    private static List<Aggregation.TermsOrder> order(JsonValue v) {
        if (!(v instanceof JsonArray) && !(v instanceof JsonObject)) {
            throw unsupportedTokenAt("terms", "order", v);
        }
        List<JsonValue> entries = v instanceof JsonArray a ? a.elements() : List.of(v);
        List<Aggregation.TermsOrder> orders = new ArrayList<>();
        for (JsonValue entry : entries) {
            JsonObject o = JsonReads.object(entry, AggregationParser::parsing, "order");
            for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
                if (e.getKey().isEmpty()) {
                    // ES reads the whole entry first: its position is the entry's closing brace
                    throw ObjectParseErrors.failedToParse("terms", "order", o.end(),
                            GatewayException.illegalArgument("Invalid path []"));
                }
                String dir = JsonReads.text(e.getValue()).orElse("");
                boolean asc = switch (dir.toLowerCase(java.util.Locale.ROOT)) {
                    case "asc" -> true;
                    case "desc" -> false;
                    default -> throw ObjectParseErrors.failedToParse("terms", "order", e.getValue().at(),
                            GatewayException.parsingAt("Unknown order direction [" + dir + "]", e.getValue().at()));
                };
                // ES 8 no longer knows [_term]: it is a path to a sub-aggregation like any other name
                orders.add(new Aggregation.TermsOrder(e.getKey(), asc));
            }
        }
        if (orders.isEmpty()) {
            return List.of(Aggregation.TermsOrder.COUNT_DESC);
        }
        return orders;
    }

    private static Aggregation.Metric metric(String name, String type, JsonObject options) {
        String field = null;
        Optional<JsonValue> missing = Optional.empty();
        Optional<String> format = Optional.empty();
        JsonValue script = null;
        for (Map.Entry<String, JsonValue> e : options.members().entrySet()) {
            JsonValue v = e.getValue();
            switch (e.getKey()) {
                case "field" -> field = metricString(type, "field", v);
                // resolved against the field's type by MetricAggregator (a date may be given in its format)
                case "missing" -> {
                    metricString(type, "missing", v);
                    missing = Optional.of(v);
                }
                case "format" -> format = Optional.of(string(type, "format", v));
                case "script" -> script = v;
                // ES: x_content_parse_exception, as for every metric (checked against the oracle)
                default -> throw AggregationFields.unknown(type, e.getKey(), options);
            }
        }
        field = MetricsParser.scripted(field, script, type.equals("value_count"));
        if (field == null) {
            throw new GatewayException(ErrorKind.ILLEGAL_ARGUMENT, "Required one of fields [field, script], but"
                    + " none were specified. ");
        }
        Aggregation.MetricKind kind = Aggregation.MetricKind.valueOf(type.toUpperCase(java.util.Locale.ROOT));
        return new Aggregation.Metric(kind, field, missing, format);
    }

    /** A metric's scalar option: an object or array is ES's x_content_parse_exception. */
    private static String metricString(String type, String key, JsonValue v) {
        if (v instanceof JsonObject || v instanceof JsonArray || JsonReads.text(v).isEmpty()) {
            throw unsupportedTokenAt(type, key, v);
        }
        return JsonReads.text(v).get();
    }

    static String string(String type, String key, JsonValue v) {
        if (v instanceof JsonObject || v instanceof JsonArray || v instanceof JsonValue.JsonBool) {
            throw new GatewayException(ErrorKind.X_CONTENT_PARSE, "[" + type + "] " + key
                    + " doesn't support values of type: " + v.tokenName());
        }
        return JsonReads.text(v).orElseThrow(() -> parsing("[" + type + "] " + key + " must be a string"));
    }

    static int positive(String type, String key, JsonValue v, int min) {
        long n = JsonReads.integer(v).orElseThrow(() -> parsing("[" + type + "] failed to parse field [" + key
                + "]"));
        if (n < min || n > Integer.MAX_VALUE) {
            throw GatewayException.illegalArgument("[" + key + "] must be greater than " + (min - 1)
                    + ". Found [" + n + "] in [" + type + "]");
        }
        return (int) n;
    }

    static GatewayException parsing(String reason) {
        return new GatewayException(ErrorKind.PARSING, reason);
    }

    @SuppressWarnings("unused")
    private static boolean isNumber(JsonValue v) {
        return v instanceof JsonNumber;
    }
}
