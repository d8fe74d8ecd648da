package io.qdrant.esgateway.domain.document;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonBool;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import io.qdrant.esgateway.domain.index.IndexName;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Elasticsearch's {@code _source} filtering: whether to return the source at all, and which paths to keep.
 * Patterns are dotted paths with {@code *} wildcards; a pattern matches a field, everything under it, and (for
 * includes) the objects on the way to it. Excludes win over includes. Empty objects left by filtering are dropped,
 * as ES drops them.
 */
public record SourceFilter(boolean fetch, List<String> includes, List<String> excludes) {
    public static final SourceFilter ALL = new SourceFilter(true, List.of(), List.of());
    public static final SourceFilter NONE = new SourceFilter(false, List.of(), List.of());

    public SourceFilter {
        includes = List.copyOf(includes);
        excludes = List.copyOf(excludes);
    }

    /**
     * From URL parameters: {@code _source} ({@code true}, {@code false}, or a comma list of includes),
     * {@code _source_includes}, {@code _source_excludes}.
     */
    public static SourceFilter fromParams(Optional<String> source, Optional<String> includes, Optional<String> excludes) {
        boolean fetch = true;
        List<String> inc = new ArrayList<>();
        if (source.isPresent()) {
            switch (source.get()) {
                case "", "true" -> fetch = true;
                case "false" -> fetch = false;
                default -> inc.addAll(split(source.get()));
            }
        }
        includes.ifPresent(i -> inc.addAll(split(i)));
        List<String> exc = excludes.map(SourceFilter::split).orElse(List.of());
        if (!inc.isEmpty() || !exc.isEmpty()) {
            fetch = true;
        }
        return new SourceFilter(fetch, inc, exc);
    }

    /** From a body's {@code _source}: a boolean, a pattern, a list of patterns, or {@code {includes, excludes}}. */
    public static SourceFilter fromJson(JsonValue value) {
        return switch (value) {
            case JsonBool b -> b.value() ? ALL : NONE;
            case JsonString s -> new SourceFilter(true, List.of(s.value()), List.of());
            case JsonArray a -> new SourceFilter(true, strings(a, "_source"), List.of());
            case JsonObject o -> {
                List<String> inc = List.of();
                List<String> exc = List.of();
                for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
                    switch (e.getKey()) {
                        case "includes", "include" -> inc = patterns(e.getValue(), e.getKey());
                        case "excludes", "exclude" -> exc = patterns(e.getValue(), e.getKey());
                        default -> throw GatewayException.parse("Unknown key for a START_OBJECT in [_source]: ["
                                + e.getKey() + "]");
                    }
                }
                yield new SourceFilter(true, inc, exc);
            }
            default -> throw GatewayException.parse("[_source] must be a boolean, a string, an array or an object, got ["
                    + value.tokenName() + "]");
        };
    }

    private static List<String> patterns(JsonValue v, String key) {
        return v instanceof JsonArray a ? strings(a, key) : List.of(JsonReads.text(v).orElseThrow(
                () -> GatewayException.parse("[_source." + key + "] must be a string or an array of strings")));
    }

    private static List<String> strings(JsonArray a, String key) {
        List<String> out = new ArrayList<>();
        for (JsonValue v : a.elements()) {
            out.add(JsonReads.text(v).orElseThrow(() -> GatewayException.parse("[" + key
                    + "] must contain only strings")));
        }
        return out;
    }

    private static List<String> split(String s) {
        List<String> out = new ArrayList<>();
        for (String p : s.split(",")) {
            if (!p.isBlank()) {
                out.add(p.trim());
            }
        }
        return out;
    }

    /** The filtered source; the whole source when there is nothing to filter. */
    /**
     * The source as an index's mapping shows it ({@code _source.includes}/{@code excludes}); the source itself when
     * the mapping filters nothing.
     */
    public static JsonObject stored(io.qdrant.esgateway.domain.index.Mappings mappings, JsonObject source) {
        io.qdrant.esgateway.domain.index.RootOptions root = mappings.root();
        if (!root.filtersSource()) {
            return source;
        }
        return new SourceFilter(true, root.sourceIncludes(), root.sourceExcludes()).apply(source);
    }

    public JsonObject apply(JsonObject source) {
        if (includes.isEmpty() && excludes.isEmpty()) {
            return source;
        }
        return filterObject("", source);
    }

    private JsonObject filterObject(String prefix, JsonObject object) {
        Map<String, JsonValue> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonValue> e : object.members().entrySet()) {
            String path = prefix + e.getKey();
            if (matchesAny(excludes, path)) {
                continue;
            }
            JsonValue kept = filterValue(path, e.getValue());
            if (kept != null) {
                out.put(e.getKey(), kept);
            }
        }
        return new JsonObject(out);
    }

    private JsonValue filterValue(String path, JsonValue value) {
        boolean included = includes.isEmpty() || matchesAny(includes, path);
        switch (value) {
            case JsonObject o -> {
                if (!included && !leadsToAnInclude(path)) {
                    return null;
                }
                JsonObject inner = filterObject(path + ".", o);
                return inner.members().isEmpty() && !(included && o.members().isEmpty()) ? null : inner;
            }
            case JsonArray a -> {
                if (!included && !leadsToAnInclude(path)) {
                    return null;
                }
                List<JsonValue> kept = new ArrayList<>();
                for (JsonValue element : a.elements()) {
                    if (element instanceof JsonObject || element instanceof JsonArray) {
                        JsonValue inner = filterValue(path, element);
                        if (inner != null) {
                            kept.add(inner);
                        }
                    } else if (included) {
                        kept.add(element);
                    }
                }
                return kept.isEmpty() && !included ? null : new JsonArray(kept);
            }
            default -> {
                return included ? value : null;
            }
        }
    }

    /** Whether some include pattern names something below {@code path}. */
    private boolean leadsToAnInclude(String path) {
        for (String include : includes) {
            if (include.startsWith(path + ".") || include.startsWith("*")
                    || (include.contains("*") && IndexName.matches(include.substring(0, include.indexOf('*')) + "*",
                    path + "."))) {
                return true;
            }
        }
        return false;
    }

    /** A pattern matches the path itself or any ancestor of it ({@code obj} covers {@code obj.a.b}). */
    private static boolean matchesAny(List<String> patterns, String path) {
        for (String pattern : patterns) {
            String candidate = path;
            while (true) {
                if (IndexName.matches(pattern, candidate)) {
                    return true;
                }
                int dot = candidate.lastIndexOf('.');
                if (dot < 0) {
                    break;
                }
                candidate = candidate.substring(0, dot);
            }
        }
        return false;
    }
}
