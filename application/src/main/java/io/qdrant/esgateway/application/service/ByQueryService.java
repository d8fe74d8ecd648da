package io.qdrant.esgateway.application.service;

import io.qdrant.esgateway.application.port.in.ByQueryOperations;
import io.qdrant.esgateway.application.port.in.DocumentOperations;
import io.qdrant.esgateway.application.port.in.DocumentOperations.Failed;
import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand;
import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteOutcome;
import io.qdrant.esgateway.application.port.in.DocumentOperations.Written;
import io.qdrant.esgateway.application.port.in.TaskControl;
import io.qdrant.esgateway.application.port.out.Catalog;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.document.Versioning;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.script.PainlessScript;
import io.qdrant.esgateway.domain.script.ScriptContext;
import io.qdrant.esgateway.domain.script.UpdateScripts;
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
 * {@code _delete_by_query} and {@code _update_by_query} as Elasticsearch runs them, on any store.
 *
 * <p>Per index (in the order the target resolves them): the matching ids are read in index order with the store's
 * complete scan, and their sequence numbers right after, in batches — the operation's snapshot. Then each batch of
 * {@code batchSize} goes through {@link DocumentOperations#bulk} (the ordinary write path: versions, durability,
 * the request-cache generation) with {@code if_seq_no}/{@code if_primary_term} of the snapshot on every write, so a
 * document written since the snapshot is a version conflict, as in Elasticsearch. A document deleted between the
 * scan and the reading of its sequence number is left out of the snapshot. {@code max_docs} counts successful
 * writes: with {@code conflicts=proceed} later matches stand in for conflicting ones; a failure (a conflict unless
 * proceeding) ends the operation after its batch.
 */
public final class ByQueryService implements ByQueryOperations {
    private final Catalog catalog;
    private final DocumentStore store;
    private final DocumentOperations documents;
    private final Scripts scripts;

    public ByQueryService(Catalog catalog, DocumentStore store, DocumentOperations documents) {
        this.catalog = catalog;
        this.store = store;
        this.documents = documents;
        this.scripts = new Scripts(catalog);
    }

    @Override
    public ByQueryResult deleteByQuery(String target, ByQueryRequest request, CatalogView.Options options,
                                       TaskControl control) {
        return run(target, request, options, true, control);
    }

    @Override
    public ByQueryResult updateByQuery(String target, ByQueryRequest request, CatalogView.Options options,
                                       TaskControl control) {
        return run(target, request, options, false, control);
    }

    /** One snapshot entry: a matching document and the sequence number it had. */
    private record Entry(String id, long seqNo, long primaryTerm) {
    }

    /** The running counters. */
    private static final class Progress {
        long total;
        long updated;
        long deleted;
        int batches;
        long conflicts;
        long noops;
        final List<Failure> failures = new ArrayList<>();

        long successful() {
            return updated + deleted;
        }
    }

    private ByQueryResult run(String target, ByQueryRequest request, CatalogView.Options options, boolean delete,
                              TaskControl control) {
        CatalogView view = catalog.view();
        List<IndexMetadata> indices = view.resolveOpen(target, options);
        Map<String, io.qdrant.esgateway.domain.query.Query> aliasFilters = AliasFilters.of(view, target);
        // a script that does not compile fails the request before any write, as in Elasticsearch
        Optional<PainlessScript> script = delete ? Optional.empty()
                : request.script().map(s -> scripts.compile(ScriptContext.UPDATE, s));
        SearchRequest matching = SearchRequestParser.parse(Optional.empty(), Map.of())
                .withMatching(request.query(), List.of(), 0);
        DocumentStore.ScanRequest scan = new DocumentStore.ScanRequest(matching, false, Optional.empty(), Set.of(),
                false);
        List<IndexMetadata> ordered = new ArrayList<>(indices);
        List<List<Entry>> snapshots = new ArrayList<>();
        long matches = 0;
        for (IndexMetadata index : ordered) {
            io.qdrant.esgateway.domain.query.Query aliasFilter = aliasFilters.get(index.name());
            List<Entry> snapshot = snapshot(index, aliasFilter == null ? scan : new DocumentStore.ScanRequest(
                    matching.withMatching(AliasFilters.restrict(request.query(), aliasFilter), List.of(), 0), false,
                    Optional.empty(), Set.of(), false), request.batchSize());
            snapshots.add(snapshot);
            matches += snapshot.size();
        }
        Progress progress = new Progress();
        OptionalLong maxDocs = request.maxDocs();
        progress.total = maxDocs.isPresent() ? Math.min(matches, maxDocs.getAsLong()) : matches;
        control.report(result(progress));
        int lastSize = 0;
        long lastStart = 0;
        for (int i = 0; i < ordered.size() && progress.failures.isEmpty(); i++) {
            IndexMetadata index = ordered.get(i);
            List<Entry> snapshot = snapshots.get(i);
            int next = 0;
            while (next < snapshot.size() && progress.failures.isEmpty()) {
                long room = maxDocs.isPresent() ? maxDocs.getAsLong() - progress.successful() : Long.MAX_VALUE;
                if (room <= 0) {
                    return result(progress);
                }
                // between batches: the throttle, and a cancellation ends the operation here
                if (!control.pace(lastSize, lastStart)) {
                    return result(progress);
                }
                int take = (int) Math.min(Math.min(request.batchSize(), room), snapshot.size() - next);
                List<Entry> batch = snapshot.subList(next, next + take);
                next += take;
                lastSize = take;
                lastStart = System.nanoTime();
                progress.batches++;
                apply(index, batch, delete, request.proceed(), progress, script, request);
                control.report(result(progress));
            }
        }
        return result(progress);
    }

