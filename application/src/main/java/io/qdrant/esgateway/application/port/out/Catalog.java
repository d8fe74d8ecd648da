package io.qdrant.esgateway.application.port.out;

import io.qdrant.esgateway.domain.index.AliasActions;
import io.qdrant.esgateway.domain.index.AliasMetadata;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.script.StoredScript;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the gateway keeps what indices and aliases exist. Every method is atomic: a reader sees a change whole or
 * not at all. Implementations: SQLite (embedded, one replica) and Valkey/Redis (shared by replicas); both pass
 * {@code CatalogContract}.
 */
public interface Catalog {

    /**
     * A view the current request has already found current on the shared server: its shared response-cache lookup
     * read the catalog's generation and epoch in the same round trip, after the request started
     * ({@link SharedResponseCache#lookupIf}), or it read the catalog itself. While bound, a shared catalog's
     * {@link #view()} answers with it instead of asking the server again: every change acknowledged before the request
     * started is in it, which is all a fresh read would guarantee. Bound only around the computation of one read.
     * A read may also compute on its local snapshot while the lookup that checks it is still on the way; its answer
     * is then dropped unless the lookup finds that snapshot current.
     */
    ScopedValue<CatalogView> CHECKED = ScopedValue.newInstance();

    /**
     * A consistent snapshot of every index and alias, with the catalog's version at that moment (a shared catalog:
     * the {@link #CHECKED} view when the current request has one).
     */
    CatalogView view();

    /**
     * Adds an index and its aliases. Fails with {@code RESOURCE_ALREADY_EXISTS} if an index of that name exists and
     * with {@code INVALID_INDEX_NAME} if an alias has that name; nothing is written then.
     */
    void createIndex(IndexMetadata index, List<AliasMetadata> aliases);

    /** Removes the indices and every alias on them; names that do not exist are ignored. */
    void deleteIndices(Collection<String> names);

    /** Replaces an index's mappings. Fails with {@code INDEX_NOT_FOUND} if it does not exist. */
    void updateMappings(String index, Mappings mappings);

    /** Replaces an index's settings. Fails with {@code INDEX_NOT_FOUND} if it does not exist. */
    void updateSettings(String index, io.qdrant.esgateway.domain.index.IndexSettings settings);

    /**
     * Replaces an index's mappings with {@code change} applied to its current ones, atomically: no other change of the
     * index's mappings (by this process or another sharing the catalog) is lost between the read and the write.
     * {@code change} may run more than once (again on the newer mappings when another writer got in first) and may
     * throw to refuse (nothing is written then). Returns the mappings written. Fails with {@code INDEX_NOT_FOUND} if
     * the index does not exist.
     */
    Mappings changeMappings(String index, java.util.function.UnaryOperator<Mappings> change);

    /**
     * Replaces the whole alias set with {@code plan.aliases()} and deletes {@code plan.removedIndices()}, only if the
     * catalog is still at {@code expectedVersion}. Returns false (and writes nothing) if it moved.
     */
    boolean applyAliasPlan(long expectedVersion, AliasActions.Plan plan);

    /** The index's write generation: moves on every write to its documents (0 for a new index). */
    long generation(String index);

    /**
     * Moves the index's write generation on and returns the new value. Called after every document write, so it must
     * be cheap: the new value survives a crash of the gateway process, but an implementation may leave making it
     * survive a crash of the machine (power loss) to its next durable change — after one, the generation may be
     * back at an earlier value, which is safe while whatever is keyed on it (caches) lives no longer than the
     * machine's memory.
     */
    long bumpGeneration(String index);

    /** Stores (or replaces) the script kept under {@code id}. */
    void putStoredScript(String id, StoredScript script);

    /** The script kept under {@code id}, if any. */
    Optional<StoredScript> storedScript(String id);

    /** Removes the script kept under {@code id}; false if there was none. */
    boolean deleteStoredScript(String id);

    /**
     * Stores a security record (a user, role or API key, as JSON text holding hashes, never a secret in clear) under
     * {@code kind} and {@code name}; with {@code onlyIfAbsent}, only when there is none yet (false then, and nothing
     * is written). Security records are not part of the index view.
     */
    boolean putSecurityRecord(String kind, String name, String record, boolean onlyIfAbsent);

    /** The security record of {@code kind} kept under {@code name}, if any. */
    Optional<String> securityRecord(String kind, String name);

    /** Every security record of {@code kind}, by name in name order. */
    java.util.SortedMap<String, String> securityRecords(String kind);

    /** Removes the security record; false if there was none. */
    boolean deleteSecurityRecord(String kind, String name);

