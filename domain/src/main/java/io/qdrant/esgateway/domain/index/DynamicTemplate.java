package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * One entry of {@code dynamic_templates}, as Elasticsearch 8 reads and applies it: a new field matches when its name
 * matches {@code match} and none of {@code unmatch}, its full path matches {@code path_match} and none of
 * {@code path_unmatch} (each a string or a list; simple {@code *} patterns, or Java regular expressions with
 * {@code match_pattern: regex}), and its detected type ({@code string}, {@code long}, {@code double},
 * {@code boolean}, {@code date}, {@code object}) is one of {@code match_mapping_type} ({@code *} or absent: any).
 * Its {@code mapping} then maps the field, with {@code {name}} and {@code {dynamic_type}} replaced in keys and
 * values; without a {@code type}, the type dynamic mapping would give.
 */
public record DynamicTemplate(String name, JsonObject definition, List<String> match, List<String> unmatch,
                              List<String> pathMatch, List<String> pathUnmatch, List<String> matchMappingType,
                              boolean regex, JsonObject mapping) {
    /** The types {@code match_mapping_type} may name, in Elasticsearch's order. */
    static final List<String> TYPES = List.of("object", "string", "long", "double", "boolean", "date", "binary");
    private static final Set<String> KEYS = Set.of("match", "unmatch", "path_match", "path_unmatch",
            "match_mapping_type", "match_pattern", "mapping", "runtime", "unmatch_mapping_type");

    public DynamicTemplate {
        match = List.copyOf(match);
        unmatch = List.copyOf(unmatch);
        pathMatch = List.copyOf(pathMatch);
        pathUnmatch = List.copyOf(pathUnmatch);
        matchMappingType = List.copyOf(matchMappingType);
    }

    /** The template as given (rendered back as Elasticsearch renders it). */
    public JsonObject toJson() {
        return definition;
    }

    /** The {@code dynamic_templates} array of a mapping, with ES's errors. */
    static List<DynamicTemplate> parseAll(JsonValue value) {
        if (!(value instanceof JsonArray array)) {
            throw GatewayException.mappingFailed("Dynamic template syntax error. An array of named objects is expected.");
        }
        List<DynamicTemplate> out = new ArrayList<>();
        for (JsonValue element : array.elements()) {
            if (!(element instanceof JsonObject named) || named.members().size() != 1) {
                throw GatewayException.mappingFailed(
                        "Dynamic template syntax error. An array of named objects is expected.");
            }
            Map.Entry<String, JsonValue> e = named.members().entrySet().iterator().next();
            if (!(e.getValue() instanceof JsonObject def)) {
                throw GatewayException.mappingFailed(
                        "Dynamic template syntax error. An array of named objects is expected.");
            }
            out.add(parse(e.getKey(), def));
        }
        return out;
    }

    private static DynamicTemplate parse(String name, JsonObject def) {
        for (String key : def.members().keySet()) {
            if (!KEYS.contains(key)) {
                throw GatewayException.mappingIllegal("Illegal dynamic template parameter: [" + key + "]");
            }
        }
        if (def.has("runtime") || def.has("unmatch_mapping_type")) {
            throw GatewayException.unsupported("dynamic template parameter ["
                    + (def.has("runtime") ? "runtime" : "unmatch_mapping_type") + "] in template [" + name + "]");
        }
        if (!(def.get("mapping") instanceof JsonObject mapping)) {
            throw GatewayException.mappingFailed("template [" + name + "] must have either mapping or runtime set");
        }
        boolean regex = false;
        if (def.get("match_pattern") != null) {
            String p = text(def.get("match_pattern"));
            regex = switch (p) {
                case "regex" -> true;
                case "simple" -> false;
                default -> throw GatewayException.mappingFailed("No matching pattern found for [" + p + "]");
            };
        }
        List<String> types = strings(def.get("match_mapping_type"));
        for (String t : types) {
            if (!t.equals("*") && !TYPES.contains(t)) {
                throw GatewayException.mappingIllegal("No field type matched on [" + t + "], possible values are ["
                        + String.join(", ", TYPES) + "]");
            }
        }
        DynamicTemplate template = new DynamicTemplate(name, def, strings(def.get("match")),
                strings(def.get("unmatch")), strings(def.get("path_match")), strings(def.get("path_unmatch")), types,
                regex, mapping);
        if (regex) {
            List<String> all = new ArrayList<>(template.match);
            all.addAll(template.unmatch);
            all.addAll(template.pathMatch);
            all.addAll(template.pathUnmatch);
            for (String p : all) {
                try {
                    Pattern.compile(p);
                } catch (PatternSyntaxException ex) {
                    throw GatewayException.mappingFailed("Illegal regex pattern [" + p + "] in template [" + name + "]");
                }
            }
        }
        template.validate();
        return template;
    }

    /** ES checks a template's mapping against every type it may apply to; it must work for at least one. */
    private void validate() {
        GatewayException last = null;
        for (String type : TYPES) {
            if (type.equals("binary") || (!matchMappingType.isEmpty() && !matchMappingType.contains("*")
                    && !matchMappingType.contains(type))) {
                continue;
            }
            try {
                JsonObject m = substituted("__field__", type);
                if (!m.has("type") && type.equals("object")) {
                    return;
                }
                String t = m.has("type") ? text(m.get("type")) : defaultType(type);
                if (t.equals("object")) {
                    return;
                }
                Map<String, JsonValue> withType = new LinkedHashMap<>(m.members());
                withType.put("type", new JsonString(t));
                MappingParser.field("__field__", new JsonObject(withType));
                return;
            } catch (GatewayException e) {
                last = e;
            }
        }
        if (last != null) {
            throw new GatewayException(last.kind() == io.qdrant.esgateway.domain.error.ErrorKind.UNSUPPORTED
                    ? last.kind() : io.qdrant.esgateway.domain.error.ErrorKind.MAPPER_PARSING,
                    last.kind() == io.qdrant.esgateway.domain.error.ErrorKind.UNSUPPORTED ? last.reason()
                            : "Failed to parse mapping: dynamic template [" + name + "] has invalid content ["
                            + Json.write(definition) + "], attempted to validate it with the following "
                            + "match_mapping_type: [" + String.join(", ", TYPES) + "]");
        }
    }

    /** Whether a new field at {@code path} (last segment {@code field}) of detected {@code type} matches. */
    public boolean matches(String path, String field, String type) {
        if (!matchMappingType.isEmpty() && !matchMappingType.contains("*") && !matchMappingType.contains(type)) {
            return false;
        }
        if (!match.isEmpty() && match.stream().noneMatch(p -> patternMatches(p, field))) {
            return false;
        }
        if (!pathMatch.isEmpty() && pathMatch.stream().noneMatch(p -> patternMatches(p, path))) {
            return false;
        }
        if (unmatch.stream().anyMatch(p -> patternMatches(p, field))) {
            return false;
        }
        return pathUnmatch.stream().noneMatch(p -> patternMatches(p, path));
    }

    private boolean patternMatches(String pattern, String value) {
        return regex ? value.matches(pattern) : IndexName.matches(pattern, value);
    }

    /**
     * The mapping this template gives the field {@code field} of detected {@code type}; {@code empty} when it maps an
     * object (the object is then mapped as dynamic mapping would map it).
     */
    public Optional<FieldMapping> mappingFor(String field, String type) {
        JsonObject m = substituted(field, type);
        String t = m.has("type") ? text(m.get("type")) : defaultType(type);
        if (t.equals("object")) {
            return Optional.empty();
        }
        Map<String, JsonValue> withType = new LinkedHashMap<>(m.members());
        withType.put("type", new JsonString(t));
        return Optional.of(MappingParser.field(field, new JsonObject(withType)));
    }

    /** The type a template without {@code type} gives, and what {@code {dynamic_type}} stands for. */
    static String defaultType(String detected) {
        return switch (detected) {
            case "string" -> "text";
            case "double" -> "float";
            default -> detected;
        };
    }

    private JsonObject substituted(String field, String type) {
        return (JsonObject) substitute(mapping, field, defaultType(type));
    }

    private static JsonValue substitute(JsonValue value, String field, String dynamicType) {
        return switch (value) {
            case JsonString s -> new JsonString(replace(s.value(), field, dynamicType));
            case JsonObject o -> {
                Map<String, JsonValue> out = new LinkedHashMap<>();
                o.members().forEach((k, v) -> out.put(replace(k, field, dynamicType),
                        substitute(v, field, dynamicType)));
                yield new JsonObject(out);
            }
            case JsonArray a -> new JsonArray(a.elements().stream().map(v -> substitute(v, field, dynamicType))
                    .toList());
            default -> value;
        };
    }

    private static String replace(String text, String field, String dynamicType) {
        return text.replace("{name}", field).replace("{dynamic_type}", dynamicType);
    }

    private static List<String> strings(JsonValue value) {
        if (value == null) {
            return List.of();
        }
        if (value instanceof JsonArray a) {
            return a.elements().stream().map(DynamicTemplate::text).toList();
        }
        return List.of(text(value));
    }

    private static String text(JsonValue value) {
        return io.qdrant.esgateway.domain.json.JsonReads.text(value).orElseThrow(() -> GatewayException.mappingFailed(
                "Dynamic template syntax error: expected a string, got [" + value.tokenName() + "]"));
    }
}
