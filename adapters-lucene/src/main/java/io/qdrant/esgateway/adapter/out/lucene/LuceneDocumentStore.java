package io.qdrant.esgateway.adapter.out.lucene;

import io.qdrant.esgateway.adapter.out.lucene.encoding.FieldEncoding.BrokenInvariant;
import io.qdrant.esgateway.adapter.out.lucene.encoding.FieldEncoding.RejectedValue;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.concurrent.locks.StampedLock;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.IndexWriterConfig.OpenMode;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;
import io.qdrant.esgateway.adapter.out.lucene.aggregation.LuceneAggregations;
import io.qdrant.esgateway.adapter.out.lucene.engine.WideVectorCodec;
import io.qdrant.esgateway.adapter.out.lucene.translog.Translog;
import io.qdrant.esgateway.adapter.out.lucene.search.IndexAnalyzer;
import io.qdrant.esgateway.adapter.out.lucene.search.LuceneSearch;
import io.qdrant.esgateway.adapter.out.lucene.encoding.FieldEncoding;
import io.qdrant.esgateway.adapter.out.lucene.encoding.CompactJsonBytes;

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
 * <p>Durability: each index has a write-ahead log ({@link Translog}). A batch is applied to the writer and appended
 * to the log under {@code writing}, then fsync'd outside it (concurrent writers share one fsync); {@code write}
 * returns after that fsync. The writer is committed only when the log's generation passes
 * {@link #FLUSH_THRESHOLD_BYTES}, every {@link #FLUSH_INTERVAL} if the log holds anything ({@link #flushLogged}),
 * when the index is opened (after replaying the log) and on {@link #close()}; each
 * commit's user data holds the highest sequence number and the log generation that later writes go to, and the
 * older generations are deleted after it. Opening an index replays the log from that generation on into the writer
 * (a torn last record, a crash in the middle of an append, was never acknowledged and is skipped) and commits.
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
    /** Commit user data: the highest sequence number written, absent before the first write. */
    static final String MAX_SEQ_NO = "max_seq_no";
    /** Commit user data: the version of the field layout ({@link FieldEncoding}) the index was written with. */
    static final String ENCODING = "qeg_encoding";
    static final String ENCODING_VERSION = "1";
    /** Commit user data: the translog generation that writes after this commit went to ({@link Translog}). */
    static final String TRANSLOG_GENERATION = "translog_generation";
    /** A Lucene commit (and a fresh translog generation) once the current generation holds this many bytes. */
    static final long FLUSH_THRESHOLD_BYTES = 64L << 20;
    /**
     * Operations kept for real-time GET since the last refresh; past this many the write that crosses it refreshes
     * the searcher (which empties them), so the memory they hold stays bounded.
     */
    static final int RECENT_LIMIT = 10_000;
    /** How often the store commits every index whose translog holds writes ({@link #flushLogged}). */
    static final Duration FLUSH_INTERVAL = Duration.ofSeconds(60);
    /** Index uuids are URL-safe base64 (IdGenerator); anything else could leave the indices directory. */
    private static final Pattern SAFE_UUID = Pattern.compile("[A-Za-z0-9_-]+");

    /** Opens the Lucene {@link Directory} of one index; tests pass one that fails on purpose. */
    @FunctionalInterface
    interface DirectoryFactory {
        Directory open(Path path) throws IOException;
    }

    @FunctionalInterface
    private interface IndexAction<T> {
        T apply(Path directory, Slot slot) throws IOException;
    }

    /**
     * Thrown inside an index action when the slot's writer or searcher went away under it (a failed rollback, a
     * writer Lucene closed after a tragic error): the caller opens the index again and retries.
     */
    private static final class StaleSlot extends RuntimeException {
        StaleSlot() {
            super(null, null, false, false);
        }
    }

    /**
     * One index's open state. {@code directory}, {@code writer} and {@code searchers} are all set or all null; they
     * change only under the slot's write lock, except that a rollback (under the slot's read lock and
     * {@code writing}) swaps {@code writer} and {@code searchers} for fresh ones. {@code broken} means the writer is
     * unusable and the index must be opened again under the write lock.
     */
    private static final class Slot {
        final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
        final ReentrantLock writing = new ReentrantLock();
        Directory directory;
        volatile IndexWriter writer;
        volatile SearcherManager searchers;
        volatile Translog translog;
        /**
         * The document (null: deleted) each id got from the writes applied since the searcher was last refreshed:
         * what a real-time GET answers for those ids without a refresh. Changed only under {@code writing}, emptied
         * right after each refresh, so every applied write is here or in the current searcher.
         */
        final ConcurrentHashMap<String, Recent> recent = new ConcurrentHashMap<>();
        /**
         * Makes a batch's entries in {@code recent}, and a refresh's emptying of it, atomic for GET: writers take its
         * write lock for just those steps, GET validates an optimistic read over its whole lookup.
         */
        final StampedLock recentLock = new StampedLock();
        volatile long maxSeqNo = -1;
        /** A write applied since the searcher was last refreshed. */
        volatile boolean dirty;
        volatile boolean broken;
        boolean retired;

        boolean usable() {
            return writer != null && !broken;
        }
    }

    /**
     * The last write of an id not yet in the searcher: what a GET answers for it (its version and stored
     * {@code _source} bytes), both null for a delete. Not the Lucene document: an ingest keeps up to
     * {@link #RECENT_LIMIT} of these alive until the next refresh, and a Lucene document with its fields and terms is
     * several times larger, live data every young collection of the ingest copied again (docs/benchmarks/README.md,
     * "Write path").
     */
    private record Recent(DocumentVersion version, byte[] source) {
        static final Recent DELETED = new Recent(null, null);

        static Recent of(Translog.Op op) {
            return op instanceof Translog.Op.Upsert u ? new Recent(u.version(), u.source()) : DELETED;
        }
    }

    /** What {@link #recover} leaves: the writer holds every logged write, committed, and a fresh translog. */
    private record Recovered(Translog translog, long maxSeqNo) {
    }

    /** A searcher taken from a manager, given back to the same one. */
    private record Acquired(SearcherManager manager, IndexSearcher searcher) implements AutoCloseable {
        IndexReader reader() {
            return searcher.getIndexReader();
        }

        @Override
        public void close() throws IOException {
            manager.release(searcher);
        }
    }

    private final Path dataDirectory;
    private final Path indicesDirectory;
    private final DirectoryFactory directories;
    private final Translog.Fsync fsync;
    private final long flushThresholdBytes;
    private final FileChannel lockChannel;
    private final FileLock dataLock;
    private final ConcurrentHashMap<String, Slot> slots = new ConcurrentHashMap<>();
    private final ReentrantReadWriteLock storeLock = new ReentrantReadWriteLock();
    private boolean closed;
    /** Runs {@link #flushLogged} every {@link #FLUSH_INTERVAL} on one daemon thread; stopped by {@link #close()}. */
    private final ScheduledExecutorService flusher = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "qeg-lucene-flush");
        thread.setDaemon(true);
        return thread;
    });

    private LuceneDocumentStore(Path dataDirectory, DirectoryFactory directories, Translog.Fsync fsync,
                                long flushThresholdBytes, FileChannel lockChannel, FileLock dataLock) {
        this.dataDirectory = dataDirectory;
        this.indicesDirectory = dataDirectory.resolve(INDICES);
        this.directories = directories;
        this.fsync = fsync;
        this.flushThresholdBytes = flushThresholdBytes;
        this.lockChannel = lockChannel;
        this.dataLock = dataLock;
        long interval = FLUSH_INTERVAL.toMillis();
        flusher.scheduleWithFixedDelay(this::flushLogged, interval, interval, TimeUnit.MILLISECONDS);
    }

    /**
     * The periodic flush: commits every open index whose current translog generation holds writes, so that the
     * translog stays short (a restart replays little) even on an index that never reaches
     * {@link #FLUSH_THRESHOLD_BYTES}. Takes the locks a write takes, in the same order; a failure marks the index
     * broken (it is opened again from disk on next use), as after a write.
     */
    void flushLogged() {
        storeLock.readLock().lock();
        try {
            if (closed) {
                return;
            }
            for (Map.Entry<String, Slot> e : slots.entrySet()) {
                Slot slot = e.getValue();
                slot.lock.readLock().lock();
                try {
                    if (!slot.usable()) {
                        continue;
                    }
                    slot.writing.lock();
                    try {
                        Translog translog = slot.translog;
                        if (!slot.broken && translog != null && translog.sizeInBytes() > Translog.HEADER_BYTES) {
                            flush(slot);
                        }
                    } catch (IOException | RuntimeException problem) {
                        LOG.log(Level.WARNING, "the periodic commit of the Lucene index [" + e.getKey() + "] failed;"
                                + " it is opened again from its last commit and translog on next use", problem);
                        slot.broken = true;
                    } finally {
                        slot.writing.unlock();
                    }
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
    static LuceneDocumentStore open(Path dataDirectory, DirectoryFactory directories) {
        return open(dataDirectory, directories, Translog.Fsync.DEFAULT, FLUSH_THRESHOLD_BYTES);
    }

    /** As above, with the translog's fsync and flush threshold given (tests make them fail or small). */
    static LuceneDocumentStore open(Path dataDirectory, DirectoryFactory directories, Translog.Fsync fsync,
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
            create(index, slot);
        });
    }

    /**
     * Runs {@code action} on the index's live slot, holding the store open and the slot's write lock; a slot retired
     * meanwhile (dropped or failed) is replaced by a fresh one and the claim retried.
     */
    private void withClaimedSlot(String uuid, java.util.function.Consumer<Slot> action) {
        storeLock.readLock().lock();
        try {
            requireOpen();
            while (true) {
                Slot slot = slots.computeIfAbsent(uuid, k -> new Slot());
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

    /** Claims the index directory, commits an empty index in it and keeps its writer; on failure removes both. */
    private void create(IndexMetadata index, Slot slot) {
        Path directory = indexDirectory(index);
        try {
            Files.createDirectory(directory);
        } catch (FileAlreadyExistsException e) {
            retire(index, slot);
            throw GatewayException.alreadyExists(index.name(), index.uuid());
        } catch (IOException e) {
            retire(index, slot);
            throw failure("cannot create", index, directory, e);
        }
        Directory lucene = null;
        IndexWriter writer = null;
        Translog translog = null;
        try {
            lucene = directories.open(directory);
            writer = new IndexWriter(lucene, config(OpenMode.CREATE));
            writer.setLiveCommitData(commitData(-1, 1).entrySet());
            writer.commit();
            translog = Translog.create(directory, 1, fsync);
            IOUtils.fsync(indicesDirectory, true);
            install(slot, lucene, writer, new Recovered(translog, -1));
        } catch (IOException | RuntimeException e) {
            rollbackQuietly(writer);
            closeQuietly(translog);
            closeQuietly(lucene);
            try {
                deleteRecursively(directory);
            } catch (IOException | RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            retire(index, slot);
            throw e instanceof IOException io ? failure("cannot create", index, directory, io) : (RuntimeException) e;
        }
    }

    @Override
    public void dropIndex(IndexMetadata index) {
        withClaimedSlot(uuidOf(index), slot -> {
            Path directory = indexDirectory(index);
            try {
                closeQuietly(slot.searchers);
                rollbackQuietly(slot.writer);
                closeQuietly(slot.translog);
                closeQuietly(slot.directory);
                deleteRecursively(directory);
            } catch (IOException e) {
                throw failure("cannot delete", index, directory, e);
            } finally {
                retire(index, slot);
            }
        });
    }

    /**
     * Encodes the batch and its translog record (no lock held); then, holding the index's {@code writing} lock,
     * applies it to the writer in order, appends the record to the translog and makes the batch visible to real-time
     * GET ({@code recent}); then, without the lock, waits until the record is fsync'd (group commit: writers that
     * queue up meanwhile share one fsync). The writer is not committed here: see {@link #flush}.
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
        List<Document> documents = new ArrayList<>(writes.size());
        List<Translog.Op> ops = new ArrayList<>(writes.size());
        CompactJsonBytes sources = CompactJsonBytes.reusable();
        for (DocumentWrite write : writes) {
            try {
                switch (write) {
                    case DocumentWrite.Upsert upsert -> {
                        IndexableDocument doc = upsert.document();
                        // one array for the stored field and the log record: neither changes it
                        byte[] source = sources.write(doc.source());
                        documents.add(FieldEncoding.encode(index.mappings(), doc.id(), doc.version(), source,
                                doc.values()));
                        ops.add(new Translog.Op.Upsert(doc.id(), doc.version(), source, doc.values()));
                    }
                    case DocumentWrite.Delete delete -> {
                        documents.add(null);
                        ops.add(new Translog.Op.Delete(delete.id()));
                    }
                }
            } catch (RejectedValue e) {
                throw new GatewayException(ErrorKind.ILLEGAL_ARGUMENT, e.getMessage(), metadata(index), e);
            } catch (BrokenInvariant e) {
                throw new GatewayException(ErrorKind.BACKEND_FAILURE, "cannot write to the Lucene index of ["
                        + index.name() + "/" + index.uuid() + "]: " + e.getMessage(), metadata(index), e);
            }
        }
        Translog.Prepared prepared = Translog.prepare(ops);
        return withIndex(index, (directory, slot) -> {
            Translog translog;
            long position;
            slot.writing.lock();
            try {
                if (slot.broken) {
                    throw new StaleSlot();
                }
                long recorded = Math.max(slot.maxSeqNo, maxSeqNo);
                if (writes.isEmpty() && recorded == slot.maxSeqNo) {
                    return Durability.DONE;
                }
                translog = slot.translog;
                try {
                    apply(slot.writer, writes, documents);
                    position = translog.append(prepared, recorded);
                } catch (IOException | RuntimeException e) {
                    GatewayException failure = writeFailure(index, directory, e);
                    try {
                        rollBack(index, directory, slot);
                    } catch (IOException | RuntimeException rollback) {
                        LOG.log(Level.WARNING, "reopening the Lucene index [" + index.uuid()
                                + "] after a failed write failed; it is opened again on next use", rollback);
                        failure.addSuppressed(rollback);
                    }
                    throw failure;
                }
                long stamp = slot.recentLock.writeLock();
                try {
                    slot.maxSeqNo = recorded;
                    for (int i = 0; i < writes.size(); i++) {
                        slot.recent.put(writes.get(i).id(), Recent.of(ops.get(i)));
                    }
                    slot.dirty = true;
                } finally {
                    slot.recentLock.unlockWrite(stamp);
                }
                housekeeping(index, slot, translog);
            } finally {
                slot.writing.unlock();
            }
            return () -> {
                try {
                    translog.sync(position);
                } catch (IOException e) {
                    slot.broken = true;
                    throw writeFailure(index, directory, e);
                }
            };
        });
    }

    /**
     * Applies a batch's writes to the writer in order ({@code documents}: null for a delete). An upsert of an id the
     * caller knows to be absent ({@link DocumentWrite.Upsert#absent}) is added without a delete of its id: nothing
     * would match it, and the buffered delete term would be looked up in every segment at the next refresh.
     */
    private static void apply(IndexWriter writer, List<DocumentWrite> writes, List<Document> documents)
            throws IOException {
        for (int i = 0; i < writes.size(); i++) {
            DocumentWrite write = writes.get(i);
            Document document = documents.get(i);
            if (document == null) {
                writer.deleteDocuments(new Term(FieldEncoding.ID, write.id()));
            } else if (write instanceof DocumentWrite.Upsert upsert && upsert.absent()) {
                writer.addDocument(document);
            } else {
                writer.updateDocument(new Term(FieldEncoding.ID, write.id()), document);
            }
        }
    }

    /**
     * After a logged batch (caller holds {@code writing}): commits once the translog generation is past the flush
     * threshold, refreshes once {@code recent} is past its limit. A failure here does not fail the batch, which is
     * logged already: the slot is marked broken and the index opened again from disk on next use.
     */
    private void housekeeping(IndexMetadata index, Slot slot, Translog translog) {
        try {
            if (translog.sizeInBytes() >= flushThresholdBytes) {
                flush(slot);
            }
            if (slot.recent.size() > RECENT_LIMIT) {
                refresh(slot);
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "committing or refreshing the Lucene index [" + index.uuid() + "] failed; it is"
                    + " opened again from its last commit and translog on next use", e);
            slot.broken = true;
        }
    }

    /**
     * A Lucene commit of everything applied, recording the highest sequence number and the next translog
     * generation, then a roll to that (empty) generation, which deletes the older ones. Caller holds
     * {@code writing} (or owns the slot), so the commit holds exactly the logged batches.
     */
    private static void flush(Slot slot) throws IOException {
        Translog translog = slot.translog;
        long next = translog.generation() + 1;
        slot.writer.setLiveCommitData(commitData(slot.maxSeqNo, next).entrySet());
        slot.writer.commit();
        translog.roll(next);
    }

    /** Opens a new searcher on everything applied and forgets {@code recent}; caller holds {@code writing}. */
    private static void refresh(Slot slot) throws IOException {
        long start = System.nanoTime();
        slot.searchers.maybeRefreshBlocking();
        forgetRecent(slot);
        if (LOG.isLoggable(Level.FINE)) {
            LOG.fine("refreshed a Lucene searcher in " + (System.nanoTime() - start) / 1000 + " µs");
        }
    }

    /**
     * Replays into a writer just opened on the last commit every batch the translog holds from the generation that
     * commit names on, in log order, then commits the result and starts a new translog generation (deleting the
     * older ones). A torn last record (a crash in the middle of an append) is not replayed: it was never
     * acknowledged. Replay is idempotent: every operation replaces or deletes a whole document by id, so running it
     * again (a crash during recovery) ends in the same state; the recovered {@code max_seq_no} is the highest of the
     * commit's and the replayed batches'.
     */
    private Recovered recover(IndexMetadata index, Path directory, IndexWriter writer) throws IOException {
        long maxSeqNo = committedMaxSeqNo(writer);
        long generation = committedGeneration(writer);
        List<Translog.Batch> batches = Translog.read(directory, generation);
        for (Translog.Batch batch : batches) {
            for (Translog.Op op : batch.ops()) {
                Term id = new Term(FieldEncoding.ID, op.id());
                switch (op) {
                    case Translog.Op.Upsert u -> writer.updateDocument(id, FieldEncoding.encode(index.mappings(),
                            u.id(), u.version(), u.source(), u.values()));
                    case Translog.Op.Delete d -> writer.deleteDocuments(id);
                }
            }
            maxSeqNo = Math.max(maxSeqNo, batch.maxSeqNo());
        }
        var files = Translog.files(directory);
        long next = Math.max(generation, files.isEmpty() ? 0 : files.lastKey()) + 1;
        writer.setLiveCommitData(commitData(maxSeqNo, next).entrySet());
        writer.commit();
        Translog translog = Translog.create(directory, next, fsync);
        try {
            Translog.deleteOlderThan(directory, next);
        } catch (IOException e) {
            translog.close();
            throw e;
        }
        if (!batches.isEmpty()) {
            LOG.info("recovered " + batches.size() + " write batches of the Lucene index [" + index.uuid()
                    + "] from its translog");
        }
        return new Recovered(translog, maxSeqNo);
    }

    /**
     * Real-time GET without a refresh: an id written since the last refresh is answered from {@code recent} (the
     * Lucene document that write applied, decoded as a stored one would be), every other id from the current
     * searcher, which holds every write before that refresh. The lookup is validated against {@code recentLock}: if a
     * batch or a refresh changed {@code recent} meanwhile it is done again (after a few tries, holding the read
     * lock), so a GET of several ids never sees half a batch.
     */
    @Override
    public Map<String, StoredDocument> get(IndexMetadata index, Collection<String> ids) {
        Set<String> wanted = new LinkedHashSet<>(ids);
        return withIndex(index, (directory, slot) -> {
            for (int attempt = 0; ; attempt++) {
                boolean locked = attempt >= 3;
                long stamp = locked ? slot.recentLock.readLock() : slot.recentLock.tryOptimisticRead();
                try {
                    Map<String, Recent> fromRecent = new HashMap<>();
                    Set<String> rest = new LinkedHashSet<>();
                    for (String id : wanted) {
                        Recent recent = slot.recent.get(id);
                        if (recent != null) {
                            fromRecent.put(id, recent);
                        } else {
                            rest.add(id);
                        }
                    }
                    Map<String, StoredDocument> found = Map.of();
                    if (!rest.isEmpty()) {
                        try (Acquired acquired = current(slot)) {
                            found = lookup(acquired.reader(), rest);
                        }
                    }
                    if (!locked && !slot.recentLock.validate(stamp)) {
                        continue;
                    }
                    Map<String, StoredDocument> ordered = new LinkedHashMap<>();
                    for (String id : wanted) {
                        Recent recent = fromRecent.get(id);
                        StoredDocument document = recent == null ? found.get(id)
                                : recent.source() == null ? null
                                : FieldEncoding.decodeForAnswer(id, recent.version(), recent.source());
                        if (document != null) {
                            ordered.put(id, document);
                        }
                    }
                    return ordered;
                } finally {
                    if (locked) {
                        slot.recentLock.unlockRead(stamp);
                    }
                }
            }
        });
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
            for (Map.Entry<String, Slot> e : slots.entrySet()) {
                Slot slot = e.getValue();
                boolean committed = false;
                try {
                    closeQuietly(slot.searchers);
                    if (slot.writer != null && !slot.broken) {
                        flush(slot);
                        committed = true;
                        slot.writer.close();
                    }
                } catch (IOException | RuntimeException problem) {
                    LOG.log(Level.WARNING, "closing the Lucene index [" + e.getKey() + "] failed; its translog is"
                            + " replayed on next open", problem);
                    rollbackQuietly(slot.writer);
                } finally {
                    if (slot.broken) {
                        rollbackQuietly(slot.writer);
                    }
                    closeTranslog(slot.translog, committed);
                    closeQuietly(slot.directory);
                    slot.writer = null;
                    slot.searchers = null;
                    slot.translog = null;
                    slot.directory = null;
                    slot.retired = true;
                }
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
                Slot slot = slots.computeIfAbsent(uuid, k -> new Slot());
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
                        reopen(index, slot);
                    }
                } finally {
                    slot.lock.writeLock().unlock();
                }
            }
        } finally {
            storeLock.readLock().unlock();
        }
    }

    /** Opens an index an earlier call or process created; never creates one. */
    private void reopen(IndexMetadata index, Slot slot) {
        Path directory = indexDirectory(index);
        if (!Files.isDirectory(directory)) {
            retire(index, slot);
            throw new GatewayException(ErrorKind.BACKEND_FAILURE, "the Lucene index of [" + index.name() + "/"
                    + index.uuid() + "] is missing from [" + indicesDirectory + "]", metadata(index), null);
        }
        Directory lucene = null;
        IndexWriter writer = null;
        try {
            lucene = directories.open(directory);
            writer = new IndexWriter(lucene, config(OpenMode.APPEND));
            install(slot, lucene, writer, recover(index, directory, writer));
        } catch (IOException | RuntimeException e) {
            rollbackQuietly(writer);
            closeQuietly(lucene);
            retire(index, slot);
            throw e instanceof IOException io ? failure("cannot open", index, directory, io) : (RuntimeException) e;
        }
    }

    /**
     * Makes a freshly opened (and recovered) writer the slot's, with a searcher on it, its translog and its sequence
     * number. On failure the translog is closed.
     */
    private static void install(Slot slot, Directory lucene, IndexWriter writer, Recovered recovered)
            throws IOException {
        SearcherManager searchers;
        try {
            searchers = new SearcherManager(writer, true, false, null);
        } catch (IOException | RuntimeException e) {
            closeQuietly(recovered.translog());
            throw e;
        }
        slot.directory = lucene;
        slot.writer = writer;
        slot.searchers = searchers;
        slot.translog = recovered.translog();
        slot.maxSeqNo = recovered.maxSeqNo();
        forgetRecent(slot);
        slot.broken = false;
    }

    /**
     * Throws away everything the writer holds since its last commit and carries on with a new writer on that commit
     * and the translog replayed into it ({@link #recover}), i.e. every logged batch and not the one that failed
     * (caller holds {@code writing}). Until the new writer is in place the slot is broken, so if this fails the next
     * caller opens the index again.
     */
    private void rollBack(IndexMetadata index, Path directory, Slot slot) throws IOException {
        slot.broken = true;
        SearcherManager old = slot.searchers;
        Translog oldLog = slot.translog;
        rollbackQuietly(slot.writer);
        IndexWriter writer = new IndexWriter(slot.directory, config(OpenMode.APPEND));
        try {
            install(slot, slot.directory, writer, recover(index, directory, writer));
        } catch (IOException | RuntimeException e) {
            rollbackQuietly(writer);
            throw e;
        }
        closeQuietly(old);
        try {
            oldLog.closeCommitted();
        } catch (IOException e) {
            LOG.log(Level.FINE, "closing a replaced translog failed", e);
        }
    }

    /** Closes a translog; writers still waiting on it succeed only if {@code committed} holds all of it. */
    private static void closeTranslog(Translog translog, boolean committed) {
        if (translog == null) {
            return;
        }
        try {
            if (committed) {
                translog.closeCommitted();
            } else {
                translog.close();
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "closing a translog failed", e);
        }
    }

    /** Closes a broken slot's writer, searcher and directory (caller holds the slot's write lock). */
    private static void discard(Slot slot) {
        closeQuietly(slot.searchers);
        rollbackQuietly(slot.writer);
        closeQuietly(slot.translog);
        closeQuietly(slot.directory);
        slot.searchers = null;
        slot.writer = null;
        slot.translog = null;
        slot.directory = null;
        slot.broken = false;
    }

    /** Empties {@code recent} once the searcher has every write in it (caller holds {@code writing}). */
    private static void forgetRecent(Slot slot) {
        long stamp = slot.recentLock.writeLock();
        try {
            slot.recent.clear();
            slot.dirty = false;
        } finally {
            slot.recentLock.unlockWrite(stamp);
        }
    }

    /**
     * A searcher that has seen every write acknowledged so far. It is refreshed only when a write committed since
     * the last refresh, under {@code writing}, so no batch in flight becomes visible.
     */
    private static Acquired acquire(Slot slot) throws IOException {
        if (slot.dirty) {
            slot.writing.lock();
            try {
                if (slot.broken) {
                    throw new StaleSlot();
                }
                if (slot.dirty) {
                    refresh(slot);
                }
            } catch (AlreadyClosedException e) {
                // Lucene closed the writer after a tragic error: open the index again
                slot.broken = true;
                throw new StaleSlot();
            } finally {
                slot.writing.unlock();
            }
        }
        return current(slot);
    }

    /** Holds a searcher that has seen every acknowledged write until the snapshot is closed. */
    @Override
    public Snapshot open(IndexMetadata index) {
        return new Pinned(index, withIndex(index, (directory, slot) -> acquire(slot)));
    }

    /** A held searcher, read as a store; writes are not for it. */
    private final class Pinned implements Snapshot, io.qdrant.esgateway.application.port.out.DocumentStore {
        private final IndexMetadata pinned;
        private final Acquired acquired;
        private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

        Pinned(IndexMetadata pinned, Acquired acquired) {
            this.pinned = pinned;
            this.acquired = acquired;
        }

        @Override
        public io.qdrant.esgateway.application.port.out.DocumentStore reads() {
            return this;
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                try {
                    acquired.close();
                } catch (IOException | AlreadyClosedException e) {
                    // the index was closed meanwhile: nothing left to release
                }
            }
        }

        private <T> T read(IndexAction<T> action) {
            if (closed.get()) {
                throw new GatewayException(ErrorKind.BACKEND_FAILURE, "the snapshot of [" + pinned.name()
                        + "] is closed", metadata(pinned), null);
            }
            try {
                return action.apply(null, null);
            } catch (IOException | AlreadyClosedException e) {
                throw new GatewayException(ErrorKind.BACKEND_FAILURE, "cannot read the snapshot of ["
                        + pinned.name() + "/" + pinned.uuid() + "]: " + e.getMessage(), metadata(pinned), e);
            } catch (org.apache.lucene.search.IndexSearcher.TooManyClauses e) {
                throw new GatewayException(ErrorKind.ILLEGAL_ARGUMENT,
                        "Query contains too many nested clauses; maxClauseCount is set to "
                                + org.apache.lucene.search.IndexSearcher.getMaxClauseCount());
            }
        }

        @Override
        public io.qdrant.esgateway.domain.search.IndexHits search(IndexMetadata index,
                io.qdrant.esgateway.domain.search.SearchRequest request, int topN) {
            return read((d, s) -> LuceneSearch.search(acquired.reader(), index, request, topN));
        }

        @Override
        public io.qdrant.esgateway.domain.aggregation.NamedPartials aggregate(IndexMetadata index,
                io.qdrant.esgateway.domain.search.SearchRequest request,
                io.qdrant.esgateway.domain.aggregation.AggregationPlan plan) {
            return read((d, s) -> LuceneAggregations.aggregate(acquired.reader(), index, request, plan));
        }

        @Override
        public void scan(IndexMetadata index, ScanRequest scan, java.util.function.Consumer<ScannedDocument> sink) {
            read((d, s) -> {
                LuceneSearch.scan(acquired.reader(), index, scan, sink);
                return null;
            });
        }

        @Override
        public List<io.qdrant.esgateway.domain.search.Hit> fetch(IndexMetadata index,
                io.qdrant.esgateway.domain.search.SearchRequest request, List<FetchRef> refs) {
            return read((d, s) -> {
                Set<String> ids = new LinkedHashSet<>();
                refs.forEach(r -> ids.add(r.id()));
                return LuceneSearch.fetch(acquired.reader(), index, request, refs, lookup(acquired.reader(), ids));
            });
        }

        @Override
        public long count(IndexMetadata index, java.util.Optional<io.qdrant.esgateway.domain.query.Query> query) {
            return read((d, s) -> LuceneSearch.count(acquired.reader(), index, query));
        }

        @Override
        public Map<String, StoredDocument> get(IndexMetadata index, Collection<String> ids) {
            return read((d, s) -> lookup(acquired.reader(), new LinkedHashSet<>(ids)));
        }

        @Override
        public io.qdrant.esgateway.domain.plan.BackendCapabilities capabilities() {
            return LuceneSearch.CAPABILITIES;
        }

        @Override
        public long maxSeqNo(IndexMetadata index) {
            return LuceneDocumentStore.this.maxSeqNo(index);
        }

        @Override
        public StoreStats stats(IndexMetadata index) {
            return LuceneDocumentStore.this.stats(index);
        }

        @Override
        public void ping() {
            LuceneDocumentStore.this.ping();
        }

        @Override
        public String name() {
            return LuceneDocumentStore.this.name();
        }

        @Override
        public void createIndex(IndexMetadata index) {
            throw new UnsupportedOperationException("a snapshot does not write");
        }

        @Override
        public void dropIndex(IndexMetadata index) {
            throw new UnsupportedOperationException("a snapshot does not write");
        }

        @Override
        public void updateMappings(IndexMetadata index) {
            throw new UnsupportedOperationException("a snapshot does not write");
        }

        @Override
        public void write(IndexMetadata index, List<DocumentWrite> writes, long maxSeqNo) {
            throw new UnsupportedOperationException("a snapshot does not write");
        }
    }

    /** The current searcher, without a refresh: it misses the writes since the last one. */
    private static Acquired current(Slot slot) throws IOException {
        SearcherManager manager = slot.searchers;
        try {
            return new Acquired(manager, manager.acquire());
        } catch (AlreadyClosedException e) {
            // a rollback replaced the manager meanwhile; if not, the slot is unusable and must be opened again
            if (slot.searchers == manager) {
                slot.broken = true;
            }
            throw new StaleSlot();
        }
    }

    /** The live documents with these ids, in the order asked. */
    private static Map<String, StoredDocument> lookup(IndexReader reader, Set<String> ids) throws IOException {
        Map<String, StoredDocument> found = new HashMap<>();
        for (LeafReaderContext context : reader.leaves()) {
            LeafReader leaf = context.reader();
            Terms terms = leaf.terms(FieldEncoding.ID);
            if (terms == null) {
                continue;
            }
            TermsEnum termsEnum = terms.iterator();
            Bits live = leaf.getLiveDocs();
            StoredFields stored = leaf.storedFields();
            PostingsEnum postings = null;
            for (String id : ids) {
                if (found.containsKey(id) || !termsEnum.seekExact(new BytesRef(id))) {
                    continue;
                }
                postings = termsEnum.postings(postings, PostingsEnum.NONE);
                for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
                    if (live == null || live.get(doc)) {
                        found.put(id, FieldEncoding.decodeForAnswer(stored.document(doc, FieldEncoding.STORED)));
                        break;
                    }
                }
            }
            if (found.size() == ids.size()) {
                break;
            }
        }
        Map<String, StoredDocument> ordered = new LinkedHashMap<>();
        for (String id : ids) {
            StoredDocument document = found.get(id);
            if (document != null) {
                ordered.put(id, document);
            }
        }
        return ordered;
    }

    static IndexWriterConfig config(OpenMode mode) {
        // a refresh opens the searcher without waiting for merges of the small segments it flushed (Lucene's default
        // waits up to 500 ms for them): merges run in the background; a refresh after a single write was 27 ms at p90
        // instead of 30-66 ms with the wait (docs/benchmarks/README.md, "Write path")
        return new IndexWriterConfig(new IndexAnalyzer()).setOpenMode(mode).setCodec(new WideVectorCodec())
                .setMaxFullFlushMergeWaitMillis(0);
    }

    private static Map<String, String> commitData(long maxSeqNo, long translogGeneration) {
        Map<String, String> data = new LinkedHashMap<>();
        data.put(ENCODING, ENCODING_VERSION);
        if (maxSeqNo >= 0) {
            data.put(MAX_SEQ_NO, Long.toString(maxSeqNo));
        }
        data.put(TRANSLOG_GENERATION, Long.toString(translogGeneration));
        return data;
    }

    /**
     * The translog generation the commit a writer was opened on names (writes after it are there and in later
     * generations); 0 for an index committed before there was a translog, which has no translog files.
     */
    private static long committedGeneration(IndexWriter writer) throws IOException {
        Iterable<Map.Entry<String, String>> data = writer.getLiveCommitData();
        if (data != null) {
            for (Map.Entry<String, String> e : data) {
                if (TRANSLOG_GENERATION.equals(e.getKey())) {
                    try {
                        return Long.parseLong(e.getValue());
                    } catch (NumberFormatException bad) {
                        throw new CorruptIndexException("commit user data [" + TRANSLOG_GENERATION + "] is ["
                                + e.getValue() + "], not a number", "segments");
                    }
                }
            }
        }
        return 0;
    }

    /** The sequence number in the user data of the commit a writer was opened on; -1 if none was recorded. */
    private static long committedMaxSeqNo(IndexWriter writer) throws IOException {
        Iterable<Map.Entry<String, String>> data = writer.getLiveCommitData();
        if (data == null) {
            return -1;
        }
        for (Map.Entry<String, String> e : data) {
            if (MAX_SEQ_NO.equals(e.getKey())) {
                try {
                    return Long.parseLong(e.getValue());
                } catch (NumberFormatException bad) {
                    throw new CorruptIndexException("commit user data [" + MAX_SEQ_NO + "] is [" + e.getValue()
                            + "], not a number", "segments");
                }
            }
        }
        return -1;
    }

    private void retire(IndexMetadata index, Slot slot) {
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
        return indicesDirectory.resolve(index.uuid());
    }

    private static String uuidOf(IndexMetadata index) {
        String uuid = index.uuid();
        if (uuid == null || !SAFE_UUID.matcher(uuid).matches()) {
            throw new IllegalArgumentException("index [" + index.name() + "] has uuid [" + uuid
                    + "], which is not URL-safe base64");
        }
        return uuid;
    }

    /** A damaged index is a backend fault; any other I/O problem means the disk cannot serve us now. */
    private static GatewayException failure(String what, IndexMetadata index, Path directory, IOException e) {
        boolean damaged = e instanceof CorruptIndexException || e instanceof IndexFormatTooOldException
                || e instanceof IndexFormatTooNewException;
        return new GatewayException(damaged ? ErrorKind.BACKEND_FAILURE : ErrorKind.BACKEND_UNAVAILABLE,
                what + " the Lucene index of [" + index.name() + "/" + index.uuid() + "] in [" + directory + "]: "
                        + describe(e), metadata(index), e);
    }

    /** I/O problems as {@link #failure}; anything Lucene refuses (it should not: the batch was checked) is ours. */
    private static GatewayException writeFailure(IndexMetadata index, Path directory, Exception e) {
        if (e instanceof IOException io) {
            return failure("cannot write to", index, directory, io);
        }
        return new GatewayException(ErrorKind.BACKEND_FAILURE, "cannot write to the Lucene index of [" + index.name()
                + "/" + index.uuid() + "] in [" + directory + "]: " + e.getClass().getSimpleName()
                + (e.getMessage() == null ? "" : ": " + e.getMessage()), metadata(index), e);
    }

    private static Map<String, String> metadata(IndexMetadata index) {
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("index_uuid", index.uuid());
        meta.put("index", index.name());
        return meta;
    }

    private static String describe(IOException e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    /** The bytes of the files in the index directory; files a merge deletes meanwhile count as gone. */
    private static long sizeOnDisk(Path directory) throws IOException {
        long total = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (Path file : files) {
                try {
                    total += Files.size(file);
                } catch (NoSuchFileException gone) {
                    // deleted by a merge after the listing
                }
            }
        }
        return total;
    }

    private static void deleteRecursively(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        Files.walkFileTree(directory, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
                if (failure != null) {
                    throw failure;
                }
                Files.deleteIfExists(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static void rollbackQuietly(IndexWriter writer) {
        if (writer == null) {
            return;
        }
        try {
            writer.rollback();
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "rolling back a Lucene writer failed", e);
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            LOG.log(Level.FINE, "closing " + closeable + " failed", e);
        }
    }
}
