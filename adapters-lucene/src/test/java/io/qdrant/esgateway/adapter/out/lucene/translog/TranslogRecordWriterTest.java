package io.qdrant.esgateway.adapter.out.lucene.translog;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * {@link TranslogRecordWriter} writes exactly what {@link DataOutputStream} writes for the same calls (the translog's format
 * before it), across chunk boundaries, and never holds an array larger than a chunk.
 */
class RecordBytesTest {

    @Test
    void randomWritesEqualDataOutputStreamsBytesAcrossChunkBoundaries() throws IOException {
        Random random = new Random(7);
        for (int round = 0; round < 40; round++) {
            ByteArrayOutputStream expectedBytes = new ByteArrayOutputStream();
            DataOutputStream expected = new DataOutputStream(expectedBytes);
            TranslogRecordWriter actual = new TranslogRecordWriter(random.nextInt(100_000));
            int writes = 1 + random.nextInt(20_000);
            for (int w = 0; w < writes; w++) {
                switch (random.nextInt(8)) {
                    case 0 -> {
                        int b = random.nextInt(256);
                        expected.writeByte(b);
                        actual.writeByte(b);
                    }
                    case 1 -> {
                        int v = random.nextInt();
                        expected.writeInt(v);
                        actual.writeInt(v);
                    }
                    case 2 -> {
                        long v = random.nextLong();
                        expected.writeLong(v);
                        actual.writeLong(v);
                    }
                    case 3 -> {
                        float v = random.nextFloat() * 1e6f - 5e5f;
                        expected.writeFloat(v);
                        actual.writeFloat(v);
                    }
                    case 4 -> {
                        double v = random.nextGaussian() * 1e9;
                        expected.writeDouble(v);
                        actual.writeDouble(v);
                    }
                    case 5 -> {
                        boolean v = random.nextBoolean();
                        expected.writeBoolean(v);
                        actual.writeBoolean(v);
                    }
                    case 6 -> {
                        byte[] v = new byte[random.nextInt(random.nextInt(10) == 0 ? 200_000 : 300)];
                        random.nextBytes(v);
                        expected.write(v);
                        actual.write(v);
                    }
                    default -> {
                        String v = text(random);
                        byte[] utf8 = v.getBytes(StandardCharsets.UTF_8);
                        expected.writeInt(utf8.length);
                        expected.write(utf8);
                        actual.writeString(v);
                    }
                }
            }
            expected.flush();
            assertThat(actual.length()).isEqualTo(expectedBytes.size());
            assertThat(concat(actual.buffers())).isEqualTo(expectedBytes.toByteArray());
            CRC32C want = new CRC32C();
            want.update(expectedBytes.toByteArray());
            CRC32C got = new CRC32C();
            actual.checksum(got);
            assertThat(got.getValue()).isEqualTo(want.getValue());
            assertThat(actual.buffers()).allSatisfy(b -> assertThat(b.array().length).isLessThanOrEqualTo(
                    TranslogRecordWriter.CHUNK));
        }
    }

    @Test
    void nothingWrittenIsNoBytes() {
        TranslogRecordWriter empty = new TranslogRecordWriter(0);
        assertThat(empty.length()).isZero();
        assertThat(concat(empty.buffers())).isEmpty();
    }

    /** ASCII only, or ASCII mostly with sometimes other Latin-1, CJK, a surrogate pair or a lone surrogate ('?' in UTF-8). */
    private static String text(Random random) {
        int n = random.nextInt(random.nextInt(20) == 0 ? 100_000 : 60);
        StringBuilder sb = new StringBuilder(n);
        boolean ascii = random.nextBoolean();
        for (int i = 0; i < n; i++) {
            int kind = ascii ? 200 : random.nextInt(200);
            if (kind == 0) {
                sb.append('é');
            } else if (kind == 1) {
                sb.append('日');
            } else if (kind == 2) {
                sb.appendCodePoint(0x1F600);
            } else if (kind == 3) {
                sb.append('\uD800');
            } else {
                sb.append((char) (32 + random.nextInt(95)));
            }
        }
        return sb.toString();
    }

    private static byte[] concat(List<ByteBuffer> buffers) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuffer b : buffers) {
            out.write(b.array(), b.arrayOffset() + b.position(), b.remaining());
        }
        return out.toByteArray();
    }
}
