package io.qdrant.esgateway.adapter.out.lucene;

import static io.qdrant.esgateway.adapter.out.lucene.engine.IndexSlot.acquire;
import static io.qdrant.esgateway.adapter.out.lucene.engine.IndexSlot.discard;
import static io.qdrant.esgateway.adapter.out.lucene.engine.IndexSlot.lookup;
import static io.qdrant.esgateway.adapter.out.lucene.engine.StoreFiles.closeQuietly;
import static io.qdrant.esgateway.adapter.out.lucene.engine.StoreFiles.describe;
import static io.qdrant.esgateway.adapter.out.lucene.engine.StoreFiles.failure;
import static io.qdrant.esgateway.adapter.out.lucene.engine.StoreFiles.metadata;
import static io.qdrant.esgateway.adapter.out.lucene.engine.StoreFiles.sizeOnDisk;

import io.qdrant.esgateway.adapter.out.lucene.aggregation.LuceneAggregations;
import io.qdrant.esgateway.adapter.out.lucene.engine.IndexEngine;
import io.qdrant.esgateway.adapter.out.lucene.engine.IndexSlot;
import io.qdrant.esgateway.adapter.out.lucene.engine.IndexSlot.Acquired;
import io.qdrant.esgateway.adapter.out.lucene.engine.IndexSlot.IndexAction;
import io.qdrant.esgateway.adapter.out.lucene.engine.IndexSlot.StaleSlot;
import io.qdrant.esgateway.adapter.out.lucene.engine.RealtimeGet;
import io.qdrant.esgateway.adapter.out.lucene.search.LuceneSearch;
import io.qdrant.esgateway.adapter.out.lucene.translog.Translog;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import org.apache.lucene.index.IndexReader;

/**
 * The {@link io.qdrant.esgateway.application.port.out.DocumentStore} on Lucene: one index directory per concrete
 * index, named by its uuid, with one {@link IndexWriter} and one near-real-time {@link SearcherManager} kept open per
 * index once it is used.
 *
 * <p>Concurrency: every call holds the store's read lock, {@link #close()} its write lock, so closing waits for the
 * calls in flight. Each index has a slot with its own read-write lock: creating, opening and dropping an index take
 * its write lock, using it the read lock, so one index's lifecycle never blocks another's reads. A dropped slot is
 * retired (taken out of the map); a caller that waited on it looks the index up again. Within a slot, the
 * {@code writing} lock serialises the index's write batches and its searcher refreshes: a refresh therefore never
 * shows half a batch, and reads that need no refresh never wait for a write.
 *
 * <p>Each index's engine (create, recovery, writes with group commit, rollback, flush) is {@link IndexEngine}; this
 * class holds which indexes are open, the locks and the data directory's lock, and routes each port method to the
 * open index. Every {@link #FLUSH_INTERVAL} the open indexes whose translog holds writes are committed
 * ({@link #flushLogged}).
 *
 * <p>Visibility: real-time GET answers from {@code recent} (the documents written since the last refresh) and the
 * current searcher, with no refresh; searches, counts and stats refresh the searcher first when a write was applied
 * since the last refresh (once, however many writes came before; under {@code writing}, so never half a batch), so
 * they too see every acknowledged write. A batch that fails while being applied or logged is taken back whole: the
 * writer is discarded and the index recovered from the last commit and the log, which does not hold the batch.
 */
final class LuceneDocumentStore implements LuceneStores.Handle {
    private static final Logger LOG = Logger.getLogger(LuceneDocumentStore.class.getName());
    static final String INDICES = "indices";
    static final String LOCK_FILE = "store.lock";
    /** How often the store commits every index whose translog holds writes ({@link #flushLogged}). */
    static final Duration FLUSH_INTERVAL = Duration.ofSeconds(60);
    /** Index uuids are URL-safe base64 (IdGenerator); anything else could leave the indices directory. */
    private static final Pattern SAFE_UUID = Pattern.compile("[A-Za-z0-9_-]+");

