package io.qdrant.esgateway.adapter.out.lucene.engine;

import static io.qdrant.esgateway.adapter.out.lucene.engine.IndexSlot.closeTranslog;
import static io.qdrant.esgateway.adapter.out.lucene.engine.IndexSlot.flush;
import static io.qdrant.esgateway.adapter.out.lucene.engine.IndexSlot.forgetRecent;
import static io.qdrant.esgateway.adapter.out.lucene.engine.IndexSlot.refresh;
import static io.qdrant.esgateway.adapter.out.lucene.engine.StoreFiles.closeQuietly;
import static io.qdrant.esgateway.adapter.out.lucene.engine.StoreFiles.commitData;
import static io.qdrant.esgateway.adapter.out.lucene.engine.StoreFiles.committedGeneration;
import static io.qdrant.esgateway.adapter.out.lucene.engine.StoreFiles.committedMaxSeqNo;
import static io.qdrant.esgateway.adapter.out.lucene.engine.StoreFiles.deleteRecursively;
import static io.qdrant.esgateway.adapter.out.lucene.engine.StoreFiles.failure;
import static io.qdrant.esgateway.adapter.out.lucene.engine.StoreFiles.metadata;
import static io.qdrant.esgateway.adapter.out.lucene.engine.StoreFiles.rollbackQuietly;
import static io.qdrant.esgateway.adapter.out.lucene.engine.StoreFiles.writeFailure;

import io.qdrant.esgateway.adapter.out.lucene.encoding.CompactJsonBytes;
import io.qdrant.esgateway.adapter.out.lucene.encoding.FieldEncoding;
import io.qdrant.esgateway.adapter.out.lucene.encoding.FieldEncoding.BrokenInvariant;
import io.qdrant.esgateway.adapter.out.lucene.encoding.FieldEncoding.RejectedValue;
import io.qdrant.esgateway.adapter.out.lucene.engine.IndexSlot.Recent;
import io.qdrant.esgateway.adapter.out.lucene.engine.IndexSlot.StaleSlot;
import io.qdrant.esgateway.adapter.out.lucene.search.IndexAnalyzer;
import io.qdrant.esgateway.adapter.out.lucene.translog.Translog;
import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite;
import io.qdrant.esgateway.application.port.out.DocumentWrites.Durability;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.IndexWriterConfig.OpenMode;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.IOUtils;

/**
 * The per-index engine of the Lucene store: creating an index, opening it again from disk (recovery: the last commit
 * and the translog replayed into it), applying write batches with group commit, rolling back a batch that failed,
 * flushing (a Lucene commit and a fresh translog generation) and closing. It works on one {@link IndexSlot} at a time;
 * which slots exist and the locks that make a slot the caller's are the store's.
 *
 * <p>Durability: each index has a write-ahead log ({@link Translog}). A batch is applied to the writer and appended
 * to the log under {@code writing}, then fsync'd outside it (concurrent writers share one fsync); a write returns
 * after that fsync. The writer is committed only when the log's generation passes {@link #FLUSH_THRESHOLD_BYTES},
 * periodically if the log holds anything ({@link #flushIfLogged}), when the index is opened (after replaying the log)
 * and on close; each commit's user data holds the highest sequence number and the log generation that later writes go
 * to, and the older generations are deleted after it. Opening an index replays the log from that generation on into
 * the writer (a torn last record, a crash in the middle of an append, was never acknowledged and is skipped) and
 * commits.
 */
public final class IndexEngine {
    private static final Logger LOG = Logger.getLogger(IndexEngine.class.getName());
    /** Commit user data: the highest sequence number written, absent before the first write. */
    public static final String MAX_SEQ_NO = "max_seq_no";
    /** Commit user data: the version of the field layout ({@link FieldEncoding}) the index was written with. */
    public static final String ENCODING = "qeg_encoding";
    public static final String ENCODING_VERSION = "1";
    /** Commit user data: the translog generation that writes after this commit went to ({@link Translog}). */
    public static final String TRANSLOG_GENERATION = "translog_generation";
    /** A Lucene commit (and a fresh translog generation) once the current generation holds this many bytes. */
    public static final long FLUSH_THRESHOLD_BYTES = 64L << 20;
    /**
     * Operations kept for real-time GET since the last refresh; past this many the write that crosses it refreshes
     * the searcher (which empties them), so the memory they hold stays bounded.
     */
    public static final int RECENT_LIMIT = 10_000;

    /** Opens the Lucene {@link Directory} of one index; tests pass one that fails on purpose. */
    @FunctionalInterface
    public interface DirectoryFactory {
        Directory open(Path path) throws IOException;
    }

    /**
     * What {@link #recover} leaves: the writer holds every logged write, committed, and a fresh translog; whether the
     * index's {@code _routing} is stored only ({@link FieldEncoding#routingStoredOnly}).
     */
    private record Recovered(Translog translog, long maxSeqNo, boolean routingStoredOnly) {
    }