    /**
     * Every stored template of one kind: name to its stored JSON text (what the template's {@code toJson()} wrote).
     * Templates are not part of the view: they are read when an index is created and when they are asked for.
     */
    java.util.Map<String, String> templates(io.qdrant.esgateway.domain.index.TemplateKind kind);

    /**
     * Stores (or replaces) a template of one kind. With {@code onlyIfAbsent}, writes nothing and returns false when
     * one of that name exists; otherwise returns true.
     */
    boolean putTemplate(io.qdrant.esgateway.domain.index.TemplateKind kind, String name, String json,
                        boolean onlyIfAbsent);

    /** Removes a template of one kind; false if there was none. */
    boolean deleteTemplate(io.qdrant.esgateway.domain.index.TemplateKind kind, String name);

    /** Throws {@code BACKEND_UNAVAILABLE} unless the catalog can be read now. */
    void ping();

    /**
     * This process's latest snapshot of a shared catalog, without asking the server, and the condition under which
     * it is current: each of {@code keys} holds the value at the same position of {@code values} on the shared
     * server (the one the shared response cache uses, which checks it with {@link SharedResponseCache#lookupIf} in
     * the lookup's round trip). Empty for a catalog that is not shared, or before its first read.
     */
    default Optional<Pinned> pinned() {
        return Optional.empty();
    }

    /** A snapshot and the key values that make it current; see {@link #pinned()}. */
    record Pinned(CatalogView view, List<String> keys, List<String> values) {
        public Pinned {
            keys = List.copyOf(keys);
            values = List.copyOf(values);
            if (keys.size() != values.size()) {
                throw new IllegalArgumentException("one value per key");
            }
        }
    }

    /**
     * A turn at writing one index's documents, for a catalog shared by several processes that write the same
     * documents store; empty when this process is the only writer (its own lock per index is enough). While a turn is
     * held no other process holds one for the same index, so a write planned in it (version checks, {@code if_seq_no},
     * {@code op_type=create}) is planned on the index's latest applied state; and it reserves {@code reserve}
     * sequence numbers for the turn's writes, unique across every process.
     *
     * @param index         the index (its uuid identifies it)
     * @param reserve       how many sequence numbers the turn may use at most
     * @param storedMaxSeqNo the highest sequence number the documents store has recorded for the index, read only
     *                      when the catalog's own counter cannot be trusted (it is missing, or its server restarted)
     * @throws io.qdrant.esgateway.domain.error.GatewayException {@code BACKEND_UNAVAILABLE} when the catalog's server
     *         fails or another process holds the turn for too long
     */
    default Optional<WriteTurn> writeTurn(IndexMetadata index, int reserve,
                                          java.util.function.LongSupplier storedMaxSeqNo) {
        return Optional.empty();
    }

    /** A held turn; see {@link #writeTurn}. Closing it without {@link #end} gives it up as is. */
    interface WriteTurn extends AutoCloseable {
        /** The highest sequence number before the turn's block: its writes use {@code seqNoBefore() + 1} on. */
        long seqNoBefore();

        /**
         * Ends the turn after its writes were applied, giving back the numbers above {@code lastUsed} when no one
         * reserved numbers since.
         *
         * @throws io.qdrant.esgateway.domain.error.GatewayException {@code BACKEND_UNAVAILABLE} when the turn was
         *         lost before its end (it expired, or the server restarted): another process may have written the
         *         index meanwhile, so the turn's writes must not be acknowledged
         */
        void end(long lastUsed);

        /**
         * Throws before a write is applied when the turn may no longer be held (its lease could not be renewed in
         * time): another process may hold it now, so nothing may be written in this one.
         *
         * @throws io.qdrant.esgateway.domain.error.GatewayException {@code BACKEND_UNAVAILABLE}
         */
        default void checkHeld() {
        }

        /**
         * The deletion tombstones of {@code ids} shared by every process writing the index: each deleted document's
         * version, for the ids deleted less than their keep time ago (ids without one are left out).
         *
         * @throws io.qdrant.esgateway.domain.error.GatewayException {@code BACKEND_UNAVAILABLE}
         */
        Map<String, Long> tombstones(java.util.Collection<String> ids);

        /**
         * Records the tombstones of documents deleted in this turn (id to the delete's version), kept for {@code keep}
         * (Elasticsearch's {@code index.gc_deletes}), before the turn ends.
         *
         * @throws io.qdrant.esgateway.domain.error.GatewayException {@code BACKEND_UNAVAILABLE}: the deletes must not
         *         be acknowledged
         */
        void recordTombstones(Map<String, Long> deleted, java.time.Duration keep);

        @Override
        void close();
    }
}
