package io.qdrant.esgateway.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing acknowledged is lost: the packaged gateway takes writes over HTTP, is killed with SIGKILL right after
 * acknowledging them (no shutdown hook runs), and a restarted gateway on the same data directory has every one.
 */
class DurabilityIT {
    private static final Pattern READY = Pattern.compile("on http://127\\.0\\.0\\.1:(\\d+) .* ready in");

    private static Process launch(Path data, Path log) throws Exception {
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-jar", Path.of("target", "bootstrap.jar").toString(),
                "--port", "0", "--data", data.toString());
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static int awaitPort(Process p, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && p.isAlive()) {
            Matcher m = READY.matcher(Files.readString(log));
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            Thread.sleep(50);
        }
        throw new AssertionError("gateway did not start:\n" + Files.readString(log));
    }

    @Test
    void acknowledgedWritesSurviveKillMinus9(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        List<String> acknowledged = new ArrayList<>();
        Process first = launch(data, dir.resolve("first.log"));
        try {
            EsClient es = new EsClient(awaitPort(first, dir.resolve("first.log")));
            for (int i = 0; i < 40; i++) {
                EsClient.Reply r = es.put("/durable/_doc/d" + i, "{\"i\":" + i + ",\"text\":\"doc " + i + "\"}");
                assertThat(r.status()).as(r.toString()).isEqualTo(201);
                acknowledged.add("d" + i);
            }
            EsClient.Reply bulk = es.send("POST", "/_bulk", "{\"index\":{\"_index\":\"durable\",\"_id\":\"b1\"}}\n"
                    + "{\"i\":100}\n{\"delete\":{\"_index\":\"durable\",\"_id\":\"d0\"}}\n", "application/x-ndjson");
            assertThat(bulk.json().path("errors").asBoolean()).isFalse();
            acknowledged.remove("d0");
            acknowledged.add("b1");
        } finally {
            first.destroyForcibly(); // SIGKILL to this PID: no shutdown hook, no close
            assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        Process second = launch(data, dir.resolve("second.log"));
        try {
            EsClient es = new EsClient(awaitPort(second, dir.resolve("second.log")));
            for (String id : acknowledged) {
                EsClient.Reply r = es.get("/durable/_doc/" + id);
                assertThat(r.status()).as("document %s after kill -9: %s", id, r).isEqualTo(200);
            }
            assertThat(es.get("/durable/_doc/d0").status()).isEqualTo(404);
            assertThat(es.get("/durable/_doc/d7").json().at("/_source/text").asText()).isEqualTo("doc 7");
            assertThat(es.get("/durable/_mapping").json().at("/durable/mappings/properties/i/type").asText())
                    .isEqualTo("long");
            EsClient.Reply next = es.put("/durable/_doc/after", "{\"i\":1}");
            assertThat(next.json().path("_seq_no").asLong()).as("sequence numbers continue after the restart")
                    .isEqualTo(42);
        } finally {
            second.destroy();
            second.waitFor(30, TimeUnit.SECONDS);
            second.destroyForcibly();
        }
    }
}
