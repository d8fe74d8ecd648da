package io.qdrant.esgateway.application.service;

import io.qdrant.esgateway.application.port.in.ByQueryOperations.Failure;
import io.qdrant.esgateway.application.port.in.DocumentOperations;
import io.qdrant.esgateway.application.port.in.DocumentOperations.Failed;
import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand;
import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteOutcome;
import io.qdrant.esgateway.application.port.in.DocumentOperations.Written;
import io.qdrant.esgateway.application.port.in.ReindexOperations;
import io.qdrant.esgateway.application.port.in.TaskControl;
import io.qdrant.esgateway.application.port.out.Catalog;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.document.Versioning;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.search.AliasFilters;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * {@code _reindex} as Elasticsearch runs it, on any store: the matching ids of every source index (in the order the
 * expression resolves, each in index order from the store's complete scan, the same walk as {@code _delete_by_query}),
 * then batches of {@code batchSize} over all of them (a batch may span indices, as one scroll over the sources does):
 * their current sources read, filtered by {@code _source}, and written to the
 * destination through {@link DocumentOperations#bulk} (the ordinary write path: dynamic mappings, the destination
 * created when absent, versions, durability). A document deleted between the scan and its batch is not copied.
 * {@code max_docs} counts successful writes; a failure (a version conflict of {@code op_type: create} unless
 * proceeding) ends the operation after its batch.
 */
public final class ReindexService implements ReindexOperations {
    private final Catalog catalog;
    private final DocumentStore store;
    private final DocumentOperations documents;

    public ReindexService(Catalog catalog, DocumentStore store, DocumentOperations documents) {
        this.catalog = catalog;
        this.store = store;
        this.documents = documents;
    }

    @Override
    public ReindexResult reindex(ReindexRequest request, TaskControl control) {
        CatalogView view = catalog.view();
        List<IndexMetadata> sources = view.resolveOpen(request.source(), request.options());
        Optional<IndexMetadata> destIndex = view.index(request.dest()).or(() -> view.isAlias(request.dest())
                ? Optional.of(view.resolveWriteIndex(request.dest())) : Optional.empty());
        if (destIndex.isPresent() && sources.stream().anyMatch(s -> s.name().equals(destIndex.get().name()))) {
            throw GatewayException.validationFailed(List.of("reindex cannot write into an index its reading from ["
                    + destIndex.get().name() + "]"));
        }
        SearchRequest matching = SearchRequestParser.parse(Optional.empty(), Map.of())
                .withMatching(request.query(), List.of(), 0);
        DocumentStore.ScanRequest scan = new DocumentStore.ScanRequest(matching, false, Optional.empty(), Set.of(),
                false);
        // one stream over the sources in order, in batches that may span indices (as one scroll over all of them)
        List<Source> matches = new ArrayList<>();
        Map<String, io.qdrant.esgateway.domain.query.Query> aliasFilters = AliasFilters.of(view, request.source());
        for (IndexMetadata index : sources) {
            io.qdrant.esgateway.domain.query.Query aliasFilter = aliasFilters.get(index.name());
            DocumentStore.ScanRequest own = aliasFilter == null ? scan : new DocumentStore.ScanRequest(
                    matching.withMatching(AliasFilters.restrict(request.query(), aliasFilter), List.of(), 0), false,
                    Optional.empty(), Set.of(), false);
            store.scan(index, own, d -> matches.add(new Source(index, d.id())));
        }
        OptionalLong maxDocs = request.maxDocs();
        Progress progress = new Progress();
        progress.total = maxDocs.isPresent() ? Math.min(matches.size(), maxDocs.getAsLong()) : matches.size();
        control.report(progress.result());
        int next = 0;
        int lastSize = 0;
        long lastStart = 0;
        while (next < matches.size() && progress.failures.isEmpty()) {
            long room = maxDocs.isPresent() ? maxDocs.getAsLong() - progress.successful() : Long.MAX_VALUE;
            if (room <= 0) {
                break;
            }
            // between batches: the throttle, and a cancellation ends the operation here
            if (!control.pace(lastSize, lastStart)) {
                break;
            }
            int take = (int) Math.min(Math.min(request.batchSize(), room), matches.size() - next);
            List<Source> batch = matches.subList(next, next + take);
            next += take;
            lastSize = take;
            lastStart = System.nanoTime();
            progress.batches++;
            copy(batch, request, progress);
            control.report(progress.result());
        }
        return progress.result();
    }

    /** The running counters. */
    private static final class Progress {
        long total;
        long created;
        long updated;
        int batches;
        long conflicts;
        final List<Failure> failures = new ArrayList<>();

        long successful() {
            return created + updated;
        }

        ReindexResult result() {
            return new ReindexResult(total, created, updated, batches, conflicts, 0, failures);
        }
    }

    /** One match of the source: its index and id. */
    private record Source(IndexMetadata index, String id) {
    }

    private void copy(List<Source> batch, ReindexRequest request, Progress progress) {
        Map<IndexMetadata, List<String>> byIndex = new java.util.LinkedHashMap<>();
        batch.forEach(s -> byIndex.computeIfAbsent(s.index(), i -> new ArrayList<>()).add(s.id()));
        Map<IndexMetadata, Map<String, StoredDocument>> current = new java.util.HashMap<>();
        byIndex.forEach((index, ids) -> current.put(index, store.get(index, ids)));
        List<WriteCommand> commands = new ArrayList<>(batch.size());
        for (Source source : batch) {
            String id = source.id();
            StoredDocument doc = current.get(source.index()).get(id);
            if (doc == null) {
                continue; // deleted since the scan
            }
            if (source.index().mappings().root().sourceDisabled()) {
                throw GatewayException.illegalArgument("[" + source.index().name() + "][" + id
                        + "] didn't store _source");
            }
            commands.add(new WriteCommand.Index(request.dest(), Optional.of(id),
                    request.sourceFilter().apply(doc.source()), request.createOnly(), Versioning.Condition.NONE,
                    false));
        }
        if (commands.isEmpty()) {
            return;
        }
        for (WriteOutcome outcome : documents.bulk(commands)) {
            switch (outcome) {
                case Written w -> {
                    switch (w.result()) {
                        case CREATED -> progress.created++;
                        case UPDATED -> progress.updated++;
                        default -> {
                            // an index request answers created or updated
                        }
                    }
                }
                case Failed f -> {
                    Failure failure = new Failure(f.index(), f.id(), f.error());
                    if (f.error().kind() == ErrorKind.VERSION_CONFLICT) {
                        progress.conflicts++;
                        if (request.proceed()) {
                            continue;
                        }
                    }
                    progress.failures.add(failure);
                }
            }
        }
    }
}
