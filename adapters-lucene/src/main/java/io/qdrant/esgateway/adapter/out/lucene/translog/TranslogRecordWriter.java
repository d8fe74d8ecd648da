package io.qdrant.esgateway.adapter.out.lucene.translog;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The bytes of a translog record as it is encoded: big-endian values written into chunks of {@value #CHUNK} bytes,
 * exactly the bytes a {@link java.io.DataOutputStream} writes for the same calls (strings: {@code int} length, then
 * {@link String#getBytes(java.nio.charset.Charset) UTF-8}, a lone surrogate as {@code '?'}).
 *
 * <p>Why chunks: a {@code _bulk} of 1,000 documents makes a record of ~700 KB, and one array that large is a
 * humongous object for G1 (half a heap region or more), allocated outside the young generation; each such allocation
 * may start a concurrent cycle, and an ingest made one per {@code _bulk} (docs/benchmarks/README.md, "Write path").
 * The chunks are written with one gathering write ({@link Translog#append}). Not thread-safe; used once.
 */
final class TranslogRecordWriter {
    /** Well below half of G1's smallest region (1 MiB). */
    static final int CHUNK = 64 * 1024;

    private final List<byte[]> full = new ArrayList<>();
    private byte[] chunk;
    private int position;
    private long length;

    /** A writer whose first chunk holds {@code expected} bytes if that is less than a chunk. */
    TranslogRecordWriter(int expected) {
        this.chunk = new byte[Math.max(16, Math.min(CHUNK, expected))];
    }

    /** Bytes written so far. */
    long length() {
        return length;
    }

    void writeByte(int b) {
        room(1);
        chunk[position++] = (byte) b;
        length++;
    }

    void writeBoolean(boolean b) {
        writeByte(b ? 1 : 0);
    }

    void writeInt(int v) {
        if (chunk.length - position < Integer.BYTES) {
            for (int shift = 24; shift >= 0; shift -= 8) {
                writeByte(v >>> shift);
            }
            return;
        }
        chunk[position] = (byte) (v >>> 24);
        chunk[position + 1] = (byte) (v >>> 16);
        chunk[position + 2] = (byte) (v >>> 8);
        chunk[position + 3] = (byte) v;
        position += Integer.BYTES;
        length += Integer.BYTES;
    }

    void writeLong(long v) {
        writeInt((int) (v >>> 32));
        writeInt((int) v);
    }

    void writeFloat(float v) {
        writeInt(Float.floatToIntBits(v));
    }

    void writeDouble(double v) {
        writeLong(Double.doubleToLongBits(v));
    }

    void write(byte[] bytes) {
        int done = 0;
        while (done < bytes.length) {
            room(1);
            int n = Math.min(bytes.length - done, chunk.length - position);
            System.arraycopy(bytes, done, chunk, position, n);
            position += n;
            done += n;
        }
        length += bytes.length;
    }

    /** {@code int} length and the UTF-8 bytes of {@code value}. */
    void writeString(String value) {
        // String.getBytes checks and copies ASCII text with vectorised intrinsics: faster than a loop over charAt
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        writeInt(utf8.length);
        write(utf8);
    }

    /** Makes room for at least one byte (callers of more split their writes). */
    private void room(int bytes) {
        if (chunk.length - position < bytes) {
            if (position > 0) {
                full.add(position == chunk.length ? chunk : java.util.Arrays.copyOf(chunk, position));
            }
            chunk = new byte[CHUNK];
            position = 0;
        }
    }

    /** The bytes written, as buffers in order (the arrays themselves, not copies). */
    List<ByteBuffer> buffers() {
        List<ByteBuffer> out = new ArrayList<>(full.size() + 1);
        for (byte[] f : full) {
            out.add(ByteBuffer.wrap(f));
        }
        out.add(ByteBuffer.wrap(chunk, 0, position));
        return out;
    }

    /** Adds the bytes written to {@code crc}. */
    void checksum(CRC32C crc) {
        for (byte[] f : full) {
            crc.update(f, 0, f.length);
        }
        crc.update(chunk, 0, position);
    }
}
