package io.qdrant.esgateway.domain.analysis;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An index's {@code index.analysis} settings as plain data: the named analyzer, tokenizer, token filter, char filter
 * and normalizer definitions, each a type and its parameters (every value a string or a list of strings, as
 * Elasticsearch keeps settings). {@link #parse} checks what can be checked without building the components —
 * definitions' types and the names a custom analyzer or normalizer refers to — with Elasticsearch's messages; the
 * component parameters are checked when an implementation builds them (at index creation too).
 */
public record AnalysisSettings(SortedMap<String, Definition> analyzers, SortedMap<String, Definition> tokenizers,
                               SortedMap<String, Definition> filters, SortedMap<String, Definition> charFilters,
                               SortedMap<String, Definition> normalizers) {
    public static final AnalysisSettings NONE = new AnalysisSettings(new TreeMap<>(), new TreeMap<>(), new TreeMap<>(),
            new TreeMap<>(), new TreeMap<>());
    /** The flat settings prefix of every analysis key. */
    public static final String PREFIX = "index.analysis.";

    private static final Pattern LIST_ELEMENT = Pattern.compile("(.+)\\.(\\d+)");

    public AnalysisSettings {
        analyzers = Collections.unmodifiableSortedMap(new TreeMap<>(analyzers));
        tokenizers = Collections.unmodifiableSortedMap(new TreeMap<>(tokenizers));
        filters = Collections.unmodifiableSortedMap(new TreeMap<>(filters));
        charFilters = Collections.unmodifiableSortedMap(new TreeMap<>(charFilters));
        normalizers = Collections.unmodifiableSortedMap(new TreeMap<>(normalizers));
    }

    /**
     * One definition: its {@code type} ({@code custom} for an analyzer or normalizer given by its parts) and its other
     * parameters, each a {@link JsonString} or a {@link JsonArray} of them.
     */
    public record Definition(String type, SortedMap<String, JsonValue> params, boolean typeGiven) {
        public Definition {
            params = Collections.unmodifiableSortedMap(new TreeMap<>(params));
        }

        /** A definition whose type was given (not derived from its parts). */
        public Definition(String type, SortedMap<String, JsonValue> params) {
            this(type, params, true);
        }

        public Optional<String> string(String key) {
            JsonValue v = params.get(key);
            if (v == null) {
                return Optional.empty();
            }
            if (v instanceof JsonString s) {
                return Optional.of(s.value());
            }
            List<String> list = list(key);
            return Optional.of(String.join(",", list));
        }

        /** A list parameter; a single string is a list of one (as Elasticsearch reads {@code "filter": "lowercase"}). */
        public List<String> list(String key) {
            JsonValue v = params.get(key);
            if (v == null) {
                return List.of();
            }
            if (v instanceof JsonString s) {
                return List.of(s.value());
            }
            List<String> out = new ArrayList<>();
            for (JsonValue e : ((JsonArray) v).elements()) {
                out.add(((JsonString) e).value());
            }
            return out;
        }

        public boolean has(String key) {
            return params.containsKey(key);
        }
    }

    public boolean isEmpty() {
        return analyzers.isEmpty() && tokenizers.isEmpty() && filters.isEmpty() && charFilters.isEmpty()
                && normalizers.isEmpty();
    }

    /** Whether {@code name} is an analyzer of this index: defined here or built in. */
    public boolean hasAnalyzer(String name) {
        return analyzers.containsKey(name) || AnalysisComponents.ANALYZERS.contains(name);
    }

    /** Whether {@code name} is a normalizer of this index: defined here or built in. */
    public boolean hasNormalizer(String name) {
        return normalizers.containsKey(name) || AnalysisComponents.NORMALIZERS.contains(name);
    }

    /**
     * Reads the analysis settings from flat keys below {@code index.analysis.} (nested settings flattened, list
     * values as JSON arrays or as Elasticsearch's {@code key.0}, {@code key.1} …) and validates them.
     */
    public static AnalysisSettings parseFlat(Map<String, JsonValue> flat) {
        Map<String, Map<String, Map<String, Object>>> kinds = new TreeMap<>();
        for (Map.Entry<String, JsonValue> e : flat.entrySet()) {
            String key = e.getKey();
            String rest = key.substring(PREFIX.length());
            String[] parts = rest.split("\\.", 3);
            if (parts.length < 3) {
                throw GatewayException.illegalArgument("unknown setting [" + key + "] please check that any required"
                        + " plugins are installed, or check the breaking changes documentation for removed settings");
            }
            String kind = parts[0];
            if (!List.of("analyzer", "tokenizer", "filter", "char_filter", "normalizer").contains(kind)) {
                throw GatewayException.illegalArgument("unknown setting [" + key + "] please check that any required"
                        + " plugins are installed, or check the breaking changes documentation for removed settings");
            }
            String param = parts[2];
            Map<String, Object> params = kinds.computeIfAbsent(kind, k -> new TreeMap<>())
                    .computeIfAbsent(parts[1], k -> new TreeMap<>());
            Matcher element = LIST_ELEMENT.matcher(param);
            if (element.matches()) {
                @SuppressWarnings("unchecked")
                SortedMap<Integer, String> list = (SortedMap<Integer, String>) params.computeIfAbsent(element.group(1),
                        k -> new TreeMap<Integer, String>());
                list.put(Integer.parseInt(element.group(2)), scalar(key, e.getValue()));
            } else {
                params.put(param, value(key, e.getValue()));
            }
        }
        Map<String, SortedMap<String, Definition>> defs = new TreeMap<>();
        kinds.forEach((kind, byName) -> {
            SortedMap<String, Definition> out = new TreeMap<>();
            byName.forEach((name, raw) -> {
                SortedMap<String, JsonValue> params = new TreeMap<>();
                raw.forEach((k, v) -> {
                    if (v instanceof SortedMap<?, ?> list) {
                        List<JsonValue> values = new ArrayList<>();
                        list.values().forEach(s -> values.add(new JsonString((String) s)));
                        params.put(k, new JsonArray(values));
                    } else {
                        params.put(k, (JsonValue) v);
                    }
                });
                out.put(name, definition(kind, name, params));
            });
            defs.put(kind, out);
        });
        AnalysisSettings settings = new AnalysisSettings(defs.getOrDefault("analyzer", new TreeMap<>()),
                defs.getOrDefault("tokenizer", new TreeMap<>()), defs.getOrDefault("filter", new TreeMap<>()),
                defs.getOrDefault("char_filter", new TreeMap<>()), defs.getOrDefault("normalizer", new TreeMap<>()));
        settings.validate();
        return settings;
    }

    private static JsonValue value(String key, JsonValue value) {
        if (value instanceof JsonArray array) {
            List<JsonValue> out = new ArrayList<>();
            for (JsonValue v : array.elements()) {
                out.add(new JsonString(scalar(key, v)));
            }
            return new JsonArray(out);
        }
        return new JsonString(scalar(key, value));
    }

    private static String scalar(String key, JsonValue value) {
        return switch (value) {
            case JsonString s -> s.value();
            case JsonValue.JsonNumber n -> n.value().toString();
            case JsonValue.JsonBool b -> Boolean.toString(b.value());
            default -> throw GatewayException.illegalArgument("Failed to parse value [" + value.tokenName()
                    + "] for setting [" + key + "]");
        };
    }

    private static Definition definition(String kind, String name, SortedMap<String, JsonValue> params) {
        JsonValue typeValue = params.remove("type");
        String type = typeValue instanceof JsonString s ? s.value() : null;
        boolean typeGiven = type != null;
        Optional<String> tokenizer = Optional.ofNullable(params.get("tokenizer"))
                .map(v -> v instanceof JsonString s ? s.value() : null);
        switch (kind) {
            case "analyzer" -> {
                if (type == null) {
                    if (tokenizer.isEmpty()) {
                        throw GatewayException.illegalArgument("analyzer [" + name
                                + "] must specify either an analyzer type, or a tokenizer");
                    }
                    type = "custom";
                }
                if (!type.equals("custom") && !AnalysisComponents.ANALYZERS.contains(type)) {
                    throw GatewayException.illegalArgument("Unknown analyzer type [" + type + "] for [" + name + "]");
                }
            }
            case "normalizer" -> {
                if (type == null) {
                    type = "custom";
                }
                if (!type.equals("custom")) {
                    throw GatewayException.illegalArgument("Unknown normalizer type [" + type + "] for [" + name + "]");
                }
            }
            default -> {
                String what = kind.equals("filter") ? "filter" : kind;
                if (type == null) {
                    throw GatewayException.illegalArgument(what + " [" + name
                            + "] must specify either an analyzer type, or a tokenizer");
                }
                java.util.Set<String> known = switch (kind) {
                    case "tokenizer" -> AnalysisComponents.TOKENIZERS;
                    case "filter" -> AnalysisComponents.FILTERS;
                    default -> AnalysisComponents.CHAR_FILTERS;
                };
                if (!known.contains(type)) {
                    throw GatewayException.illegalArgument("Unknown " + what + " type [" + type + "] for [" + name
                            + "]");
                }
            }
        }
        return new Definition(type, params, typeGiven);
    }

    /** The references of custom analyzers and normalizers resolve, and normalizers only use normalizing filters. */
    private void validate() {
        analyzers.forEach((name, def) -> {
            if (!def.type().equals("custom")) {
                return;
            }
            String tokenizer = def.string("tokenizer").orElseThrow(() -> GatewayException.illegalArgument(
                    "Custom Analyzer [" + name + "] must be configured with a tokenizer"));
            if (!tokenizers.containsKey(tokenizer) && !AnalysisComponents.TOKENIZERS.contains(tokenizer)) {
                throw GatewayException.illegalArgument("Custom Analyzer [" + name
                        + "] failed to find tokenizer under name [" + tokenizer + "]");
            }
            for (String c : def.list("char_filter")) {
                if (!charFilters.containsKey(c) && !AnalysisComponents.CHAR_FILTERS.contains(c)) {
                    throw GatewayException.illegalArgument("Custom Analyzer [" + name
                            + "] failed to find char_filter under name [" + c + "]");
                }
            }
            for (String f : def.list("filter")) {
                if (!filters.containsKey(f) && !AnalysisComponents.FILTERS.contains(f)) {
                    throw GatewayException.illegalArgument("Custom Analyzer [" + name
                            + "] failed to find filter under name [" + f + "]");
                }
            }
        });
        normalizers.forEach((name, def) -> {
            if (def.has("tokenizer")) {
                throw GatewayException.illegalArgument("Custom normalizer [" + name
                        + "] cannot configure a tokenizer");
            }
            for (String c : def.list("char_filter")) {
                if (!charFilters.containsKey(c) && !AnalysisComponents.CHAR_FILTERS.contains(c)) {
                    throw GatewayException.illegalArgument("Custom normalizer [" + name
                            + "] failed to find char_filter under name [" + c + "]");
                }
            }
            for (String f : def.list("filter")) {
                Definition custom = filters.get(f);
                if (custom == null && !AnalysisComponents.FILTERS.contains(f)) {
                    throw GatewayException.illegalArgument("Custom normalizer [" + name
                            + "] failed to find filter under name [" + f + "]");
                }
                String type = custom == null ? f : custom.type();
                if (!AnalysisComponents.NORMALIZING_FILTERS.contains(type)) {
                    throw GatewayException.illegalArgument("Custom normalizer [" + name + "] may not use filter ["
                            + f + "]");
                }
            }
        });
    }

    /** Flat {@code index.analysis.*} keys, list values as {@code key.0}, {@code key.1} …, for persistence. */
    public void toFlatMap(Map<String, String> out) {
        write("analyzer", analyzers, out);
        write("tokenizer", tokenizers, out);
        write("filter", filters, out);
        write("char_filter", charFilters, out);
        write("normalizer", normalizers, out);
    }

    private static void write(String kind, SortedMap<String, Definition> defs, Map<String, String> out) {
        defs.forEach((name, def) -> {
            String base = PREFIX + kind + "." + name + ".";
            if (def.typeGiven()) {
                out.put(base + "type", def.type());
            }
            def.params().forEach((k, v) -> {
                if (v instanceof JsonArray array) {
                    for (int i = 0; i < array.elements().size(); i++) {
                        out.put(base + k + "." + i, ((JsonString) array.elements().get(i)).value());
                    }
                } else {
                    out.put(base + k, ((JsonString) v).value());
                }
            });
        });
    }
}
