package io.qdrant.esgateway.application.service;

import io.qdrant.esgateway.application.port.in.DocumentOperations;
import io.qdrant.esgateway.application.port.in.IndexAdministration;
import io.qdrant.esgateway.application.port.out.Catalog;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite;
import io.qdrant.esgateway.application.port.out.IdGenerator;
import io.qdrant.esgateway.application.port.out.SharedResponseCache;
import io.qdrant.esgateway.domain.document.DocumentIds;
import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.document.ParsedDocument;
import io.qdrant.esgateway.domain.document.SourceFilter;
import io.qdrant.esgateway.domain.document.SourceMerge;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.document.Versioning;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.CreateIndexRequest;
import io.qdrant.esgateway.domain.index.IndexBlocks;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexName;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.CompactPositions;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.script.PainlessScript;
import io.qdrant.esgateway.domain.script.ScriptContext;
import io.qdrant.esgateway.domain.script.UpdateScripts;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Document writes and reads by id, with Elasticsearch's versioning: per-document {@code _version}, per-index
 * {@code _seq_no}, optimistic concurrency, create-only writes, partial updates with no-op detection, auto-created
 * indices and dynamic mapping.
 *
 * <p>Writes to one index are serialised in this process (a lock per index uuid); all items of a request that go
 * to one index are planned in order against the current documents, then handed to the store as one batch, applied
 * under the lock and awaited durable after it ({@link DocumentStore#apply}); outcomes are reported once durable.
 * A dynamic mapping change is recorded in the catalog before the batch is written, so an acknowledged document
 * never has fields the catalog does not know. Deleted documents leave a tombstone for the index's
 * {@code index.gc_deletes} ({@link #GC_DELETES} by default), so a re-created document continues the deleted one's
 * version: in this process, or, when the catalog hands out write turns (replicas sharing it), in the catalog, shared
 * by every replica.
 */
public final class DocumentService implements DocumentOperations {
    public static final Duration GC_DELETES = io.qdrant.esgateway.domain.index.IndexSettings.DEFAULT_GC_DELETES;

    private final Catalog catalog;
    private final DocumentStore store;
    private final IndexAdministration admin;
    private final IdGenerator ids;
    private final InstantSource clock;
    /** The shared response cache whose generations every write moves before it is acknowledged; null when off. */
    private final SharedResponseCache responses;
    private final Scripts scripts;
    private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Tombstone>> tombstones = new ConcurrentHashMap<>();

    private record Tombstone(long version, Instant expires) {
    }

    public DocumentService(Catalog catalog, DocumentStore store, IndexAdministration admin, IdGenerator ids,
                           InstantSource clock) {
        this(catalog, store, admin, ids, clock, null);
    }

    /**
     * @param responses the shared response cache: each request moves the data generation of every index it wrote to
     *                  there (one round trip for all of them, after the store applied the batches and before any
     *                  outcome is reported); when that fails, its writes are reported failed. Null when there is none.
     */
    public DocumentService(Catalog catalog, DocumentStore store, IndexAdministration admin, IdGenerator ids,
                           InstantSource clock, SharedResponseCache responses) {
        this.responses = responses;
        this.catalog = catalog;
        this.store = store;
        this.admin = admin;
        this.ids = ids;
        this.clock = clock;
        this.scripts = new Scripts(catalog);
    }

    @Override
    public Written write(WriteCommand command) {
        return switch (bulk(List.of(command)).get(0)) {
            case Written w -> w;
            case Failed f -> throw f.error();
        };
    }

    @Override
    public List<WriteOutcome> bulk(List<WriteCommand> given) {
        List<WriteCommand> commands = new ArrayList<>(given);
        WriteOutcome[] out = new WriteOutcome[commands.size()];
        Map<String, IndexMetadata> targets = new LinkedHashMap<>();
        Map<String, List<Integer>> groups = new LinkedHashMap<>();
        // one snapshot of the catalog resolves every item (as Elasticsearch resolves a bulk against one cluster
        // state), read again only after an item auto-created an index; each group re-checks its index under its lock
        CatalogView view = catalog.view();
        for (int i = 0; i < commands.size(); i++) {
            WriteCommand command = commands.get(i);
            try {
                IndexMetadata index = resolveForWrite(view, command);
                // through an alias with an index_routing, that routing is the item's
                Optional<String> routing = view.isAlias(command.target())
                        ? view.indexRouting(command.target(), command.routing()) : command.routing();
                if (!routing.equals(command.routing())) {
                    command = WriteCommand.routed(command, routing);
                    commands.set(i, command);
                }
                IndexBlocks.check(index, IndexBlocks.Level.WRITE);
                RoutingRequired.check(index, command.routing(), idOf(command).orElse(null));
                if (view.index(index.name()).isEmpty()) {
                    view = catalog.view();
                }
                targets.putIfAbsent(index.uuid(), index);
                groups.computeIfAbsent(index.uuid(), k -> new ArrayList<>()).add(i);
            } catch (GatewayException e) {
                out[i] = new Failed(command.target(), idOf(command).orElse(null), e);
            }
        }
        Set<String> applied = responses == null ? null : new LinkedHashSet<>();
        groups.forEach((uuid, items) -> executeGroup(targets.get(uuid), items, commands, out, applied));
        if (applied != null && !applied.isEmpty()) {
            moveGenerations(applied, out);
        }
        return List.of(out);
    }

    /**
     * Moves the shared response cache's generation of every index this request wrote to (or may have written to, in
     * a failed batch), in one round trip, before any outcome is reported; if that fails, no write is acknowledged.
     */
    private void moveGenerations(Set<String> indices, WriteOutcome[] out) {
        try {
            responses.bump(indices);
        } catch (GatewayException e) {
            for (int i = 0; i < out.length; i++) {
                if (out[i] instanceof Written w && w.result() != Result.NOOP) {
                    out[i] = new Failed(w.index(), w.id(), e);
                }
            }
        }
    }

    private static Optional<String> idOf(WriteCommand command) {
        return switch (command) {
            case WriteCommand.Index i -> i.id();
            case WriteCommand.Delete d -> Optional.of(d.id());
            case WriteCommand.Update u -> Optional.of(u.id());
            case WriteCommand.ScriptedUpdate u -> Optional.of(u.id());
        };
    }

    /** The index an item writes to in {@code view}; auto-creates a missing one (then not in {@code view}). */
    private IndexMetadata resolveForWrite(CatalogView view, WriteCommand command) {
        String target = command.target();
        if (command.requireAlias() && !view.isAlias(target)) {
            throw new GatewayException(ErrorKind.INDEX_NOT_FOUND, "[require_alias] request flag is [true] and ["
                    + target + "] is not an alias", Map.of("index_uuid", "_na_", "index", target), null);
        }
        try {
            return view.resolveWriteIndex(target);
        } catch (GatewayException e) {
            if (e.kind() != ErrorKind.INDEX_NOT_FOUND || command instanceof WriteCommand.Delete) {
                throw e;
            }
        }
        // Elasticsearch creates a missing index on its first index/create/update (never on a delete)
        try {
            return admin.create(target, null);
        } catch (GatewayException e) {
            if (e.kind() == ErrorKind.RESOURCE_ALREADY_EXISTS) {
                return catalog.view().resolveWriteIndex(target);
            }
            throw e;
        }
    }

    /** The plan of one group: the state of each touched document as the items see it, in order. */
    private final class Plan {
        final IndexMetadata index;
        Mappings mappings;
        boolean mappingsChanged;
        long seqNo;
        final Map<String, Optional<StoredDocument>> state = new HashMap<>();
        final List<DocumentWrite> writes = new ArrayList<>();
        final Map<String, Long> deleted = new HashMap<>();
        /** The tombstones shared by every replica (read within the write turn); null: this process's own. */
        Map<String, Long> sharedTombstones;

        Plan(IndexMetadata index, Map<String, StoredDocument> current, long seqNo) {
            this.index = index;
            this.mappings = index.mappings();
            this.seqNo = seqNo;
            current.forEach((id, doc) -> state.put(id, Optional.of(doc)));
        }

        Optional<StoredDocument> current(String id) {
            return state.getOrDefault(id, Optional.empty());
        }

        /** The version of {@code id}: of the live document, or of its tombstone; empty when there is neither. */
        OptionalLong currentVersion(String id) {
            Optional<StoredDocument> doc = current(id);
            if (doc.isPresent()) {
                return OptionalLong.of(doc.get().version().version());
            }
            Long justDeleted = deleted.get(id);
            if (justDeleted != null) {
                return OptionalLong.of(justDeleted);
            }
            if (sharedTombstones != null) {
                Long shared = sharedTombstones.get(id);
                return shared != null ? OptionalLong.of(shared) : OptionalLong.empty();
            }
            Tombstone t = tombstones.getOrDefault(index.uuid(), Map.of()).get(id);
            return t != null && t.expires().isAfter(clock.instant()) ? OptionalLong.of(t.version())
                    : OptionalLong.empty();
        }

        /** The version the next write of {@code id} gets: after the live document, or after its tombstone. */
        long nextVersion(String id) {
            return currentVersion(id).orElse(0) + 1;
        }

        /** Throws the conflict of {@code condition}'s {@code version} with the current version of {@code id}. */
        void checkVersion(String id, Versioning.Condition condition) {
            Versioning.checkVersion(index, id, currentVersion(id), current(id).isEmpty(), condition);
        }

        DocumentVersion next(String id) {
            return new DocumentVersion(nextVersion(id), ++seqNo, DocumentVersion.PRIMARY_TERM);
        }

        /** The version a write under {@code condition} gets: the given one when external, else the next. */
        DocumentVersion next(String id, Versioning.Condition condition) {
            return condition.external()
                    ? new DocumentVersion(condition.version(), ++seqNo, DocumentVersion.PRIMARY_TERM) : next(id);
        }

        StoredDocument put(String id, JsonObject source, Optional<String> routing) {
            return put(id, source, routing, Versioning.Condition.NONE);
        }

        StoredDocument put(String id, JsonObject source, Optional<String> routing, Versioning.Condition condition) {
            ParsedDocument parsed = DocumentParser.parse(mappings, source, id, routing);
            parsed.updatedMappings().ifPresent(m -> {
                mappings = m;
                mappingsChanged = true;
            });
            IndexableDocument doc = new IndexableDocument(id, next(id, condition), source, parsed.values(), routing);
            // the plan holds the store's state of every touched id, updated by each planned write: an id it has no
            // live document for has none in the store when this write is applied either (writes apply in order)
            writes.add(new DocumentWrite.Upsert(doc, current(id).isEmpty()));
            state.put(id, Optional.of(doc.stored()));
            deleted.remove(id);
            return doc.stored();
        }

        /**
         * {@link #put} for a source the update built (a merged document, an upsert taken out of an update body, a
         * script's result): Elasticsearch parses it from its compact JSON text, so a failure names the positions in
         * that text rather than in the request.
         */
        StoredDocument putBuilt(String id, JsonObject source, Optional<String> routing) {
            try {
                return put(id, source, routing);
            } catch (GatewayException e) {
                if (e.kind() != ErrorKind.DOCUMENT_PARSING && e.kind() != ErrorKind.STRICT_DYNAMIC_MAPPING) {
                    throw e;
                }
                put(id, CompactPositions.of(source), routing);
                throw e; // not reached: the same document fails the same way
            }
        }

        DocumentVersion delete(String id) {
            return delete(id, Versioning.Condition.NONE);
        }

        DocumentVersion delete(String id, Versioning.Condition condition) {
            DocumentVersion version = next(id, condition);
            writes.add(new DocumentWrite.Delete(id));
            state.put(id, Optional.empty());
            deleted.put(id, version.version());
            return version;
        }
    }

    /**
     * Plans and applies one index's items under the index's lock, then waits for the batch to be durable after
     * releasing it ({@link DocumentStore#apply}): the next writer plans on the applied state meanwhile, and writers
     * waiting together share the store's fsync. An outcome is reported only once durable; if that fails, every item
     * of the batch fails (a later batch planned on it fails too: its wait covers this one's).
     */
    private void executeGroup(IndexMetadata resolved, List<Integer> items, List<WriteCommand> commands,
                              WriteOutcome[] out, Set<String> moved) {
        Applied applied = applyGroup(resolved, items, commands, out, moved, true);
        if (applied == null) {
            return;
        }
        try {
            applied.durability().await();
        } catch (GatewayException e) {
            applied.planned().forEach((i, w) -> out[i] = w.result() == Result.NOOP ? w
                    : new Failed(applied.index(), w.id(), e));
            return;
        }
        applied.planned().forEach((i, w) -> out[i] = w);
    }

    /** A group applied to the store: its planned outcomes, reported once {@code durability} is reached. */
    private record Applied(String index, Map<Integer, Written> planned, DocumentStore.Durability durability) {
    }

    /** The locked part of {@link #executeGroup}; null when every outcome is set already (failed). */
    private Applied applyGroup(IndexMetadata resolved, List<Integer> items, List<WriteCommand> commands,
                               WriteOutcome[] out, Set<String> moved, boolean mayReplan) {
        ReentrantLock lock = locks.computeIfAbsent(resolved.uuid(), k -> new ReentrantLock());
        lock.lock();
        Catalog.WriteTurn turn = null;
        try {
            IndexMetadata index = catalog.view().index(resolved.name())
                    .filter(i -> i.uuid().equals(resolved.uuid())).orElse(null);
            if (index == null) {
                items.forEach(i -> out[i] = new Failed(resolved.name(), idOf(commands.get(i)).orElse(null),
                        GatewayException.indexNotFound(resolved.name())));
                return null;
            }
            // with other writers of the same store (replicas sharing the catalog), the index's turn: no other process
            // plans or applies writes to it meanwhile, and the sequence numbers come from the catalog's counter
            try {
                IndexMetadata seeded = index;
                turn = catalog.writeTurn(index, items.size(), () -> store.maxSeqNo(seeded)).orElse(null);
            } catch (GatewayException e) {
                items.forEach(i -> out[i] = new Failed(resolved.name(), idOf(commands.get(i)).orElse(null), e));
                return null;
            }
            Map<Integer, String> generated = new HashMap<>();
            Set<String> touched = new LinkedHashSet<>();
            for (int i : items) {
                String id = idOf(commands.get(i)).orElseGet(() -> generated.computeIfAbsent(i, k -> ids.newId()));
                touched.add(id);
            }
            Map<String, StoredDocument> current = store.get(index, touched);
            Plan plan = new Plan(index, current, turn != null ? turn.seqNoBefore() : store.maxSeqNo(index));
            if (turn != null) {
                // the deletions of every replica: the tombstones of the touched ids that have no live document
                List<String> absent = touched.stream().filter(id -> !current.containsKey(id)).toList();
                try {
                    plan.sharedTombstones = absent.isEmpty() ? Map.of() : turn.tombstones(absent);
                } catch (GatewayException e) {
                    items.forEach(i -> out[i] = new Failed(index.name(), idOf(commands.get(i)).orElse(null), e));
                    return null;
                }
            }
            Map<Integer, Written> planned = new LinkedHashMap<>();
            DocumentStore.Durability durability = DocumentStore.Durability.DONE;
            for (int i : items) {
                WriteCommand command = commands.get(i);
                String id = idOf(command).orElseGet(() -> generated.get(i));
                try {
                    planned.put(i, plan(plan, command, id));
                } catch (GatewayException e) {
                    out[i] = new Failed(index.name(), id, e);
                }
            }
            if (!plan.writes.isEmpty()) {
                try {
                    // the store encodes the batch with the mapping it is given: the one this batch's own
                    // dynamic fields are part of (a text field's tokens, a keyword's ignore_above, …)
                    IndexMetadata written = index;
                    if (plan.mappingsChanged) {
                        String uuid = index.uuid();
                        try {
                            written = admin.putMapping(index.name(), plan.mappings).stream()
                                    .filter(i -> i.uuid().equals(uuid)).findFirst()
                                    .orElse(index.withMappings(plan.mappings));
                        } catch (GatewayException e) {
                            if (mayReplan && mappingsMoved(index)) {
                                // another writer (a replica) changed the mappings since this plan read them, and
                                // this plan's dynamic fields conflict with its: nothing is written yet, so the
                                // items are planned again on the new mappings, as Elasticsearch re-parses them
                                items.forEach(i -> out[i] = null);
                                if (turn != null) {
                                    try {
                                        turn.end(turn.seqNoBefore()); // nothing written; taken again by the new plan
                                    } catch (GatewayException lost) {
                                        // nothing was written in it
                                    }
                                    turn = null;
                                }
                                return applyGroup(resolved, items, commands, out, moved, false);
                            }
                            throw e;
                        }
                    }
                    if (moved != null) {
                        moved.add(index.uuid());
                    }
                    if (turn != null) {
                        turn.checkHeld(); // planned within the turn; applied only while it is surely still held
                    }
                    durability = store.apply(written, plan.writes, plan.seqNo);
                    catalog.bumpGeneration(index.name());
                    if (turn != null) {
                        if (!plan.deleted.isEmpty()) {
                            // shared before the turn ends: the next turn, on any replica, continues their versions
                            turn.recordTombstones(plan.deleted, index.settings().gcDeletesDuration());
                        }
                        turn.end(plan.seqNo);
                    }
                } catch (GatewayException e) {
                    // a failed batch may still have changed the store (in part, on a backend without atomic
                    // batches): move the generation anyway, so that no cached answer outlives it
                    try {
                        catalog.bumpGeneration(index.name());
                    } catch (GatewayException ignored) {
                        // the catalog is failing too: searches that read the generation fail with it
                    }
                    planned.forEach((i, w) -> out[i] = w.result() == Result.NOOP ? w : new Failed(index.name(), w.id(), e));
                    return null;
                }
                if (turn == null) {
                    recordTombstones(index, plan.deleted);
                }
            }
            if (turn != null && plan.writes.isEmpty()) {
                try {
                    turn.end(plan.seqNo); // nothing written: every reserved number goes back
                } catch (GatewayException e) {
                    // nothing was written in the turn, so losing it changes no outcome
                }
            }
            return new Applied(index.name(), planned, durability);
        } finally {
            if (turn != null) {
                turn.close();
            }
            lock.unlock();
        }
    }

    /** Whether the catalog's mappings of {@code index} are no longer the ones it was read with. */
    private boolean mappingsMoved(IndexMetadata index) {
        return catalog.view().index(index.name()).filter(i -> i.uuid().equals(index.uuid()))
                .map(i -> !i.mappings().equals(index.mappings())).orElse(false);
    }

    private Written plan(Plan plan, WriteCommand command, String id) {
        DocumentIds.validate(id);
        IndexMetadata index = plan.index;
        Optional<StoredDocument> current = plan.current(id);
        return switch (command) {
            case WriteCommand.Index c -> {
                if (c.createOnly()) {
                    Versioning.checkAbsent(index, id, current);
                }
                Versioning.check(index, id, current, c.condition());
                plan.checkVersion(id, c.condition());
                if (!(c.source() instanceof JsonObject source)) {
                    throw new GatewayException(ErrorKind.DOCUMENT_PARSING, "failed to parse, document is empty");
                }
                StoredDocument doc = plan.put(id, source, c.routing(), c.condition());
                yield new Written(index.name(), id, current.isPresent() ? Result.UPDATED : Result.CREATED,
                        doc.version(), Optional.empty());
            }
            case WriteCommand.Delete c -> {
                Versioning.check(index, id, current, c.condition());
                plan.checkVersion(id, c.condition());
                DocumentVersion v = plan.delete(id, c.condition());
                yield new Written(index.name(), id, current.isPresent() ? Result.DELETED : Result.NOT_FOUND, v,
                        Optional.empty());
            }
            case WriteCommand.Update c -> {
                Versioning.check(index, id, current, c.condition());
                if (current.isEmpty()) {
                    JsonObject source = c.docAsUpsert() && c.doc().isPresent() ? c.doc().get()
                            : c.upsert().orElseThrow(() -> Versioning.documentMissing(index, id));
                    StoredDocument doc = plan.putBuilt(id, source, c.routing());
                    yield new Written(index.name(), id, Result.CREATED, doc.version(), fetched(c, doc));
                }
                if (index.mappings().root().sourceDisabled()) {
                    throw GatewayException.documentSourceMissing(index.name(), index.uuid(), id);
                }
                // as in Elasticsearch, an update starts from the source as the mapping keeps it
                StoredDocument existing = shown(index, current.get());
                JsonObject merged = SourceMerge.merge(existing.source(), c.doc().orElseGet(JsonObject::of));
                if (c.detectNoop() && merged.equals(existing.source())) {
                    yield new Written(index.name(), id, Result.NOOP, existing.version(), fetched(c, existing));
                }
                StoredDocument doc = plan.putBuilt(id, merged, updatedRouting(c.routing(), existing));
                yield new Written(index.name(), id, Result.UPDATED, doc.version(), fetched(c, doc));
            }
            case WriteCommand.ScriptedUpdate c -> scriptedUpdate(plan, c, id, current);
        };
    }

    /** An update by script: Elasticsearch reports any script failure as "failed to execute script". */
    private Written scriptedUpdate(Plan plan, WriteCommand.ScriptedUpdate c, String id,
                                   Optional<StoredDocument> current) {
        IndexMetadata index = plan.index;
        Versioning.check(index, id, current, c.condition());
        if (current.isEmpty() && !c.scriptedUpsert()) {
            JsonObject source = c.upsert().orElseThrow(() -> Versioning.documentMissing(index, id));
            StoredDocument doc = plan.putBuilt(id, source, c.routing());
            return new Written(index.name(), id, Result.CREATED, doc.version(), fetched(c.fetch(), doc));
        }
        if (current.isEmpty() && c.upsert().isEmpty()) {
            throw Versioning.documentMissing(index, id);
        }
        if (current.isPresent() && index.mappings().root().sourceDisabled()) {
            throw GatewayException.documentSourceMissing(index.name(), index.uuid(), id);
        }
        UpdateScripts.Outcome outcome;
        try {
            PainlessScript script = scripts.compile(ScriptContext.UPDATE, c.script());
            outcome = current.isEmpty()
                    ? UpdateScripts.upsert(script, c.script().paramsForRun(), c.upsert().get(), index.name(), id,
                            clock.millis())
                    : UpdateScripts.update(script, c.script().paramsForRun(), current.get().source(), index.name(),
                            id, current.get().version().version(), clock.millis());
        } catch (GatewayException e) {
            if (e.kind() == ErrorKind.SCRIPT || e.kind() == ErrorKind.RESOURCE_NOT_FOUND) {
                throw new GatewayException(ErrorKind.ILLEGAL_ARGUMENT, "failed to execute script", Map.of(), e);
            }
            throw e;
        }
        if (current.isEmpty()) {
            if (outcome.op() == UpdateScripts.Op.NOOP) {
                return new Written(index.name(), id, Result.NOOP, new DocumentVersion(-1, -2, 0), Optional.empty());
            }
            StoredDocument doc = plan.putBuilt(id, outcome.source(), c.routing());
            return new Written(index.name(), id, Result.CREATED, doc.version(), fetched(c.fetch(), doc));
        }
        StoredDocument existing = current.get();
        return switch (outcome.op()) {
            case NOOP -> new Written(index.name(), id, Result.NOOP, existing.version(),
                    fetched(c.fetch(), existing));
            case DELETE -> new Written(index.name(), id, Result.DELETED, plan.delete(id), Optional.empty());
            case INDEX -> {
                StoredDocument doc = plan.putBuilt(id, outcome.source(), updatedRouting(c.routing(), existing));
                yield new Written(index.name(), id, Result.UPDATED, doc.version(), fetched(c.fetch(), doc));
            }
        };
    }

    /**
     * The routing an update of an existing document writes it with: the request's, else the one the document
     * has (Elasticsearch re-indexes the updated document with the routing it read).
     */
    private static Optional<String> updatedRouting(Optional<String> requested, StoredDocument existing) {
        return requested.isPresent() ? requested : existing.routing();
    }

    /** A document as its index's {@code _source} mapping shows it. */
    private static StoredDocument shown(IndexMetadata index, StoredDocument doc) {
        if (!index.mappings().root().filtersSource()) {
            return doc;
        }
        return doc.withSource(SourceFilter.stored(index.mappings(), doc.source()));
    }

    private static Optional<StoredDocument> fetched(WriteCommand.Update command, StoredDocument doc) {
        return fetched(command.fetch(), doc);
    }

    private static Optional<StoredDocument> fetched(Optional<SourceFilter> fetch, StoredDocument doc) {
        return fetch.filter(f -> f.fetch())
                .map(f -> doc.withSource(f.apply(doc.source())));
    }

    private void recordTombstones(IndexMetadata index, Map<String, Long> deleted) {
        if (deleted.isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        Map<String, Tombstone> forIndex = tombstones.computeIfAbsent(index.uuid(), k -> new ConcurrentHashMap<>());
        forIndex.values().removeIf(t -> !t.expires().isAfter(now));
        Instant expires = now.plus(index.settings().gcDeletesDuration());
        deleted.forEach((id, version) -> forIndex.put(id, new Tombstone(version, expires)));
    }

    @Override
    public GetResult get(String target, String id) {
        return get(resolveSingle(catalog.view(), target), id);
    }

    @Override
    public GetResult get(String target, String id, Optional<String> routing) {
        return get(target, id, routing, Versioning.MATCH_ANY);
    }

    @Override
    public GetResult get(String target, String id, Optional<String> routing, long version) {
        CatalogView view = catalog.view();
        IndexMetadata index = resolveSingle(view, target);
        IndexBlocks.check(index, IndexBlocks.Level.READ);
        // through an alias with an index_routing, that routing is the get's (a different one is ES's 400)
        RoutingRequired.check(index, view.indexRouting(target, routing), id);
        GetResult result = get(index, id);
        result.document().ifPresent(d -> Versioning.checkRead(index, id, d.version().version(), version));
        return result;
    }

    private GetResult get(IndexMetadata index, String id) {
        IndexBlocks.check(index, IndexBlocks.Level.READ);
        return new GetResult(index.name(), id, Optional.ofNullable(store.get(index, List.of(id)).get(id))
                .map(d -> shown(index, d)), index.mappings().root().sourceDisabled());
    }

    @Override
    public List<GetOutcome> multiGet(List<GetCommand> commands) {
        CatalogView view = catalog.view();
        GetOutcome[] out = new GetOutcome[commands.size()];
        Map<String, IndexMetadata> indices = new LinkedHashMap<>();
        Map<String, List<Integer>> groups = new LinkedHashMap<>();
        for (int i = 0; i < commands.size(); i++) {
            GetCommand c = commands.get(i);
            try {
                IndexMetadata index = resolveSingle(view, c.target());
                IndexBlocks.check(index, IndexBlocks.Level.READ);
                RoutingRequired.check(index, view.indexRouting(c.target(), c.routing()), c.id());
                indices.putIfAbsent(index.uuid(), index);
                groups.computeIfAbsent(index.uuid(), k -> new ArrayList<>()).add(i);
            } catch (GatewayException e) {
                out[i] = new GetOutcome.Error(c.target(), c.id(), e);
            }
        }
        groups.forEach((uuid, items) -> {
            IndexMetadata index = indices.get(uuid);
            Set<String> wanted = new LinkedHashSet<>();
            items.forEach(i -> wanted.add(commands.get(i).id()));
            Map<String, StoredDocument> found = store.get(index, wanted);
            for (int i : items) {
                GetCommand c = commands.get(i);
                StoredDocument doc = found.get(c.id());
                try {
                    if (doc != null) {
                        Versioning.checkRead(index, c.id(), doc.version().version(), c.version());
                    }
                } catch (GatewayException e) {
                    out[i] = new GetOutcome.Error(index.name(), c.id(), e);
                    continue;
                }
                out[i] = new GetOutcome.Found(new GetResult(index.name(), c.id(),
                        Optional.ofNullable(doc).map(d -> shown(index, d)),
                        index.mappings().root().sourceDisabled()), c.source());
            }
        });
        return List.of(out);
    }

    /** Reads by id need exactly one open index: the index itself, or an alias with a single index. */
    private static IndexMetadata resolveSingle(CatalogView view, String target) {
        IndexMetadata index = resolveSingleIndex(view, target);
        if (index.closed()) {
            throw GatewayException.indexClosed(index.name(), index.uuid());
        }
        return index;
    }

    private static IndexMetadata resolveSingleIndex(CatalogView view, String target) {
        Optional<IndexMetadata> index = view.index(target);
        if (index.isPresent()) {
            return index.get();
        }
        if (IndexName.isWildcard(target) || target.contains(",")) {
            List<IndexMetadata> all = view.resolve(target, CatalogView.Options.STRICT_EXPAND_OPEN);
            if (all.size() == 1) {
                return all.get(0);
            }
            if (all.isEmpty()) {
                throw GatewayException.indexNotFound(target);
            }
            throw GatewayException.illegalArgument("index [" + target + "] matches more than one index, can't execute"
                    + " a single index op");
        }
        List<IndexMetadata> viaAlias = view.resolve(target, CatalogView.Options.STRICT_EXPAND_OPEN);
        if (viaAlias.size() > 1) {
            throw GatewayException.illegalArgument("alias [" + target + "] has more than one index associated with it "
                    + viaAlias.stream().map(IndexMetadata::name).toList() + ", can't execute a single index op");
        }
        return viaAlias.get(0);
    }
}
