package io.qdrant.esgateway.application.service;

import io.qdrant.esgateway.application.port.in.IndexAdministration;
import io.qdrant.esgateway.application.port.out.Catalog;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.IdGenerator;
import io.qdrant.esgateway.application.port.out.TextAnalysis;
import io.qdrant.esgateway.domain.analysis.AnalyzeRequest;
import io.qdrant.esgateway.domain.analysis.AnalyzedToken;
import io.qdrant.esgateway.domain.index.AnalysisReferences;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.AliasActions;
import io.qdrant.esgateway.domain.search.AliasFilters;
import io.qdrant.esgateway.domain.index.AliasMetadata;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.CreateIndexRequest;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.Mappings;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The index lifecycle over a {@link Catalog} and a {@link DocumentStore}. Changes are serialised in this process;
 * across replicas the catalog's own atomicity (and the alias batch's version check) keeps them consistent.
 *
 * <p>Ordering keeps the catalog from naming storage that does not exist: creation makes the storage first and
 * removes it again if the catalog refuses the entry; deletion removes the catalog entry first and the storage after
 * (a failed storage removal leaves an orphan directory or collection, never a phantom index).
 */
public final class IndexAdministrationService implements IndexAdministration {
    private static final Logger LOG = Logger.getLogger(IndexAdministrationService.class.getName());
    private static final int ALIAS_BATCH_ATTEMPTS = 5;

    private final Catalog catalog;
    private final DocumentStore store;
    private final IdGenerator ids;
    private final InstantSource clock;
    private final TextAnalysis analysis;
    private final ReentrantLock changes = new ReentrantLock();
    private final TemplateService templates;

    /** Without text analysis: {@code _analyze} is refused and analysis settings are only checked by the domain. */
    public IndexAdministrationService(Catalog catalog, DocumentStore store, IdGenerator ids, InstantSource clock) {
        this(catalog, store, ids, clock, TextAnalysis.NONE);
    }

    public IndexAdministrationService(Catalog catalog, DocumentStore store, IdGenerator ids, InstantSource clock,
                                      TextAnalysis analysis) {
        this.catalog = catalog;
        this.store = store;
        this.ids = ids;
        this.clock = clock;
        this.analysis = analysis;
        this.templates = new TemplateService(catalog);
    }

    @Override
    public IndexMetadata create(String name, io.qdrant.esgateway.domain.json.JsonValue body) {
        io.qdrant.esgateway.domain.index.IndexName.validateIndex(name);
        return create(CreateIndexRequest.parse(name, templates.loadFor(name).applyTo(name, body)));
    }

    @Override
    public io.qdrant.esgateway.application.port.in.TemplateAdministration templates() {
        return templates;
    }

    @Override
    public List<AnalyzedToken> analyze(Optional<String> expression, AnalyzeRequest request) {
        return analysis.analyze(analyzed(expression), request);
    }

    @Override
    public io.qdrant.esgateway.domain.analysis.AnalyzeDetail explainAnalyze(Optional<String> expression,
                                                                            AnalyzeRequest request) {
        return analysis.explain(analyzed(expression), request);
    }

    /** The one index an {@code _analyze} expression names. */
    private Optional<IndexMetadata> analyzed(Optional<String> expression) {
        return expression.map(e -> {
            List<IndexMetadata> found = catalog.view().resolve(e, new CatalogView.Options(false, false));
            if (found.size() != 1) {
                throw GatewayException.illegalArgument("[" + e + "] resolves to [" + found.size()
                        + "] indices, expected exactly one");
            }
            return found.get(0);
        });
    }

    @Override
    public IndexMetadata create(CreateIndexRequest request) {
        io.qdrant.esgateway.domain.index.MappingDepth.check(request.mappings());
        return locked(() -> {
            CatalogView view = catalog.view();
            view.index(request.name()).ifPresent(existing -> {
                throw GatewayException.alreadyExists(existing.name(), existing.uuid());
            });
            if (view.isAlias(request.name())) {
                throw GatewayException.invalidIndexName(request.name(), "already exists as alias");
            }
            IndexMetadata index = new IndexMetadata(request.name(), ids.newId(),
                    clock.instant().truncatedTo(ChronoUnit.MILLIS), request.settings(),
                    request.mappings());
            List<AliasMetadata> allAliases = new ArrayList<>(view.aliases());
            allAliases.addAll(request.aliases());
            TreeMap<String, IndexMetadata> allIndices = new TreeMap<>(view.indices());
            allIndices.put(index.name(), index);
            CatalogView.validateAliases(allIndices, allAliases);
            request.aliases().forEach(AliasFilters::validate);
            analysis.validate(index.settings().analysis());

            store.createIndex(index);
            try {
                catalog.createIndex(index, request.aliases());
            } catch (RuntimeException e) {
                dropQuietly(index, e);
                throw e;
            }
            return index;
        });
    }

