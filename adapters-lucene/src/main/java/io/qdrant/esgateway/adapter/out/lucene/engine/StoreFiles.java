package io.qdrant.esgateway.adapter.out.lucene.engine;

import static io.qdrant.esgateway.adapter.out.lucene.engine.IndexEngine.*;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.index.IndexWriter;

/**
 * The Lucene store's file-system and commit helpers: an index directory's size and deletion, the commit's user data
 * (sequence number, translog generation), the closing of writers and channels, and I/O failures as gateway errors.
 */
public final class StoreFiles {
    /** The engine's logger: these are its messages. */
    private static final Logger LOG = Logger.getLogger(IndexEngine.class.getName());
    private StoreFiles() {
    }

    public static Map<String, String> commitData(long maxSeqNo, long translogGeneration) {
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
    public static long committedGeneration(IndexWriter writer) throws IOException {
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
    public static long committedMaxSeqNo(IndexWriter writer) throws IOException {
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

    /** A damaged index is a backend fault; any other I/O problem means the disk cannot serve us now. */
    public static GatewayException failure(String what, IndexMetadata index, Path directory, IOException e) {
        boolean damaged = e instanceof CorruptIndexException || e instanceof IndexFormatTooOldException
                || e instanceof IndexFormatTooNewException;
        return new GatewayException(damaged ? ErrorKind.BACKEND_FAILURE : ErrorKind.BACKEND_UNAVAILABLE,
                what + " the Lucene index of [" + index.name() + "/" + index.uuid() + "] in [" + directory + "]: "
                        + describe(e), metadata(index), e);
    }

    /** I/O problems as {@link #failure}; anything Lucene refuses (it should not: the batch was checked) is ours. */
    public static GatewayException writeFailure(IndexMetadata index, Path directory, Exception e) {
        if (e instanceof IOException io) {
            return failure("cannot write to", index, directory, io);
        }
        return new GatewayException(ErrorKind.BACKEND_FAILURE, "cannot write to the Lucene index of [" + index.name()
                + "/" + index.uuid() + "] in [" + directory + "]: " + e.getClass().getSimpleName()
                + (e.getMessage() == null ? "" : ": " + e.getMessage()), metadata(index), e);
    }

    public static Map<String, String> metadata(IndexMetadata index) {
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("index_uuid", index.uuid());
        meta.put("index", index.name());
        return meta;
    }

    public static String describe(IOException e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    /** The bytes of the files in the index directory; files a merge deletes meanwhile count as gone. */
    public static long sizeOnDisk(Path directory) throws IOException {
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

    public static void deleteRecursively(Path directory) throws IOException {
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

    public static void rollbackQuietly(IndexWriter writer) {
        if (writer == null) {
            return;
        }
        try {
            writer.rollback();
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "rolling back a Lucene writer failed", e);
        }
    }

    public static void closeQuietly(AutoCloseable closeable) {
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
