package io.qdrant.esgateway.adapter.out.catalog.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog asks SQLite for {@code data_version} only when the WAL-index header moved ({@link CommitWatch}), and
 * still sees every commit of another connection or process at the next call.
 */
class CommitWatchTest {

    @TempDir
    Path dir;

    private static IndexMetadata index(String name) {
        return new IndexMetadata(name, "uuid-" + name, Instant.ofEpochMilli(1_700_000_000_000L), IndexSettings.DEFAULTS,
                Mappings.EMPTY);
    }

    private static SqliteCatalog open(Path file) {
        return SqliteCatalog.open(file, SchemaMigrations.ALL, InstantSource.system());
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.executeUpdate(sql);
        }
    }

    private static TreeSet<String> names(CatalogView view) {
        return new TreeSet<>(view.indices().keySet());
    }

    @Test
    void whileNothingCommitsTheViewIsServedWithoutAskingSqlite() {
        try (SqliteCatalog catalog = open(dir.resolve("quiet.db"))) {
            catalog.createIndex(index("a"), List.of());
            CatalogView first = catalog.view();
            long asked = catalog.dataVersionQueries();
            for (int i = 0; i < 100; i++) {
                assertThat(catalog.view()).isSameAs(first);
                assertThat(catalog.generation("a")).isZero();
            }
            // the first call after the write pairs the header with an answer; then the header alone answers
            assertThat(catalog.dataVersionQueries() - asked).isLessThanOrEqualTo(1);
        }
    }

    @Test
    void thisConnectionsOwnWritesAskSqliteOnceAndKeepTheView() {
        try (SqliteCatalog catalog = open(dir.resolve("own.db"))) {
            catalog.createIndex(index("a"), List.of());
            CatalogView view = catalog.view();
            catalog.view();
            long asked = catalog.dataVersionQueries();
            assertThat(catalog.bumpGeneration("a")).isEqualTo(1);
            // its own commit moved the header, not data_version: one question, the same view
            assertThat(catalog.view()).isSameAs(view);
            assertThat(catalog.generation("a")).isEqualTo(1);
            assertThat(catalog.view()).isSameAs(view);
            assertThat(catalog.dataVersionQueries() - asked).isEqualTo(1);
        }
    }

    @Test
    void everyCommitOfAnotherConnectionIsSeenByTheNextCall() throws SQLException {
        Path file = dir.resolve("foreign.db");
        Random random = new Random(42);
        try (SqliteCatalog catalog = open(file);
             Connection other = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            catalog.createIndex(index("g"), List.of());
            TreeSet<String> expected = new TreeSet<>(List.of("g"));
            long generation = 0;
            int calls = 0;
            for (int round = 0; round < 300; round++) {
                switch (random.nextInt(5)) {
                    case 0 -> { // another connection adds an index (raw SQL, as another program would)
                        String name = "x" + round;
                        execute(other, "INSERT INTO indices (name, uuid, creation_date, settings, mappings, generation)"
                                + " VALUES ('" + name + "', 'u" + round + "', 0, '{}', '{}', 0)");
                        expected.add(name);
                    }
                    case 1 -> { // another connection moves the generation
                        execute(other, "UPDATE indices SET generation = generation + 1 WHERE name = 'g'");
                        generation++;
                    }
                    case 2 -> generation = catalog.bumpGeneration("g"); // this connection
                    default -> { // nothing committed: reads only
                    }
                }
                int reads = 1 + random.nextInt(3);
                for (int r = 0; r < reads; r++) {
                    assertThat(names(catalog.view())).as("round %d", round).isEqualTo(expected);
                    assertThat(catalog.generation("g")).as("round %d", round).isEqualTo(generation);
                    calls += 2;
                }
            }
            // the shortcut was taken: most calls did not ask SQLite
            assertThat(catalog.dataVersionQueries()).isLessThan(calls / 2);
        }
    }

    @Test
    @Timeout(120)
    void everyCommitOfAnotherProcessIsSeenByTheNextCall() throws Exception {
        Path file = dir.resolve("process.db");
        try (SqliteCatalog catalog = open(file)) {
            catalog.createIndex(index("a"), List.of());
            assertThat(names(catalog.view())).containsExactly("a");
            Process child = new ProcessBuilder(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED",
                    "-cp", System.getProperty("java.class.path"),
                    OtherProcessCatalog.class.getName(), file.toString())
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8));
                 Writer in = new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8)) {
                assertThat(out.readLine()).isEqualTo("READY");
                List<String> expected = new ArrayList<>(List.of("a"));
                for (int i = 0; i < 5; i++) {
                    assertThat(catalog.generation("a")).isEqualTo(i);
                    assertThat(catalog.view()).isSameAs(catalog.view());
                    in.write("bump a\ncreate p" + i + "\n");
                    in.flush();
                    assertThat(out.readLine()).isEqualTo("OK");
                    assertThat(out.readLine()).isEqualTo("OK");
                    expected.add("p" + i);
                    assertThat(names(catalog.view())).containsExactlyElementsOf(new TreeSet<>(expected));
                    assertThat(catalog.generation("a")).isEqualTo(i + 1);
                }
                in.write("delete a\n");
                in.flush();
                assertThat(out.readLine()).isEqualTo("OK");
                assertThat(catalog.view().index("a")).isEmpty();
            } finally {
                child.getOutputStream().close();
                assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
            }
        }
    }

    @Test
    void aHeaderIsReadOnlyWhenItsTwoCopiesAgreeAndItIsInitialised() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment shm = arena.allocate(96, 8);
            long[] read = new long[WalIndexHeader.LONGS];
            assertThat(WalIndexHeader.read(shm, read)).as("all zeros: not initialised").isFalse();
            Random random = new Random(7);
            byte[] header = new byte[48];
            for (int trial = 0; trial < 200; trial++) {
                random.nextBytes(header);
                header[12] = (byte) (1 + random.nextInt(255)); // isInit
                MemorySegment.copy(header, 0, shm, ValueLayout.JAVA_BYTE, 0, 48);
                MemorySegment.copy(header, 0, shm, ValueLayout.JAVA_BYTE, 48, 48);
                assertThat(WalIndexHeader.read(shm, read)).isTrue();
                long[] expected = new long[WalIndexHeader.LONGS];
                for (int i = 0; i < expected.length; i++) {
                    expected[i] = MemorySegment.ofArray(header).get(
                            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.nativeOrder()), i * 8L);
                }
                assertThat(read).containsExactly(expected);
                // a commit half-way: one byte of either copy differs
                int at = random.nextInt(96);
                byte was = shm.get(ValueLayout.JAVA_BYTE, at);
                shm.set(ValueLayout.JAVA_BYTE, at, (byte) (was + 1));
                assertThat(WalIndexHeader.read(shm, read)).as("byte %d differs", at).isFalse();
                shm.set(ValueLayout.JAVA_BYTE, at, was);
                // both copies agree but isInit is 0
                shm.set(ValueLayout.JAVA_BYTE, 12, (byte) 0);
                shm.set(ValueLayout.JAVA_BYTE, 60, (byte) 0);
                assertThat(WalIndexHeader.read(shm, read)).isFalse();
            }
        }
    }

    @Test
    void withoutASharedMemoryFileSqliteIsAskedEveryTime() {
        long[] version = {7};
        int[] asked = {0};
        try (CommitWatch watch = new CommitWatch(dir.resolve("none.db"), () -> {
            asked[0]++;
            return version[0];
        })) {
            assertThat(watch.dataVersion()).isEqualTo(7);
            version[0] = 8;
            assertThat(watch.dataVersion()).isEqualTo(8);
            assertThat(watch.watchesTheHeader()).isFalse();
            assertThat(asked[0]).isEqualTo(2);
        }
    }
}
