package io.qdrant.esgateway.adapter.out.catalog.sqlite;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * SQLite's {@code PRAGMA data_version} (it moves when another connection commits to the database file), asked only
 * when a commit may have happened: the database's WAL-index header ({@link WalIndexHeader}) is read first, from shared
 * memory, and while it is the one read just before the last {@code data_version} query, no connection committed since
 * and that answer still holds. A changed header (a commit by this or another connection), an inconsistent one (a
 * commit under way) or no header at all means asking SQLite, as every call did before.
 *
 * <p>Exact: the header is read before the query it is paired with, so a commit between the two shows as a changed
 * header next time; a commit always changes the header. Every request reads the catalog's view, and the query (a read
 * transaction through JDBC: file locks and the JDBC result machinery) was ~10 µs of a request's own time in situ; the
 * header read is a few loads. Not thread-safe: the catalog calls it under its lock.
 */
final class CommitWatch implements AutoCloseable {
    private final Path databaseFile;
    private final LongSupplier dataVersion;
    private Optional<WalIndexHeader> header;
    private final long[] now = new long[WalIndexHeader.LONGS];
    private final long[] atLastQuery = new long[WalIndexHeader.LONGS];
    private boolean paired;
    private long lastDataVersion;
    private long queries;

    /** {@code dataVersion} runs {@code PRAGMA data_version} on the connection whose commits are to be watched. */
    CommitWatch(Path databaseFile, LongSupplier dataVersion) {
        this.databaseFile = databaseFile;
        this.dataVersion = dataVersion;
    }

    /** What {@code PRAGMA data_version} would answer now, as far as telling another connection's commit goes. */
    long dataVersion() {
        if (header == null) {
            header = WalIndexHeader.open(databaseFile); // the catalog has read the database: its -shm file exists
        }
        boolean consistent;
        try {
            consistent = header.isPresent() && header.get().read(now);
        } catch (InternalError e) {
            // the JVM's report of a fault in a mapped file (it shrank under the mapping): not expected while this
            // connection holds the database open, and never trusted — SQLite is asked from now on
            header.ifPresent(WalIndexHeader::close);
            header = Optional.empty();
            consistent = false;
        }
        if (consistent && paired && Arrays.equals(now, atLastQuery)) {
            return lastDataVersion;
        }
        return query(consistent);
    }

    private long query(boolean consistent) {
        paired = false;
        queries++;
        lastDataVersion = dataVersion.getAsLong();
        if (consistent) {
            System.arraycopy(now, 0, atLastQuery, 0, now.length);
            paired = true;
        }
        return lastDataVersion;
    }

    /** How many times SQLite was asked (for tests). */
    long queries() {
        return queries;
    }

    /** Whether the header is read at all (for tests: false only without a -shm file). */
    boolean watchesTheHeader() {
        return header != null && header.isPresent();
    }

    /** Unmaps the header. */
    @Override
    public void close() {
        if (header != null) {
            header.ifPresent(WalIndexHeader::close);
        }
    }
}