    /** A batch encoded before any lock is taken: its Lucene documents (null: a delete) and its translog record. */
    public record Encoded(List<Document> documents, List<Translog.Op> ops, Translog.Prepared prepared) {
    }

    private final Path indicesDirectory;
    private final DirectoryFactory directories;
    private final Translog.Fsync fsync;
    private final long flushThresholdBytes;

    public IndexEngine(Path indicesDirectory, DirectoryFactory directories, Translog.Fsync fsync,
                       long flushThresholdBytes) {
        this.indicesDirectory = indicesDirectory;
        this.directories = directories;
        this.fsync = fsync;
        this.flushThresholdBytes = flushThresholdBytes;
    }

    /** The directory of the index's files, named by its uuid. */
    public Path indexDirectory(IndexMetadata index) {
        return indicesDirectory.resolve(index.uuid());
    }

    public static IndexWriterConfig config(OpenMode mode) {
        // a refresh opens the searcher without waiting for merges of the small segments it flushed (Lucene's default
        // waits up to 500 ms for them): merges run in the background; a refresh after a single write was 27 ms at p90
        // instead of 30-66 ms with the wait (docs/benchmarks/README.md, "Write path")
        return new IndexWriterConfig(new IndexAnalyzer()).setOpenMode(mode).setCodec(new WideVectorCodec())
                .setMaxFullFlushMergeWaitMillis(0);
    }

    // ---------------------------------------------------------------- lifecycle

