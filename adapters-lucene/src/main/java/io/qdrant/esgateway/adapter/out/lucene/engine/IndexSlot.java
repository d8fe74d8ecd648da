package io.qdrant.esgateway.adapter.out.lucene.engine;

import static io.qdrant.esgateway.adapter.out.lucene.engine.IndexEngine.*;
import static io.qdrant.esgateway.adapter.out.lucene.engine.StoreFiles.*;

import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.StoredDocument;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.concurrent.locks.StampedLock;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import io.qdrant.esgateway.adapter.out.lucene.translog.Translog;
import io.qdrant.esgateway.adapter.out.lucene.encoding.FieldEncoding;

/**
 * One open index of the Lucene store: its writer, searchers, translog and real-time GET map ({@code recent}), with the
 * locks that order them, and the operations on them (flush, refresh, the searcher a read takes, lookup by id).
 *
 * <p>{@code directory}, {@code writer} and {@code searchers} are all set or all null; they
 * change only under the slot's write lock, except that a rollback (under the slot's read lock and
 * {@code writing}) swaps {@code writer} and {@code searchers} for fresh ones. {@code broken} means the writer is
 * unusable and the index must be opened again under the write lock.
 */
public final class IndexSlot {
    /** The engine's logger: these are its messages. */
    private static final Logger LOG = Logger.getLogger(IndexEngine.class.getName());
    public final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    public final ReentrantLock writing = new ReentrantLock();
    public Directory directory;
    public volatile IndexWriter writer;
    public volatile SearcherManager searchers;
    public volatile Translog translog;
    /**
     * The document (null: deleted) each id got from the writes applied since the searcher was last refreshed:
     * what a real-time GET answers for those ids without a refresh. Changed only under {@code writing}, emptied
     * right after each refresh, so every applied write is here or in the current searcher.
     */
    public final ConcurrentHashMap<String, Recent> recent = new ConcurrentHashMap<>();
    /**
     * Makes a batch's entries in {@code recent}, and a refresh's emptying of it, atomic for GET: writers take its
     * write lock for just those steps, GET validates an optimistic read over its whole lookup.
     */
    public final StampedLock recentLock = new StampedLock();
    public volatile long maxSeqNo = -1;
    /** A write applied since the searcher was last refreshed. */
    public volatile boolean dirty;
    public volatile boolean broken;
    public boolean retired;
    /**
     * The index holds documents whose {@code _routing} is stored only ({@link FieldEncoding#routingStoredOnly}):
     * writes keep it so (set when the writer is opened).
     */
    public volatile boolean routingStoredOnly;

    public boolean usable() {
        return writer != null && !broken;
    }

    @FunctionalInterface
    public interface IndexAction<T> {
        T apply(Path directory, IndexSlot slot) throws IOException;
    }

    /**
     * Thrown inside an index action when the slot's writer or searcher went away under it (a failed rollback, a
     * writer Lucene closed after a tragic error): the caller opens the index again and retries.
     */
    public static final class StaleSlot extends RuntimeException {
        public StaleSlot() {
            super(null, null, false, false);
        }
    }

    /**
     * The last write of an id not yet in the searcher: what a GET answers for it (its version and stored
     * {@code _source} bytes), both null for a delete. Not the Lucene document: an ingest keeps up to
     * {@link IndexEngine#RECENT_LIMIT} of these alive until the next refresh, and a Lucene document with its fields and terms is
     * several times larger, live data every young collection of the ingest copied again (docs/benchmarks/README.md,
     * "Write path").
     */
    public record Recent(DocumentVersion version, byte[] source, String routing) {
        static final Recent DELETED = new Recent(null, null, null);

        static Recent of(Translog.Op op) {
            return op instanceof Translog.Op.Upsert u ? new Recent(u.version(), u.source(), u.routing()) : DELETED;
        }
    }

    /** A searcher taken from a manager, given back to the same one. */
    public record Acquired(SearcherManager manager, IndexSearcher searcher) implements AutoCloseable {
        public IndexReader reader() {
            return searcher.getIndexReader();
        }

        @Override
        public void close() throws IOException {
            manager.release(searcher);
        }
    }

    /**
     * A Lucene commit of everything applied, recording the highest sequence number and the next translog
     * generation, then a roll to that (empty) generation, which deletes the older ones. Caller holds
     * {@code writing} (or owns the slot), so the commit holds exactly the logged batches.
     */
    public static void flush(IndexSlot slot) throws IOException {
        Translog translog = slot.translog;
        long next = translog.generation() + 1;
        slot.writer.setLiveCommitData(commitData(slot.maxSeqNo, next).entrySet());
        slot.writer.commit();
        translog.roll(next);
    }

    /** Opens a new searcher on everything applied and forgets {@code recent}; caller holds {@code writing}. */
    public static void refresh(IndexSlot slot) throws IOException {
        long start = System.nanoTime();
        slot.searchers.maybeRefreshBlocking();
        forgetRecent(slot);
        if (LOG.isLoggable(Level.FINE)) {
            LOG.fine("refreshed a Lucene searcher in " + (System.nanoTime() - start) / 1000 + " µs");
        }
    }

    /** Closes a translog; writers still waiting on it succeed only if {@code committed} holds all of it. */
    public static void closeTranslog(Translog translog, boolean committed) {
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
    public static void discard(IndexSlot slot) {
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
    public static void forgetRecent(IndexSlot slot) {
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
    public static Acquired acquire(IndexSlot slot) throws IOException {
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

    /** The current searcher, without a refresh: it misses the writes since the last one. */
    public static Acquired current(IndexSlot slot) throws IOException {
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
    public static Map<String, StoredDocument> lookup(IndexReader reader, Set<String> ids) throws IOException {
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
}
