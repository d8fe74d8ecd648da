package io.qdrant.esgateway.domain.aggregation.parse;

import static io.qdrant.esgateway.domain.aggregation.parse.AggregationParser.parsing;

import io.qdrant.esgateway.domain.aggregation.Aggregation;
import io.qdrant.esgateway.domain.aggregation.CompositeAggregation;
import io.qdrant.esgateway.domain.aggregation.DateHistogramAggregation;
import io.qdrant.esgateway.domain.aggregation.DateRounding;
import io.qdrant.esgateway.domain.aggregation.HistogramAggregation;
import io.qdrant.esgateway.domain.aggregation.RangeAggregation;
import io.qdrant.esgateway.domain.aggregation.TimeValues;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNull;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.ObjectParseErrors;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Parses {@code range}, {@code date_range}, {@code histogram}, {@code date_histogram} and {@code composite}. */
final class RangeHistogramParser {
    private RangeHistogramParser() {
    }

    static RangeAggregation range(String name, String type, JsonObject options, Map<String, Aggregation> subs) {
        boolean date = type.equals("date_range");
        String field = null;
        JsonValue script = null;
        List<RangeAggregation.Bound> ranges = null;
        boolean keyed = false;
        Optional<JsonValue> missing = Optional.empty();
        Optional<String> format = Optional.empty();
        Optional<String> zone = Optional.empty();
        for (Map.Entry<String, JsonValue> e : options.members().entrySet()) {
            JsonValue v = e.getValue();
            switch (e.getKey()) {
                case "field" -> field = AggregationParser.string(type, "field", v);
                case "keyed" -> keyed = bool(type, "keyed", v);
                case "missing" -> missing = Optional.of(v);
                case "ranges" -> ranges = ranges(type, v);
                case "format" -> format = Optional.of(AggregationParser.string(type, "format", v));
                case "time_zone" -> {
                    if (!date) {
                        throw AggregationFields.unknown(type, "time_zone", options);
                    }
                    zone = Optional.of(AggregationParser.string(type, "time_zone", v));
                    TimeValues.zone(zone.get());
                }
                case "script" -> {
                    if (date) {
                        throw GatewayException.unsupported("[script] in a [" + type + "] aggregation");
                    }
                    script = v;
                }
                default -> throw AggregationFields.unknown(type, e.getKey(), options);
            }
        }
        field = MetricsParser.scripted(field, script, false);
        if (field == null) {
            throw requiredField();
        }
        return new RangeAggregation(name, date, field, ranges == null ? List.of() : ranges, keyed, missing, format,
                zone, subs);
    }

