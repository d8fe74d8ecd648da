package io.qdrant.esgateway.adapter.out.catalog.sqlite;

import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.ALIASES;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.ALIAS_FILTER;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.ALIAS_INDEX;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.ALIAS_INDEX_ROUTING;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.ALIAS_IS_HIDDEN;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.ALIAS_IS_WRITE_INDEX;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.ALIAS_NAME;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.ALIAS_SEARCH_ROUTING;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.CATALOG_STATE;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.INDEX_CREATION_DATE;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.INDEX_GENERATION;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.INDEX_MAPPINGS;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.INDEX_NAME;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.INDEX_SETTINGS;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.INDEX_UUID;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.INDICES;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.STATE_ID;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.STATE_ROW;
import static io.qdrant.esgateway.adapter.out.catalog.sqlite.CatalogTables.STATE_VERSION;

import io.qdrant.esgateway.application.port.out.Catalog;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.AliasActions;
import io.qdrant.esgateway.domain.index.AliasMetadata;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.script.StoredScript;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.sqlite.SQLiteConfig;

/**
 * The {@link Catalog} in one SQLite database file. One JDBC connection, used by one caller at a time (a
 * {@link ReentrantLock}, which parks virtual threads instead of pinning them); SQLite serialises writers anyway, and
 * every port method is one short transaction. Transactions begin {@code IMMEDIATE}, so a read-then-write (the version
 * check of an alias plan) cannot be overtaken by another process holding the same file.
 */
final class SqliteCatalog implements SqliteCatalogs.Handle {
    private static final Logger LOG = Logger.getLogger(SqliteCatalog.class.getName());
    static final int BUSY_TIMEOUT_MILLIS = 5_000;
    private static final Pattern PRAGMA_NAME = Pattern.compile("[a-z_]+");

    private final Path file;
    private final Connection connection;
    private final DSLContext dsl;
    private final ReentrantLock lock = new ReentrantLock();
    private boolean closed;
    /**
     * The last view read (guarded by {@code lock}), valid while this connection changed nothing since and SQLite's
     * {@code data_version} (which moves when another connection commits to the file) is the one it was read at.
     */
    private CatalogView cachedView;
    private long cachedDataVersion;
    /**
     * The write generations read or moved on this connection (guarded by {@code lock}), valid while this connection
     * changed no index since (its own bumps update them; its other writes drop them) and {@code data_version} is
     * {@link #generationsDataVersion}: a cacheable search reads its index's generation twice, and a transaction per
     * read was most of a cached answer's cost.
     */
    private final java.util.Map<String, Long> generations = new java.util.HashMap<>();
    private long generationsDataVersion = Long.MIN_VALUE;
    /** {@link #bumpGeneration}'s statement, prepared on first use (guarded by {@code lock}). */
    private java.sql.PreparedStatement bumpStatement;
    /** {@link #dataVersion}'s statement, prepared on first use (guarded by {@code lock}): it runs on every request. */
    private java.sql.PreparedStatement dataVersionStatement;
    /** {@link #dataVersion}'s shortcut, made on first use (guarded by {@code lock}). */
    private CommitWatch commits;

    private SqliteCatalog(Path file, Connection connection) {
        this.file = file;
        this.connection = connection;
        this.dsl = DSL.using(connection, SQLDialect.SQLITE, new Settings().withExecuteLogging(false));
    }

    /** Opens the file, sets the pragmas and applies the missing {@code migrations}. */
    static SqliteCatalog open(Path databaseFile, List<SchemaMigrations.Migration> migrations, InstantSource clock) {
        return open(databaseFile, migrations, clock, BUSY_TIMEOUT_MILLIS);
    }

