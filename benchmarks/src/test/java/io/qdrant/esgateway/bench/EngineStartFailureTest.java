package io.qdrant.esgateway.bench;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An engine that cannot start fails the run with the reason; it is never skipped. */
class EngineStartFailureTest {
    @Test
    void aMissingGatewayJarOrLauncherFailsTheRunNamingIt(@TempDir Path emptyRoot) {
        BenchOptions options = BenchOptions.parse(new String[] {"--smoke", "--out", emptyRoot.resolve("out").toString()});
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream());
        assertThatThrownBy(() -> BenchMain.run(options, emptyRoot, quiet))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("could not be started")
                .satisfies(e -> assertThatThrownBy(() -> {
                    throw e;
                }).hasStackTraceContaining("bootstrap.jar").hasStackTraceContaining("oracle-elasticsearch"));
    }
}