    @Override
    public List<IndexMetadata> delete(String expression) {
        return delete(expression, false);
    }

    @Override
    public List<IndexMetadata> delete(String expression, boolean ignoreUnavailable) {
        return locked(() -> {
            List<IndexMetadata> targets = catalog.view().resolveForDelete(expression, ignoreUnavailable);
            targets.forEach(io.qdrant.esgateway.domain.index.IndexBlocks::checkDelete);
            catalog.deleteIndices(targets.stream().map(IndexMetadata::name).toList());
            targets.forEach(index -> dropQuietly(index, null));
            return targets;
        });
    }

    @Override
    public List<IndexDescription> describe(String expression, CatalogView.Options options) {
        CatalogView view = catalog.view();
        return view.resolve(expression, options).stream()
                .map(index -> new IndexDescription(index, view.aliasesOf(index.name())))
                .toList();
    }

    @Override
    public boolean exists(String expression) {
        try {
            return !catalog.view().resolve(expression, new CatalogView.Options(false, false)).isEmpty();
        } catch (GatewayException e) {
            if (e.kind() == ErrorKind.INDEX_NOT_FOUND) {
                return false;
            }
            throw e;
        }
    }

    @Override
    public List<IndexMetadata> putMapping(String expression, Mappings update) {
        return putMapping(expression, update, new CatalogView.Options(false, false).withStates(true, true));
    }

    @Override
    public List<IndexMetadata> putMapping(String expression, Mappings update, CatalogView.Options options) {
        return locked(() -> {
            List<IndexMetadata> targets = catalog.view().resolve(expression, options);
            io.qdrant.esgateway.domain.index.IndexBlocks.check(targets,
                    io.qdrant.esgateway.domain.index.IndexBlocks.Level.METADATA_WRITE);
            List<IndexMetadata> merged = targets.stream().map(i -> i.withMappings(i.mappings().merge(update))).toList();
            merged.forEach(i -> AnalysisReferences.check(i.mappings(), i.settings()));
            merged.forEach(i -> io.qdrant.esgateway.domain.index.MappingDepth.check(i.mappings()));
            // storage first (additive and idempotent: payload indexes, never removals), so a backend failure leaves
            // every catalog mapping as it was; then the catalog, index by index, merging into its current mappings
            // (another replica may have changed them since this view was read: nothing of its change is lost, and
            // a conflicting field fails here as Elasticsearch's master refuses it)
            merged.forEach(store::updateMappings);
            List<IndexMetadata> written = new ArrayList<>();
            for (IndexMetadata index : merged) {
                IndexMetadata read = targets.get(written.size());
                Mappings result = catalog.changeMappings(index.name(), current -> current.equals(read.mappings())
                        ? index.mappings() : current.merge(update));
                if (!result.equals(index.mappings())) {
                    store.updateMappings(index.withMappings(result));
                }
                written.add(index.withMappings(result));
            }
            return written;
        });
    }

    @Override
    public List<IndexMetadata> putSettings(String expression, io.qdrant.esgateway.domain.json.JsonValue body) {
        return putSettings(expression, body, new CatalogView.Options(false, false).withStates(true, true));
    }