    /** As above, waiting at most {@code busyTimeoutMillis} for a lock another connection holds on the file. */
    static SqliteCatalog open(Path databaseFile, List<SchemaMigrations.Migration> migrations, InstantSource clock,
                              int busyTimeoutMillis) {
        Path file = databaseFile.toAbsolutePath().normalize();
        Connection connection = null;
        try {
            Path parent = file.getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            SQLiteConfig config = new SQLiteConfig();
            config.setJournalMode(SQLiteConfig.JournalMode.WAL);
            config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
            config.setBusyTimeout(busyTimeoutMillis);
            config.enforceForeignKeys(true);
            config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
            connection = config.createConnection("jdbc:sqlite:" + file);
            SqliteCatalog catalog = new SqliteCatalog(file, connection);
            String journal = catalog.pragma("journal_mode");
            if (!journal.equalsIgnoreCase("wal")) {
                throw new IOException("the database did not switch to WAL (journal_mode is [" + journal + "])");
            }
            catalog.inTransaction("migrating the schema",
                    trx -> SchemaMigrations.migrate(trx, migrations, file.toString(), clock));
            return catalog;
        } catch (IOException | SQLException | DataAccessException e) {
            closeQuietly(connection);
            throw GatewayException.backendUnavailable("catalog database [" + file + "] cannot be opened: "
                    + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            closeQuietly(connection);
            throw e;
        }
    }

    @Override
    public Path databaseFile() {
        return file;
    }

    /**
     * The catalog as one consistent snapshot. Read from the file only when it changed: every request reads the view,
     * and reading every row (and parsing every mapping) each time was most of the cost of a document GET.
     */
    @Override
    public CatalogView view() {
        lock.lock();
        try {
            requireOpen();
            long dataVersion = dataVersion();
            if (cachedView != null && cachedDataVersion == dataVersion) {
                return cachedView;
            }
            CatalogView view = readView();
            cachedView = view;
            cachedDataVersion = dataVersion;
            return view;
        } finally {
            lock.unlock();
        }
    }

    /**
     * SQLite's {@code PRAGMA data_version}: changes when another connection commits to the database file; asked only
     * when the WAL-index header says a commit happened ({@link CommitWatch}).
     */
    private long dataVersion() {
        if (commits == null) {
            commits = new CommitWatch(file, this::queryDataVersion);
        }
        return commits.dataVersion();
    }

    /** {@code PRAGMA data_version} on this connection. */
    private long queryDataVersion() {
        try {
            if (dataVersionStatement == null) {
                dataVersionStatement = connection.prepareStatement("PRAGMA data_version");
            }
            try (java.sql.ResultSet rows = dataVersionStatement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        } catch (SQLException e) {
            throw unavailable("reading the catalog's data version", e);
        }
    }

    private CatalogView readView() {
        return inTransaction("reading the catalog", trx -> {
            long version = readVersion(trx);
            TreeMap<String, IndexMetadata> indices = new TreeMap<>();
            trx.select(INDEX_NAME, INDEX_UUID, INDEX_CREATION_DATE, INDEX_SETTINGS, INDEX_MAPPINGS)
                    .from(INDICES)
                    .orderBy(INDEX_NAME)
                    .forEach(r -> indices.put(r.get(INDEX_NAME), toIndex(r)));
            List<AliasMetadata> aliases = trx
                    .select(ALIAS_NAME, ALIAS_INDEX, ALIAS_INDEX_ROUTING, ALIAS_SEARCH_ROUTING, ALIAS_IS_WRITE_INDEX,
                            ALIAS_IS_HIDDEN, ALIAS_FILTER)
                    .from(ALIASES)
                    .orderBy(ALIAS_NAME, ALIAS_INDEX)
                    .fetch(SqliteCatalog::toAlias);
            return new CatalogView(version, indices, aliases);
        });
    }

    @Override
    public void createIndex(IndexMetadata index, List<AliasMetadata> aliases) {
        requireDistinct(aliases);
        for (AliasMetadata alias : aliases) {
            if (!alias.index().equals(index.name())) {
                throw new IllegalArgumentException("alias [" + alias.alias() + "] names index [" + alias.index()
                        + "], not the index being created [" + index.name() + "]");
            }
        }
        String settings = writeSettings(index.settings());
        String mappings = Json.write(index.mappings().toJson());
        inWriteTransaction("creating index [" + index.name() + "]", trx -> {
            trx.select(INDEX_UUID).from(INDICES).where(INDEX_NAME.eq(index.name()))
                    .fetchOptional(INDEX_UUID)
                    .ifPresent(uuid -> {
                        throw GatewayException.alreadyExists(index.name(), uuid);
                    });
            if (trx.fetchExists(trx.selectOne().from(ALIASES).where(ALIAS_NAME.eq(index.name())))) {
                throw GatewayException.invalidIndexName(index.name(), "already exists as alias");
            }
            trx.insertInto(INDICES, INDEX_NAME, INDEX_UUID, INDEX_CREATION_DATE, INDEX_SETTINGS, INDEX_MAPPINGS,
                            INDEX_GENERATION)
                    .values(index.name(), index.uuid(), index.creationDate().toEpochMilli(), settings, mappings, 0L)
                    .execute();
            insertAliases(trx, aliases);
            bumpVersion(trx);
            return null;
        });
    }

    @Override
    public void deleteIndices(Collection<String> names) {
        if (names.isEmpty()) {
            return;
        }
        Set<String> distinct = Set.copyOf(names);
        inWriteTransaction("deleting indices " + distinct, trx -> {
            // the aliases go with them: foreign key ON DELETE CASCADE
            if (trx.deleteFrom(INDICES).where(INDEX_NAME.in(distinct)).execute() > 0) {
                bumpVersion(trx);
            }
            return null;
        });
    }

    @Override
    public void updateMappings(String index, Mappings mappings) {
        String json = Json.write(mappings.toJson());
        inWriteTransaction("updating the mappings of [" + index + "]", trx -> {
            if (trx.update(INDICES).set(INDEX_MAPPINGS, json).where(INDEX_NAME.eq(index)).execute() == 0) {
                throw GatewayException.indexNotFound(index);
            }
            bumpVersion(trx);
            return null;
        });
    }

    /** Read, change and write in one {@code IMMEDIATE} transaction: no other connection writes in between. */
    @Override
    public Mappings changeMappings(String index, java.util.function.UnaryOperator<Mappings> change) {
        return inWriteTransaction("changing the mappings of [" + index + "]", trx -> {
            String current = trx.select(INDEX_MAPPINGS).from(INDICES).where(INDEX_NAME.eq(index))
                    .fetchOptional(INDEX_MAPPINGS)
                    .orElseThrow(() -> GatewayException.indexNotFound(index));
            Mappings next = change.apply(Mappings.parse(Json.parse(current)));
            trx.update(INDICES).set(INDEX_MAPPINGS, Json.write(next.toJson())).where(INDEX_NAME.eq(index)).execute();
            bumpVersion(trx);
            return next;
        });
    }

    @Override
    public void updateSettings(String index, IndexSettings settings) {
        String json = writeSettings(settings);
        inWriteTransaction("updating the settings of [" + index + "]", trx -> {
            if (trx.update(INDICES).set(INDEX_SETTINGS, json).where(INDEX_NAME.eq(index)).execute() == 0) {
                throw GatewayException.indexNotFound(index);
            }
            bumpVersion(trx);
            return null;
        });
    }

    @Override
    public boolean applyAliasPlan(long expectedVersion, AliasActions.Plan plan) {
        requireDistinct(plan.aliases());
        return inWriteTransaction("applying alias actions", trx -> {
            if (readVersion(trx) != expectedVersion) {
                return false;
            }
            if (!plan.removedIndices().isEmpty()) {
                trx.deleteFrom(INDICES).where(INDEX_NAME.in(plan.removedIndices())).execute();
            }
            Set<String> remaining = new HashSet<>(trx.select(INDEX_NAME).from(INDICES).fetch(INDEX_NAME));
            for (AliasMetadata alias : plan.aliases()) {
                if (!remaining.contains(alias.index())) {
                    throw GatewayException.indexNotFound(alias.index()); // rolls the deletion back
                }
            }
            trx.deleteFrom(ALIASES).execute();
            insertAliases(trx, plan.aliases());
            bumpVersion(trx);
            return true;
        });
    }

    @Override
    public long generation(String index) {
        lock.lock();
        try {
            requireOpen();
            long dataVersion = dataVersion();
            if (dataVersion != generationsDataVersion) {
                generations.clear();
                generationsDataVersion = dataVersion;
            }
            Long known = generations.get(index);
            if (known != null) {
                return known;
            }
            long read = inTransaction("reading the generation of [" + index + "]", trx -> readGeneration(trx, index));
            generations.put(index, read);
            return read;
        } finally {
            lock.unlock();
        }
    }

    /**
     * One statement ({@code UPDATE … RETURNING}, prepared once, in its own implicit transaction: no jOOQ, which was
     * most of this call's CPU), committed with {@code PRAGMA synchronous=NORMAL} (every other transaction is
     * {@code FULL}): in WAL mode SQLite then appends the change to the WAL without an fsync, so it survives a crash of
     * the process (the bytes are in the OS) but not necessarily of the machine until the next {@code FULL} commit or
     * checkpoint fsyncs the WAL. This runs after every document write; an fsync here was 10–20 % of a write's cost.
     */
    @Override
    public long bumpGeneration(String index) {
        lock.lock();
        try {
            requireOpen();
            setSynchronous("NORMAL");
            try {
                if (bumpStatement == null) {
                    bumpStatement = connection.prepareStatement("UPDATE " + INDICES.getName() + " SET "
                            + INDEX_GENERATION.getName() + " = " + INDEX_GENERATION.getName() + " + 1 WHERE "
                            + INDEX_NAME.getName() + " = ? RETURNING " + INDEX_GENERATION.getName());
                }
                bumpStatement.setString(1, index);
                try (java.sql.ResultSet rows = bumpStatement.executeQuery()) {
                    if (!rows.next()) {
                        throw GatewayException.indexNotFound(index);
                    }
                    long moved = rows.getLong(1);
                    generations.put(index, moved);
                    return moved;
                }
            } finally {
                setSynchronous("FULL");
            }
        } catch (SQLException e) {
            throw unavailable("moving the generation of [" + index + "]", e);
        } finally {
            lock.unlock();
        }
    }

    /** {@code PRAGMA synchronous} of this connection (caller holds the lock, outside a transaction). */
    private void setSynchronous(String mode) {
        try (java.sql.Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA synchronous=" + mode);
        } catch (SQLException e) {
            throw unavailable("setting synchronous=" + mode, e);
        }
    }

    @Override
    public void putStoredScript(String id, StoredScript script) {
        inTransaction("storing script [" + id + "]", trx -> trx.insertInto(CatalogTables.STORED_SCRIPTS,
                        CatalogTables.SCRIPT_ID, CatalogTables.SCRIPT_LANG, CatalogTables.SCRIPT_SOURCE)
                .values(id, script.lang(), script.source())
                .onConflict(CatalogTables.SCRIPT_ID).doUpdate()
                .set(CatalogTables.SCRIPT_LANG, script.lang())
                .set(CatalogTables.SCRIPT_SOURCE, script.source())
                .execute());
    }

    @Override
    public java.util.Optional<StoredScript> storedScript(String id) {
        return inTransaction("reading script [" + id + "]", trx -> trx
                .select(CatalogTables.SCRIPT_LANG, CatalogTables.SCRIPT_SOURCE)
                .from(CatalogTables.STORED_SCRIPTS).where(CatalogTables.SCRIPT_ID.eq(id))
                .fetchOptional(r -> new StoredScript(r.value1(), r.value2())));
    }

    @Override
    public boolean deleteStoredScript(String id) {
        return inTransaction("deleting script [" + id + "]", trx -> trx.deleteFrom(CatalogTables.STORED_SCRIPTS)
                .where(CatalogTables.SCRIPT_ID.eq(id)).execute() > 0);
    }

    @Override
    public boolean putSecurityRecord(String kind, String name, String record, boolean onlyIfAbsent) {
        return inTransaction("storing the " + kind + " [" + name + "]", trx -> {
            var insert = trx.insertInto(CatalogTables.SECURITY_RECORDS, CatalogTables.SECURITY_KIND,
                    CatalogTables.SECURITY_NAME, CatalogTables.SECURITY_RECORD).values(kind, name, record)
                    .onConflict(CatalogTables.SECURITY_KIND, CatalogTables.SECURITY_NAME);
            return (onlyIfAbsent ? insert.doNothing().execute()
                    : insert.doUpdate().set(CatalogTables.SECURITY_RECORD, record).execute()) > 0;
        });
    }

    @Override
    public java.util.Optional<String> securityRecord(String kind, String name) {
        return inTransaction("reading the " + kind + " [" + name + "]", trx -> trx
                .select(CatalogTables.SECURITY_RECORD).from(CatalogTables.SECURITY_RECORDS)
                .where(CatalogTables.SECURITY_KIND.eq(kind)).and(CatalogTables.SECURITY_NAME.eq(name))
                .fetchOptional(r -> r.value1()));
    }

    @Override
    public java.util.SortedMap<String, String> securityRecords(String kind) {
        return inTransaction("reading every " + kind, trx -> {
            java.util.SortedMap<String, String> out = new java.util.TreeMap<>();
            trx.select(CatalogTables.SECURITY_NAME, CatalogTables.SECURITY_RECORD)
                    .from(CatalogTables.SECURITY_RECORDS).where(CatalogTables.SECURITY_KIND.eq(kind))
                    .forEach(r -> out.put(r.value1(), r.value2()));
            return out;
        });
    }

    @Override
    public java.util.Map<String, String> templates(io.qdrant.esgateway.domain.index.TemplateKind kind) {
        return inTransaction("reading templates", trx -> {
            java.util.Map<String, String> out = new java.util.TreeMap<>();
            trx.select(CatalogTables.TEMPLATE_NAME, CatalogTables.TEMPLATE_SOURCE).from(CatalogTables.TEMPLATES)
                    .where(CatalogTables.TEMPLATE_KIND.eq(kindName(kind)))
                    .forEach(r -> out.put(r.value1(), r.value2()));
            return out;
        });
    }

    @Override
    public boolean deleteSecurityRecord(String kind, String name) {
        return inTransaction("deleting the " + kind + " [" + name + "]", trx -> trx
                .deleteFrom(CatalogTables.SECURITY_RECORDS).where(CatalogTables.SECURITY_KIND.eq(kind))
                .and(CatalogTables.SECURITY_NAME.eq(name)).execute() > 0);
    }

    @Override
    public boolean putTemplate(io.qdrant.esgateway.domain.index.TemplateKind kind, String name, String json,
                               boolean onlyIfAbsent) {
        return inTransaction("storing template [" + name + "]", trx -> {
            var insert = trx.insertInto(CatalogTables.TEMPLATES, CatalogTables.TEMPLATE_KIND,
                    CatalogTables.TEMPLATE_NAME, CatalogTables.TEMPLATE_SOURCE).values(kindName(kind), name, json);
            if (onlyIfAbsent) {
                return insert.onConflictDoNothing().execute() > 0;
            }
            insert.onConflict(CatalogTables.TEMPLATE_KIND, CatalogTables.TEMPLATE_NAME).doUpdate()
                    .set(CatalogTables.TEMPLATE_SOURCE, json).execute();
            return true;
        });
    }

    @Override
    public boolean deleteTemplate(io.qdrant.esgateway.domain.index.TemplateKind kind, String name) {
        return inTransaction("deleting template [" + name + "]", trx -> trx.deleteFrom(CatalogTables.TEMPLATES)
                .where(CatalogTables.TEMPLATE_KIND.eq(kindName(kind)).and(CatalogTables.TEMPLATE_NAME.eq(name)))
                .execute() > 0);
    }

    private static String kindName(io.qdrant.esgateway.domain.index.TemplateKind kind) {
        return kind.name().toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public void ping() {
        inTransaction("reading the catalog", SqliteCatalog::readVersion);
    }

    @Override
    public void close() {
        lock.lock();
        try {
            if (!closed) {
                closed = true;
                if (bumpStatement != null) {
                    bumpStatement.close();
                }
                if (dataVersionStatement != null) {
                    dataVersionStatement.close();
                }
                if (commits != null) {
                    commits.close();
                }
                connection.close();
            }
        } catch (SQLException e) {
            LOG.log(Level.WARNING, "closing catalog database [" + file + "] failed", e);
        } finally {
            lock.unlock();
        }
    }

    /** How many times {@code PRAGMA data_version} ran on this connection (for tests). */
    long dataVersionQueries() {
        lock.lock();
        try {
            return commits == null ? 0 : commits.queries();
        } finally {
            lock.unlock();
        }
    }

    /** The value of a pragma ({@code journal_mode}, {@code foreign_keys}, …) on this connection, as text. */
    String pragma(String name) {
        if (!PRAGMA_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not a pragma name: " + name);
        }
        lock.lock();
        try {
            requireOpen();
            return String.valueOf(dsl.fetchValue("pragma " + name));
        } catch (DataAccessException e) {
            throw unavailable("reading pragma " + name, e);
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------------------------------ transactions

    @FunctionalInterface
    private interface Work<T> {
        T run(DSLContext trx);
    }

    /** Runs {@code work} in one transaction on the connection, holding the lock; SQL failures become unavailable. */
    /** A transaction that changes the view: the cached view is dropped, whether it commits or not. */
    private <T> T inWriteTransaction(String operation, Work<T> work) {
        lock.lock();
        try {
            return inTransaction(operation, work);
        } finally {
            cachedView = null;
            generations.clear();
            lock.unlock();
        }
    }

    private <T> T inTransaction(String operation, Work<T> work) {
        lock.lock();
        try {
            requireOpen();
            return dsl.transactionResult(configuration -> work.run(configuration.dsl()));
        } catch (DataAccessException e) {
            throw unavailable(operation, e);
        } finally {
            lock.unlock();
        }
    }

    private void requireOpen() {
        if (closed) {
            throw GatewayException.backendUnavailable("catalog database [" + file + "] is closed", null);
        }
    }

    private GatewayException unavailable(String operation, Exception cause) {
        return GatewayException.backendUnavailable("catalog database [" + file + "]: " + operation + " failed: "
                + cause.getMessage(), cause);
    }

    private static void closeQuietly(Connection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.log(Level.FINE, "closing a catalog connection that failed to open", e);
            }
        }
    }

    // ------------------------------------------------------------------------------------------ rows

    private static long readVersion(DSLContext trx) {
        return trx.select(STATE_VERSION).from(CATALOG_STATE).where(STATE_ID.eq(STATE_ROW)).fetchSingle(STATE_VERSION);
    }

    private static void bumpVersion(DSLContext trx) {
        trx.update(CATALOG_STATE).set(STATE_VERSION, STATE_VERSION.plus(1L)).where(STATE_ID.eq(STATE_ROW)).execute();
    }

    private static long readGeneration(DSLContext trx, String index) {
        return trx.select(INDEX_GENERATION).from(INDICES).where(INDEX_NAME.eq(index))
                .fetchOptional(INDEX_GENERATION)
                .orElseThrow(() -> GatewayException.indexNotFound(index));
    }

    private static void insertAliases(DSLContext trx, List<AliasMetadata> aliases) {
        for (AliasMetadata a : aliases) {
            trx.insertInto(ALIASES, ALIAS_NAME, ALIAS_INDEX, ALIAS_INDEX_ROUTING, ALIAS_SEARCH_ROUTING,
                            ALIAS_IS_WRITE_INDEX, ALIAS_IS_HIDDEN, ALIAS_FILTER)
                    .values(a.alias(), a.index(), a.indexRouting().orElse(null), a.searchRouting().orElse(null),
                            a.isWriteIndex().orElse(null), a.isHidden().orElse(null),
                            a.filter().map(Json::write).orElse(null))
                    .execute();
        }
    }

    private static AliasMetadata toAlias(Record r) {
        return new AliasMetadata(r.get(ALIAS_NAME), r.get(ALIAS_INDEX), Optional.ofNullable(r.get(ALIAS_INDEX_ROUTING)),
                Optional.ofNullable(r.get(ALIAS_SEARCH_ROUTING)), Optional.ofNullable(r.get(ALIAS_IS_WRITE_INDEX)),
                Optional.ofNullable(r.get(ALIAS_IS_HIDDEN)),
                Optional.ofNullable(r.get(ALIAS_FILTER)).map(f -> (JsonObject) Json.parse(f)));
    }

    private IndexMetadata toIndex(Record r) {
        String name = r.get(INDEX_NAME);
        try {
            return new IndexMetadata(name, r.get(INDEX_UUID), Instant.ofEpochMilli(r.get(INDEX_CREATION_DATE)),
                    readSettings(r.get(INDEX_SETTINGS)), Mappings.parse(Json.parse(r.get(INDEX_MAPPINGS))));
        } catch (RuntimeException e) {
            throw GatewayException.backendUnavailable("catalog database [" + file + "] holds an unreadable entry for"
                    + " index [" + name + "]: " + e.getMessage(), e);
        }
    }

    /** Settings as a JSON object of the flat {@code index.*} keys, every value a string. */
    static String writeSettings(IndexSettings settings) {
        Map<String, JsonValue> members = new LinkedHashMap<>();
        settings.toFlatMap().forEach((key, value) -> members.put(key, new JsonValue.JsonString(value)));
        return Json.write(new JsonObject(members));
    }

    static IndexSettings readSettings(String json) {
        if (!(Json.parse(json) instanceof JsonObject object)) {
            throw new IllegalArgumentException("the settings are not a JSON object");
        }
        Map<String, String> flat = new LinkedHashMap<>();
        object.members().forEach((key, value) -> flat.put(key, JsonReads.text(value).orElseThrow(
                () -> new IllegalArgumentException("setting [" + key + "] is not a scalar"))));
        return IndexSettings.fromFlatMap(flat);
    }

    private static void requireDistinct(List<AliasMetadata> aliases) {
        Set<List<String>> seen = new HashSet<>();
        for (AliasMetadata alias : aliases) {
            if (!seen.add(List.of(alias.alias(), alias.index()))) {
                throw new IllegalArgumentException("alias [" + alias.alias() + "] on index [" + alias.index()
                        + "] is listed twice");
            }
        }
    }
}
