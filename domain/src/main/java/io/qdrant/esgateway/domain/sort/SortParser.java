package io.qdrant.esgateway.domain.sort;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import io.qdrant.esgateway.domain.json.ObjectParseErrors;
import io.qdrant.esgateway.domain.sort.SortSpec.Missing;
import io.qdrant.esgateway.domain.sort.SortSpec.Mode;
import io.qdrant.esgateway.domain.sort.SortSpec.Order;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code sort} forms of Elasticsearch: {@code "f"}, {@code {"f":"desc"}}, {@code {"f":{"order":…,"missing":…,
 * "mode":…,"unmapped_type":…,"format":…}}}, one or a list, {@code _score} and {@code _doc}; and the URL form
 * {@code f:desc,g}.
 */
public final class SortParser {
    /** The fields Elasticsearch's sort parsers know, for their "did you mean" suggestions. */
    private static final List<String> FIELD_SORT_FIELDS = List.of("order", "missing", "mode", "unmapped_type",
            "numeric_type", "format", "nested");
    private static final List<String> SCRIPT_SORT_FIELDS = List.of("type", "script", "order", "mode", "nested");
    private static final List<String> SCORE_FIELDS = List.of("order");

    private SortParser() {
    }

    /** A body's {@code sort} (also {@code top_hits}' sort). */
    public static List<SortSpec> parse(JsonValue value) {
        List<SortSpec> out = new ArrayList<>();
        for (JsonValue v : value instanceof JsonArray a ? a.elements() : List.of(value)) {
            out.add(one(v));
        }
        return out;
    }

    public static List<SortSpec> parseUrl(String value) {
        List<SortSpec> out = new ArrayList<>();
        for (String part : value.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            int colon = part.lastIndexOf(':');
            String field = colon < 0 ? part : part.substring(0, colon);
            Optional<Order> order = colon < 0 ? Optional.empty() : Optional.of(order(part.substring(colon + 1)));
            out.add(spec(field, order, new Missing.Last(), Optional.empty(), Optional.empty(), Optional.empty()));
        }
        return out;
    }

    private static SortSpec one(JsonValue v) {
        if (v instanceof JsonString s) {
            return spec(s.value(), Optional.empty(), new Missing.Last(), Optional.empty(), Optional.empty(),
                    Optional.empty());
        }
        if (!(v instanceof JsonObject o) || o.members().size() != 1) {
            throw parsing("[sort] malformed: expected a field name or an object with one field");
        }
        Map.Entry<String, JsonValue> only = o.members().entrySet().iterator().next();
        String field = only.getKey();
        if (only.getValue() instanceof JsonString s) {
            return spec(field, Optional.of(order(s.value())), new Missing.Last(), Optional.empty(), Optional.empty(),
                    Optional.empty());
        }
        if (!(only.getValue() instanceof JsonObject params)) {
            throw parsing("[sort] malformed options for [" + field + "]");
        }
        if (field.equals("_script")) {
            return script(params);
        }
        if (field.equals("_score")) {
            for (Map.Entry<String, JsonValue> e : params.members().entrySet()) {
                if (!e.getKey().equals("order")) {
                    throw ObjectParseErrors.unknownField("_score", e.getKey(), params.keyAt(e.getKey()),
                            SCORE_FIELDS);
                }
            }
        }
        Optional<Order> order = Optional.empty();
        Missing missing = new Missing.Last();
        Optional<Mode> mode = Optional.empty();
        Optional<String> unmapped = Optional.empty();
        Optional<String> format = Optional.empty();
        for (Map.Entry<String, JsonValue> e : params.members().entrySet()) {
            switch (e.getKey()) {
                case "order" -> {
                    try {
                        order = Optional.of(order(text(e)));
                    } catch (GatewayException bad) {
                        throw ObjectParseErrors.failedToParse(parserName(field), "order", e.getValue().at(), bad);
                    }
                }
                case "missing" -> missing = switch (JsonReads.text(e.getValue()).orElse("")) {
                    case "" -> {
                        if (e.getValue() instanceof io.qdrant.esgateway.domain.json.JsonValue.JsonArray
                                || e.getValue() instanceof io.qdrant.esgateway.domain.json.JsonValue.JsonObject) {
                            throw parsing("[field_sort] missing doesn't support values of type: "
                                    + (e.getValue() instanceof io.qdrant.esgateway.domain.json.JsonValue.JsonArray
                                    ? "START_ARRAY" : "START_OBJECT"));
                        }
                        yield new Missing.Value(e.getValue());
                    }
                    case "_last" -> new Missing.Last();
                    case "_first" -> new Missing.First();
                    default -> new Missing.Value(e.getValue());
                };
                case "mode" -> {
                    String text = text(e);
                    try {
                        mode = Optional.of(mode(text));
                    } catch (GatewayException bad) {
                        throw ObjectParseErrors.failedToParse("field_sort", "mode", e.getValue().at(), bad);
                    }
                }
                case "unmapped_type" -> unmapped = Optional.of(text(e));
                case "format" -> format = Optional.of(text(e));
                case "numeric_type", "nested", "script" ->
                        throw GatewayException.unsupported("[sort] option [" + e.getKey() + "]");
                default -> throw ObjectParseErrors.unknownField("field_sort", e.getKey(), params.keyAt(e.getKey()),
                        FIELD_SORT_FIELDS);
            }
        }
        return spec(field, order, missing, mode, unmapped, format);
    }

