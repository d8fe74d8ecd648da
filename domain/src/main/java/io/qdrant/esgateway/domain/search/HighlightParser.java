package io.qdrant.esgateway.domain.search;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.ObjectParseErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads a search body's {@code highlight} section as Elasticsearch 8.15's {@code HighlightBuilder} does.
 *
 * <ul>
 *   <li>{@code fields}: an object of field name (or {@code *} pattern) → options, or an array of single-key objects
 *       (ES's ordered form);</li>
 *   <li>options, top level and per field: {@code pre_tags}, {@code post_tags}, {@code tags_schema: styled},
 *       {@code fragment_size} (default 100), {@code number_of_fragments} (default 5), {@code no_match_size}
 *       (default 0), {@code order} ({@code none} or {@code score}), {@code require_field_match} (default true),
 *       {@code encoder} ({@code default} or {@code html}), {@code type} ({@code unified} only);</li>
 *   <li>accepted without effect on the unified highlighter, as in ES: {@code fragmenter}, {@code force_source},
 *       {@code boundary_chars}, {@code boundary_max_scan}, {@code boundary_scanner_locale}, {@code phrase_limit},
 *       {@code highlight_filter}, {@code max_analyzed_offset}, {@code options}, {@code fragment_offset},
 *       {@code matched_fields}; {@code boundary_scanner: sentence};</li>
 *   <li>rejected by name (400): {@code type} {@code plain} / {@code fvh}, {@code highlight_query}, a
 *       {@code boundary_scanner} other than {@code sentence};</li>
 *   <li>any other key: ES's {@code x_content_parse_exception} "[l:c] [highlight] unknown field [key]" (in a field:
 *       "[l:c] [highlight_field] unknown field [key]") with ES's "did you mean" suggestion; a bad value of a
 *       number or boolean option: "[l:c] [highlight] failed to parse field [key]" with ES's cause. Such an error in
 *       a field is the cause of "[l:c] [fields] failed to parse field [name]", itself the cause of
 *       "[l:c] [highlight] failed to parse field [fields]", both at the offending value, as in ES.</li>
 * </ul>
 */
public final class HighlightParser {
    private static final List<String> STYLED_PRE = List.of("<em class=\"hlt1\">");
    /** The options Elasticsearch's highlight parsers know, for their "did you mean" suggestions. */
    private static final List<String> COMMON_OPTIONS = List.of("pre_tags", "post_tags", "tags_schema", "order",
            "highlight_filter", "fragment_size", "number_of_fragments", "encoder", "require_field_match",
            "boundary_max_scan", "boundary_chars", "boundary_scanner", "boundary_scanner_locale", "type",
            "fragmenter", "no_match_size", "force_source", "phrase_limit", "options", "highlight_query",
            "max_analyzed_offset");
    private static final List<String> TOP_OPTIONS = with(COMMON_OPTIONS, "fields");
    private static final List<String> FIELD_OPTIONS = with(COMMON_OPTIONS, "fragment_offset", "matched_fields");

    private HighlightParser() {
    }

