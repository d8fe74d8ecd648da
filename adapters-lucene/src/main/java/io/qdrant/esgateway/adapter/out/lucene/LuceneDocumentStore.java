package io.qdrant.esgateway.adapter.out.lucene;

import io.qdrant.esgateway.adapter.out.lucene.FieldEncoding.BrokenInvariant;
import io.qdrant.esgateway.adapter.out.lucene.FieldEncoding.RejectedValue;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
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
 * <p>Durability and visibility: a batch is applied to the writer and committed once (Lucene fsyncs the new files and
 * the commit point before {@code commit} returns), with the index's highest sequence number in the commit's user
 * data. The batch then marks the searcher dirty; the next read refreshes it (once, however many writes came before)
 * and so sees every acknowledged write. A batch that fails is rolled back: the writer is discarded and reopened on
 * the last commit, so no part of it is visible or durable.
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
        volatile long maxSeqNo = -1;
        /** A write committed since the searcher was last refreshed. */
        volatile boolean dirty;
        volatile boolean broken;
        boolean retired;

        boolean usable() {
            return writer != null && !broken;
        }
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
    private final FileChannel lockChannel;
    private final FileLock dataLock;
    private final ConcurrentHashMap<String, Slot> slots = new ConcurrentHashMap<>();
    private final ReentrantReadWriteLock storeLock = new ReentrantReadWriteLock();
    private boolean closed;

    private LuceneDocumentStore(Path dataDirectory, DirectoryFactory directories, FileChannel lockChannel,
                                FileLock dataLock) {
        this.dataDirectory = dataDirectory;
        this.indicesDirectory = dataDirectory.resolve(INDICES);
        this.directories = directories;
        this.lockChannel = lockChannel;
        this.dataLock = dataLock;
    }

    /**
     * Creates {@code <dataDirectory>/indices} if needed and locks the data directory for this store. The lock is an
     * OS file lock on {@code store.lock}: the OS drops it when the process dies, so a killed process leaves a file
     * behind but no lock.
     */
    static LuceneDocumentStore open(Path dataDirectory, DirectoryFactory directories) {
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
            return new LuceneDocumentStore(data, directories, channel, lock);
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
        try {
            lucene = directories.open(directory);
            writer = new IndexWriter(lucene, config(OpenMode.CREATE));
            writer.setLiveCommitData(commitData(-1).entrySet());
            writer.commit();
            IOUtils.fsync(indicesDirectory, true);
            install(slot, lucene, writer);
        } catch (IOException | RuntimeException e) {
            rollbackQuietly(writer);
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
     * Encodes the batch (no lock held), then, holding the index's {@code writing} lock, applies it in order and
     * commits once with the new highest sequence number. On any failure the writer is rolled back to the last
     * commit.
     *
     * @throws GatewayException {@code ILLEGAL_ARGUMENT} for a value Lucene cannot index (an immense keyword; nothing
     *     is written), {@code BACKEND_UNAVAILABLE} when the disk fails, {@code BACKEND_FAILURE} otherwise
     */
    @Override
    public void write(IndexMetadata index, List<DocumentWrite> writes, long maxSeqNo) {
        uuidOf(index);
        List<Document> documents = new ArrayList<>(writes.size());
        for (DocumentWrite write : writes) {
            try {
                documents.add(switch (write) {
                    case DocumentWrite.Upsert upsert -> FieldEncoding.encode(index.mappings(), upsert.document());
                    case DocumentWrite.Delete ignored -> null;
                });
            } catch (RejectedValue e) {
                throw new GatewayException(ErrorKind.ILLEGAL_ARGUMENT, e.getMessage(), metadata(index), e);
            } catch (BrokenInvariant e) {
                throw new GatewayException(ErrorKind.BACKEND_FAILURE, "cannot write to the Lucene index of ["
                        + index.name() + "/" + index.uuid() + "]: " + e.getMessage(), metadata(index), e);
            }
        }
        withIndex(index, (directory, slot) -> {
            slot.writing.lock();
            try {
                if (slot.broken) {
                    throw new StaleSlot();
                }
                long recorded = Math.max(slot.maxSeqNo, maxSeqNo);
                if (writes.isEmpty() && recorded == slot.maxSeqNo) {
                    return null;
                }
                IndexWriter writer = slot.writer;
                try {
                    for (int i = 0; i < writes.size(); i++) {
                        Term id = new Term(FieldEncoding.ID, writes.get(i).id());
                        Document document = documents.get(i);
                        if (document == null) {
                            writer.deleteDocuments(id);
                        } else {
                            writer.updateDocument(id, document);
                        }
                    }
                    writer.setLiveCommitData(commitData(recorded).entrySet());
                    writer.commit();
                } catch (IOException | RuntimeException e) {
                    GatewayException failure = writeFailure(index, directory, e);
                    try {
                        rollBack(slot);
                    } catch (IOException | RuntimeException rollback) {
                        LOG.log(Level.WARNING, "reopening the Lucene index [" + index.uuid()
                                + "] after a failed write failed; it is opened again on next use", rollback);
                        failure.addSuppressed(rollback);
                    }
                    throw failure;
                }
                slot.maxSeqNo = recorded;
                slot.dirty = true;
                return null;
            } finally {
                slot.writing.unlock();
            }
        });
    }

    /** Looks every id up in the {@code _id} terms of a searcher that has seen every acknowledged write. */
    @Override
    public Map<String, StoredDocument> get(IndexMetadata index, Collection<String> ids) {
        Set<String> wanted = new LinkedHashSet<>(ids);
        return withIndex(index, (directory, slot) -> {
            try (Acquired acquired = acquire(slot)) {
                return lookup(acquired.reader(), wanted);
            }
        });
    }

    /** The value the last successful write committed (or the last commit's, read when the index was opened). */
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
        storeLock.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            for (Map.Entry<String, Slot> e : slots.entrySet()) {
                Slot slot = e.getValue();
                try {
                    closeQuietly(slot.searchers);
                    if (slot.writer != null && !slot.broken) {
                        slot.writer.close();
                    }
                } catch (IOException | RuntimeException problem) {
                    LOG.log(Level.WARNING, "closing the Lucene index [" + e.getKey() + "] failed", problem);
                    rollbackQuietly(slot.writer);
                } finally {
                    if (slot.broken) {
                        rollbackQuietly(slot.writer);
                    }
                    closeQuietly(slot.directory);
                    slot.writer = null;
                    slot.searchers = null;
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
            install(slot, lucene, writer);
        } catch (IOException | RuntimeException e) {
            rollbackQuietly(writer);
            closeQuietly(lucene);
            retire(index, slot);
            throw e instanceof IOException io ? failure("cannot open", index, directory, io) : (RuntimeException) e;
        }
    }

    /** Makes a freshly opened writer the slot's, with a searcher on it and the sequence number of its commit. */
    private static void install(Slot slot, Directory lucene, IndexWriter writer) throws IOException {
        long maxSeqNo = committedMaxSeqNo(writer);
        SearcherManager searchers = new SearcherManager(writer, true, false, null);
        slot.directory = lucene;
        slot.writer = writer;
        slot.searchers = searchers;
        slot.maxSeqNo = maxSeqNo;
        slot.dirty = false;
        slot.broken = false;
    }

    /**
     * Throws away everything the writer holds since its last commit and carries on with a new writer on that commit
     * (caller holds {@code writing}). Until the new writer is in place the slot is broken, so if this fails the next
     * caller opens the index again.
     */
    private void rollBack(Slot slot) throws IOException {
        slot.broken = true;
        SearcherManager old = slot.searchers;
        rollbackQuietly(slot.writer);
        IndexWriter writer = new IndexWriter(slot.directory, config(OpenMode.APPEND));
        try {
            long maxSeqNo = committedMaxSeqNo(writer);
            SearcherManager searchers = new SearcherManager(writer, true, false, null);
            slot.writer = writer;
            slot.searchers = searchers;
            slot.maxSeqNo = maxSeqNo;
            slot.dirty = false;
            slot.broken = false;
        } catch (IOException | RuntimeException e) {
            rollbackQuietly(writer);
            throw e;
        }
        closeQuietly(old);
    }

    /** Closes a broken slot's writer, searcher and directory (caller holds the slot's write lock). */
    private static void discard(Slot slot) {
        closeQuietly(slot.searchers);
        rollbackQuietly(slot.writer);
        closeQuietly(slot.directory);
        slot.searchers = null;
        slot.writer = null;
        slot.directory = null;
        slot.broken = false;
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
                    long start = System.nanoTime();
                    slot.searchers.maybeRefreshBlocking();
                    slot.dirty = false;
                    if (LOG.isLoggable(Level.FINE)) {
                        LOG.fine("refreshed a Lucene searcher in " + (System.nanoTime() - start) / 1000 + " µs");
                    }
                }
            } catch (AlreadyClosedException e) {
                // Lucene closed the writer after a tragic error: open the index again
                slot.broken = true;
                throw new StaleSlot();
            } finally {
                slot.writing.unlock();
            }
        }
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
                        found.put(id, FieldEncoding.decode(stored.document(doc, FieldEncoding.STORED)));
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

    private static IndexWriterConfig config(OpenMode mode) {
        return new IndexWriterConfig(new StandardAnalyzer()).setOpenMode(mode).setCodec(new WideVectorCodec());
    }

    private static Map<String, String> commitData(long maxSeqNo) {
        Map<String, String> data = new LinkedHashMap<>();
        data.put(ENCODING, ENCODING_VERSION);
        if (maxSeqNo >= 0) {
            data.put(MAX_SEQ_NO, Long.toString(maxSeqNo));
        }
        return data;
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
