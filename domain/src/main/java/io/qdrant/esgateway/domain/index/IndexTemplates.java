package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A snapshot of the stored index and component templates, and what Elasticsearch does with them: which template a
 * new index gets (the matching one of highest priority), the composition (component templates in order, then the
 * index template's own template, then the create request's body) and the checks made when a template is stored.
 */
public record IndexTemplates(Map<String, IndexTemplate> indexTemplates, Map<String, ComponentTemplate> components) {
    public static final IndexTemplates NONE = new IndexTemplates(Map.of(), Map.of());

    public IndexTemplates {
        indexTemplates = java.util.Collections.unmodifiableMap(new TreeMap<>(indexTemplates));
        components = java.util.Collections.unmodifiableMap(new TreeMap<>(components));
    }

    /** The template a new index of this name gets: the matching one of highest priority. */
    public Optional<IndexTemplate> winner(String index) {
        return matching(index).stream().findFirst();
    }

    /** Every template matching {@code index}, highest priority first. */
    public List<IndexTemplate> matching(String index) {
        return indexTemplates.values().stream().filter(t -> t.matches(index))
                .sorted(Comparator.comparingLong(IndexTemplate::effectivePriority).reversed()).toList();
    }

    /** The template's components, in order, then its own template (components it may ignore left out). */
    public TemplateBody compose(IndexTemplate template) {
        TemplateBody body = TemplateBody.EMPTY;
        for (String name : template.composedOf()) {
            ComponentTemplate component = components.get(name);
            if (component != null) {
                body = body.then(component.template());
            }
        }
        return template.template().map(body::then).orElse(body);
    }

    /**
     * The body of a create request with the winning template applied beneath it; the request body unchanged when no
     * template matches (or when it is not an object: the create request's parser names the problem).
     */
    public JsonValue applyTo(String index, JsonValue requestBody) {
        Optional<IndexTemplate> winner = winner(index);
        if (winner.isEmpty() || requestBody != null && !(requestBody instanceof JsonObject)) {
            return requestBody;
        }
        TemplateBody composed = compose(winner.get());
        Map<String, JsonValue> out = new LinkedHashMap<>();
        TemplateBody request = TemplateBody.EMPTY;
        if (requestBody instanceof JsonObject object) {
            out.putAll(object.members());
            try {
                request = new TemplateBody(
                        Optional.ofNullable(object.get("settings")).map(TemplateBody::normaliseSettings),
                        Optional.ofNullable(object.get("mappings")).map(m -> JsonReads.object(m,
                                JsonReads::parseError, "[mappings]")),
                        Optional.ofNullable(object.get("aliases")).map(a -> JsonReads.object(a,
                                JsonReads::parseError, "[aliases]")));
            } catch (GatewayException e) {
                return requestBody; // the create request's parser refuses it with its own message
            }
        }
        TemplateBody merged = composed.then(request);
        merged.settings().ifPresent(s -> out.put("settings", merged.flatSettings()));
        merged.mappings().ifPresent(m -> out.put("mappings", m));
        merged.aliases().ifPresent(a -> out.put("aliases", a));
        return new JsonObject(out);
    }

    /**
     * The checks Elasticsearch makes before it stores {@code template}: name, patterns and settings, the component
     * templates it names exist, the composed result is a valid index, and no other template of the same priority
     * matches an overlapping set of names. With {@code create}, a template of that name must not exist yet.
     */
    public void validateNew(IndexTemplate template, boolean create) {
        if (create && indexTemplates.containsKey(template.name())) {
            throw GatewayException.illegalArgument("index template [" + template.name() + "] already exists");
        }
        template.validateNameAndSettings();
        List<String> missing = template.composedOf().stream()
                .filter(c -> !components.containsKey(c) && !template.ignoreMissingComponentTemplates().contains(c))
                .toList();
        if (!missing.isEmpty()) {
            throw IndexTemplate.invalid(template.name(), "index template [" + template.name()
                    + "] specifies component templates " + missing + " that do not exist");
        }
        checkOverlap(template);
        validateComposition(template);
    }

    private void checkOverlap(IndexTemplate template) {
        Map<String, List<String>> overlapping = new TreeMap<>();
        for (IndexTemplate other : indexTemplates.values()) {
            if (!other.name().equals(template.name()) && other.effectivePriority() == template.effectivePriority()
                    && other.overlaps(template)) {
                overlapping.put(other.name(), other.indexPatterns());
            }
        }
        if (!overlapping.isEmpty()) {
            throw GatewayException.illegalArgument("index template [" + template.name() + "] has index patterns "
                    + listText(template.indexPatterns()) + " matching patterns from existing templates ["
                    + String.join(",", overlapping.keySet()) + "] with patterns ("
                    + overlapping.entrySet().stream().map(e -> e.getKey() + " => " + listText(e.getValue()))
                    .collect(Collectors.joining(",")) + ") that have the same priority ["
                    + template.effectivePriority() + "], multiple index templates may not match during index "
                    + "creation, please use a different priority");
        }
    }