    public static HighlightSpec parse(JsonValue value) {
        JsonObject root = JsonReads.object(value, HighlightParser::parseError, "highlight");
        HighlightSpec.Options defaults = options("highlight", root, HighlightSpec.Options.DEFAULTS, null);
        List<HighlightSpec.FieldSpec> fields = new ArrayList<>();
        JsonValue fieldsValue = root.members().get("fields");
        if (fieldsValue instanceof JsonObject o) {
            for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
                fields.add(field(e.getKey(), e.getValue(), defaults));
            }
        } else if (fieldsValue instanceof JsonArray a) {
            for (JsonValue element : a.elements()) {
                if (!(element instanceof JsonObject o) || o.members().size() != 1) {
                    throw parseError("[highlight] failed to parse field [fields]");
                }
                Map.Entry<String, JsonValue> e = o.members().entrySet().iterator().next();
                fields.add(field(e.getKey(), e.getValue(), defaults));
            }
        } else if (fieldsValue != null) {
            throw parseError(JsonValue.Position.prefix(fieldsValue) + "[highlight] fields doesn't support values of"
                    + " type: " + fieldsValue.tokenName());
        }
        return new HighlightSpec(fields);
    }

    private static HighlightSpec.FieldSpec field(String name, JsonValue value, HighlightSpec.Options defaults) {
        JsonObject o = JsonReads.object(value, HighlightParser::parseError, "highlight field");
        return new HighlightSpec.FieldSpec(name, options("highlight_field", o, defaults, name));
    }

    /** The options of the top level ({@code field} null) or of the field {@code field}. */
    private static HighlightSpec.Options options(String where, JsonObject o, HighlightSpec.Options base,
                                                 String field) {
        boolean topLevel = field == null;
        String pre = base.preTag();
        String post = base.postTag();
        int fragmentSize = base.fragmentSize();
        int fragments = base.numberOfFragments();
        int noMatch = base.noMatchSize();
        boolean scoreOrder = base.scoreOrder();
        boolean requireFieldMatch = base.requireFieldMatch();
        boolean html = base.htmlEncode();
        boolean preGiven = false;
        for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
            String key = e.getKey();
            JsonValue v = e.getValue();
            try {
                switch (key) {
                    case "fields" -> {
                        if (!topLevel) {
                            throw unknown(where, key, o);
                        }
                    }
                    case "pre_tags" -> {
                        pre = firstTag(key, v);
                        preGiven = true;
                    }
                    case "post_tags" -> post = firstTag(key, v);
                    case "tags_schema" -> {
                        String schema = JsonReads.text(v).orElse("");
                        switch (schema) {
                            case "styled" -> {
                                if (!preGiven) {
                                    pre = STYLED_PRE.get(0);
                                }
                                post = "</em>";
                            }
                            case "default" -> {
                                if (!preGiven) {
                                    pre = "<em>";
                                }
                                post = "</em>";
                            }
                            default -> throw illegal("Unknown tag schema [" + schema + "]");
                        }
                    }
                    case "fragment_size" -> fragmentSize = integer(where, key, v);
                    case "number_of_fragments" -> fragments = integer(where, key, v);
                    case "no_match_size" -> noMatch = integer(where, key, v);
                    case "order" -> {
                        String order = JsonReads.text(v).orElse("");
                        scoreOrder = switch (order.toLowerCase(java.util.Locale.ROOT)) {
                            case "score" -> true;
                            case "none" -> false;
                            default -> throw illegal("Unknown Order [" + order + "]");
                        };
                    }
                    case "require_field_match" -> requireFieldMatch = JsonReads.bool(v).orElseThrow(
                            () -> v instanceof JsonValue.JsonString text
                                    ? ObjectParseErrors.failedToParse(where, key, v.at(), illegal("Failed to parse"
                                            + " value [" + text.value() + "] as only [true] or [false] are"
                                            + " allowed."))
                                    : parseError("[" + where + "] failed to parse field [" + key + "]"));
                    case "encoder" -> {
                        String encoder = JsonReads.text(v).orElse("");
                        html = "html".equals(encoder);
                    }
                    case "type" -> {
                        String type = JsonReads.text(v).orElse("");
                        if (!type.equals("unified")) {
                            if (type.equals("plain") || type.equals("fvh")) {
                                throw GatewayException.unsupported("highlighter [type] [" + type
                                        + "] (only [unified])");
                            }
                            throw illegal("unknown highlighter type [" + type + "] for the field ["
                                    + (topLevel ? "*" : field) + "]");
                        }
                    }
                    case "boundary_scanner" -> {
                        String scanner = JsonReads.text(v).orElse("");
                        if (!scanner.equalsIgnoreCase("sentence")) {
                            throw GatewayException.unsupported("highlight [boundary_scanner] [" + scanner
                                    + "] (only [sentence])");
                        }
                    }
                    case "highlight_query" -> throw GatewayException.unsupported("[highlight_query] in highlight");
                    case "fragmenter", "force_source", "boundary_chars", "boundary_max_scan", "boundary_scanner_locale",
                         "phrase_limit", "highlight_filter", "max_analyzed_offset", "options" -> {
                        // no effect on the unified highlighter over _source
                    }
                    case "fragment_offset", "matched_fields" -> {
                        if (topLevel) {
                            throw unknown(where, key, o);
                        }
                    }
                    default -> throw unknown(where, key, o);
                }
            } catch (GatewayException bad) {
                if (topLevel || bad.kind() != ErrorKind.X_CONTENT_PARSE) {
                    throw bad;
                }
                // Elasticsearch's field and fields parsers wrap the error where the parser stood: the value
                throw ObjectParseErrors.failedToParse("highlight", "fields", v.at(),
                        ObjectParseErrors.failedToParse("fields", field, v.at(), bad));
            }
        }
        return new HighlightSpec.Options(pre, post, fragmentSize, fragments, noMatch, scoreOrder, requireFieldMatch,
                html);
    }

    private static String firstTag(String key, JsonValue v) {
        List<JsonValue> tags = v instanceof JsonArray a ? a.elements() : List.of(v);
        if (tags.isEmpty()) {
            throw illegal("[" + key + "] must not be empty");
        }
        return JsonReads.text(tags.get(0)).orElseThrow(() -> parseError("[highlight] failed to parse field ["
                + key + "]"));
    }

    private static int integer(String where, String key, JsonValue v) {
        return JsonReads.integer(v).map(Long::intValue).orElseThrow(() -> switch (v) {
            case JsonValue.JsonString text -> ObjectParseErrors.failedToParse(where, key, v.at(),
                    GatewayException.javaException("number_format_exception", "For input string: \""
                            + text.value() + "\""));
            case JsonValue.JsonBool b -> parseError(JsonValue.Position.prefix(v) + "[" + where + "] " + key
                    + " doesn't support values of type: " + v.tokenName());
            default -> parseError(JsonValue.Position.prefix(v) + "[" + where + "] failed to parse field [" + key
                    + "]");
        });
    }

    private static GatewayException unknown(String where, String key, JsonObject in) {
        return ObjectParseErrors.unknownField(where, key, in.keyAt(key),
                where.equals("highlight") ? TOP_OPTIONS : FIELD_OPTIONS);
    }

    private static List<String> with(List<String> base, String... more) {
        List<String> all = new ArrayList<>(base);
        all.addAll(List.of(more));
        return List.copyOf(all);
    }

    private static GatewayException parseError(String reason) {
        return new GatewayException(ErrorKind.X_CONTENT_PARSE, reason);
    }

    private static GatewayException illegal(String reason) {
        return GatewayException.illegalArgument(reason);
    }
}
