package io.qdrant.esgateway.bootstrap;

import java.nio.file.Path;
import java.util.Map;

/**
 * The real gateway (Helidon on a free port, SQLite catalog and Lucene store in {@code dataDir}) for the compat tests,
 * started in this JVM as bootstrap's own HTTP tests do. It lives in bootstrap's package because {@link Gateway} and
 * {@link GatewayConfig} are package-private; nothing in bootstrap/src/main is changed for it.
 */
public final class GatewayForCompat implements AutoCloseable {
    private final Gateway gateway;

    private GatewayForCompat(Gateway gateway) {
        this.gateway = gateway;
    }

    public static GatewayForCompat start(Path dataDir) {
        Map<String, String> env = Map.of(
                "QEG_PORT", "0",
                "QEG_DATA_DIR", dataDir.toString(),
                "QEG_NODE_NAME", "compat-gateway");
        return new GatewayForCompat(Gateway.start(GatewayConfig.load(new String[0], env)));
    }

    public int port() {
        return gateway.port();
    }

    @Override
    public void close() {
        gateway.close();
    }
}
