package io.qdrant.esgateway.application.service;

import io.qdrant.esgateway.application.port.in.ClusterStatus;
import io.qdrant.esgateway.application.port.out.Catalog;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.SharedResponseCache;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Health, index listings and readiness, read from the catalog and the document backend. */
public final class ClusterStatusService implements ClusterStatus {
    private final Catalog catalog;
    private final DocumentStore store;

    /** The shared response cache, when there is one: readiness reports it too; null otherwise. */
    private final SharedResponseCache responses;

    public ClusterStatusService(Catalog catalog, DocumentStore store) {
        this(catalog, store, null);
    }

    /** @param responses the shared response cache (writes fail while it is down), or null */
    public ClusterStatusService(Catalog catalog, DocumentStore store, SharedResponseCache responses) {
        this.catalog = catalog;
        this.store = store;
        this.responses = responses;
    }

    @Override
    public Health health(Optional<String> expression) {
        CatalogView view = catalog.view();
        List<IndexMetadata> indices = expression.isPresent()
                ? view.resolve(expression.get(), new CatalogView.Options(false, false).withStates(true, true))
                : List.copyOf(view.indices().values());
        Status status = storeReachable() ? Status.GREEN : Status.RED;
        int active = status == Status.GREEN ? indices.size() : 0;
        return new Health(status, indices.size(), active, active);
    }

    @Override
    public List<IndexSummary> indices(Optional<String> expression) {
        return indices(expression, false);
    }

    @Override
    public List<IndexSummary> indices(Optional<String> expression, boolean expandHidden) {
        return indices(expression, new CatalogView.Options(false, true, expandHidden).withStates(true, true));
    }

    @Override
    public List<IndexSummary> indices(Optional<String> expression, CatalogView.Options options) {
        CatalogView view = catalog.view();
        List<IndexMetadata> indices = view.resolve(expression.orElse("_all"), options);
        List<IndexSummary> rows = new ArrayList<>();
        for (IndexMetadata index : indices) {
            DocumentStore.StoreStats stats = store.stats(index);
            rows.add(new IndexSummary(index.name(), index.uuid(), Status.GREEN, index.settings().numberOfShards(),
                    index.settings().numberOfReplicas(), stats.docCount(), stats.deletedDocs(), stats.sizeInBytes(),
                    index.closed()));
        }
        return rows;
    }

    @Override
    public Readiness readiness() {
        List<Dependency> dependencies = new ArrayList<>(3);
        dependencies.add(check("catalog", catalog::ping));
        dependencies.add(check(store.name(), store::ping));
        if (responses != null) {
            dependencies.add(check("response cache", responses::ping));
        }
        return Readiness.of(dependencies);
    }

    private static Dependency check(String name, Runnable ping) {
        try {
            ping.run();
            return new Dependency(name, Optional.empty());
        } catch (RuntimeException e) {
            return new Dependency(name, Optional.of(String.valueOf(e.getMessage())));
        }
    }

    private boolean storeReachable() {
        try {
            store.ping();
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }
}