    private final Path dataDirectory;
    private final Path indicesDirectory;
    private final IndexEngine engine;
    private final FileChannel lockChannel;
    private final FileLock dataLock;
    private final ConcurrentHashMap<String, IndexSlot> slots = new ConcurrentHashMap<>();
    private final ReentrantReadWriteLock storeLock = new ReentrantReadWriteLock();
    private boolean closed;
    /** Runs {@link #flushLogged} every {@link #FLUSH_INTERVAL} on one daemon thread; stopped by {@link #close()}. */
    private final ScheduledExecutorService flusher = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "qeg-lucene-flush");
        thread.setDaemon(true);
        return thread;
    });

    private LuceneDocumentStore(Path dataDirectory, IndexEngine.DirectoryFactory directories, Translog.Fsync fsync,
                                long flushThresholdBytes, FileChannel lockChannel, FileLock dataLock) {
        this.dataDirectory = dataDirectory;
        this.indicesDirectory = dataDirectory.resolve(INDICES);
        this.engine = new IndexEngine(indicesDirectory, directories, fsync, flushThresholdBytes);
        this.lockChannel = lockChannel;
        this.dataLock = dataLock;
        long interval = FLUSH_INTERVAL.toMillis();
        flusher.scheduleWithFixedDelay(this::flushLogged, interval, interval, TimeUnit.MILLISECONDS);
    }

    /**
     * The periodic flush: commits every open index whose current translog generation holds writes, so that the
     * translog stays short (a restart replays little) even on an index that never reaches
     * {@link IndexEngine#FLUSH_THRESHOLD_BYTES} ({@link IndexEngine#flushIfLogged}). Takes the locks a write takes, in
     * the same order.
     */
    void flushLogged() {
        storeLock.readLock().lock();
        try {
            if (closed) {
                return;
            }
            for (Map.Entry<String, IndexSlot> e : slots.entrySet()) {
                IndexSlot slot = e.getValue();
                slot.lock.readLock().lock();
                try {
                    if (!slot.usable()) {
                        continue;
                    }
                    engine.flushIfLogged(e.getKey(), slot);
                } finally {
                    slot.lock.readLock().unlock();
                }
            }
        } finally {
            storeLock.readLock().unlock();
        }
    }

    /**
     * Creates {@code <dataDirectory>/indices} if needed and locks the data directory for this store. The lock is an
     * OS file lock on {@code store.lock}: the OS drops it when the process dies, so a killed process leaves a file
     * behind but no lock.
     */
    static LuceneDocumentStore open(Path dataDirectory, IndexEngine.DirectoryFactory directories) {
        return open(dataDirectory, directories, Translog.Fsync.DEFAULT, IndexEngine.FLUSH_THRESHOLD_BYTES);
    }

    /** As above, with the translog's fsync and flush threshold given (tests make them fail or small). */
    static LuceneDocumentStore open(Path dataDirectory, IndexEngine.DirectoryFactory directories, Translog.Fsync fsync,
                                    long flushThresholdBytes) {
        Path data = dataDirectory.toAbsolutePath().normalize();
        String failure = "Lucene data directory [" + data + "] cannot be opened: ";
        if (Files.exists(data) && !Files.isDirectory(data)) {
            throw GatewayException.backendUnavailable(failure + "it is not a directory", null);
        }
        FileChannel channel = null;
        try {
            Files.createDirectories(data.resolve(INDICES));
            channel = FileChannel.open(data.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw new IOException("it is in use by another process");
            }
            return new LuceneDocumentStore(data, directories, fsync, flushThresholdBytes, channel, lock);
        } catch (OverlappingFileLockException e) {
            closeQuietly(channel);
            throw GatewayException.backendUnavailable(failure + "it is in use by another store of this process", e);
        } catch (IOException e) {
            closeQuietly(channel);
            throw GatewayException.backendUnavailable(failure + describe(e), e);
        }
    }

    @Override
    public Path dataDirectory() {
        return dataDirectory;
    }

    @Override
    public String name() {
        return "lucene";
    }

    @Override
    public void createIndex(IndexMetadata index) {
        String uuid = uuidOf(index);
        withClaimedSlot(uuid, slot -> {
            if (slot.writer != null) {
                throw GatewayException.alreadyExists(index.name(), uuid);
            }
            try {
                engine.create(index, slot);
            } catch (RuntimeException e) {
                retire(index, slot);
                throw e;
            }
        });
    }

    /**
     * Runs {@code action} on the index's live slot, holding the store open and the slot's write lock; a slot retired
     * meanwhile (dropped or failed) is replaced by a fresh one and the claim retried.
     */
    private void withClaimedSlot(String uuid, java.util.function.Consumer<IndexSlot> action) {
        storeLock.readLock().lock();
        try {
            requireOpen();
            while (true) {
                IndexSlot slot = slots.computeIfAbsent(uuid, k -> new IndexSlot());
                slot.lock.writeLock().lock();
                try {
                    if (slot.retired) {
                        continue;
                    }
                    action.accept(slot);
                    return;
                } finally {
                    slot.lock.writeLock().unlock();
                }
            }
        } finally {
            storeLock.readLock().unlock();
        }
    }

    @Override
    public void dropIndex(IndexMetadata index) {
        withClaimedSlot(uuidOf(index), slot -> {
            try {
                engine.drop(index, slot);
            } finally {
                retire(index, slot);
            }
        });
    }

    /**
     * Encodes the batch and its translog record (no lock held); then, holding the index's {@code writing} lock,
     * applies it to the writer in order, appends the record to the translog and makes the batch visible to real-time
     * GET ({@code recent}); then, without the lock, waits until the record is fsync'd (group commit: writers that
     * queue up meanwhile share one fsync). The writer is not committed here ({@link IndexEngine#apply}).
     *
     * <p>Order and visibility: batches are applied and logged in the same order under {@code writing}, so the log's
     * order is the index's. A batch is visible to reads once applied, before its fsync — as Elasticsearch's
     * real-time GET sees an operation before its translog sync. A crash before the fsync loses it, and its writer was
     * not acknowledged; a later batch is acknowledged only after its own fsync, which covers every earlier record.
     *
     * <p>Failures: a batch that fails while being applied or logged is taken back whole: the writer is thrown away
     * and the index recovered from its last commit and the translog (which does not hold the batch, or holds it
     * torn). A failed fsync leaves the log tragic and the slot broken: the next call opens the index again from disk
     * (the batch may or may not be there: it was not acknowledged).
     *
     * @throws GatewayException {@code ILLEGAL_ARGUMENT} for a value Lucene cannot index (an immense keyword; nothing
     *     is written), {@code BACKEND_UNAVAILABLE} when the disk fails, {@code BACKEND_FAILURE} otherwise
     */
    @Override
    public void write(IndexMetadata index, List<DocumentWrite> writes, long maxSeqNo) {
        apply(index, writes, maxSeqNo).await();
    }

    /**
     * {@link #write} up to the fsync: the returned {@link Durability} waits for it, holding no lock of the index but
     * the translog's own (see {@link Translog#sync}), so writers that a caller serialises can still share fsyncs.
     */
    @Override
    public Durability apply(IndexMetadata index, List<DocumentWrite> writes, long maxSeqNo) {
        uuidOf(index);
        IndexEngine.Encoded encoded = IndexEngine.encode(index, writes);
        return withIndex(index, (directory, slot) -> engine.apply(index, directory, slot, writes, encoded, maxSeqNo));
    }

    /** Real-time GET without a refresh (see {@link RealtimeGet}). */
    @Override
    public Map<String, StoredDocument> get(IndexMetadata index, Collection<String> ids) {
        Set<String> wanted = new LinkedHashSet<>(ids);
        return withIndex(index, (directory, slot) -> RealtimeGet.get(slot, wanted));
    }

    /** The value of the last write applied (or recovered from the last commit and the translog at open). */
    @Override
    public long maxSeqNo(IndexMetadata index) {
        return withIndex(index, (directory, slot) -> slot.maxSeqNo);
    }

    /** Runs the search on a searcher that has seen every acknowledged write (see {@link LuceneSearch}). */
    @Override
    public io.qdrant.esgateway.domain.search.IndexHits search(IndexMetadata index,
            io.qdrant.esgateway.domain.search.SearchRequest request, int topN) {
        return withIndex(index, (directory, slot) -> {
            try (Acquired acquired = acquire(slot)) {
                return LuceneSearch.search(acquired.reader(), index, request, topN);
            }
        });
    }

    /** Collects the aggregations natively on a current searcher (see {@link LuceneAggregations}). */
    @Override
    public io.qdrant.esgateway.domain.aggregation.NamedPartials aggregate(IndexMetadata index,
            io.qdrant.esgateway.domain.search.SearchRequest request,
            io.qdrant.esgateway.domain.aggregation.AggregationPlan plan) {
        return withIndex(index, (directory, slot) -> {
            try (Acquired acquired = acquire(slot)) {
                return LuceneAggregations.aggregate(acquired.reader(), index, request, plan);
            }
        });
    }

    /** See {@link LuceneSearch#CAPABILITIES}. */
    @Override
    public io.qdrant.esgateway.domain.plan.BackendCapabilities capabilities() {
        return LuceneSearch.CAPABILITIES;
    }

    @Override
    public void scan(IndexMetadata index, ScanRequest scan, java.util.function.Consumer<ScannedDocument> sink) {
        withIndex(index, (directory, slot) -> {
            try (Acquired acquired = acquire(slot)) {
                LuceneSearch.scan(acquired.reader(), index, scan, sink);
                return null;
            }
        });
    }

    @Override
    public List<io.qdrant.esgateway.domain.search.Hit> fetch(IndexMetadata index,
            io.qdrant.esgateway.domain.search.SearchRequest request, List<FetchRef> refs) {
        return withIndex(index, (directory, slot) -> {
            try (Acquired acquired = acquire(slot)) {
                Set<String> ids = new LinkedHashSet<>();
                refs.forEach(r -> ids.add(r.id()));
                Map<String, StoredDocument> found = lookup(acquired.reader(), ids);
                return LuceneSearch.fetch(acquired.reader(), index, request, refs, found);
            }
        });
    }

    @Override
    public long count(IndexMetadata index, java.util.Optional<io.qdrant.esgateway.domain.query.Query> query) {
        return withIndex(index, (directory, slot) -> {
            try (Acquired acquired = acquire(slot)) {
                return LuceneSearch.count(acquired.reader(), index, query);
            }
        });
    }

    /** Lucene needs nothing per field before documents arrive; the documents carry their own field types. */
    @Override
    public void updateMappings(IndexMetadata index) {
        uuidOf(index);
        storeLock.readLock().lock();
        try {
            requireOpen();
        } finally {
            storeLock.readLock().unlock();
        }
    }

    /**
     * Live and deleted documents as a searcher that has seen every acknowledged write counts them, and the bytes of
     * the index's files on disk.
     */
    @Override
    public StoreStats stats(IndexMetadata index) {
        return withIndex(index, (directory, slot) -> {
            try (Acquired acquired = acquire(slot)) {
                IndexReader reader = acquired.reader();
                return new StoreStats(reader.numDocs(), reader.numDeletedDocs(), sizeOnDisk(directory));
            }
        });
    }

    /** Usable means: the store is open and its indices directory exists and takes a new file. */
    @Override
    public void ping() {
        storeLock.readLock().lock();
        try {
            requireOpen();
            if (!Files.isDirectory(indicesDirectory)) {
                throw new NotDirectoryException(indicesDirectory.toString());
            }
            Files.delete(Files.createTempFile(indicesDirectory, ".ping-", ".tmp"));
        } catch (IOException e) {
            throw GatewayException.backendUnavailable("Lucene data directory [" + dataDirectory + "] is not usable: "
                    + describe(e), e);
        } finally {
            storeLock.readLock().unlock();
        }
    }

    @Override
    public void close() {
        flusher.shutdown(); // no interrupt: a commit in progress finishes, and the write lock below waits for it
        storeLock.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            for (Map.Entry<String, IndexSlot> e : slots.entrySet()) {
                engine.close(e.getKey(), e.getValue());
            }
            slots.clear();
            try {
                dataLock.release();
            } catch (IOException e) {
                LOG.log(Level.WARNING, "releasing the lock of [" + dataDirectory + "] failed", e);
            } finally {
                closeQuietly(lockChannel);
            }
        } finally {
            storeLock.writeLock().unlock();
        }
    }

    /** Runs {@code action} on the index's open state, opening the index from disk on first use or when broken. */
    private <T> T withIndex(IndexMetadata index, IndexAction<T> action) {
        String uuid = uuidOf(index);
        storeLock.readLock().lock();
        try {
            requireOpen();
            while (true) {
                IndexSlot slot = slots.computeIfAbsent(uuid, k -> new IndexSlot());
                slot.lock.readLock().lock();
                try {
                    if (slot.usable()) {
                        Path directory = indexDirectory(index);
                        try {
                            return action.apply(directory, slot);
                        } catch (StaleSlot stale) {
                            // opened again below
                        } catch (IOException e) {
                            throw failure("cannot read", index, directory, e);
                        } catch (GatewayException e) {
                            throw e;
                        } catch (org.apache.lucene.search.IndexSearcher.TooManyClauses e) {
                            // the request's query is too large, not the index: a 400 as in Elasticsearch
                            throw new GatewayException(ErrorKind.ILLEGAL_ARGUMENT,
                                    "Query contains too many nested clauses; maxClauseCount is set to "
                                            + org.apache.lucene.search.IndexSearcher.getMaxClauseCount());
                        } catch (RuntimeException e) {
                            // e.g. a stored document that does not decode: a damaged index or our bug
                            throw new GatewayException(ErrorKind.BACKEND_FAILURE, "cannot read the Lucene index of ["
                                    + index.name() + "/" + index.uuid() + "] in [" + directory + "]: "
                                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": "
                                    + e.getMessage()), metadata(index), e);
                        }
                    }
                } finally {
                    slot.lock.readLock().unlock();
                }
                slot.lock.writeLock().lock();
                try {
                    if (!slot.retired && !slot.usable()) {
                        discard(slot);
                        try {
                            engine.reopen(index, slot);
                        } catch (RuntimeException e) {
                            retire(index, slot);
                            throw e;
                        }
                    }
                } finally {
                    slot.lock.writeLock().unlock();
                }
            }
        } finally {
            storeLock.readLock().unlock();
        }
    }

    /** Holds a searcher that has seen every acknowledged write until the snapshot is closed. */
    @Override
    public Snapshot open(IndexMetadata index) {
        return new PinnedSnapshot(this, index, withIndex(index, (directory, slot) -> acquire(slot)));
    }

    private void retire(IndexMetadata index, IndexSlot slot) {
        slot.writer = null;
        slot.searchers = null;
        slot.translog = null;
        slot.directory = null;
        slot.retired = true;
        slots.remove(index.uuid(), slot);
    }

    private void requireOpen() {
        if (closed) {
            throw GatewayException.backendUnavailable("the Lucene store in [" + dataDirectory + "] is closed", null);
        }
    }

    private Path indexDirectory(IndexMetadata index) {
        return engine.indexDirectory(index);
    }

    private static String uuidOf(IndexMetadata index) {
        String uuid = index.uuid();
        if (uuid == null || !SAFE_UUID.matcher(uuid).matches()) {
            throw new IllegalArgumentException("index [" + index.name() + "] has uuid [" + uuid
                    + "], which is not URL-safe base64");
        }
        return uuid;
    }

}
