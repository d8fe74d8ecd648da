package io.qdrant.esgateway.bootstrap;

import java.nio.file.Path;
import java.util.Map;

/**
 * The real gateway (Helidon on a free port, SQLite catalog and Lucene store in {@code dataDir}) for the compat tests,
 * started in this JVM as bootstrap's own HTTP tests do. It lives in bootstrap's package because {@link Gateway} and
 * {@link GatewayConfig} are package-private.
 */
public final class GatewayForCompat implements AutoCloseable {
    private final Gateway gateway;

    private GatewayForCompat(Gateway gateway) {
        this.gateway = gateway;
    }

    public static GatewayForCompat start(Path dataDir) {
        return start(dataDir, Map.of());
    }

    /** A gateway with extra settings ({@code QEG_*} variables), e.g. {@code QEG_NATIVE_ABSENT=all}. */
    public static GatewayForCompat start(Path dataDir, Map<String, String> settings) {
        Map<String, String> env = new java.util.HashMap<>(settings);
        env.put("QEG_PORT", "0");
        env.put("QEG_DATA_DIR", dataDir.toString());
        env.put("QEG_NODE_NAME", "compat-gateway");
        env.putIfAbsent("QEG_CONFIG_DIR",
                io.qdrant.esgateway.compat.harness.AnalysisConfigFiles.gatewayConfigDir().toString());
        return new GatewayForCompat(Gateway.start(GatewayConfig.load(new String[0], env)));
    }

    /**
     * A gateway whose new indices take their uuids from {@code indexUuids}: two deployments given equal sequences
     * name the same index alike, so that answers depending on the uuid (tie order on Qdrant) compare.
     */
    public static GatewayForCompat start(Path dataDir, Map<String, String> settings,
                                         java.util.function.Supplier<String> indexUuids) {
        synchronized (GatewayForCompat.class) {
            java.util.function.Supplier<String> before = Gateway.indexUuids;
            Gateway.indexUuids = indexUuids;
            try {
                return start(dataDir, settings);
            } finally {
                Gateway.indexUuids = before;
            }
        }
    }

    public int port() {
        return gateway.port();
    }

    @Override
    public void close() {
        gateway.close();
    }
}