    @Override
    public List<IndexMetadata> putSettings(String expression, io.qdrant.esgateway.domain.json.JsonValue body,
                                           CatalogView.Options options) {
        return locked(() -> {
            List<IndexMetadata> targets = catalog.view().resolve(expression, options);
            // every index's new settings first, so one refusal changes nothing
            List<IndexMetadata> updated = targets.stream()
                    .map(i -> i.withSettings(i.settings().update(body, i.name(), i.uuid()))).toList();
            for (int i = 0; i < updated.size(); i++) {
                IndexMetadata index = updated.get(i);
                if (!index.settings().analysis().equals(targets.get(i).settings().analysis())) {
                    // a closed index's new analysis settings: checked as at creation, and against its mapping
                    analysis.validate(index.settings().analysis());
                    AnalysisReferences.check(index.mappings(), index.settings());
                    store.checkAnalysisChange(targets.get(i), index);
                }
            }
            for (IndexMetadata index : updated) {
                catalog.updateSettings(index.name(), index.settings());
            }
            return updated;
        });
    }

    @Override
    public List<IndexMetadata> refresh(String expression) {
        return refresh(expression, CatalogView.Options.STRICT_EXPAND_OPEN);
    }

    @Override
    public List<IndexMetadata> refresh(String expression, CatalogView.Options options) {
        return catalog.view().resolveOpen(expression, options);
    }

    @Override
    public List<IndexMetadata> close(String expression, CatalogView.Options options) {
        return locked(() -> {
            List<IndexMetadata> closed = new ArrayList<>();
            for (IndexMetadata index : namedOnly(expression, options)) {
                if (!index.closed()) {
                    catalog.updateSettings(index.name(), index.settings().withClosed(true));
                    closed.add(index);
                }
            }
            return closed;
        });
    }

    @Override
    public List<IndexMetadata> open(String expression, CatalogView.Options options) {
        return locked(() -> {
            List<IndexMetadata> opened = new ArrayList<>();
            for (IndexMetadata index : namedOnly(expression, options)) {
                if (index.closed()) {
                    catalog.updateSettings(index.name(), index.settings().withClosed(false));
                    opened.add(index);
                }
            }
            return opened;
        });
    }

    /** The indices of a close or open: names and aliases only, as Elasticsearch's destructive_requires_name. */
    private List<IndexMetadata> namedOnly(String expression, CatalogView.Options options) {
        for (String part : expression.split(",")) {
            if (part.equals("_all") || io.qdrant.esgateway.domain.index.IndexName.isWildcard(part)) {
                throw GatewayException.illegalArgument("Wildcard expressions or all indices are not allowed");
            }
        }
        return catalog.view().resolve(expression, options);
    }

    @Override
    public void updateAliases(List<AliasActions.Action> actions) {
        locked(() -> {
            for (int attempt = 1; attempt <= ALIAS_BATCH_ATTEMPTS; attempt++) {
                CatalogView view = catalog.view();
                AliasActions.Plan plan = AliasActions.plan(view, actions);
                plan.aliases().forEach(AliasFilters::validate);
                if (catalog.applyAliasPlan(view.version(), plan)) {
                    plan.removedIndices().forEach(name -> dropQuietly(view.indices().get(name), null));
                    return null;
                }
            }
            throw GatewayException.illegalArgument("the catalog changed " + ALIAS_BATCH_ATTEMPTS
                    + " times while the alias actions were applied; nothing was changed, retry the request");
        });
    }

    @Override
    public CatalogView catalog() {
        return catalog.view();
    }

    private void dropQuietly(IndexMetadata index, Exception primary) {
        try {
            store.dropIndex(index);
        } catch (RuntimeException e) {
            if (primary != null) {
                primary.addSuppressed(e);
            }
            LOG.log(Level.WARNING, "could not remove the storage of index [" + index.name() + "/" + index.uuid()
                    + "]; it is orphaned and no longer listed", e);
        }
    }

    private <T> T locked(Supplier<T> action) {
        changes.lock();
        try {
            return action.get();
        } finally {
            changes.unlock();
        }
    }

    @Override
    public void putStoredScript(String id, io.qdrant.esgateway.domain.script.StoredScript script) {
        catalog.putStoredScript(id, script);
    }

    @Override
    public java.util.Optional<io.qdrant.esgateway.domain.script.StoredScript> storedScript(String id) {
        return catalog.storedScript(id);
    }

    @Override
    public void deleteStoredScript(String id) {
        if (!catalog.deleteStoredScript(id)) {
            throw new GatewayException(io.qdrant.esgateway.domain.error.ErrorKind.RESOURCE_NOT_FOUND,
                    "stored script [" + id + "] does not exist and cannot be deleted");
        }
    }
}
