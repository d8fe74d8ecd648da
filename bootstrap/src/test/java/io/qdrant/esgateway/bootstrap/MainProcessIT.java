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
 * The packaged jar as a user runs it ({@code ./qeg run} execs exactly this): a child process on a free port, stopped
 * by its PID with SIGTERM (what Ctrl-C's SIGINT also triggers), which must stop gracefully.
 */
class MainProcessIT {
    private static final Pattern READY = Pattern.compile("on http://127\\.0\\.0\\.1:(\\d+) .* ready in");

    /**
     * Starts the jar with its shipped JVM settings (the packaged copy of {@code src/main/jvm/jvm.options}) and its
     * output going to {@code data/../out.log} (a file: read it at any time, any number of times).
     */
    private static Process launch(Path data, Path log, String... args) throws Exception {
        Path tmp = Files.createDirectories(data.resolveSibling("tmp"));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "@" + Path.of("target", "jvm.options"), "-Djava.io.tmpdir=" + tmp, "-jar",
                Path.of("target", "bootstrap.jar").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("QEG_DATA_DIR", data.toString());
        return pb.start();
    }

    @Test
    void startsServesAndStopsGracefullyOnSigterm(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        Path log = dir.resolve("out.log");
        Process p = launch(data, log, "--port", "0");
        try {
            int port = -1;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (port < 0 && System.nanoTime() < deadline && p.isAlive()) {
                Matcher m = READY.matcher(Files.readString(log));
                if (m.find()) {
                    port = Integer.parseInt(m.group(1));
                } else {
                    Thread.sleep(50);
                }
            }
            assertThat(port).as("startup line in:%n%s", Files.readString(log)).isPositive();
            EsClient es = new EsClient(port);
            assertThat(es.get("/").json().at("/version/number").asText()).isEqualTo("8.15.0");
            assertThat(es.put("/from-the-jar").status()).isEqualTo(200);

            p.destroy(); // SIGTERM to this PID only
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("stopped within 30 s").isTrue();
            assertThat(Files.readString(log)).contains("qeg: stopping");
            assertThat(data.resolve("catalog.db")).exists();
            try (var left = Files.list(dir.resolve("tmp"))) {
                assertThat(left.toList()).as("the start-up warm-up (running or done) leaves nothing in the temp"
                        + " directory:%n%s", Files.readString(log)).isEmpty();
            }
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void aBadSettingStopsTheStartWithExitCode2AndAMessage(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("out.log");
        Process p = launch(dir.resolve("data"), log, "--port", "not-a-port");
        try {
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isEqualTo(2);
            assertThat(Files.readString(log))
                    .contains("qeg: configuration error: invalid value [not-a-port] for QEG_PORT (from --port)");
        } finally {
            p.destroyForcibly();
        }
    }
}