    private static ByQueryResult result(Progress p) {
        return new ByQueryResult(p.total, p.updated, p.deleted, p.batches, p.conflicts, p.noops, p.failures);
    }

    /** The matching ids in index order, each with the sequence number read right after the scan. */
    private List<Entry> snapshot(IndexMetadata index, DocumentStore.ScanRequest scan, int chunk) {
        List<String> ids = new ArrayList<>();
        store.scan(index, scan, d -> ids.add(d.id()));
        List<Entry> entries = new ArrayList<>(ids.size());
        for (int from = 0; from < ids.size(); from += chunk) {
            List<String> part = ids.subList(from, Math.min(ids.size(), from + chunk));
            Map<String, StoredDocument> current = store.get(index, part);
            for (String id : part) {
                StoredDocument doc = current.get(id);
                if (doc != null) {
                    DocumentVersion v = doc.version();
                    entries.add(new Entry(id, v.seqNo(), v.primaryTerm()));
                }
            }
        }
        return entries;
    }

    private void apply(IndexMetadata index, List<Entry> batch, boolean delete, boolean proceed, Progress progress,
                       Optional<PainlessScript> script, ByQueryRequest request) {
        List<WriteCommand> commands = new ArrayList<>(batch.size());
        Map<String, StoredDocument> current = delete ? Map.of()
                : store.get(index, batch.stream().map(Entry::id).toList());
        List<Entry> sent = new ArrayList<>(batch.size());
        for (Entry e : batch) {
            Versioning.Condition condition = new Versioning.Condition(OptionalLong.of(e.seqNo()),
                    OptionalLong.of(e.primaryTerm()));
            if (delete) {
                commands.add(new WriteCommand.Delete(index.name(), e.id(), condition, false));
                sent.add(e);
                continue;
            }
            StoredDocument doc = current.get(e.id());
            if (doc == null || doc.version().seqNo() != e.seqNo() || doc.version().primaryTerm() != e.primaryTerm()) {
                // changed or deleted since the snapshot: the conditional write would fail the same way, and an
                // index request must not re-create a deleted document
                try {
                    Versioning.check(index, e.id(), Optional.ofNullable(doc), condition);
                } catch (GatewayException conflict) {
                    record(progress, proceed, new Failure(index.name(), e.id(), conflict));
                }
                continue;
            }
            if (index.mappings().root().sourceDisabled()) {
                // as in Elasticsearch, the whole request ends: there is no source to write back
                throw GatewayException.illegalArgument("[" + index.name() + "][" + e.id() + "] didn't store _source");
            }
            if (script.isPresent()) {
                // a runtime error ends the whole request (Elasticsearch answers with the script_exception)
                UpdateScripts.Outcome outcome = UpdateScripts.byQuery(script.get(), request.script().get()
                        .paramsForRun(), doc.source(), index.name(), e.id(), doc.version().version(),
                        System.currentTimeMillis());
                switch (outcome.op()) {
                    case NOOP -> progress.noops++;
                    case DELETE -> {
                        commands.add(new WriteCommand.Delete(index.name(), e.id(), condition, false));
                        sent.add(e);
                    }
                    case INDEX -> {
                        commands.add(new WriteCommand.Index(index.name(), Optional.of(e.id()), outcome.source(),
                                false, condition, false));
                        sent.add(e);
                    }
                }
                continue;
            }
            commands.add(new WriteCommand.Index(index.name(), Optional.of(e.id()), doc.source(), false, condition,
                    false));
            sent.add(e);
        }
        if (commands.isEmpty()) {
            return;
        }
        boolean same = catalog.view().index(index.name()).map(i -> i.uuid().equals(index.uuid())).orElse(false);
        if (!same) {
            // deleted meanwhile: ES's writes fail on the missing index (and an index request must not re-create it)
            sent.forEach(e -> record(progress, proceed, new Failure(index.name(), e.id(),
                    GatewayException.indexNotFound(index.name()))));
            return;
        }
        List<WriteOutcome> outcomes = documents.bulk(commands);
        for (WriteOutcome outcome : outcomes) {
            switch (outcome) {
                case Written w -> {
                    switch (w.result()) {
                        case DELETED -> progress.deleted++;
                        case UPDATED, CREATED -> progress.updated++;
                        default -> {
                            // a conditional write never answers not_found or noop
                        }
                    }
                }
                case Failed f -> record(progress, proceed, new Failure(f.index(), f.id(), f.error()));
            }
        }
    }

    /** Elasticsearch's accounting: a conflict is counted, and is a failure only unless proceeding. */
    private static void record(Progress progress, boolean proceed, Failure failure) {
        if (failure.cause().kind() == ErrorKind.VERSION_CONFLICT) {
            progress.conflicts++;
            if (proceed) {
                return;
            }
        }
        progress.failures.add(failure);
    }
}
