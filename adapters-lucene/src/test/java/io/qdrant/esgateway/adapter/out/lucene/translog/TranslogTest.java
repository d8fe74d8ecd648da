package io.qdrant.esgateway.adapter.out.lucene.translog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexedValue;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.apache.lucene.index.CorruptIndexException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The translog's file format on its own: what is appended is read back exactly; what is not whole is not. */
class TranslogTest {

    @TempDir
    Path dir;

    private static final Translog.Op.Upsert EVERY_KIND = new Translog.Op.Upsert("id-é-😀",
            new DocumentVersion(7, 41, 1), "{\"a\":\"\\ud800\",\"b\":1.50}".getBytes(StandardCharsets.UTF_8),
            List.of(new IndexedValue.Keyword("k", "v"), new IndexedValue.Text("t", "quick brown fox"),
                    new IndexedValue.LongValue("l", Long.MIN_VALUE), new IndexedValue.DoubleValue("d", -0.0),
                    new IndexedValue.FloatValue("f", Float.NaN), new IndexedValue.BooleanValue("b", false),
                    new IndexedValue.DateValue("at", -86_400_000L),
                    new IndexedValue.Vector("v", new float[] {1.5f, -2, Float.MAX_VALUE})));

    private static void assertSameOps(List<Translog.Op> actual, List<Translog.Op> expected) {
        assertThat(actual).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            switch (expected.get(i)) {
                case Translog.Op.Upsert u -> assertThat(actual.get(i)).isInstanceOfSatisfying(Translog.Op.Upsert.class,
                        a -> {
                            assertThat(a.id()).isEqualTo(u.id());
                            assertThat(a.version()).isEqualTo(u.version());
                            assertThat(a.source()).isEqualTo(u.source());
                            assertThat(a.values()).isEqualTo(u.values());
                        });
                case Translog.Op.Delete d -> assertThat(actual.get(i)).isEqualTo(d);
            }
        }
    }

    @Test
    void whatIsAppendedAndSyncedIsReadBackInOrder() throws IOException {
        List<Translog.Op> first = List.of(EVERY_KIND, new Translog.Op.Delete("gone"));
        try (Translog log = Translog.create(dir, 3, Translog.Fsync.DEFAULT)) {
            long a = log.append(Translog.prepare(first), 41);
            long b = log.append(Translog.prepare(List.of()), 50);
            assertThat(b).isGreaterThan(a);
            log.sync(b);
            assertThat(log.sizeInBytes()).isEqualTo(Files.size(Translog.file(dir, 3)));
        }

        List<Translog.Batch> batches = Translog.read(dir, 3);

        assertThat(batches).hasSize(2);
        assertThat(batches.get(0).maxSeqNo()).isEqualTo(41);
        assertSameOps(batches.get(0).ops(), first);
        assertThat(batches.get(1).maxSeqNo()).isEqualTo(50);
        assertThat(batches.get(1).ops()).isEmpty();
        assertThat(Translog.read(dir, 4)).isEmpty();
    }

    @Test
    void encodeWritesTheSameBytesAsAppend() throws IOException {
        Translog.Batch batch = new Translog.Batch(9, List.of(EVERY_KIND));
        try (Translog log = Translog.create(dir, 1, Translog.Fsync.DEFAULT)) {
            log.append(Translog.prepare(batch.ops()), batch.maxSeqNo());
        }
        byte[] file = Files.readAllBytes(Translog.file(dir, 1));
        byte[] record = Translog.encode(batch);
        assertThat(file).hasSize(Translog.HEADER_BYTES + record.length);
        assertThat(java.util.Arrays.copyOfRange(file, Translog.HEADER_BYTES, file.length)).isEqualTo(record);
    }

    @Test
    void generationsAreReadFromTheGivenOneOnAndRollingDeletesTheOlderFiles() throws IOException {
        try (Translog log = Translog.create(dir, 1, Translog.Fsync.DEFAULT)) {
            log.append(Translog.prepare(List.of(new Translog.Op.Delete("one"))), 1);
            log.roll(2);
            log.append(Translog.prepare(List.of(new Translog.Op.Delete("two"))), 2);
            assertThat(log.generation()).isEqualTo(2);
        }
        assertThat(Translog.files(dir).keySet()).containsExactly(2L);
        assertThat(Translog.read(dir, 0)).extracting(Translog.Batch::maxSeqNo).containsExactly(2L);
    }

    @Test
    void aFileShorterThanItsHeaderHoldsNothingAndAForeignFileIsCorrupt() throws IOException {
        Files.write(Translog.file(dir, 1), new byte[] {0x51, 0x54});
        assertThat(Translog.read(dir, 1)).isEmpty();

        Files.write(Translog.file(dir, 2), "not a translog".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> Translog.read(dir, 1)).isInstanceOf(CorruptIndexException.class)
                .hasMessageContaining("not a translog file");
    }

    @Test
    void aRecordWithAnUnknownOperationIsCorruptEvenWithAGoodChecksum() throws IOException {
        try (Translog log = Translog.create(dir, 1, Translog.Fsync.DEFAULT)) {
            log.append(Translog.prepare(List.of(new Translog.Op.Delete("x"))), 1);
        }
        Path file = Translog.file(dir, 1);
        byte[] bytes = Files.readAllBytes(file);
        // payload: int count, byte kind (at header + 8 + 4)
        bytes[Translog.HEADER_BYTES + 8 + 4] = 9;
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(bytes, Translog.HEADER_BYTES + 8, bytes.length - Translog.HEADER_BYTES - 8);
        java.nio.ByteBuffer.wrap(bytes).putInt(Translog.HEADER_BYTES + 4, (int) crc.getValue());
        Files.write(file, bytes, StandardOpenOption.TRUNCATE_EXISTING);

        assertThatThrownBy(() -> Translog.read(dir, 1)).isInstanceOf(CorruptIndexException.class)
                .hasMessageContaining("unknown translog operation 9");
    }

    @Test
    void afterAFailedFsyncEveryCallFailsUntilReopened() throws IOException {
        boolean[] fail = {false};
        Translog.Fsync flaky = channel -> {
            if (fail[0]) {
                throw new IOException("disk gone");
            }
            channel.force(false);
        };
        try (Translog log = Translog.create(dir, 1, flaky)) {
            long position = log.append(Translog.prepare(List.of(new Translog.Op.Delete("x"))), 1);
            fail[0] = true;
            assertThatThrownBy(() -> log.sync(position)).hasMessage("disk gone");
            fail[0] = false;
            assertThat(log.tragic()).isTrue();
            assertThatThrownBy(() -> log.sync(position)).hasMessageContaining("must be reopened");
            assertThatThrownBy(() -> log.append(Translog.prepare(List.of()), 2))
                    .hasMessageContaining("must be reopened");
        }
    }
}
