package io.qdrant.esgateway.domain.analysis;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The body of {@code _analyze}: the texts and what analyses them — a named analyzer, a field's analyzer, a named
 * normalizer, or a tokenizer with token and char filters (each named or defined inline). Nothing given: the index's
 * default analyzer ({@code standard}).
 */
public record AnalyzeRequest(List<String> text, Optional<String> analyzer, Optional<String> field,
                             Optional<String> normalizer, Optional<Component> tokenizer, List<Component> filters,
                             List<Component> charFilters, boolean explain, List<String> attributes) {

    /** A component of an {@code _analyze} chain: a name or an inline definition. */
    public sealed interface Component {
        record Named(String name) implements Component {
        }

        record Inline(AnalysisSettings.Definition definition) implements Component {
        }
    }

    public static AnalyzeRequest parse(JsonValue body) {
        JsonObject root = JsonReads.object(body, JsonReads::parseError, "analyze request");
        List<String> text = List.of();
        Optional<String> analyzer = Optional.empty();
        Optional<String> field = Optional.empty();
        Optional<String> normalizer = Optional.empty();
        Optional<Component> tokenizer = Optional.empty();
        List<Component> filters = new ArrayList<>();
        List<Component> charFilters = new ArrayList<>();
        boolean explain = false;
        List<String> attributes = List.of();
        for (Map.Entry<String, JsonValue> e : root.members().entrySet()) {
            JsonValue v = e.getValue();
            switch (e.getKey()) {
                case "text" -> text = texts(v);
                case "analyzer" -> analyzer = Optional.of(string(e.getKey(), v));
                case "field" -> field = Optional.of(string(e.getKey(), v));
                case "normalizer" -> normalizer = Optional.of(string(e.getKey(), v));
                case "tokenizer" -> tokenizer = Optional.of(component("tokenizer", v));
                case "filter", "token_filter" -> filters.addAll(components("filter", v));
                case "char_filter" -> charFilters.addAll(components("char_filter", v));
                case "explain" -> explain = JsonReads.bool(v).orElseThrow(() -> GatewayException.parse(
                        "Failed to parse [explain]"));
                case "attributes" -> attributes = attributes(v);
                default -> throw GatewayException.illegalArgument("Unknown parameter [" + e.getKey()
                        + "] in request body or parameter is of the wrong type[" + v.tokenName() + "] ");
            }
        }
        List<String> problems = new ArrayList<>();
        if (text.isEmpty()) {
            problems.add("text is missing");
        }
        if (analyzer.isPresent() && (tokenizer.isPresent() || !filters.isEmpty() || !charFilters.isEmpty())) {
            problems.add("tokenizer/filters should be null if analyzer is specified");
        }
        if (normalizer.isPresent() && (tokenizer.isPresent() || analyzer.isPresent())) {
            problems.add("tokenizer/analyze should be null if normalizer is specified");
        }
        if (analyzer.isPresent() && field.isPresent()) {
            problems.add("analyzer should be null if field is specified");
        }
        if (!problems.isEmpty()) {
            throw GatewayException.validationFailed(problems);
        }
        return new AnalyzeRequest(text, analyzer, field, normalizer, tokenizer, List.copyOf(filters),
                List.copyOf(charFilters), explain, attributes);
    }

    /** {@code attributes}: the token attributes {@code explain} shows (a name or a list; empty: all). */
    private static List<String> attributes(JsonValue v) {
        List<String> out = new ArrayList<>();
        for (JsonValue e : v instanceof JsonArray array ? array.elements() : List.of(v)) {
            out.add(string("attributes", e).toLowerCase(java.util.Locale.ROOT));
        }
        return List.copyOf(out);
    }

    private static String string(String key, JsonValue v) {
        return JsonReads.text(v).orElseThrow(() -> GatewayException.illegalArgument("Unknown parameter [" + key
                + "] in request body or parameter is of the wrong type[" + v.tokenName() + "] "));
    }

    private static List<String> texts(JsonValue v) {
        if (v instanceof JsonArray array) {
            List<String> out = new ArrayList<>();
            for (JsonValue e : array.elements()) {
                out.add(string("text", e));
            }
            return out;
        }
        return List.of(string("text", v));
    }

    private static List<Component> components(String kind, JsonValue v) {
        if (v instanceof JsonArray array) {
            List<Component> out = new ArrayList<>();
            for (JsonValue e : array.elements()) {
                out.add(component(kind, e));
            }
            return out;
        }
        return List.of(component(kind, v));
    }

    private static Component component(String kind, JsonValue v) {
        if (v instanceof JsonString s) {
            return new Component.Named(s.value());
        }
        if (!(v instanceof JsonObject o)) {
            throw GatewayException.illegalArgument("Unknown parameter [" + kind
                    + "] in request body or parameter is of the wrong type[" + v.tokenName() + "] ");
        }
        Map<String, JsonValue> flat = new LinkedHashMap<>();
        o.members().forEach((k, value) -> flat.put(AnalysisSettings.PREFIX + kind + "._inline_." + k, value));
        AnalysisSettings parsed = AnalysisSettings.parseFlat(flat);
        TreeMap<String, AnalysisSettings.Definition> defs = new TreeMap<>(switch (kind) {
            case "tokenizer" -> parsed.tokenizers();
            case "filter" -> parsed.filters();
            default -> parsed.charFilters();
        });
        return new Component.Inline(defs.get("_inline_"));
    }
}
