package io.qdrant.esgateway.adapter.out.lucene.translog;

import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexedValue;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.util.IOUtils;

/**
 * The write-ahead log of one Lucene index: every write batch is appended here and fsync'd before it is
 * acknowledged, while the Lucene index itself is committed only now and then ({@link io.qdrant.esgateway.adapter.out.lucene.engine.IndexEngine}).
 *
 * <p>Files: {@code translog-<generation>.tlog} in the index directory (Lucene's file deleter only touches its own
 * file names). A file starts with an 8-byte header ({@link #MAGIC}, {@link #FORMAT}); then one record per batch:
 * {@code int length, int crc32c(payload), payload}, the payload being {@code int count}, the operations, then
 * {@code long maxSeqNo} (last, so that the operations can be encoded before the sequence number is known; an upsert: id, version triple, the exact {@code _source} bytes Lucene stores and the indexed values;
 * an upsert of a document written with a routing value: its own kind, with the routing after the id;
 * a delete: its id), all big-endian, strings as {@code int length + UTF-8}. A Lucene commit records in its user data
 * the generation that writes after it go to; older generations are deleted once that commit is durable.
 *
 * <p>Reading ({@link #read}) returns the batches of every generation from the given one on, each file up to its last
 * whole record. A record cut short by the end of the file, or the last record of a file failing its checksum, is a
 * torn append (a crash in the middle of {@link #append}): it was never acknowledged and is ignored; so is a tail of
 * zeros (a file extended but not yet written). A bad record followed by more data is damage, not a torn tail:
 * {@link CorruptIndexException}. Known limit: there is no checkpoint of the synced length (Elasticsearch keeps one),
 * so a power loss that persists unsynced pages out of order — a hole followed by data, all past the last fsync —
 * is reported as damage rather than cut off as a torn tail; a process crash cannot cause it.
 *
 * <p>Concurrency: {@link #append} is called by one writer at a time (the caller's lock); {@link #sync} may be called
 * by any number of threads at once and implements group commit: a caller whose position an fsync in progress or
 * done already covers does not fsync again, so concurrent writers share one fsync. After a failed write or fsync the
 * log is <em>tragic</em>: every later call fails, because what reached the disk is unknown; the owner opens the
 * index again, which replays what is readable.
 */
public final class Translog implements AutoCloseable {
    static final int MAGIC = 0x51544c47; // "QTLG"
    static final int FORMAT = 1;
    public static final int HEADER_BYTES = 8;
    private static final Pattern FILE_NAME = Pattern.compile("translog-(\\d+)\\.tlog");
    private static final byte UPSERT = 1;
    private static final byte DELETE = 2;
    private static final byte UPSERT_ROUTED = 3;

    /** How the log makes a file durable; tests pass one that fails or parks on purpose. */
    @FunctionalInterface
    public interface Fsync {
        Fsync DEFAULT = channel -> channel.force(false);

        void force(FileChannel channel) throws IOException;
    }

    /** One operation as the log holds it: what is needed to build the same Lucene document again. */
    public sealed interface Op {
        String id();

        /** {@code routing}: the document's routing value, or null when it was written without one. */
        record Upsert(String id, DocumentVersion version, byte[] source, List<IndexedValue> values, String routing)
                implements Op {
            public Upsert {
                values = List.copyOf(values);
            }

            public Upsert(String id, DocumentVersion version, byte[] source, List<IndexedValue> values) {
                this(id, version, source, values, null);
            }
        }

        record Delete(String id) implements Op {
        }
    }

    /** One write batch: its operations in order and the highest sequence number recorded with it. */
    public record Batch(long maxSeqNo, List<Op> ops) {
        public Batch {
            ops = List.copyOf(ops);
        }
    }

    private final Path directory;
    private final Fsync fsync;
    private final ReentrantLock syncLock = new ReentrantLock();
    private FileChannel channel;
    private long generation;
    /** Bytes in the current generation's file. */
    private volatile long fileSize;
    /** Logical positions: bytes appended over the log's life in this process, and how many of them are durable. */
    private volatile long written;
    private volatile long synced;
    private volatile IOException tragedy;

    private Translog(Path directory, Fsync fsync, FileChannel channel, long generation) {
        this.directory = directory;
        this.fsync = fsync;
        this.channel = channel;
        this.generation = generation;
        this.fileSize = HEADER_BYTES;
    }

    /**
     * Starts generation {@code generation} in {@code directory}: an empty file with its header, fsync'd with the
     * directory entry. An existing file of that generation is replaced.
     */
    public static Translog create(Path directory, long generation, Fsync fsync) throws IOException {
        return new Translog(directory, fsync, newFile(directory, generation, fsync), generation);
    }

