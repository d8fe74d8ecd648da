package io.qdrant.esgateway.adapter.out.catalog.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.application.port.out.Catalog;
import io.qdrant.esgateway.application.port.out.CatalogContract;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The catalog contract on a real SQLite file, and what only a database file has: durability, pragmas, schema. */
class SqliteCatalogTest extends CatalogContract {

    @TempDir
    Path dir;

    @Override
    protected Catalog newCatalog() {
        return SqliteCatalogs.open(dir.resolve("contract.db"));
    }

    private static List<List<String>> query(Path file, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            List<List<String>> rows = new ArrayList<>();
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row);
            }
            return rows;
        }
    }

    private static void execute(Path file, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }

    @Nested
    class Durability {

        @Test
        void givenAClosedCatalog_whenTheFileIsOpenedAgain_thenEverythingIsStillThere() {
            Path file = dir.resolve("durable.db");
            CatalogView written;
            try (SqliteCatalogs.Handle first = SqliteCatalogs.open(file)) {
                first.createIndex(index("a").withMappings(mappings(RICH_MAPPINGS)),
                        List.of(alias("x", "a", "1", "2", true, false)));
                first.createIndex(index("b"), List.of(alias("y", "b")));
                first.bumpGeneration("a");
                first.bumpGeneration("a");
                written = first.view();
            }

            try (SqliteCatalogs.Handle second = SqliteCatalogs.open(file)) {
                assertThat(second.view()).isEqualTo(written);
                assertThat(second.generation("a")).isEqualTo(2);
                assertThat(second.generation("b")).isZero();
                assertThat(second.bumpGeneration("a")).isEqualTo(3);
            }
        }

        @Test
        void reopeningDoesNotRunTheMigrationsAgain() throws SQLException {
            Path file = dir.resolve("once.db");
            SqliteCatalogs.open(file).close();
            SqliteCatalogs.open(file).close();
            try (SqliteCatalogs.Handle third = SqliteCatalogs.open(file)) {
                third.createIndex(index("a"), List.of());
            }

            assertThat(query(file, "select version, description from schema_version"))
                    .containsExactly(List.of("1", "initial schema: indices, aliases, catalog_state"),
                            List.of("2", "stored scripts"), List.of("3", "security records"),
                            List.of("4", "index and component templates"), List.of("5", "alias filters"));
            assertThat(query(file, "select name from indices")).containsExactly(List.of("a"));
        }

        @Test
        void aCatalogWithoutAliasFiltersKeepsItsAliasesWhenMigrated() throws SQLException {
            Path file = dir.resolve("four.db");
            try (SqliteCatalog old = SqliteCatalog.open(file, SchemaMigrations.ALL.subList(0, 4),
                    InstantSource.system())) {
                old.createIndex(index("a"), List.of());
            }
            execute(file, "insert into aliases (alias, index_name, search_routing) values ('x', 'a', 'r')");
            try (SqliteCatalogs.Handle current = SqliteCatalogs.open(file)) {
                assertThat(current.view().aliases()).containsExactly(new io.qdrant.esgateway.domain.index.AliasMetadata(
                        "x", "a", java.util.Optional.empty(), java.util.Optional.of("r"), java.util.Optional.empty(),
                        java.util.Optional.empty()));
            }
        }

        @Test
        void theVersionContinuesAcrossReopening() {
            Path file = dir.resolve("version.db");
            long before;
            try (SqliteCatalogs.Handle first = SqliteCatalogs.open(file)) {
                first.createIndex(index("a"), List.of());
                before = first.view().version();
            }
            try (SqliteCatalogs.Handle second = SqliteCatalogs.open(file)) {
                assertThat(second.view().version()).isEqualTo(before);
                second.createIndex(index("b"), List.of());
                assertThat(second.view().version()).isGreaterThan(before);
            }
        }

        @Test
        void missingParentDirectoriesAreCreated() {
            Path file = dir.resolve("deep/er/catalog.db");

            try (SqliteCatalogs.Handle catalog = SqliteCatalogs.open(file)) {
                catalog.ping();
                assertThat(catalog.databaseFile()).isEqualTo(file.toAbsolutePath());
            }
            assertThat(file).isRegularFile();
        }

        @Test
        void aRelativePathIsMadeAbsolute() {
            try (SqliteCatalogs.Handle catalog = SqliteCatalogs.open(dir.resolve("a/../rel.db"))) {
                assertThat(catalog.databaseFile()).isAbsolute();
            }
        }

        @Test
        void aCachedViewSeesChangesThisAndAnotherConnectionCommitted() {
            Path file = dir.resolve("shared.db");
            try (SqliteCatalogs.Handle first = SqliteCatalogs.open(file);
                 SqliteCatalogs.Handle second = SqliteCatalogs.open(file)) {
                CatalogView before = first.view();
                assertThat(first.view()).isSameAs(before);
                // another connection's commit moves SQLite's data_version: the cached view is read again
                second.createIndex(index("from-elsewhere"), List.of());
                assertThat(first.view().index("from-elsewhere")).isPresent();
                // this connection's own change drops the cached view
                first.updateMappings("from-elsewhere", mappings(RICH_MAPPINGS));
                assertThat(first.view().index("from-elsewhere").get().mappings()).isEqualTo(mappings(RICH_MAPPINGS));
                first.deleteIndices(List.of("from-elsewhere"));
                assertThat(first.view().indices()).isEmpty();
                assertThat(second.view().indices()).isEmpty();
            }
        }

        @Test
        void theStoredRowsAreReadableJsonAndMillis() throws SQLException {
            Path file = dir.resolve("rows.db");
            try (SqliteCatalogs.Handle catalog = SqliteCatalogs.open(file)) {
                catalog.createIndex(new IndexMetadata("a", "u1", Instant.ofEpochMilli(1_700_000_000_123L),
                        new IndexSettings(1, 0, Optional.of("1s"), 20, true),
                        mappings("{\"properties\":{\"t\":{\"type\":\"keyword\"}}}")), List.of(alias("x", "a")));
            }

            assertThat(query(file, "select name, uuid, creation_date, settings, mappings, generation from indices"))
                    .containsExactly(List.of("a", "u1", "1700000000123",
                            "{\"index.max_result_window\":\"20\",\"index.number_of_replicas\":\"0\","
                                    + "\"index.number_of_shards\":\"1\",\"index.refresh_interval\":\"1s\"}",
                            "{\"properties\":{\"t\":{\"type\":\"keyword\"}}}", "0"));
            assertThat(query(file, "select alias, index_name, index_routing, search_routing, is_write_index,"
                    + " is_hidden from aliases")).containsExactly(java.util.Arrays.asList("x", "a", null, null, null,
                    null));
        }
    }

    @Nested
    class Pragmas {

        @Test
        void thePragmasAreSetOnTheConnection() {
            try (SqliteCatalogs.Handle handle = SqliteCatalogs.open(dir.resolve("pragmas.db"))) {
                SqliteCatalog catalog = (SqliteCatalog) handle;

                assertThat(catalog.pragma("journal_mode")).isEqualToIgnoringCase("wal");
                assertThat(catalog.pragma("synchronous")).isEqualTo("2"); // FULL
                assertThat(catalog.pragma("busy_timeout")).isEqualTo(Integer.toString(SqliteCatalog.BUSY_TIMEOUT_MILLIS));
                assertThat(catalog.pragma("foreign_keys")).isEqualTo("1");
            }
        }

        @Test
        void bumpingTheGenerationSkipsTheFsyncButLeavesTheConnectionAtFull() {
            Path file = dir.resolve("bump.db");
            try (SqliteCatalogs.Handle handle = SqliteCatalogs.open(file)) {
                SqliteCatalog catalog = (SqliteCatalog) handle;
                catalog.createIndex(index("a"), List.of());

                assertThat(catalog.bumpGeneration("a")).isEqualTo(1);
                assertThat(catalog.pragma("synchronous")).isEqualTo("2");
                failure(ErrorKind.INDEX_NOT_FOUND, () -> catalog.bumpGeneration("missing"));
                assertThat(catalog.pragma("synchronous")).isEqualTo("2");
                // committed to the WAL file, not only to this connection: another one sees it before any close
                try (SqliteCatalogs.Handle other = SqliteCatalogs.open(file)) {
                    assertThat(other.generation("a")).isEqualTo(1);
                }
            }
        }

        @Test
        void aGenerationReadAgainSeesEveryMoveOfThisAndOtherConnections() {
            Path file = dir.resolve("generations.db");
            try (SqliteCatalogs.Handle first = SqliteCatalogs.open(file);
                 SqliteCatalogs.Handle second = SqliteCatalogs.open(file)) {
                first.createIndex(index("a"), List.of());
                first.createIndex(index("b"), List.of());
                assertThat(first.generation("a")).isZero();
                assertThat(second.generation("a")).isZero();

                second.bumpGeneration("a"); // another connection: first's remembered generations are stale now
                assertThat(first.generation("a")).isEqualTo(1);
                assertThat(first.bumpGeneration("a")).isEqualTo(2); // its own move
                assertThat(first.generation("a")).isEqualTo(2);
                assertThat(second.generation("a")).isEqualTo(2);
                assertThat(first.generation("b")).isZero();

                first.deleteIndices(List.of("a")); // its own other writes drop what it remembers
                failure(ErrorKind.INDEX_NOT_FOUND, () -> first.generation("a"));
                failure(ErrorKind.INDEX_NOT_FOUND, () -> second.generation("a"));
                first.createIndex(index("a"), List.of());
                assertThat(first.generation("a")).isZero();
                assertThat(second.generation("a")).isZero();
            }
        }

        @Test
        void theFileIsInWalModeForOtherConnectionsToo() throws SQLException {
            Path file = dir.resolve("wal.db");
            try (SqliteCatalogs.Handle catalog = SqliteCatalogs.open(file)) {
                catalog.createIndex(index("a"), List.of());
                assertThat(query(file, "pragma journal_mode")).containsExactly(List.of("wal"));
                assertThat(file.resolveSibling("wal.db-wal")).exists();
            }
        }

        @Test
        void theSchemaHasTheForeignKeyThatRemovesAliasesWithTheirIndex() throws SQLException {
            Path file = dir.resolve("schema.db");
            SqliteCatalogs.open(file).close();

            assertThat(query(file, "select \"table\", \"from\", \"to\", on_delete from pragma_foreign_key_list('aliases')"))
                    .containsExactly(List.of("indices", "index_name", "name", "CASCADE"));
            assertThat(query(file, "select name from sqlite_schema where type = 'table' order by name"))
                    .containsExactly(List.of("aliases"), List.of("catalog_state"), List.of("indices"),
                            List.of("schema_version"), List.of("security_records"), List.of("stored_scripts"),
                            List.of("templates"));
        }

        @Test
        void givenAClosedCatalog_thenEveryCallIsBackendUnavailable() {
            SqliteCatalogs.Handle catalog = SqliteCatalogs.open(dir.resolve("closed.db"));
            catalog.createIndex(index("a"), List.of());
            catalog.close();
            catalog.close(); // idempotent

            GatewayException e = failure(ErrorKind.BACKEND_UNAVAILABLE, catalog::ping);
            failure(ErrorKind.BACKEND_UNAVAILABLE, catalog::view);
            failure(ErrorKind.BACKEND_UNAVAILABLE, () -> catalog.createIndex(index("b"), List.of()));
            failure(ErrorKind.BACKEND_UNAVAILABLE, () -> catalog.bumpGeneration("a"));

            assertThat(e.getMessage()).contains("catalog database", "closed.db", "closed");
        }

        @Test
        void givenAnotherConnectionHoldsTheWriteLockLongerThanTheBusyTimeout_thenCallsAreBackendUnavailable()
                throws SQLException {
            Path file = dir.resolve("locked.db");
            try (SqliteCatalog catalog = SqliteCatalog.open(file, SchemaMigrations.ALL, InstantSource.system(), 200);
                 Connection other = DriverManager.getConnection("jdbc:sqlite:" + file);
                 Statement statement = other.createStatement()) {
                catalog.createIndex(index("a"), List.of());
                statement.execute("begin immediate");

                GatewayException write = failure(ErrorKind.BACKEND_UNAVAILABLE,
                        () -> catalog.createIndex(index("b"), List.of()));
                // transactions begin IMMEDIATE, so a snapshot read waits for the writer too
                failure(ErrorKind.BACKEND_UNAVAILABLE, catalog::view);

                statement.execute("rollback");
                catalog.createIndex(index("b"), List.of());
                assertThat(catalog.view().indices()).containsOnlyKeys("a", "b");
                assertThat(write.getMessage()).contains("catalog database", "locked.db", "creating index [b]");
            }
        }

        @Test
        void twoHandlesOnOneFileSeeEachOthersChanges() {
            Path file = dir.resolve("shared.db");
            try (SqliteCatalogs.Handle one = SqliteCatalogs.open(file);
                 SqliteCatalogs.Handle two = SqliteCatalogs.open(file)) {
                one.createIndex(index("a"), List.of());
                long stale = two.view().version();
                one.createIndex(index("b"), List.of());

                assertThat(two.view().indices()).containsOnlyKeys("a", "b");
                assertThat(two.applyAliasPlan(stale, plan(List.of(alias("x", "a")), Set.of()))).isFalse();
                failure(ErrorKind.RESOURCE_ALREADY_EXISTS, () -> two.createIndex(index("a"), List.of()));
            }
        }
    }

    @Nested
    class Schema {

        @Test
        void givenADatabaseFromANewerGateway_whenOpened_thenItIsRefusedNamingBothVersions() throws SQLException {
            Path file = dir.resolve("future.db");
            SqliteCatalogs.open(file).close();
            execute(file, "insert into schema_version (version, description, applied_at) values (7, 'future', 0)");

            GatewayException e = failure(ErrorKind.BACKEND_UNAVAILABLE, () -> SqliteCatalogs.open(file));

            assertThat(e.getMessage()).contains("future.db", "schema version 7", "up to " + SchemaMigrations.ALL.size());
            assertThat(query(file, "select max(version) from schema_version")).containsExactly(List.of("7"));
        }

        @Test
        void givenADatabaseAtAnOlderVersion_whenOpenedByNewerCode_thenOnlyTheMissingMigrationsRunInOrder()
                throws SQLException {
            Path file = dir.resolve("upgrade.db");
            try (SqliteCatalogs.Handle v1 = SqliteCatalogs.open(file)) {
                v1.createIndex(index("a"), List.of(alias("x", "a")));
            }
            List<SchemaMigrations.Migration> newer = new ArrayList<>(SchemaMigrations.ALL);
            int known = SchemaMigrations.ALL.size();
            newer.add(new SchemaMigrations.Migration(known + 1, "add a note column",
                    dsl -> dsl.execute("alter table indices add column note varchar")));
            newer.add(new SchemaMigrations.Migration(known + 2, "fill the note",
                    dsl -> dsl.execute("update indices set note = 'migrated'")));

            try (SqliteCatalog v3 = SqliteCatalog.open(file, newer, InstantSource.system())) {
                assertThat(v3.view().indices()).containsOnlyKeys("a");
                assertThat(v3.view().aliases()).containsExactly(alias("x", "a"));
            }
            try (SqliteCatalog again = SqliteCatalog.open(file, newer, InstantSource.system())) {
                again.ping();
            }

            List<List<String>> versions = new ArrayList<>();
            for (int v = 1; v <= known + 2; v++) {
                versions.add(List.of(String.valueOf(v)));
            }
            assertThat(query(file, "select version from schema_version order by version"))
                    .containsExactlyElementsOf(versions);
            assertThat(query(file, "select name, note from indices")).containsExactly(List.of("a", "migrated"));
        }

        @Test
        void givenAFailingMigration_thenNothingOfItIsKeptAndTheDatabaseStaysAtItsVersion() throws SQLException {
            Path file = dir.resolve("failing.db");
            SqliteCatalogs.open(file).close();
            List<SchemaMigrations.Migration> broken = new ArrayList<>(SchemaMigrations.ALL);
            broken.add(new SchemaMigrations.Migration(SchemaMigrations.ALL.size() + 1, "half done", dsl -> {
                dsl.execute("create table extra (x integer)");
                dsl.execute("this is not sql");
            }));

            failure(ErrorKind.BACKEND_UNAVAILABLE, () -> SqliteCatalog.open(file, broken, InstantSource.system()));

            assertThat(query(file, "select max(version) from schema_version"))
                    .containsExactly(List.of(String.valueOf(SchemaMigrations.ALL.size())));
            assertThat(query(file, "select count(*) from sqlite_schema where name = 'extra'"))
                    .containsExactly(List.of("0"));
        }

        @Test
        void aFileThatIsNotADatabaseIsRefusedAsUnavailable() throws IOException {
            Path file = dir.resolve("text.db");
            Files.writeString(file, "this is not a database, just some text that is long enough to have a header");

            GatewayException e = failure(ErrorKind.BACKEND_UNAVAILABLE, () -> SqliteCatalogs.open(file));

            assertThat(e.getMessage()).contains("catalog database", "text.db");
        }

        @Test
        void aPathThatIsADirectoryIsRefusedAsUnavailable() throws IOException {
            Path directory = Files.createDirectories(dir.resolve("a-directory"));

            GatewayException e = failure(ErrorKind.BACKEND_UNAVAILABLE, () -> SqliteCatalogs.open(directory));

            assertThat(e.getMessage()).contains("catalog database", "a-directory");
        }

        @Test
        void givenAnUnreadableRow_thenReadingTheCatalogIsBackendUnavailableNamingTheIndex() throws SQLException {
            Path file = dir.resolve("corrupt.db");
            try (SqliteCatalogs.Handle catalog = SqliteCatalogs.open(file)) {
                catalog.createIndex(index("broken"), List.of());
            }
            execute(file, "update indices set mappings = '{\"properties\": 42' where name = 'broken'");

            try (SqliteCatalogs.Handle catalog = SqliteCatalogs.open(file)) {
                GatewayException e = failure(ErrorKind.BACKEND_UNAVAILABLE, catalog::view);
                assertThat(e.getMessage()).contains("[broken]");
                assertThat(catalog.generation("broken")).isZero();
            }
        }
    }

    @Test
    void theSettingsColumnRoundTripsEveryShapeOfSettings() {
        for (IndexSettings settings : List.of(IndexSettings.DEFAULTS,
                new IndexSettings(1, 1, Optional.empty(), 10_000, true),
                new IndexSettings(5, 0, Optional.of("-1"), 1, true),
                new IndexSettings(1, 3, Optional.of("500ms"), 10_000, false))) {
            assertThat(SqliteCatalog.readSettings(SqliteCatalog.writeSettings(settings))).isEqualTo(settings);
        }
    }

    @Test
    void theMappingsSurviveTheDatabaseUnchangedEvenWhenEmpty() {
        catalog.createIndex(new IndexMetadata("e", "u", CREATED, IndexSettings.DEFAULTS, Mappings.EMPTY), List.of());

        assertThat(catalog.view().index("e").orElseThrow().mappings()).isEqualTo(Mappings.EMPTY);
    }
}
