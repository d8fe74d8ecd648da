package io.qdrant.esgateway.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark's gateway runs with the shipped JVM settings ({@code bootstrap/src/main/jvm/jvm.options}, what
 * {@code ./qeg run} passes), with the run's common maximum heap last.
 */
class GatewayJvmOptionsTest {
    private static final Path ROOT = Path.of(System.getProperty("bench.root", ".."));

    @Test
    void theGatewayCommandLineCarriesTheShippedSettingsThenTheCommonMaximumHeap() {
        List<String> shipped = JvmOptionsFile.gatewayOptions(ROOT);
        assertThat(shipped).as("the shipped settings pick the collector and bound the young generation")
                .contains("--enable-native-access=ALL-UNNAMED", "--add-modules=jdk.incubator.vector")
                .anyMatch(o -> o.startsWith("-XX:+Use") && o.endsWith("GC"))
                .noneMatch(o -> o.startsWith("-Xmx"));
        assertThat(shipped).as("a young generation sized for bulk ingest (half the collections of 64 MB)")
                .contains("-XX:+UseG1GC", "-Xmn128m");
        assertThat(shipped).as("virtual threads are woken by the JDK's platform poller threads")
                .contains("-Djdk.pollerMode=1");
        assertThat(shipped).as("an idle gateway parks its heap itself (IdleHeap): G1's periodic collection would"
                + " shrink it again, and idle collections must not unload compiled code")
                .noneMatch(o -> o.startsWith("-XX:G1PeriodicGCInterval")).contains("-XX:-UseCodeCacheFlushing");

        List<String> options = ChildEngine.gatewayJvmOptions(ROOT, "384m", null);
        assertThat(options).startsWith(shipped.toArray(String[]::new)).endsWith("-Xmx384m")
                .hasSize(shipped.size() + 1);
    }

    @Test
    void qegJavaOptsComeAfterTheShippedSettingsAndTheHeapStillWins() {
        List<String> shipped = JvmOptionsFile.gatewayOptions(ROOT);
        List<String> options = ChildEngine.gatewayJvmOptions(ROOT, "512m", "  -Xlog:gc   -Xmx2g ");
        assertThat(options.subList(shipped.size(), options.size())).containsExactly("-Xlog:gc", "-Xmx2g", "-Xmx512m");
    }

    @Test
    void commentsAndBlankLinesAreNotArguments() {
        assertThat(JvmOptionsFile.parse("""
                # a comment line
                -XX:+UseSerialGC   # why: a trailing comment
                   -Xss512k -Xmn24m

                #-XX:+NotThis
                """)).containsExactly("-XX:+UseSerialGC", "-Xss512k", "-Xmn24m");
    }

    @Test
    void aMissingSettingsFileIsNamed(@TempDir Path emptyRoot) {
        assertThatThrownBy(() -> JvmOptionsFile.gatewayOptions(emptyRoot))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("jvm.options");
    }

    @Test
    void qegRunExecsJavaWithTheSameFile() throws IOException, InterruptedException {
        // ./qeg run-command prints what ./qeg run execs, without building
        Process p = new ProcessBuilder("bash", ROOT.resolve("qeg").toString(), "run-command", "--port", "9999")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        assertThat(p.waitFor()).as(out).isZero();
        String file = ROOT.toRealPath().resolve(JvmOptionsFile.PATH).toString();
        assertThat(out).contains(" @" + file + " ").endsWith("-jar " + ROOT.toRealPath()
                .resolve("bootstrap/target/bootstrap.jar") + " --port 9999");
        assertThat(Files.isRegularFile(Path.of(file))).isTrue();
    }
}
