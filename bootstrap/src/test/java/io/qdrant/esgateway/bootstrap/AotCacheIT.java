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
 * The packaged jar with the JDK's AOT cache as {@code ./qeg} trains and uses it: a training run
 * ({@code -XX:AOTCacheOutput}, {@code -Dqeg.exitAfterWarmUp=true}; here without the warm-up, so it is quick) exits by
 * itself and leaves a cache the next start maps its classes from; and a broken cache never stops the gateway from
 * starting — the JVM ignores it. (A cache trained on other jars is NOT refused by the JDK 25 JVM, which maps its stale
 * classes: {@code ./qeg} and the benchmark pass a cache only while its {@code .sha256} stamp matches the jars,
 * {@code GatewayJvmOptionsTest}.)
 */
class AotCacheIT {
    private static final Pattern READY = Pattern.compile("on http://127\\.0\\.0\\.1:(\\d+) .* ready in");
    private static final String MAIN_FROM_CACHE = "io.qdrant.esgateway.bootstrap.Main source: shared objects file";

    private static Process launch(Path dir, Path jar, Path log, List<String> jvmArgs) throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "@" + Path.of("target", "jvm.options")));
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-Djava.io.tmpdir=" + tmp, "-jar", jar.toString(), "--port", "0", "--data",
                dir.resolve("data").toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("QEG_WARM_UP", "off");
        return pb.start();
    }

    private static Path train(Path dir, Path jar) throws Exception {
        Path aot = dir.resolve("train.aot");
        Path log = dir.resolve("train.log");
        Process p = launch(dir.resolve("train"), jar, log,
                List.of("-XX:AOTCacheOutput=" + aot, "-D" + Main.EXIT_AFTER_WARM_UP + "=true"));
        try {
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the training run exits by itself").isTrue();
            assertThat(p.exitValue()).as(Files.readString(log)).isZero();
        } finally {
            p.destroyForcibly();
        }
        assertThat(aot).as(Files.readString(log)).isNotEmptyFile();
        return aot;
    }

    /** Starts the jar with the cache, checks it answers, stops it; returns its class-loading log. */
    private static String startAndAnswer(Path dir, Path jar, Path aot) throws Exception {
        Path log = dir.resolve("out.log");
        Path classes = dir.resolve("classes.log");
        Process p = launch(dir, jar, log, List.of("-XX:AOTCache=" + aot, "-Xlog:class+load=info:file=" + classes));
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
            assertThat(es.put("/with-a-cache").status()).isEqualTo(200);
            p.destroy();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            return Files.readString(classes);
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void aTrainedCacheIsUsedByTheNextStart(@TempDir Path dir) throws Exception {
        Path jar = Path.of("target", "bootstrap.jar");
        Path aot = train(dir, jar);
        assertThat(startAndAnswer(dir.resolve("run"), jar, aot)).contains(MAIN_FROM_CACHE);
    }

    @Test
    void aBrokenCacheIsIgnoredAndTheGatewayStarts(@TempDir Path dir) throws Exception {
        Path aot = Files.write(dir.resolve("broken.aot"), new byte[64 * 1024]);
        assertThat(startAndAnswer(dir.resolve("run"), Path.of("target", "bootstrap.jar"), aot))
                .doesNotContain(MAIN_FROM_CACHE).contains("io.qdrant.esgateway.bootstrap.Main source:");
    }
}