    private static FileChannel newFile(Path directory, long generation, Fsync fsync) throws IOException {
        FileChannel channel = FileChannel.open(file(directory, generation), StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        try {
            ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).putInt(MAGIC).putInt(FORMAT).flip();
            while (header.hasRemaining()) {
                channel.write(header);
            }
            fsync.force(channel);
            IOUtils.fsync(directory, true);
            return channel;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    public static Path file(Path directory, long generation) {
        return directory.resolve("translog-" + generation + ".tlog");
    }

    /** The generation of each translog file in {@code directory}, in order, with its path. */
    public static TreeMap<Long, Path> files(Path directory) throws IOException {
        TreeMap<Long, Path> files = new TreeMap<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory, "translog-*.tlog")) {
            for (Path entry : entries) {
                Matcher m = FILE_NAME.matcher(entry.getFileName().toString());
                if (m.matches()) {
                    files.put(Long.parseLong(m.group(1)), entry);
                }
            }
        }
        return files;
    }

    /** The batches of every generation from {@code fromGeneration} on, in order (see the class comment). */
    public static List<Batch> read(Path directory, long fromGeneration) throws IOException {
        List<Batch> batches = new ArrayList<>();
        for (var e : files(directory).tailMap(fromGeneration, true).entrySet()) {
            readFile(e.getValue(), batches);
        }
        return batches;
    }

