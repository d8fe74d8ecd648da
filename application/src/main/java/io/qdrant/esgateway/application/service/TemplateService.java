package io.qdrant.esgateway.application.service;

import io.qdrant.esgateway.application.port.out.Catalog;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.ComponentTemplate;
import io.qdrant.esgateway.domain.index.GlobPatterns;
import io.qdrant.esgateway.domain.index.IndexTemplate;
import io.qdrant.esgateway.domain.index.IndexTemplates;
import io.qdrant.esgateway.domain.index.TemplateKind;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * Index and component templates kept in the {@link Catalog}: stored after Elasticsearch's checks (serialised in this
 * process; across replicas two concurrent puts may both pass the overlap check, as two masters never exist in ES),
 * listed, deleted and simulated.
 */
public final class TemplateService implements io.qdrant.esgateway.application.port.in.TemplateAdministration {
    private final Catalog catalog;
    private final ReentrantLock changes = new ReentrantLock();

    public TemplateService(Catalog catalog) {
        this.catalog = catalog;
    }

    /** Every stored template, read from the catalog now. */
    public IndexTemplates load() {
        Map<String, String> index = catalog.templates(TemplateKind.INDEX);
        if (index.isEmpty()) {
            // no index template: nothing can apply, the components need not be read
            return new IndexTemplates(Map.of(), parseAll(catalog.templates(TemplateKind.COMPONENT),
                    ComponentTemplate::parse));
        }
        return new IndexTemplates(parseAll(index, IndexTemplate::parse),
                parseAll(catalog.templates(TemplateKind.COMPONENT), ComponentTemplate::parse));
    }

    /** Only the index templates, for index creation: components are read only when one matches. */
    public IndexTemplates loadFor(String index) {
        Map<String, String> stored = catalog.templates(TemplateKind.INDEX);
        if (stored.isEmpty()) {
            return IndexTemplates.NONE;
        }
        Map<String, IndexTemplate> templates = parseAll(stored, IndexTemplate::parse);
        if (templates.values().stream().noneMatch(t -> t.matches(index))) {
            return IndexTemplates.NONE;
        }
        return new IndexTemplates(templates, parseAll(catalog.templates(TemplateKind.COMPONENT),
                ComponentTemplate::parse));
    }

    private static <T> Map<String, T> parseAll(Map<String, String> stored,
                                                java.util.function.BiFunction<String, io.qdrant.esgateway.domain.json.JsonValue, T> parse) {
        Map<String, T> out = new TreeMap<>();
        stored.forEach((name, json) -> out.put(name, parse.apply(name, Json.parse(json))));
        return out;
    }

    @Override
    public void putIndexTemplate(IndexTemplate template, boolean create) {
        locked(() -> {
            load().validateNew(template, create);
            template.template().ifPresent(t -> t.parsedAliases("_na_")
                    .forEach(io.qdrant.esgateway.domain.search.AliasFilters::validate));
            if (!catalog.putTemplate(TemplateKind.INDEX, template.name(), Json.write(template.toJson()), create)) {
                throw GatewayException.illegalArgument("index template [" + template.name() + "] already exists");
            }
        });
    }

    @Override
    public void putComponentTemplate(ComponentTemplate template, boolean create) {
        locked(() -> {
            load().validateNew(template, create);
            template.template().parsedAliases("_na_").forEach(io.qdrant.esgateway.domain.search.AliasFilters::validate);
            if (!catalog.putTemplate(TemplateKind.COMPONENT, template.name(), Json.write(template.toJson()), create)) {
                throw GatewayException.illegalArgument("component template [" + template.name() + "] already exists");
            }
        });
    }

    /** {@code GET /_index_template[/{name}]}: all, a wildcard's matches (maybe none) or one that must exist. */
    @Override
    public List<IndexTemplate> indexTemplates(Optional<String> name) {
        return select(load().indexTemplates(), name, "index template");
    }

    /** {@code GET /_component_template[/{name}]}, as {@link #indexTemplates}. */
    @Override
    public List<ComponentTemplate> componentTemplates(Optional<String> name) {
        return select(parseAll(catalog.templates(TemplateKind.COMPONENT), ComponentTemplate::parse), name,
                "component template");
    }

