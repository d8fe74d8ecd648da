package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
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
    private static final Set<String> NOT_IMPLEMENTED = Set.of("filters", "filter", "missing", "global", "stats", "extended_stats", "cardinality",
            "percentiles", "percentile_ranks", "top_hits", "nested", "reverse_nested", "significant_terms",
            "significant_text", "rare_terms", "multi_terms", "auto_date_histogram", "variable_width_histogram",
            "geo_distance", "geohash_grid", "geotile_grid", "geo_bounds", "geo_centroid", "ip_range", "sampler",
            "diversified_sampler", "adjacency_matrix", "weighted_avg", "median_absolute_deviation", "scripted_metric",
            "string_stats", "boxplot", "t_test", "top_metrics", "matrix_stats", "avg_bucket", "sum_bucket",
            "max_bucket", "min_bucket", "stats_bucket", "extended_stats_bucket", "percentiles_bucket",
            "bucket_script", "bucket_selector", "bucket_sort", "cumulative_sum", "derivative", "moving_fn",
            "serial_diff", "children", "parent", "random_sampler", "categorize_text", "frequent_item_sets");

    private AggregationParser() {
    }

    /** The aggregations by name, in request order. */
    public static Map<String, Aggregation> parse(JsonValue section) {
        JsonObject aggs = JsonReads.object(section, AggregationParser::parsing, "aggregations");
        Map<String, Aggregation> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonValue> e : aggs.members().entrySet()) {
            String name = e.getKey();
            checkName(name);
            out.put(name, parseOne(name, e.getValue()));
        }
        return out;
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
        for (Map.Entry<String, JsonValue> e : body.members().entrySet()) {
            String key = e.getKey();
            switch (key) {
                case "aggs", "aggregations" -> subs = parse(e.getValue());
                case "meta" -> JsonReads.object(e.getValue(), AggregationParser::parsing, "meta");
                default -> {
                    if (type != null) {
                        throw parsing("Found two aggregation type definitions in [" + name + "]: [" + type
                                + "] and [" + key + "]");
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
        Aggregation parsed = switch (type) {
            case "terms" -> terms(name, options, subs);
            case "min", "max", "avg", "sum", "value_count" -> metric(name, type, options);
            case "range", "date_range" -> RangeHistogramParser.range(name, type, options, subs);
            case "histogram" -> RangeHistogramParser.histogram(name, options, subs);
            case "date_histogram" -> RangeHistogramParser.dateHistogram(name, options, subs);
            case "composite" -> RangeHistogramParser.composite(name, options, subs);
            default -> {
                if (NOT_IMPLEMENTED.contains(type)) {
                    throw GatewayException.unsupported("aggregation type [" + type + "]");
                }
                throw parsing("Unknown aggregation type [" + type + "]");
            }
        };
        if (!subs.isEmpty() && parsed.subs().isEmpty() && parsed instanceof Aggregation.Metric) {
            throw new GatewayException(ErrorKind.PARSING, "Aggregator [" + name + "] of type [" + type
                    + "] cannot accept sub-aggregations");
        }
        return parsed;
    }

    private static Aggregation.Terms terms(String name, JsonObject options, Map<String, Aggregation> subs) {
        String field = null;
        int size = 10;
        Aggregation.TermsOrder order = Aggregation.TermsOrder.COUNT_DESC;
        long minDocCount = 1;
        Optional<JsonValue> missing = Optional.empty();
        for (Map.Entry<String, JsonValue> e : options.members().entrySet()) {
            JsonValue v = e.getValue();
            switch (e.getKey()) {
                case "field" -> field = string("terms", "field", v);
                case "size" -> size = positive("terms", "size", v, 1);
                case "shard_size" -> positive("terms", "shard_size", v, 1);
                case "min_doc_count" -> minDocCount = positive("terms", "min_doc_count", v, 0);
                case "shard_min_doc_count" -> positive("terms", "shard_min_doc_count", v, 0);
                case "order" -> order = order(v);
                case "missing" -> missing = Optional.of(v);
                case "execution_hint", "collect_mode" -> string("terms", e.getKey(), v);
                case "show_term_doc_count_error" -> JsonReads.bool(v);
                case "script" -> throw GatewayException.unsupported("[script] in a [terms] aggregation");
                default -> throw parsing("[terms] unknown field [" + e.getKey() + "]");
            }
        }
        if (field == null) {
            throw new GatewayException(ErrorKind.ILLEGAL_ARGUMENT, "Required one of fields [field, script], but"
                    + " none were specified. ");
        }
        return new Aggregation.Terms(field, size, order, minDocCount, missing, subs);
    }

    private static Aggregation.TermsOrder order(JsonValue v) {
        List<JsonValue> entries = v instanceof JsonArray a ? a.elements() : List.of(v);
        List<Aggregation.TermsOrder> orders = new ArrayList<>();
        for (JsonValue entry : entries) {
            JsonObject o = JsonReads.object(entry, AggregationParser::parsing, "order");
            for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
                String dir = JsonReads.text(e.getValue()).orElse("");
                boolean asc = switch (dir.toLowerCase(java.util.Locale.ROOT)) {
                    case "asc" -> true;
                    case "desc" -> false;
                    default -> throw parsing("Unknown order direction [" + dir + "]");
                };
                String key = e.getKey().equals("_term") ? "_key" : e.getKey();
                orders.add(new Aggregation.TermsOrder(key, asc));
            }
        }
        if (orders.size() != 1) {
            throw GatewayException.unsupported("[order] with " + orders.size() + " criteria in a [terms]"
                    + " aggregation");
        }
        return orders.get(0);
    }

    private static Aggregation.Metric metric(String name, String type, JsonObject options) {
        String field = null;
        Optional<Double> missing = Optional.empty();
        for (Map.Entry<String, JsonValue> e : options.members().entrySet()) {
            JsonValue v = e.getValue();
            switch (e.getKey()) {
                case "field" -> field = string(type, "field", v);
                case "missing" -> missing = Optional.of(JsonReads.text(v).map(t -> {
                    try {
                        return Double.parseDouble(t.trim());
                    } catch (NumberFormatException ex) {
                        throw GatewayException.unsupported("a non-numeric [missing] in a [" + type + "] aggregation");
                    }
                }).orElseThrow(() -> parsing("[" + type + "] [missing] must be a value")));
                case "format" -> string(type, "format", v);
                case "script" -> throw GatewayException.unsupported("[script] in a [" + type + "] aggregation");
                default -> throw parsing("[" + type + "] unknown field [" + e.getKey() + "]");
            }
        }
        if (field == null) {
            throw new GatewayException(ErrorKind.ILLEGAL_ARGUMENT, "Required one of fields [field, script], but"
                    + " none were specified. ");
        }
        Aggregation.MetricKind kind = Aggregation.MetricKind.valueOf(type.toUpperCase(java.util.Locale.ROOT));
        return new Aggregation.Metric(kind, field, missing);
    }

    static String string(String type, String key, JsonValue v) {
        if (v instanceof JsonObject || v instanceof JsonArray) {
            throw parsing("[" + type + "] " + key + " doesn't support values of type: " + v.tokenName());
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