    private static String listText(List<String> values) {
        return "[" + String.join(", ", values) + "]";
    }

    private void validateComposition(IndexTemplate template) {
        TemplateBody composed = compose(template);
        IndexSettings settings;
        try {
            settings = IndexSettings.parse(composed.flatSettings());
        } catch (GatewayException e) {
            throw IndexTemplate.invalid(template.name(), "Validation Failed: 1: " + e.reason() + ";");
        }
        if (composed.mappings().isPresent()) {
            try {
                AnalysisReferences.check(Mappings.parse(composed.mappings().get()), settings);
            } catch (GatewayException e) {
                if (e.kind() == io.qdrant.esgateway.domain.error.ErrorKind.UNSUPPORTED) {
                    throw e;
                }
                throw new GatewayException(io.qdrant.esgateway.domain.error.ErrorKind.ILLEGAL_ARGUMENT,
                        "composable template [" + template.name() + "] template after composition is invalid",
                        Map.of(), new GatewayException(io.qdrant.esgateway.domain.error.ErrorKind.ILLEGAL_ARGUMENT,
                        "invalid composite mappings for [" + template.name() + "]", Map.of(), e));
            }
        }
        composed.parsedAliases("_na_");
    }

    /** Checks before a component template is stored ({@code create}: it must not exist yet). */
    public void validateNew(ComponentTemplate component, boolean create) {
        if (create && components.containsKey(component.name())) {
            throw GatewayException.illegalArgument("component template [" + component.name() + "] already exists");
        }
        component.validate();
        // the index templates that use it must still compose into valid indices
        IndexTemplates after = withComponent(component);
        for (IndexTemplate user : indexTemplates.values()) {
            if (user.composedOf().contains(component.name())) {
                after.validateComposition(user);
            }
        }
    }

    private IndexTemplates withComponent(ComponentTemplate component) {
        Map<String, ComponentTemplate> next = new TreeMap<>(components);
        next.put(component.name(), component);
        return new IndexTemplates(indexTemplates, next);
    }

    /** The index templates that compose any of {@code names}. */
    public List<String> usersOf(java.util.Collection<String> names) {
        return indexTemplates.values().stream().filter(t -> t.composedOf().stream().anyMatch(names::contains))
                .map(IndexTemplate::name).toList();
    }

    /**
     * The answer of {@code _simulate_index} and {@code _simulate}: the settings, mappings and aliases an index would
     * get from {@code template} (mappings as {@code GET _mapping} renders them) and the other templates listed.
     */
    public JsonObject simulation(IndexTemplate template, List<IndexTemplate> overlapping) {
        TemplateBody composed = compose(template);
        JsonObjectBuilder t = JsonObjectBuilder.object()
                .put("settings", TemplateBody.nestedSettings(composed.settings().orElse(Map.of())));
        if (composed.mappings().isPresent()) {
            JsonObject rendered = Mappings.parse(composed.mappings().get()).toJson();
            if (!rendered.members().isEmpty()) {
                t.put("mappings", rendered);
            }
        }
        JsonObjectBuilder aliases = JsonObjectBuilder.object();
        composed.parsedAliases("_na_").forEach(a -> aliases.put(a.alias(), a.toJson()));
        t.put("aliases", aliases);
        List<JsonValue> others = new ArrayList<>();
        for (IndexTemplate o : overlapping) {
            others.add(JsonObjectBuilder.object().put("name", o.name())
                    .put("index_patterns", IndexTemplate.stringArray(o.indexPatterns())).build());
        }
        return JsonObjectBuilder.object().put("template", t).put("overlapping", new JsonValue.JsonArray(others))
                .build();
    }

    /** The templates other than {@code template} whose patterns overlap its own (any priority). */
    public List<IndexTemplate> overlapping(IndexTemplate template) {
        return indexTemplates.values().stream()
                .filter(o -> !o.name().equals(template.name()) && o.overlaps(template)).toList();
    }

    /** These templates with {@code template} added (or replacing one of its name). */
    public IndexTemplates with(IndexTemplate template) {
        Map<String, IndexTemplate> next = new TreeMap<>(indexTemplates);
        next.put(template.name(), template);
        return new IndexTemplates(next, components);
    }
}