    private static <T> List<T> select(Map<String, T> all, Optional<String> name, String what) {
        if (name.isEmpty()) {
            return new ArrayList<>(all.values());
        }
        String n = name.get();
        if (n.contains(",")) {
            throw GatewayException.illegalArgument("template name may not contain ','");
        }
        if (n.contains("*")) {
            return all.entrySet().stream().filter(e -> GlobPatterns.matches(n, e.getKey())).map(Map.Entry::getValue)
                    .toList();
        }
        T found = all.get(n);
        if (found == null) {
            throw new GatewayException(ErrorKind.RESOURCE_NOT_FOUND, what + " matching [" + n + "] not found");
        }
        return List.of(found);
    }

    /** {@code DELETE /_index_template/{names}}: a comma list of names and wildcards, all or nothing. */
    @Override
    public void deleteIndexTemplates(String names) {
        locked(() -> {
            Set<String> targets = targets(catalog.templates(TemplateKind.INDEX).keySet(), names,
                    n -> new GatewayException(ErrorKind.INDEX_TEMPLATE_MISSING, "index_template [" + n + "] missing"));
            targets.forEach(n -> catalog.deleteTemplate(TemplateKind.INDEX, n));
        });
    }

    /** {@code DELETE /_component_template/{names}}: refused while an index template composes one of them. */
    @Override
    public void deleteComponentTemplates(String names) {
        locked(() -> {
            IndexTemplates all = load();
            Set<String> targets = targets(all.components().keySet(), names,
                    n -> new GatewayException(ErrorKind.RESOURCE_NOT_FOUND, n));
            List<String> users = all.usersOf(targets);
            if (!users.isEmpty()) {
                List<String> used = targets.stream().filter(c -> all.indexTemplates().values().stream()
                        .anyMatch(t -> t.composedOf().contains(c))).toList();
                throw GatewayException.illegalArgument("component templates " + list(used)
                        + " cannot be removed as they are still in use by index templates " + list(users));
            }
            targets.forEach(n -> catalog.deleteTemplate(TemplateKind.COMPONENT, n));
        });
    }

    private static String list(List<String> names) {
        return "[" + String.join(", ", names) + "]";
    }

    private static Set<String> targets(Set<String> existing, String names,
                                       Function<String, GatewayException> missing) {
        Set<String> out = new LinkedHashSet<>();
        for (String n : names.split(",")) {
            if (n.contains("*")) {
                List<String> found = existing.stream().filter(e -> GlobPatterns.matches(n, e)).toList();
                if (found.isEmpty() && !n.equals("*")) {
                    throw missing.apply(n);
                }
                out.addAll(found);
            } else if (existing.contains(n)) {
                out.add(n);
            } else {
                throw missing.apply(n);
            }
        }
        return out;
    }

    /**
     * {@code POST /_index_template/_simulate_index/{index}}: what a new index of that name would get ({@code {}}
     * when no template matches) and the templates whose patterns overlap the winner's; {@code extra}, when given, is
     * considered as if it were stored.
     */
    @Override
    public JsonObject simulateIndex(String index, Optional<IndexTemplate> extra) {
        IndexTemplates templates = load();
        if (extra.isPresent()) {
            templates.validateNew(extra.get(), false);
            templates = templates.with(extra.get());
        }
        List<IndexTemplate> matching = templates.matching(index);
        if (matching.isEmpty()) {
            return JsonObjectBuilder.object().build();
        }
        return templates.simulation(matching.get(0), templates.overlapping(matching.get(0)));
    }

    /**
     * {@code POST /_index_template/_simulate[/{name}]}: what a stored template (or the one in the body) resolves to,
     * and the other templates whose patterns overlap its own.
     */
    @Override
    public JsonObject simulateTemplate(Optional<String> name, Optional<IndexTemplate> body) {
        IndexTemplates templates = load();
        IndexTemplate template;
        if (body.isPresent()) {
            templates.validateNew(body.get(), false);
            template = body.get();
            templates = templates.with(template);
        } else if (name.isPresent()) {
            template = templates.indexTemplates().get(name.get());
            if (template == null) {
                throw GatewayException.illegalArgument("unable to simulate template [" + name.get()
                        + "] that does not exist");
            }
        } else {
            throw GatewayException.validationFailed(List.of(
                    "either index name or index template body must be specified for simulation"));
        }
        return templates.simulation(template, templates.overlapping(template));
    }

    private void locked(Runnable action) {
        changes.lock();
        try {
            action.run();
        } finally {
            changes.unlock();
        }
    }
}