    private static void readFile(Path file, List<Batch> into) throws IOException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException gone) {
            return;
        }
        if (bytes.length < HEADER_BYTES) {
            return; // crashed while creating it: nothing was ever appended
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        if (buffer.getInt() != MAGIC || buffer.getInt() != FORMAT) {
            throw new CorruptIndexException("not a translog file of format " + FORMAT, file.toString());
        }
        while (buffer.remaining() > 0) {
            int start = buffer.position();
            if (buffer.remaining() < 8) {
                return; // torn: the record's header is incomplete
            }
            int length = buffer.getInt();
            int checksum = buffer.getInt();
            if (length < 0 || length > buffer.remaining()) {
                if (length >= 0 || onlyZeros(bytes, start)) {
                    return; // torn: the record runs past the end of the file
                }
                throw new CorruptIndexException("translog record at " + start + " has length " + length,
                        file.toString());
            }
            CRC32C crc = new CRC32C();
            crc.update(bytes, buffer.position(), length);
            boolean last = buffer.position() + length == bytes.length;
            if ((int) crc.getValue() != checksum || length == 0) {
                if (last || onlyZeros(bytes, start)) {
                    return; // torn: the last record did not reach the disk whole
                }
                throw new CorruptIndexException("translog record at " + start + " fails its checksum and is not"
                        + " the last one", file.toString());
            }
            into.add(decode(bytes, buffer.position(), length, file));
            buffer.position(buffer.position() + length);
        }
    }

    private static boolean onlyZeros(byte[] bytes, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * A batch's operations encoded: {@link #append} adds the sequence number and the checksum (CRC32C runs at
     * memory speed). Encoding needs no lock, so writers do it before they queue for the index.
     */
    public record Prepared(TranslogRecordWriter ops) {
        /** The operations' bytes. */
        long length() {
            return ops.length();
        }
    }

    /** The whole record of {@code batch}, as {@link #append} writes it (for tests that write logs by hand). */
    static byte[] encode(Batch batch) {
        Prepared prepared = prepare(batch.ops());
        ByteBuffer[] parts = finish(prepared, batch.maxSeqNo());
        int length = 0;
        for (ByteBuffer part : parts) {
            length += part.remaining();
        }
        ByteBuffer all = ByteBuffer.allocate(length);
        for (ByteBuffer part : parts) {
            all.put(part);
        }
        return all.array();
    }

    /** Encodes the operations of a batch (see the class comment); {@link #append} completes the record. */
    public static Prepared prepare(List<Op> batchOps) {
        int estimate = 64;
        for (Op op : batchOps) {
            estimate += op instanceof Op.Upsert u ? 96 + u.id().length() + u.source().length + estimate(u.values())
                    + (u.routing() == null ? 0 : 4 + u.routing().length())
                    : 32 + op.id().length();
        }
        TranslogRecordWriter out = new TranslogRecordWriter(estimate);
        out.writeInt(batchOps.size());
        for (Op op : batchOps) {
            switch (op) {
                case Op.Upsert u -> {
                    out.writeByte(u.routing() == null ? UPSERT : UPSERT_ROUTED);
                    out.writeString(u.id());
                    if (u.routing() != null) {
                        out.writeString(u.routing());
                    }
                    out.writeLong(u.version().version());
                    out.writeLong(u.version().seqNo());
                    out.writeLong(u.version().primaryTerm());
                    out.writeInt(u.source().length);
                    out.write(u.source());
                    out.writeInt(u.values().size());
                    for (IndexedValue value : u.values()) {
                        writeValue(out, value);
                    }
                }
                case Op.Delete d -> {
                    out.writeByte(DELETE);
                    out.writeString(d.id());
                }
            }
        }
        return new Prepared(out);
    }

    /** About the bytes {@link #writeValue} writes for {@code values} (ASCII text assumed; the buffer grows if not). */
    private static int estimate(List<IndexedValue> values) {
        int bytes = 4;
        for (IndexedValue value : values) {
            bytes += 16 + value.field().length() + switch (value) {
                case IndexedValue.Keyword k -> k.value().length();
                case IndexedValue.Text t -> t.value().length();
                case IndexedValue.Vector v -> 4 * v.values().length;
                default -> 0;
            };
        }
        return bytes;
    }

    /** The record's three parts: length and checksum, the operations, the sequence number. */
    private static ByteBuffer[] finish(Prepared prepared, long maxSeqNo) {
        ByteBuffer trailer = ByteBuffer.allocate(Long.BYTES).putLong(maxSeqNo).flip();
        CRC32C crc = new CRC32C();
        prepared.ops().checksum(crc);
        crc.update(trailer.duplicate());
        ByteBuffer header = ByteBuffer.allocate(8).putInt(Math.toIntExact(prepared.length() + Long.BYTES))
                .putInt((int) crc.getValue()).flip();
        List<ByteBuffer> ops = prepared.ops().buffers();
        ByteBuffer[] parts = new ByteBuffer[ops.size() + 2];
        parts[0] = header;
        for (int i = 0; i < ops.size(); i++) {
            parts[i + 1] = ops.get(i);
        }
        parts[parts.length - 1] = trailer;
        return parts;
    }

    private static void writeValue(TranslogRecordWriter out, IndexedValue value) {
        switch (value) {
            case IndexedValue.Keyword k -> {
                out.writeByte(1);
                out.writeString(k.field());
                out.writeString(k.value());
            }
            case IndexedValue.Text t -> {
                out.writeByte(2);
                out.writeString(t.field());
                out.writeString(t.value());
            }
            case IndexedValue.LongValue l -> {
                out.writeByte(3);
                out.writeString(l.field());
                out.writeLong(l.value());
            }
            case IndexedValue.DoubleValue d -> {
                out.writeByte(4);
                out.writeString(d.field());
                out.writeDouble(d.value());
            }
            case IndexedValue.FloatValue f -> {
                out.writeByte(5);
                out.writeString(f.field());
                out.writeFloat(f.value());
            }
            case IndexedValue.BooleanValue b -> {
                out.writeByte(6);
                out.writeString(b.field());
                out.writeBoolean(b.value());
            }
            case IndexedValue.DateValue d -> {
                out.writeByte(7);
                out.writeString(d.field());
                out.writeLong(d.epochMillis());
            }
            case IndexedValue.Vector v -> {
                out.writeByte(8);
                out.writeString(v.field());
                out.writeInt(v.values().length);
                for (float f : v.values()) {
                    out.writeFloat(f);
                }
            }
        }
    }

    private static Batch decode(byte[] bytes, int offset, int length, Path file) throws IOException {
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(bytes, offset, length))) {
            int count = in.readInt();
            List<Op> ops = new ArrayList<>(Math.min(count, 1024));
            for (int i = 0; i < count; i++) {
                byte kind = in.readByte();
                switch (kind) {
                    case UPSERT, UPSERT_ROUTED -> {
                        String id = readString(in);
                        String routing = kind == UPSERT_ROUTED ? readString(in) : null;
                        DocumentVersion version = new DocumentVersion(in.readLong(), in.readLong(), in.readLong());
                        byte[] source = in.readNBytes(in.readInt());
                        int values = in.readInt();
                        List<IndexedValue> list = new ArrayList<>(Math.min(values, 1024));
                        for (int v = 0; v < values; v++) {
                            list.add(readValue(in, file));
                        }
                        ops.add(new Op.Upsert(id, version, source, list, routing));
                    }
                    case DELETE -> ops.add(new Op.Delete(readString(in)));
                    default -> throw new CorruptIndexException("unknown translog operation " + kind, file.toString());
                }
            }
            long maxSeqNo = in.readLong();
            if (in.available() > 0) {
                throw new CorruptIndexException("translog record with trailing bytes", file.toString());
            }
            return new Batch(maxSeqNo, ops);
        } catch (EOFException e) {
            throw new CorruptIndexException("translog record shorter than its operations", file.toString(), e);
        }
    }

    private static IndexedValue readValue(DataInputStream in, Path file) throws IOException {
        byte kind = in.readByte();
        String field = readString(in);
        return switch (kind) {
            case 1 -> new IndexedValue.Keyword(field, readString(in));
            case 2 -> new IndexedValue.Text(field, readString(in));
            case 3 -> new IndexedValue.LongValue(field, in.readLong());
            case 4 -> new IndexedValue.DoubleValue(field, in.readDouble());
            case 5 -> new IndexedValue.FloatValue(field, in.readFloat());
            case 6 -> new IndexedValue.BooleanValue(field, in.readBoolean());
            case 7 -> new IndexedValue.DateValue(field, in.readLong());
            case 8 -> {
                float[] values = new float[in.readInt()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = in.readFloat();
                }
                yield new IndexedValue.Vector(field, values);
            }
            default -> throw new CorruptIndexException("unknown indexed value kind " + kind, file.toString());
        };
    }

    private static String readString(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0) {
            throw new EOFException();
        }
        byte[] bytes = in.readNBytes(length);
        if (bytes.length != length) {
            throw new EOFException();
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * Appends the record of a prepared batch with its sequence number, without fsync; returns the position
     * {@link #sync} must reach for it to be durable. Caller: one writer at a time, each prepared batch once.
     */
    public long append(Prepared prepared, long maxSeqNo) throws IOException {
        failIfTragic();
        ByteBuffer[] parts = finish(prepared, maxSeqNo);
        long length = 0;
        for (ByteBuffer part : parts) {
            length += part.remaining();
        }
        try {
            while (parts[parts.length - 1].hasRemaining()) {
                channel.write(parts);
            }
        } catch (IOException | RuntimeException e) {
            tragedy = e instanceof IOException io ? io : new IOException(e);
            throw e;
        }
        fileSize += length;
        written += length;
        return written;
    }

    /**
     * Returns once every byte up to {@code position} is durable; fsyncs at most once for all the callers waiting
     * meanwhile (group commit).
     */
    public void sync(long position) throws IOException {
        if (synced >= position) {
            return;
        }
        syncLock.lock();
        try {
            if (synced >= position) {
                return;
            }
            failIfTragic();
            long target = written;
            try {
                fsync.force(channel);
            } catch (IOException | RuntimeException e) {
                tragedy = e instanceof IOException io ? io : new IOException(e);
                throw e;
            }
            synced = target;
        } finally {
            syncLock.unlock();
        }
    }

    /**
     * Switches to a new, empty generation after a Lucene commit that holds everything appended so far (so all of it
     * counts as durable), and deletes the older files. Caller: the single writer, after the commit.
     */
    public void roll(long newGeneration) throws IOException {
        failIfTragic();
        syncLock.lock();
        try {
            FileChannel next;
            try {
                next = newFile(directory, newGeneration, fsync);
            } catch (IOException | RuntimeException e) {
                tragedy = e instanceof IOException io ? io : new IOException(e);
                throw e;
            }
            FileChannel old = channel;
            channel = next;
            generation = newGeneration;
            fileSize = HEADER_BYTES;
            synced = written;
            old.close();
        } finally {
            syncLock.unlock();
        }
        deleteOlderThan(directory, newGeneration);
    }

    /** Deletes the files of generations below {@code generation} (their operations are in a durable commit). */
    public static void deleteOlderThan(Path directory, long generation) throws IOException {
        for (Path old : files(directory).headMap(generation, false).values()) {
            Files.deleteIfExists(old);
        }
    }

    public long generation() {
        return generation;
    }

    /** Bytes in the current generation's file, header included. */
    public long sizeInBytes() {
        return fileSize;
    }

    boolean tragic() {
        return tragedy != null;
    }

    private void failIfTragic() throws IOException {
        IOException t = tragedy;
        if (t != null) {
            throw new IOException("the translog failed earlier and must be reopened: " + t.getMessage(), t);
        }
    }

    /**
     * Closes the file after a Lucene commit that holds every record appended to it (a recovery replayed them):
     * writers still waiting in {@link #sync} return, their batches being durable in the commit.
     */
    public void closeCommitted() throws IOException {
        syncLock.lock();
        try {
            synced = written;
            channel.close();
        } finally {
            syncLock.unlock();
        }
    }

    /** Closes the file without fsync (what was synced is durable; the rest is as unacknowledged as before). */
    @Override
    public void close() throws IOException {
        syncLock.lock();
        try {
            channel.close();
        } finally {
            syncLock.unlock();
        }
    }
}