    /**
     * Claims the index directory, commits an empty index in it and makes its writer the slot's (caller holds the
     * slot's write lock); on failure removes the directory, and the caller retires the slot.
     */
    public void create(IndexMetadata index, IndexSlot slot) {
        Path directory = indexDirectory(index);
        try {
            Files.createDirectory(directory);
        } catch (FileAlreadyExistsException e) {
            throw GatewayException.alreadyExists(index.name(), index.uuid());
        } catch (IOException e) {
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
            install(slot, lucene, writer, new Recovered(translog, -1, false));
        } catch (IOException | RuntimeException e) {
            rollbackQuietly(writer);
            closeQuietly(translog);
            closeQuietly(lucene);
            try {
                deleteRecursively(directory);
            } catch (IOException | RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e instanceof IOException io ? failure("cannot create", index, directory, io) : (RuntimeException) e;
        }
    }

    /**
     * Closes the slot's writer (discarding what it holds since its last commit), searcher, translog and directory,
     * and deletes the index's files (caller holds the slot's write lock and retires the slot).
     */
    public void drop(IndexMetadata index, IndexSlot slot) {
        Path directory = indexDirectory(index);
        try {
            closeQuietly(slot.searchers);
            rollbackQuietly(slot.writer);
            closeQuietly(slot.translog);
            closeQuietly(slot.directory);
            deleteRecursively(directory);
        } catch (IOException e) {
            throw failure("cannot delete", index, directory, e);
        }
    }

    /**
     * Opens an index an earlier call or process created, recovering it from its last commit and translog; never
     * creates one (caller holds the slot's write lock; on failure it retires the slot).
     */
    public void reopen(IndexMetadata index, IndexSlot slot) {
        Path directory = indexDirectory(index);
        if (!Files.isDirectory(directory)) {
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
            throw e instanceof IOException io ? failure("cannot open", index, directory, io) : (RuntimeException) e;
        }
    }

    /**
     * Makes a freshly opened (and recovered) writer the slot's, with a searcher on it, its translog and its sequence
     * number. On failure the translog is closed.
     */
    private static void install(IndexSlot slot, Directory lucene, IndexWriter writer, Recovered recovered)
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
        slot.routingStoredOnly = recovered.routingStoredOnly();
        forgetRecent(slot);
        slot.broken = false;
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
        IndexAnalyzer.use(writer.getAnalyzer(), index);
        long maxSeqNo = committedMaxSeqNo(writer);
        long generation = committedGeneration(writer);
        boolean routingStoredOnly;
        try (DirectoryReader committed = DirectoryReader.open(writer)) {
            routingStoredOnly = FieldEncoding.routingStoredOnly(committed);
        }
        List<Translog.Batch> batches = Translog.read(directory, generation);
        for (Translog.Batch batch : batches) {
            for (Translog.Op op : batch.ops()) {
                Term id = new Term(FieldEncoding.ID, op.id());
                switch (op) {
                    case Translog.Op.Upsert u -> writer.updateDocument(id, routing(routingStoredOnly,
                            FieldEncoding.encode(index.mappings(), u.id(), u.version(), u.source(), u.values(),
                                    u.routing())));
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
        return new Recovered(translog, maxSeqNo, routingStoredOnly);
    }

    /**
     * Throws away everything the writer holds since its last commit and carries on with a new writer on that commit
     * and the translog replayed into it ({@link #recover}), i.e. every logged batch and not the one that failed
     * (caller holds {@code writing}). Until the new writer is in place the slot is broken, so if this fails the next
     * caller opens the index again.
     */
    private void rollBack(IndexMetadata index, Path directory, IndexSlot slot) throws IOException {
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

    /**
     * Commits the slot if its current translog generation holds writes (the periodic flush: the translog stays short
     * even on an index that never reaches {@link #FLUSH_THRESHOLD_BYTES}). Takes {@code writing}; the caller holds the
     * slot's read lock. A failure marks the slot broken (it is opened again from disk on next use), as after a write.
     */
    public void flushIfLogged(String uuid, IndexSlot slot) {
        slot.writing.lock();
        try {
            Translog translog = slot.translog;
            if (!slot.broken && translog != null && translog.sizeInBytes() > Translog.HEADER_BYTES) {
                flush(slot);
            }
        } catch (IOException | RuntimeException problem) {
            LOG.log(Level.WARNING, "the periodic commit of the Lucene index [" + uuid + "] failed;"
                    + " it is opened again from its last commit and translog on next use", problem);
            slot.broken = true;
        } finally {
            slot.writing.unlock();
        }
    }

    /**
     * Closes an open slot for good: commits what it holds unless it is broken (else its translog is replayed on next
     * open), then closes its writer, searcher, translog and directory; the store is closing.
     */
    public void close(String uuid, IndexSlot slot) {
        boolean committed = false;
        try {
            closeQuietly(slot.searchers);
            if (slot.writer != null && !slot.broken) {
                flush(slot);
                committed = true;
                slot.writer.close();
            }
        } catch (IOException | RuntimeException problem) {
            LOG.log(Level.WARNING, "closing the Lucene index [" + uuid + "] failed; its translog is"
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

    // ---------------------------------------------------------------- writes

    /**
     * Encodes a batch's documents and its translog record, holding no lock.
     *
     * @throws GatewayException {@code ILLEGAL_ARGUMENT} for a value Lucene cannot index (an immense keyword),
     *     {@code BACKEND_FAILURE} for a document the encoding cannot represent
     */
    public static Encoded encode(IndexMetadata index, List<DocumentWrite> writes) {
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
                        String routing = doc.routing().orElse(null);
                        documents.add(FieldEncoding.encode(index.mappings(), doc.id(), doc.version(), source,
                                doc.values(), routing));
                        ops.add(new Translog.Op.Upsert(doc.id(), doc.version(), source, doc.values(), routing));
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
        return new Encoded(documents, ops, Translog.prepare(ops));
    }

    /**
     * Holding the index's {@code writing} lock, applies an encoded batch to the writer in order, appends its record to
     * the translog and makes the batch visible to real-time GET ({@code recent}); the returned {@link Durability}
     * then waits, without the lock, until the record is fsync'd (group commit: writers that queue up meanwhile share
     * one fsync). The writer is not committed here ({@link IndexSlot#flush}). Caller holds the slot's read lock.
     *
     * <p>A batch that fails while being applied or logged is taken back whole: the writer is thrown away and the
     * index recovered from its last commit and the translog (which does not hold the batch, or holds it torn). A
     * failed fsync leaves the log tragic and the slot broken: the next call opens the index again from disk.
     */
    public Durability apply(IndexMetadata index, Path directory, IndexSlot slot, List<DocumentWrite> writes,
                            Encoded encoded, long maxSeqNo) {
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
                IndexAnalyzer.use(slot.writer.getAnalyzer(), index);
                apply(slot.writer, writes, encoded.documents(), slot.routingStoredOnly);
                position = translog.append(encoded.prepared(), recorded);
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
                    slot.recent.put(writes.get(i).id(), Recent.of(encoded.ops().get(i)));
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
    }

    /**
     * Applies a batch's writes to the writer in order ({@code documents}: null for a delete). An upsert of an id the
     * caller knows to be absent ({@link DocumentWrite.Upsert#absent}) is added without a delete of its id: nothing
     * would match it, and the buffered delete term would be looked up in every segment at the next refresh.
     */
    private static void apply(IndexWriter writer, List<DocumentWrite> writes, List<Document> documents,
                              boolean routingStoredOnly) throws IOException {
        for (int i = 0; i < writes.size(); i++) {
            DocumentWrite write = writes.get(i);
            Document document = documents.get(i);
            if (document != null) {
                routing(routingStoredOnly, document);
            }
            if (document == null) {
                writer.deleteDocuments(new Term(FieldEncoding.ID, write.id()));
            } else if (write instanceof DocumentWrite.Upsert upsert && upsert.absent()) {
                writer.addDocument(document);
            } else {
                writer.updateDocument(new Term(FieldEncoding.ID, write.id()), document);
            }
        }
    }

    /** {@code document} in the layout of the index: its routing stored only where the index keeps it so. */
    private static Document routing(boolean routingStoredOnly, Document document) {
        return routingStoredOnly ? FieldEncoding.withRoutingStoredOnly(document) : document;
    }

    /**
     * After a logged batch (caller holds {@code writing}): commits once the translog generation is past the flush
     * threshold, refreshes once {@code recent} is past its limit. A failure here does not fail the batch, which is
     * logged already: the slot is marked broken and the index opened again from disk on next use.
     */
    private void housekeeping(IndexMetadata index, IndexSlot slot, Translog translog) {
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
}