    /** {@code {"_script": {"type": "number"|"string", "script": …, "order": …}}}. */
    private static SortSpec script(JsonObject params) {
        SortSpec.ScriptType type = null;
        io.qdrant.esgateway.domain.script.Script script = null;
        Order order = Order.ASC;
        for (Map.Entry<String, JsonValue> e : params.members().entrySet()) {
            switch (e.getKey()) {
                case "type" -> {
                    String t = JsonReads.text(e.getValue()).orElseThrow(() -> new GatewayException(
                            ErrorKind.X_CONTENT_PARSE, "[_script] failed to parse field [type]"));
                    type = switch (lower(t)) {
                        case "number" -> SortSpec.ScriptType.NUMBER;
                        case "string" -> SortSpec.ScriptType.STRING;
                        default -> throw new GatewayException(ErrorKind.X_CONTENT_PARSE, "[_script] failed to parse"
                                + " field [type]", Map.of(), GatewayException.illegalArgument("Unknown"
                                + " ScriptSortType [" + t + "]"));
                    };
                }
                case "script" -> script = io.qdrant.esgateway.domain.script.Script.parse(e.getValue());
                case "order" -> {
                    try {
                        order = order(text(e));
                    } catch (GatewayException bad) {
                        throw ObjectParseErrors.failedToParse("_script", "order", e.getValue().at(), bad);
                    }
                }
                // a script gives one value per document: the mode that would pick among several changes nothing
                case "mode" -> mode(text(e));
                case "nested" -> throw GatewayException.unsupported("[_script] sort option [nested]");
                default -> throw ObjectParseErrors.unknownField("_script", e.getKey(), params.keyAt(e.getKey()),
                        SCRIPT_SORT_FIELDS);
            }
        }
        if (script == null && type == null) {
            throw GatewayException.illegalArgument("Required [script, type]");
        }
        if (script == null) {
            throw GatewayException.illegalArgument("Required [script]");
        }
        if (type == null) {
            throw GatewayException.illegalArgument("Required [type]");
        }
        return new SortSpec.Script(type, script, script.source().orElse(null), order);
    }

    private static SortSpec spec(String field, Optional<Order> order, Missing missing, Optional<Mode> mode,
                                 Optional<String> unmapped, Optional<String> format) {
        return switch (field) {
            case "_score" -> new SortSpec.Score(order.orElse(Order.DESC));
            case "_doc" -> new SortSpec.Doc(order.orElse(Order.ASC));
            case "_geo_distance" -> throw GatewayException.unsupported("sorting by [" + field + "]");
            default -> new SortSpec.Field(field, order.orElse(Order.ASC), missing, mode, unmapped, format);
        };
    }

    private static String text(Map.Entry<String, JsonValue> e) {
        return JsonReads.text(e.getValue()).orElseThrow(() -> parsing("[sort] [" + e.getKey()
                + "] must be a string"));
    }

    private static Order order(String s) {
        return switch (lower(s)) {
            case "asc" -> Order.ASC;
            case "desc" -> Order.DESC;
            default -> throw GatewayException.illegalArgument("No enum constant org.elasticsearch.search.sort."
                    + "SortOrder." + s.toUpperCase(java.util.Locale.ROOT));
        };
    }

    /** The name of Elasticsearch's parser of a sort object, which its errors carry. */
    private static String parserName(String field) {
        return switch (field) {
            case "_score" -> "_score";
            default -> "field_sort";
        };
    }

    private static Mode mode(String s) {
        try {
            return Mode.valueOf(s.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw GatewayException.illegalArgument("Unknown SortMode [" + s + "]");
        }
    }

    private static GatewayException parsing(String reason) {
        return new GatewayException(ErrorKind.PARSING, reason);
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
