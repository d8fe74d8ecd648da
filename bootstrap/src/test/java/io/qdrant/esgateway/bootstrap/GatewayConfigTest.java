package io.qdrant.esgateway.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GatewayConfigTest {

    @Test
    void defaultsAreTheEmbeddedGatewayOnLoopback9200() {
        GatewayConfig c = GatewayConfig.load(new String[0], Map.of("QEG_NODE_NAME", "n"));
        assertThat(c.host()).isEqualTo("127.0.0.1");
        assertThat(c.port()).isEqualTo(9200);
        assertThat(c.dataDir()).isEqualTo(Path.of("./data"));
        assertThat(c.backend()).isEqualTo("lucene");
        assertThat(c.catalog()).isEqualTo("sqlite");
        assertThat(c.esVersion()).isEqualTo("8.15.0");
        assertThat(c.maxContentLength()).isEqualTo(100L * 1024 * 1024);
    }

    @Test
    void flagsBeatEnvironmentWhichBeatsTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("qeg.yaml");
        Files.writeString(file, "qeg:\n  port: 9300\n  data-dir: /from/file\n  cluster-name: from-file\n");
        GatewayConfig c = GatewayConfig.load(new String[] {"--port", "9500", "--config", file.toString()},
                Map.of("QEG_PORT", "9400", "QEG_DATA_DIR", "/from/env"));
        assertThat(c.port()).isEqualTo(9500);
        assertThat(c.dataDir()).isEqualTo(Path.of("/from/env"));
        assertThat(c.clusterName()).isEqualTo("from-file");
        GatewayConfig eq = GatewayConfig.load(new String[] {"--data=/x", "--port=1"}, Map.of());
        assertThat(eq.dataDir()).isEqualTo(Path.of("/x"));
        assertThat(eq.port()).isEqualTo(1);
    }

    @Test
    void badValuesNameTheSettingItsSourceAndWhatIsAllowed() {
        assertThatThrownBy(() -> GatewayConfig.load(new String[0], Map.of("QEG_PORT", "http")))
                .hasMessage("invalid value [http] for QEG_PORT (from QEG_PORT): expected a whole number from 0 to 65535");
        assertThatThrownBy(() -> GatewayConfig.load(new String[] {"--port", "70000"}, Map.of()))
                .hasMessageContaining("(from --port)");
        assertThatThrownBy(() -> GatewayConfig.load(new String[] {"--backend", "elastic"}, Map.of()))
                .hasMessageContaining("QEG_BACKEND").hasMessageContaining("one of lucene");
        assertThatThrownBy(() -> GatewayConfig.load(new String[] {"--backend", "qdrant"}, Map.of()))
                .hasMessageContaining("qdrant backend is not available");
        assertThatThrownBy(() -> GatewayConfig.load(new String[] {"--colour", "x"}, Map.of()))
                .hasMessageContaining("unknown option --colour");
        assertThatThrownBy(() -> GatewayConfig.load(new String[] {"--port"}, Map.of()))
                .hasMessage("option --port needs a value");
        assertThatThrownBy(() -> GatewayConfig.load(new String[0], Map.of("QEG_MAX_CONTENT_LENGTH", "lots")))
                .hasMessageContaining("QEG_MAX_CONTENT_LENGTH");
        assertThatThrownBy(() -> GatewayConfig.load(new String[0], Map.of("QEG_CONFIG", "/no/such/file.yaml")))
                .hasMessage("configuration file /no/such/file.yaml does not exist");
    }

    @Test
    void everySettingHasAnEnvironmentVariable() {
        for (Setting s : Setting.all()) {
            assertThat(s.env()).startsWith("QEG_");
        }
    }
}
