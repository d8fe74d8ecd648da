package io.qdrant.esgateway.adapter.out.catalog.sqlite;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * The WAL-index header of a SQLite database in WAL mode, read from its shared-memory file ({@code <database>-shm}),
 * mapped read-only. Every commit by any connection of any process rewrites this header (its frame count, checksums
 * and salts move; https://www.sqlite.org/walformat.html, "The WAL-Index Format"), and SQLite's own
 * {@code PRAGMA data_version} moves exactly when a connection starting a read finds the header different from the copy
 * it read last: so an unchanged header means no connection committed in between.
 *
 * <p>The header is kept twice (bytes 0–47 and 48–95); a writer writes the second copy, then the first. A reader that
 * finds the two equal and marked initialised has a consistent header (SQLite's readers apply the same rule); when they
 * differ a commit is under way and {@link #read} says so, and the caller asks SQLite instead. Not thread-safe: the
 * caller serialises reads and {@link #close()}.
 */
final class WalIndexHeader implements AutoCloseable {
    /** One copy of the header: 48 bytes, six longs. */
    static final int LONGS = 6;
    private static final long COPY_BYTES = LONGS * Long.BYTES;
    /** {@code isInit}: the byte after {@code iVersion}, an unused word and {@code iChange}. */
    private static final long IS_INIT_OFFSET = 12;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final Arena arena;
    private final MemorySegment header;

    private WalIndexHeader(Arena arena, MemorySegment header) {
        this.arena = arena;
        this.header = header;
    }

    /**
     * Maps the first two header copies of {@code databaseFile}'s {@code -shm} file; empty when there is none yet or it
     * is too short to hold them (the caller then asks SQLite every time).
     */
    static Optional<WalIndexHeader> open(Path databaseFile) {
        Path shm = databaseFile.resolveSibling(databaseFile.getFileName() + "-shm");
        Arena arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(shm, StandardOpenOption.READ)) {
            if (channel.size() < 2 * COPY_BYTES) {
                arena.close();
                return Optional.empty();
            }
            return Optional.of(new WalIndexHeader(arena,
                    channel.map(FileChannel.MapMode.READ_ONLY, 0, 2 * COPY_BYTES, arena)));
        } catch (IOException | UnsupportedOperationException e) {
            arena.close();
            return Optional.empty();
        }
    }

    /**
     * Copies the header into {@code into} ({@link #LONGS} longs) and returns true when it is consistent: both copies
     * equal and initialised. False while a commit is writing it (or before SQLite initialised it).
     */
    boolean read(long[] into) {
        return read(header, into);
    }

    /** {@link #read(long[])} over any segment laid out as the -shm file's first 96 bytes. */
    static boolean read(MemorySegment header, long[] into) {
        for (int i = 0; i < LONGS; i++) {
            into[i] = (long) LONG.getAcquire(header, i * (long) Long.BYTES);
        }
        for (int i = 0; i < LONGS; i++) {
            if ((long) LONG.getAcquire(header, COPY_BYTES + i * (long) Long.BYTES) != into[i]) {
                return false;
            }
        }
        return isInit(into);
    }

    /** The {@code isInit} byte of a header copy read as longs in native order. */
    private static boolean isInit(long[] copy) {
        int shift = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN
                ? (int) (IS_INIT_OFFSET - Long.BYTES) * Byte.SIZE
                : (int) (2 * Long.BYTES - 1 - IS_INIT_OFFSET) * Byte.SIZE;
        return ((copy[1] >>> shift) & 0xFF) != 0;
    }

    /** Unmaps the file. */
    @Override
    public void close() {
        arena.close();
    }
}
