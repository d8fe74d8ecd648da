package io.qdrant.esgateway.adapter.out.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durability against a real crash: a child JVM ({@link DurabilityChild}) writes documents one {@code write} call at a
 * time and acknowledges each on its standard output; the test kills it with SIGKILL in the middle of the stream,
 * opens the store again and finds every acknowledged document. Several rounds append to the same index, so each
 * round also recovers from the previous kill. The OS releases the store's file lock with the dead process, so the
 * {@code store.lock} file left behind does not block the next open.
 */
class LuceneDurabilityTest {

    @TempDir
    Path temp;

    private record Ack(String id, long seqNo) {
    }

    @Test
    @Timeout(300)
    void everyAcknowledgedWriteSurvivesAKillDashNine() throws Exception {
        Path data = temp.resolve("data");
        try (LuceneStores.Handle store = LuceneStores.open(data)) {
            store.createIndex(DurabilityChild.INDEX);
        }
        Map<String, Ack> acknowledged = new LinkedHashMap<>();
        int[] killAfter = {5, 40, 1, 120};
        for (int round = 0; round < killAfter.length; round++) {
            Path stderr = temp.resolve("child-" + round + ".err");
            Process child = new ProcessBuilder(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED",
                    "-cp", System.getProperty("java.class.path"),
                    DurabilityChild.class.getName(), data.toString(), "1000000", "r" + round + "-")
                    .redirectError(stderr.toFile())
                    .start();
            List<Ack> acks = new ArrayList<>();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                assertThat(out.readLine()).as("child stderr: %s", errors(stderr)).isEqualTo("READY");
                // while the child lives, its lock keeps every other process out
                GatewayException locked = catchThrowableOfType(GatewayException.class, () -> LuceneStores.open(data));
                assertThat(locked.kind()).isEqualTo(ErrorKind.BACKEND_UNAVAILABLE);
                assertThat(locked.reason()).endsWith("it is in use by another process");

                String line;
                while (acks.size() < killAfter[round] && (line = out.readLine()) != null) {
                    acks.add(parse(line));
                }
                assertThat(acks).as("child stderr: %s", errors(stderr)).hasSize(killAfter[round]);
                // SIGKILL to the child's pid: no shutdown hooks, no close, most likely in the middle of a write.
                // Through its ProcessHandle, because Process.destroyForcibly() also closes our end of its stdout,
                // and the ACKs still in the pipe count.
                assertThat(child.toHandle().destroyForcibly()).isTrue();
                assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
                // whatever the child printed before it died was acknowledged too
                while ((line = out.readLine()) != null) {
                    if (line.startsWith("ACK ")) {
                        acks.add(parse(line));
                    }
                }
            } finally {
                child.destroyForcibly();
            }
            assertThat(child.exitValue()).isEqualTo(128 + 9);
            acks.forEach(a -> acknowledged.put(a.id(), a));

            assertThat(data.resolve("store.lock")).exists();
            try (LuceneStores.Handle store = LuceneStores.open(data)) {
                Map<String, StoredDocument> found = store.get(DurabilityChild.INDEX, acknowledged.keySet());
                assertThat(found.keySet()).as("round %d", round).containsExactlyElementsOf(acknowledged.keySet());
                for (Ack ack : acknowledged.values()) {
                    assertThat(found.get(ack.id()))
                            .isEqualTo(DurabilityChild.document(ack.id(), ack.seqNo()).stored());
                }
                long lastAck = acks.getLast().seqNo();
                // at most the one write in flight when the child died may have made it without its ACK
                assertThat(store.maxSeqNo(DurabilityChild.INDEX)).isBetween(lastAck, lastAck + 1);
                assertThat(store.stats(DurabilityChild.INDEX).docCount())
                        .isBetween((long) acknowledged.size(), (long) acknowledged.size() + round + 1);
            }
        }
    }

    private static Ack parse(String line) {
        String[] parts = line.split(" ");
        assertThat(parts).hasSize(3);
        assertThat(parts[0]).isEqualTo("ACK");
        return new Ack(parts[1], Long.parseLong(parts[2]));
    }

    private static String errors(Path stderr) {
        try {
            return Files.exists(stderr) ? Files.readString(stderr) : "";
        } catch (IOException e) {
            return e.toString();
        }
    }
}
