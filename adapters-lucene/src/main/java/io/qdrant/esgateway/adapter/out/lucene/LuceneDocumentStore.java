package io.qdrant.esgateway.adapter.out.lucene;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import java.util.Collection;
import java.util.List;
import java.util.Map;
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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.IndexWriterConfig.OpenMode;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.IOUtils;

/**
 * The {@link io.qdrant.esgateway.application.port.out.DocumentStore} on Lucene: one index directory per concrete
 * index, named by its uuid, with one {@link IndexWriter} kept open per index once it is used.
 *
 * <p>Concurrency: every call holds the store's read lock, {@link #close()} its write lock, so closing waits for the
 * calls in flight. Each index has a slot with its own read-write lock: creating, opening and dropping an index take
 * its write lock, using it the read lock, so one index's lifecycle never blocks another's reads. A dropped slot is
 * retired (taken out of the map); a caller that waited on it looks the index up again.
 */
final class LuceneDocumentStore implements LuceneStores.Handle {
    private static final Logger LOG = Logger.getLogger(LuceneDocumentStore.class.getName());
    static final String INDICES = "indices";
    static final String LOCK_FILE = "store.lock";
    /** Index uuids are URL-safe base64 (IdGenerator); anything else could leave the indices directory. */
    private static final Pattern SAFE_UUID = Pattern.compile("[A-Za-z0-9_-]+");

    /** Opens the Lucene {@link Directory} of one index; tests pass one that fails on purpose. */
    @FunctionalInterface
    interface DirectoryFactory {
        Directory open(Path path) throws IOException;
    }

    @FunctionalInterface
    private interface IndexAction<T> {
        T apply(Path directory, IndexWriter writer) throws IOException;
    }

    /** One index's open state; {@code directory} and {@code writer} are both set or both null. */
    private static final class Slot {
        final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
        Directory directory;
        IndexWriter writer;
        boolean retired;
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

    /** Creates {@code <dataDirectory>/indices} if needed and locks the data directory for this store. */
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
                    if (slot.writer != null) {
                        throw GatewayException.alreadyExists(index.name(), uuid);
                    }
                    create(index, slot);
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
            writer.commit();
            IOUtils.fsync(indicesDirectory, true);
            slot.directory = lucene;
            slot.writer = writer;
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
        String uuid = uuidOf(index);
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
                    Path directory = indexDirectory(index);
                    try {
                        rollbackQuietly(slot.writer);
                        closeQuietly(slot.directory);
                        deleteRecursively(directory);
                    } catch (IOException e) {
                        throw failure("cannot delete", index, directory, e);
                    } finally {
                        retire(index, slot);
                    }
                    return;
                } finally {
                    slot.lock.writeLock().unlock();
                }
            }
        } finally {
            storeLock.readLock().unlock();
        }
    }

    /** Lucene needs nothing per field before documents arrive; the documents carry their own field types. */
    @Override
    public void write(IndexMetadata index, List<DocumentWrite> writes, long maxSeqNo) {
        throw new UnsupportedOperationException("document writes are being written");
    }

    @Override
    public Map<String, StoredDocument> get(IndexMetadata index, Collection<String> ids) {
        throw new UnsupportedOperationException("document reads are being written");
    }

    @Override
    public long maxSeqNo(IndexMetadata index) {
        throw new UnsupportedOperationException("document writes are being written");
    }

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

    /** Live and deleted documents as the writer counts them (acknowledged writes included), and the bytes of the
     * index's files on disk. */
    @Override
    public StoreStats stats(IndexMetadata index) {
        return withIndex(index, (directory, writer) -> {
            IndexWriter.DocStats docs = writer.getDocStats();
            return new StoreStats(docs.numDocs, docs.maxDoc - docs.numDocs, sizeOnDisk(directory));
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
                    if (slot.writer != null) {
                        slot.writer.close();
                    }
                } catch (IOException | RuntimeException problem) {
                    LOG.log(Level.WARNING, "closing the Lucene index [" + e.getKey() + "] failed", problem);
                    rollbackQuietly(slot.writer);
                } finally {
                    closeQuietly(slot.directory);
                    slot.writer = null;
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

    /** Runs {@code action} on the index's writer, opening the index from disk on first use. */
    private <T> T withIndex(IndexMetadata index, IndexAction<T> action) {
        String uuid = uuidOf(index);
        storeLock.readLock().lock();
        try {
            requireOpen();
            while (true) {
                Slot slot = slots.computeIfAbsent(uuid, k -> new Slot());
                slot.lock.readLock().lock();
                try {
                    if (slot.writer != null) {
                        Path directory = indexDirectory(index);
                        try {
                            return action.apply(directory, slot.writer);
                        } catch (IOException e) {
                            throw failure("cannot read", index, directory, e);
                        }
                    }
                } finally {
                    slot.lock.readLock().unlock();
                }
                slot.lock.writeLock().lock();
                try {
                    if (!slot.retired && slot.writer == null) {
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
        try {
            lucene = directories.open(directory);
            slot.writer = new IndexWriter(lucene, config(OpenMode.APPEND));
            slot.directory = lucene;
        } catch (IOException | RuntimeException e) {
            closeQuietly(lucene);
            retire(index, slot);
            throw e instanceof IOException io ? failure("cannot open", index, directory, io) : (RuntimeException) e;
        }
    }

    private static IndexWriterConfig config(OpenMode mode) {
        return new IndexWriterConfig(new StandardAnalyzer()).setOpenMode(mode);
    }

    private void retire(IndexMetadata index, Slot slot) {
        slot.writer = null;
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
