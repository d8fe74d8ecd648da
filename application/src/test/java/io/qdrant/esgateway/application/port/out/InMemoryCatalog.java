package io.qdrant.esgateway.application.port.out;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.AliasActions;
import io.qdrant.esgateway.domain.index.AliasMetadata;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.Mappings;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A {@link Catalog} held in memory, every method under one monitor: the reference implementation of
 * {@link CatalogContract} and the fake the service tests run against. Not final, so a test can override one method
 * to simulate a concurrent change or an unreachable catalog.
 */
public class InMemoryCatalog implements Catalog {
    private final SortedMap<String, IndexMetadata> indices = new TreeMap<>();
    private final Map<String, Long> generations = new HashMap<>();
    /** Keyed by alias, then index, so the view lists aliases in a stable order. */
    private final SortedMap<String, AliasMetadata> aliases = new TreeMap<>();
    private final Map<String, io.qdrant.esgateway.domain.script.StoredScript> scripts = new HashMap<>();
    private final Map<io.qdrant.esgateway.domain.index.TemplateKind, Map<String, String>> templates = new HashMap<>();
    private long version;
    private final Map<String, TreeMap<String, String>> securityRecords = new HashMap<>();

    @Override
    public synchronized CatalogView view() {
        return new CatalogView(version, indices, List.copyOf(aliases.values()));
    }

    @Override
    public synchronized void createIndex(IndexMetadata index, List<AliasMetadata> newAliases) {
        IndexMetadata existing = indices.get(index.name());
        if (existing != null) {
            throw GatewayException.alreadyExists(existing.name(), existing.uuid());
        }
        if (aliases.values().stream().anyMatch(a -> a.alias().equals(index.name()))) {
            throw GatewayException.invalidIndexName(index.name(), "already exists as alias");
        }
        requireDistinct(newAliases);
        for (AliasMetadata alias : newAliases) {
            if (!alias.index().equals(index.name())) {
                throw new IllegalArgumentException("alias [" + alias.alias() + "] names index [" + alias.index()
                        + "], not the index being created [" + index.name() + "]");
            }
        }
        IndexMetadata stored = new IndexMetadata(index.name(), index.uuid(),
                index.creationDate().truncatedTo(ChronoUnit.MILLIS), index.settings(), index.mappings());
        indices.put(index.name(), stored);
        generations.put(index.name(), 0L);
        newAliases.forEach(a -> aliases.put(key(a), a));
        version++;
    }

    @Override
    public synchronized void deleteIndices(Collection<String> names) {
        boolean changed = false;
        for (String name : names) {
            if (indices.remove(name) != null) {
                generations.remove(name);
                aliases.values().removeIf(a -> a.index().equals(name));
                changed = true;
            }
        }
        if (changed) {
            version++;
        }
    }

    @Override
    public synchronized void updateMappings(String index, Mappings mappings) {
        IndexMetadata existing = indices.get(index);
        if (existing == null) {
            throw GatewayException.indexNotFound(index);
        }
        indices.put(index, existing.withMappings(mappings));
        version++;
    }

    @Override
    public synchronized Mappings changeMappings(String index, java.util.function.UnaryOperator<Mappings> change) {
        IndexMetadata existing = indices.get(index);
        if (existing == null) {
            throw GatewayException.indexNotFound(index);
        }
        Mappings next = change.apply(existing.mappings());
        indices.put(index, existing.withMappings(next));
        version++;
        return next;
    }

    @Override
    public synchronized void updateSettings(String index, io.qdrant.esgateway.domain.index.IndexSettings settings) {
        IndexMetadata existing = indices.get(index);
        if (existing == null) {
            throw GatewayException.indexNotFound(index);
        }
        indices.put(index, existing.withSettings(settings));
        version++;
    }

    @Override
    public synchronized boolean applyAliasPlan(long expectedVersion, AliasActions.Plan plan) {
        if (expectedVersion != version) {
            return false;
        }
        requireDistinct(plan.aliases());
        Set<String> remaining = new HashSet<>(indices.keySet());
        remaining.removeAll(plan.removedIndices());
        for (AliasMetadata alias : plan.aliases()) {
            if (!remaining.contains(alias.index())) {
                throw GatewayException.indexNotFound(alias.index());
            }
        }
        for (String name : plan.removedIndices()) {
            indices.remove(name);
            generations.remove(name);
        }
        aliases.clear();
        plan.aliases().forEach(a -> aliases.put(key(a), a));
        version++;
        return true;
    }

    @Override
    public synchronized long generation(String index) {
        Long generation = generations.get(index);
        if (generation == null) {
            throw GatewayException.indexNotFound(index);
        }
        return generation;
    }

    @Override
    public synchronized long bumpGeneration(String index) {
        long next = generation(index) + 1;
        generations.put(index, next);
        return next;
    }

    @Override
    public synchronized void putStoredScript(String id, io.qdrant.esgateway.domain.script.StoredScript script) {
        scripts.put(id, script);
    }

    @Override
    public synchronized java.util.Optional<io.qdrant.esgateway.domain.script.StoredScript> storedScript(String id) {
        return java.util.Optional.ofNullable(scripts.get(id));
    }

    @Override
    public synchronized boolean putSecurityRecord(String kind, String name, String record, boolean onlyIfAbsent) {
        TreeMap<String, String> records = securityRecords.computeIfAbsent(kind, k -> new TreeMap<>());
        if (onlyIfAbsent && records.containsKey(name)) {
            return false;
        }
        records.put(name, record);
        return true;
    }

    @Override
    public synchronized java.util.Optional<String> securityRecord(String kind, String name) {
        return java.util.Optional.ofNullable(securityRecords.getOrDefault(kind, new TreeMap<>()).get(name));
    }

    @Override
    public synchronized SortedMap<String, String> securityRecords(String kind) {
        return new TreeMap<>(securityRecords.getOrDefault(kind, new TreeMap<>()));
    }

    @Override
    public synchronized boolean deleteSecurityRecord(String kind, String name) {
        TreeMap<String, String> records = securityRecords.get(kind);
        return records != null && records.remove(name) != null;
    }

    @Override
    public synchronized boolean deleteStoredScript(String id) {
        return scripts.remove(id) != null;
    }

    @Override
    public synchronized Map<String, String> templates(io.qdrant.esgateway.domain.index.TemplateKind kind) {
        return new java.util.TreeMap<>(templates.getOrDefault(kind, Map.of()));
    }

    @Override
    public synchronized boolean putTemplate(io.qdrant.esgateway.domain.index.TemplateKind kind, String name,
                                            String json, boolean onlyIfAbsent) {
        Map<String, String> of = templates.computeIfAbsent(kind, k -> new HashMap<>());
        if (onlyIfAbsent && of.containsKey(name)) {
            return false;
        }
        of.put(name, json);
        return true;
    }

    @Override
    public synchronized boolean deleteTemplate(io.qdrant.esgateway.domain.index.TemplateKind kind, String name) {
        Map<String, String> of = templates.get(kind);
        return of != null && of.remove(name) != null;
    }

    @Override
    public void ping() {
        // always reachable
    }

    private static void requireDistinct(List<AliasMetadata> list) {
        Set<String> seen = new HashSet<>();
        for (AliasMetadata alias : list) {
            if (!seen.add(key(alias))) {
                throw new IllegalArgumentException("alias [" + alias.alias() + "] on index [" + alias.index()
                        + "] is listed twice");
            }
        }
    }

    private static String key(AliasMetadata alias) {
        return alias.alias() + '\u0000' + alias.index();
    }
}
