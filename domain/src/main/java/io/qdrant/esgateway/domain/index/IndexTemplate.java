package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A composable index template ({@code PUT /_index_template/{name}}): the indices it applies to, its priority among
 * the templates that match one name, the component templates it composes (in order) and its own template.
 * {@code data_stream} is refused by name (the gateway has no data streams).
 */
public record IndexTemplate(String name, List<String> indexPatterns, Optional<TemplateBody> template,
                            List<String> composedOf, Optional<Long> priority, Optional<Long> version,
                            Optional<JsonObject> meta, List<String> ignoreMissingComponentTemplates) {

    public IndexTemplate {
        indexPatterns = List.copyOf(indexPatterns);
        composedOf = List.copyOf(composedOf);
        ignoreMissingComponentTemplates = List.copyOf(ignoreMissingComponentTemplates);
    }

    /** Reads the body of {@code PUT /_index_template/{name}}. */
    public static IndexTemplate parse(String name, JsonValue body) {
        JsonObject object = JsonReads.object(body, JsonReads::parseError, "[index_template]");
        List<String> patterns = null;
        Optional<TemplateBody> template = Optional.empty();
        List<String> composedOf = List.of();
        Optional<Long> priority = Optional.empty();
        Optional<Long> version = Optional.empty();
        Optional<JsonObject> meta = Optional.empty();
        List<String> ignoreMissing = List.of();
        for (Map.Entry<String, JsonValue> e : object.members().entrySet()) {
            switch (e.getKey()) {
                case "index_patterns" -> patterns = strings("index_patterns", e.getValue());
                case "template" -> template = Optional.of(TemplateBody.parse(e.getValue(), "index_template"));
                case "composed_of" -> composedOf = strings("composed_of", e.getValue());
                case "priority" -> priority = Optional.of(longField("priority", e.getValue()));
                case "version" -> version = Optional.of(longField("version", e.getValue()));
                case "_meta" -> meta = Optional.of(JsonReads.object(e.getValue(), JsonReads::parseError, "[_meta]"));
                case "ignore_missing_component_templates" ->
                        ignoreMissing = strings("ignore_missing_component_templates", e.getValue());
                case "data_stream" -> throw GatewayException.unsupported("index template [data_stream] (data streams)");
                case "allow_auto_create" -> throw GatewayException.unsupported("index template [allow_auto_create]");
                case "deprecated" -> throw GatewayException.unsupported("index template [deprecated]");
                default -> throw new GatewayException(ErrorKind.X_CONTENT_PARSE,
                        "[index_template] unknown field [" + e.getKey() + "]");
            }
        }
        if (patterns == null) {
            throw GatewayException.illegalArgument("Required [index_patterns]");
        }
        return new IndexTemplate(name, patterns, template, composedOf, priority, version, meta, ignoreMissing);
    }

    static long longField(String key, JsonValue value) {
        return JsonReads.integer(value).orElseThrow(() -> new GatewayException(ErrorKind.X_CONTENT_PARSE,
                "[index_template] failed to parse field [" + key + "]"));
    }

    private static List<String> strings(String key, JsonValue value) {
        if (value instanceof JsonArray array) {
            List<String> out = new ArrayList<>();
            for (JsonValue v : array.elements()) {
                out.add(JsonReads.text(v).orElseThrow(() -> new GatewayException(ErrorKind.X_CONTENT_PARSE,
                        "[index_template] failed to parse field [" + key + "]")));
            }
            return out;
        }
        return List.of(JsonReads.text(value).orElseThrow(() -> new GatewayException(ErrorKind.X_CONTENT_PARSE,
                "[index_template] failed to parse field [" + key + "]")));
    }

    /** The priority as Elasticsearch compares it: absent counts as 0. */
    public long effectivePriority() {
        return priority.orElse(0L);
    }

    /** True if one of the index patterns matches {@code index}. */
    public boolean matches(String index) {
        return indexPatterns.stream().anyMatch(p -> GlobPatterns.matches(p, index));
    }

    /** True if some index name would match both templates' patterns. */
    public boolean overlaps(IndexTemplate other) {
        return indexPatterns.stream().anyMatch(p -> other.indexPatterns.stream().anyMatch(q -> GlobPatterns.overlap(p, q)));
    }

    /**
     * Elasticsearch's checks of the name and the patterns, as one {@code invalid_index_template_exception} listing
     * every problem ("Validation Failed: 1: …;"), plus the template's own settings.
     */
    public void validateNameAndSettings() {
        List<String> problems = new ArrayList<>();
        nameProblems(name, problems::add);
        for (String p : indexPatterns) {
            if (p.contains(" ")) {
                problems.add("index_patterns [" + p + "] must not contain a space");
            }
            if (p.contains(",")) {
                problems.add("index_patterns [" + p + "] must not contain a ','");
            }
            if (p.contains("#")) {
                problems.add("index_patterns [" + p + "] must not contain a '#'");
            }
            if (p.contains(":")) {
                problems.add("index_patterns [" + p + "] must not contain a ':'");
            }
            if (p.startsWith("_")) {
                problems.add("index_patterns [" + p + "] must not start with '_'");
            }
            for (char c : "\\/?\"<>|".toCharArray()) {
                if (p.indexOf(c) >= 0) {
                    problems.add("index_patterns [" + p + "] must not contain the following characters "
                            + "[ , \", *, \\, <, |, ,, >, /, ?]");
                    break;
                }
            }
        }
        template.ifPresent(t -> {
            try {
                IndexSettings.parse(t.flatSettings());
            } catch (GatewayException e) {
                problems.add(e.reason());
            }
        });
        if (!problems.isEmpty()) {
            throw invalid(name, validationFailed(problems));
        }
    }

    /** {@code invalid_index_template_exception}: "index_template [name] invalid, cause [why]". */
    public static GatewayException invalid(String name, String why) {
        return new GatewayException(ErrorKind.INVALID_INDEX_TEMPLATE, "index_template [" + name + "] invalid, cause ["
                + why + "]");
    }

    static void nameProblems(String name, java.util.function.Consumer<String> problems) {
        if (name.contains(" ")) {
            problems.accept("name must not contain a space");
        }
        if (name.contains(",")) {
            problems.accept("name must not contain a ','");
        }
        if (name.contains("#")) {
            problems.accept("name must not contain a '#'");
        }
        if (name.contains("*")) {
            problems.accept("name must not contain a '*'");
        }
        if (name.startsWith("_")) {
            problems.accept("name must not start with '_'");
        }
        if (!name.toLowerCase(Locale.ROOT).equals(name)) {
            problems.accept("name must be lower cased");
        }
    }

    /** The name checks alone, as one {@code invalid_index_template_exception} (component templates). */
    static void validateName(String name) {
        List<String> problems = new ArrayList<>();
        nameProblems(name, problems::add);
        if (!problems.isEmpty()) {
            throw invalid(name, validationFailed(problems));
        }
    }

    private static String validationFailed(List<String> problems) {
        StringBuilder reason = new StringBuilder("Validation Failed: ");
        for (int i = 0; i < problems.size(); i++) {
            reason.append(i + 1).append(": ").append(problems.get(i)).append(';');
        }
        return reason.toString();
    }

    /** The stored form, and the {@code index_template} object of {@code GET}. */
    public JsonObject toJson() {
        JsonObjectBuilder b = JsonObjectBuilder.object().put("index_patterns", stringArray(indexPatterns));
        template.ifPresent(t -> b.put("template", t.toJson()));
        b.put("composed_of", stringArray(composedOf));
        priority.ifPresent(p -> b.put("priority", p));
        version.ifPresent(v -> b.put("version", v));
        meta.ifPresent(m -> b.put("_meta", m));
        if (!ignoreMissingComponentTemplates.isEmpty()) {
            b.put("ignore_missing_component_templates", stringArray(ignoreMissingComponentTemplates));
        }
        return b.build();
    }

    static JsonArray stringArray(List<String> values) {
        return new JsonArray(values.stream().<JsonValue>map(JsonValue.JsonString::new).toList());
    }
}