    private static List<RangeAggregation.Bound> ranges(String type, JsonValue v) {
        if (!(v instanceof JsonArray array)) {
            throw parsing("[" + type + "] ranges doesn't support values of type: " + v.tokenName());
        }
        List<RangeAggregation.Bound> out = new ArrayList<>();
        for (JsonValue element : array.elements()) {
            JsonObject o = JsonReads.object(element, AggregationParser::parsing, "ranges");
            Optional<String> key = Optional.empty();
            Optional<JsonValue> from = Optional.empty();
            Optional<JsonValue> to = Optional.empty();
            for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
                JsonValue b = e.getValue();
                switch (e.getKey()) {
                    case "key" -> key = Optional.of(AggregationParser.string("range", "key", b));
                    case "from" -> from = b instanceof JsonNull ? Optional.empty() : Optional.of(scalar("from", b));
                    case "to" -> to = b instanceof JsonNull ? Optional.empty() : Optional.of(scalar("to", b));
                    default -> throw unknownField("range", e.getKey());
                }
            }
            out.add(new RangeAggregation.Bound(key, from, to));
        }
        return out;
    }

    static HistogramAggregation histogram(String name, JsonObject options, Map<String, Aggregation> subs) {
        String type = "histogram";
        String field = null;
        JsonValue script = null;
        Double interval = null;
        double offset = 0;
        long minDocCount = 0;
        Double[] extended = {null, null};
        Double[] hard = {null, null};
        boolean keyed = false;
        Aggregation.TermsOrder order = HistogramAggregation.KEY_ASC;
        Optional<Double> missing = Optional.empty();
        Optional<String> format = Optional.empty();
        for (Map.Entry<String, JsonValue> e : options.members().entrySet()) {
            JsonValue v = e.getValue();
            switch (e.getKey()) {
                case "field" -> field = AggregationParser.string(type, "field", v);
                case "interval" -> {
                    interval = number(type, "interval", v);
                    if (!(interval > 0)) {
                        throw fieldFailure(type, "interval", v.at(), GatewayException.illegalArgument(
                                "[interval] must be >0 for histogram aggregation [" + name + "]"));
                    }
                }
                case "offset" -> offset = number(type, "offset", v);
                case "min_doc_count" -> minDocCount = AggregationParser.positive(type, "min_doc_count", v, 0);
                case "extended_bounds" -> extended = doubleBounds(type, "extended_bounds", v);
                case "hard_bounds" -> hard = doubleBounds(type, "hard_bounds", v);
                case "keyed" -> keyed = bool(type, "keyed", v);
                case "order" -> order = order(type, v);
                case "missing" -> missing = Optional.of(number(type, "missing", v));
                case "format" -> format = Optional.of(AggregationParser.string(type, "format", v));
                case "script" -> script = v;
                default -> throw AggregationFields.unknown(type, e.getKey(), options);
            }
        }
        field = MetricsParser.scripted(field, script, false);
        if (field == null) {
            throw requiredField();
        }
        if (extended[0] != null && extended[1] != null && extended[0] > extended[1]) {
            throw GatewayException.illegalArgument("[extended_bounds.min][" + extended[0] + "] cannot be greater"
                    + " than [extended_bounds.max][" + extended[1] + "] for histogram aggregation [" + name + "]");
        }
        if (hard[0] != null && hard[1] != null && hard[0] > hard[1]) {
            throw GatewayException.illegalArgument("[hard_bounds.min][" + hard[0] + "] cannot be greater"
                    + " than [hard_bounds.max][" + hard[1] + "] for histogram aggregation [" + name + "]");
        }
        return new HistogramAggregation(field, interval == null ? 0 : interval, offset, minDocCount, Optional.ofNullable(extended[0]),
                Optional.ofNullable(extended[1]), Optional.ofNullable(hard[0]), Optional.ofNullable(hard[1]), keyed,
                order, missing, format, subs);
    }

    /** Dates a missing value may name: 100,000,000 days either side of the epoch, so rounding cannot overflow. */
    private static final double MAX_DATE_MILLIS = 8.64e15;

    static DateHistogramAggregation dateHistogram(String name, JsonObject options, Map<String, Aggregation> subs) {
        String type = "date_histogram";
        String field = null;
        String calendar = null;
        String fixed = null;
        ZoneId zone = ZoneOffset.UTC;
        Optional<String> format = Optional.empty();
        long offset = 0;
        long minDocCount = 0;
        Optional<JsonValue> extMin = Optional.empty();
        Optional<JsonValue> extMax = Optional.empty();
        Optional<JsonValue> hardMin = Optional.empty();
        Optional<JsonValue> hardMax = Optional.empty();
        boolean keyed = false;
        Aggregation.TermsOrder order = HistogramAggregation.KEY_ASC;
        Optional<JsonValue> missing = Optional.empty();
        for (Map.Entry<String, JsonValue> e : options.members().entrySet()) {
            JsonValue v = e.getValue();
            switch (e.getKey()) {
                case "field" -> field = AggregationParser.string(type, "field", v);
                case "calendar_interval" -> calendar = interval(type, "calendar_interval", v, fixed);
                case "fixed_interval" -> fixed = interval(type, "fixed_interval", v, calendar);
                case "time_zone" -> zone = TimeValues.zone(AggregationParser.string(type, "time_zone", v));
                case "format" -> format = Optional.of(AggregationParser.string(type, "format", v));
                case "offset" -> offset = offset(v);
                case "min_doc_count" -> minDocCount = AggregationParser.positive(type, "min_doc_count", v, 0);
                case "extended_bounds" -> {
                    JsonObject o = JsonReads.object(v, AggregationParser::parsing, "extended_bounds");
                    for (Map.Entry<String, JsonValue> b : o.members().entrySet()) {
                        switch (b.getKey()) {
                            case "min" -> extMin = Optional.of(scalar("min", b.getValue()));
                            case "max" -> extMax = Optional.of(scalar("max", b.getValue()));
                            default -> throw parsing("[extended_bounds] unknown field [" + b.getKey() + "]");
                        }
                    }
                }
                case "keyed" -> keyed = bool(type, "keyed", v);
                case "order" -> order = order(type, v);
                case "missing" -> {
                    if (v instanceof JsonNumber n && Math.abs(n.value().doubleValue()) > MAX_DATE_MILLIS) {
                        throw parsing("[date_histogram] [missing] is out of the range of dates: [" + n.value() + "]");
                    }
                    missing = Optional.of(scalar("missing", v));
                }
                case "hard_bounds" -> {
                    JsonObject o = JsonReads.object(v, AggregationParser::parsing, "hard_bounds");
                    for (Map.Entry<String, JsonValue> b : o.members().entrySet()) {
                        switch (b.getKey()) {
                            case "min" -> hardMin = Optional.of(scalar("min", b.getValue()));
                            case "max" -> hardMax = Optional.of(scalar("max", b.getValue()));
                            default -> throw unknownField("hard_bounds", b.getKey());
                        }
                    }
                }
                case "interval" -> throw new GatewayException(ErrorKind.X_CONTENT_PARSE, JsonValue.Position.prefix(
                        options.keyAt("interval")) + "[date_histogram] unknown field [interval] did you mean"
                        + " [fixed_interval]?");
                case "script" -> throw GatewayException.unsupported("[script] in a [date_histogram] aggregation");
                default -> throw AggregationFields.unknown(type, e.getKey(), options);
            }
        }
        if (field == null) {
            throw requiredField();
        }
        // no interval at all is refused by each index (as Elasticsearch's shards do): a null rounding
        DateRounding rounding = calendar != null ? DateRounding.calendar(calendar, zone, offset)
                : fixed != null ? DateRounding.fixed(fixed, zone, offset) : null;
        return new DateHistogramAggregation(field, rounding, format, minDocCount, extMin, extMax, hardMin, hardMax,
                keyed, order,
                missing, subs);
    }

    static CompositeAggregation composite(String name, JsonObject options, Map<String, Aggregation> subs) {
        String type = "composite";
        List<CompositeAggregation.Source> sources = null;
        int size = 10;
        Optional<Map<String, JsonValue>> after = Optional.empty();
        for (Map.Entry<String, JsonValue> e : options.members().entrySet()) {
            JsonValue v = e.getValue();
            switch (e.getKey()) {
                case "sources" -> sources = sources(v);
                case "size" -> size = AggregationParser.positive(type, "size", v, 1);
                case "after" -> after = Optional.of(new LinkedHashMap<>(JsonReads.object(v,
                        AggregationParser::parsing, "after").members()));
                default -> throw unknownField(type, e.getKey());
            }
        }
        if (sources == null) {
            throw parsing("Required [sources]");
        }
        if (sources.isEmpty()) {
            throw sourcesFailure(GatewayException.illegalArgument("Composite [sources] cannot be null or empty"));
        }
        return new CompositeAggregation(sources, size, after, subs);
    }

    private static List<CompositeAggregation.Source> sources(JsonValue v) {
        if (!(v instanceof JsonArray array)) {
            throw parsing("[composite] sources doesn't support values of type: " + v.tokenName());
        }
        List<CompositeAggregation.Source> out = new ArrayList<>();
        for (JsonValue element : array.elements()) {
            JsonObject named = JsonReads.object(element, AggregationParser::parsing, "sources");
            if (named.members().size() != 1) {
                throw parsing("[sources] expects one source per element");
            }
            Map.Entry<String, JsonValue> entry = named.members().entrySet().iterator().next();
            String name = entry.getKey();
            for (CompositeAggregation.Source s : out) {
                if (s.name().equals(name)) {
                    throw sourcesFailure(GatewayException.illegalArgument("Composite source names must be unique,"
                            + " found duplicates: [" + name + "]"));
                }
            }
            JsonObject typed = JsonReads.object(entry.getValue(), AggregationParser::parsing, name);
            if (typed.members().size() != 1) {
                throw parsing("[" + name + "] expects one value source type");
            }
            Map.Entry<String, JsonValue> t = typed.members().entrySet().iterator().next();
            CompositeAggregation.SourceKind kind = switch (t.getKey()) {
                case "terms" -> CompositeAggregation.SourceKind.TERMS;
                case "histogram" -> CompositeAggregation.SourceKind.HISTOGRAM;
                case "date_histogram" -> CompositeAggregation.SourceKind.DATE_HISTOGRAM;
                case "geotile_grid" -> throw GatewayException.unsupported("a [geotile_grid] source in a [composite]"
                        + " aggregation");
                default -> throw parsing("Invalid source type: " + t.getKey());
            };
            out.add(source(name, kind, JsonReads.object(t.getValue(), AggregationParser::parsing, t.getKey())));
        }
        return out;
    }

    private static CompositeAggregation.Source source(String name, CompositeAggregation.SourceKind kind,
                                                      JsonObject options) {
        String type = kind.esName();
        String field = null;
        boolean asc = true;
        boolean missingBucket = false;
        String missingOrder = "default";
        Double interval = null;
        String calendar = null;
        String fixed = null;
        ZoneId zone = ZoneOffset.UTC;
        long offset = 0;
        Optional<String> format = Optional.empty();
        for (Map.Entry<String, JsonValue> e : options.members().entrySet()) {
            JsonValue v = e.getValue();
            String key = e.getKey();
            switch (key) {
                case "field" -> field = AggregationParser.string(type, "field", v);
                case "order" -> {
                    String dir = AggregationParser.string(type, "order", v).toLowerCase(Locale.ROOT);
                    asc = switch (dir) {
                        case "asc" -> true;
                        case "desc" -> false;
                        default -> throw GatewayException.illegalArgument("Unknown SortOrder [" + dir + "]");
                    };
                }
                case "missing_bucket" -> missingBucket = bool(type, key, v);
                case "missing_order" -> {
                    missingOrder = AggregationParser.string(type, key, v).toLowerCase(Locale.ROOT);
                    if (!missingOrder.equals("first") && !missingOrder.equals("last")
                            && !missingOrder.equals("default")) {
                        throw fieldFailure(type, key, GatewayException.illegalArgument("Unknown MissingOrder ["
                                + missingOrder + "]"));
                    }
                }
                case "script", "value_type" -> throw GatewayException.unsupported("[" + key + "] in a [composite]"
                        + " source");
                default -> {
                    boolean known = switch (kind) {
                        case TERMS -> false;
                        case HISTOGRAM -> {
                            if (key.equals("interval")) {
                                interval = number(type, key, v);
                                yield true;
                            }
                            yield false;
                        }
                        case DATE_HISTOGRAM -> {
                            switch (key) {
                                case "calendar_interval" -> calendar = AggregationParser.string(type, key, v);
                                case "fixed_interval" -> fixed = AggregationParser.string(type, key, v);
                                case "time_zone" -> zone = TimeValues.zone(AggregationParser.string(type, key, v));
                                case "offset" -> offset = offset(v);
                                case "format" -> format = Optional.of(AggregationParser.string(type, key, v));
                                default -> {
                                    yield false;
                                }
                            }
                            yield true;
                        }
                    };
                    if (!known) {
                        throw unknownField(type, key);
                    }
                }
            }
        }
        if (field == null) {
            throw GatewayException.illegalArgument("Required one of fields [field, script], but none were"
                    + " specified. ");
        }
        DateRounding rounding = null;
        double width = 0;
        if (kind == CompositeAggregation.SourceKind.HISTOGRAM) {
            if (interval == null || !(interval > 0)) {
                throw GatewayException.illegalArgument("[interval] must be greater than 0 for [histogram] source");
            }
            width = interval;
        } else if (kind == CompositeAggregation.SourceKind.DATE_HISTOGRAM) {
            if (calendar != null && fixed != null) {
                throw GatewayException.illegalArgument("Cannot use [fixed_interval] with [calendar_interval]"
                        + " configuration option.");
            }
            if (calendar == null && fixed == null) {
                throw GatewayException.illegalArgument("Invalid interval specified, must be non-null and"
                        + " non-empty");
            }
            rounding = calendar != null ? DateRounding.calendar(calendar, zone, offset)
                    : DateRounding.fixed(fixed, zone, offset);
        }
        return new CompositeAggregation.Source(name, kind, field, asc, missingBucket, width, rounding, format,
                missingOrder);
    }

    /** A {@code calendar_interval} or {@code fixed_interval}, checked as Elasticsearch checks it while parsing. */
    private static String interval(String type, String key, JsonValue v, String other) {
        String text = AggregationParser.string(type, key, v);
        String otherKey = key.equals("fixed_interval") ? "calendar_interval" : "fixed_interval";
        if (other != null) {
            throw fieldFailure(type, key, v.at(), GatewayException.illegalArgument("Cannot use [" + key + "] with ["
                    + otherKey + "] configuration option."));
        }
        try {
            if (key.equals("fixed_interval")) {
                DateRounding.fixed(text, ZoneOffset.UTC, 0);
            } else {
                DateRounding.calendar(text, ZoneOffset.UTC, 0);
            }
        } catch (GatewayException e) {
            throw fieldFailure(type, key, v.at(), e);
        }
        return text;
    }

    /** Elasticsearch's {@code x_content_parse_exception} for a value that failed, with its cause. */
    static GatewayException fieldFailure(String type, String key, GatewayException cause) {
        return fieldFailure(type, key, 0, cause);
    }

    /** As {@link #fieldFailure(String, String, GatewayException)}, with ES's [line:col] of {@code at} (0: none). */
    static GatewayException fieldFailure(String type, String key, long at, GatewayException cause) {
        return ObjectParseErrors.failedToParse(type, key, at, cause);
    }

    /** Elasticsearch's error for {@code sources} that cannot build a {@code composite}. */
    private static GatewayException sourcesFailure(GatewayException cause) {
        return fieldFailure("composite", "sources", new GatewayException(ErrorKind.X_CONTENT_PARSE,
                "Failed to build [composite] after last required field arrived", Map.of(), cause));
    }

    static GatewayException unknownField(String type, String key) {
        return new GatewayException(ErrorKind.X_CONTENT_PARSE, "[" + type + "] unknown field [" + key + "]");
    }

    private static Aggregation.TermsOrder order(String type, JsonValue v) {
        List<JsonValue> entries = v instanceof JsonArray a ? a.elements() : List.of(v);
        List<Aggregation.TermsOrder> orders = new ArrayList<>();
        for (JsonValue entry : entries) {
            JsonObject o = JsonReads.object(entry, AggregationParser::parsing, "order");
            for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
                String dir = JsonReads.text(e.getValue()).orElse("");
                boolean asc = switch (dir.toLowerCase(Locale.ROOT)) {
                    case "asc" -> true;
                    case "desc" -> false;
                    default -> throw parsing("Unknown order direction [" + dir + "]");
                };
                String key = e.getKey().equals("_term") ? "_key" : e.getKey();
                orders.add(new Aggregation.TermsOrder(key, asc));
            }
        }
        if (orders.size() != 1) {
            throw GatewayException.unsupported("[order] with " + orders.size() + " criteria in a [" + type
                    + "] aggregation");
        }
        return orders.getFirst();
    }

    private static Double[] doubleBounds(String type, String key, JsonValue v) {
        JsonObject o = JsonReads.object(v, AggregationParser::parsing, key);
        Double[] out = {null, null};
        for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
            switch (e.getKey()) {
                case "min" -> out[0] = number(type, key + ".min", e.getValue());
                case "max" -> out[1] = number(type, key + ".max", e.getValue());
                default -> throw parsing("[" + key + "] unknown field [" + e.getKey() + "]");
            }
        }
        return out;
    }

    private static long offset(JsonValue v) {
        if (v instanceof JsonNumber n) {
            return n.value().longValue();
        }
        String text = JsonReads.text(v).orElseThrow(() -> parsing("[offset] must be a value")).trim();
        if (text.startsWith("+")) {
            return TimeValues.millis(text.substring(1), "date_histogram.offset");
        }
        if (text.startsWith("-")) {
            return -TimeValues.millis(text.substring(1), "date_histogram.offset");
        }
        return TimeValues.millis(text, "date_histogram.offset");
    }

    private static JsonValue scalar(String key, JsonValue v) {
        if (v instanceof JsonObject || v instanceof JsonArray) {
            throw parsing("[" + key + "] must be a number or a string, not " + v.tokenName());
        }
        return v;
    }

    private static double number(String type, String key, JsonValue v) {
        if (v instanceof JsonNumber n) {
            return n.value().doubleValue();
        }
        String text = JsonReads.text(v).orElseThrow(() -> parsing("[" + type + "] " + key + " must be a number"));
        try {
            return Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw parsing("[" + type + "] failed to parse field [" + key + "]");
        }
    }

    private static boolean bool(String type, String key, JsonValue v) {
        return JsonReads.bool(v).orElseThrow(() -> parsing("[" + type + "] failed to parse field [" + key + "]"));
    }

    private static GatewayException requiredField() {
        return GatewayException.illegalArgument("Required one of fields [field, script], but none were specified. ");
    }
}
