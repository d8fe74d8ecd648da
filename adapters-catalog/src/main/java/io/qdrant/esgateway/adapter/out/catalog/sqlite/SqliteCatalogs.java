package io.qdrant.esgateway.adapter.out.catalog.sqlite;

import io.qdrant.esgateway.application.port.out.Catalog;
import java.nio.file.Path;
import java.time.InstantSource;

/** Opens the embedded catalog: one SQLite database file, written through jOOQ. */
public final class SqliteCatalogs {

    /** An open catalog database; {@link #close()} releases the file (later calls fail as unavailable). */
    public interface Handle extends Catalog, AutoCloseable {

        /** The database file, absolute and normalised. */
        Path databaseFile();

        /** Closes the database connection; idempotent. */
        @Override
        void close();
    }

    private SqliteCatalogs() {
    }

    /**
     * Opens (or creates) the catalog in {@code databaseFile}, creating its parent directories, switching the database
     * to WAL with full sync and bringing its schema up to date.
     *
     * @throws io.qdrant.esgateway.domain.error.GatewayException {@code BACKEND_UNAVAILABLE} if the file cannot be
     *         opened as a catalog database, or has a schema newer than this gateway knows
     */
    public static Handle open(Path databaseFile) {
        return SqliteCatalog.open(databaseFile, SchemaMigrations.ALL, InstantSource.system());
    }
}
