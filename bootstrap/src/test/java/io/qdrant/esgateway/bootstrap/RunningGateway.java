package io.qdrant.esgateway.bootstrap;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** A real gateway (Helidon on a free port, SQLite catalog and Lucene store in a temp directory) for a test. */
final class RunningGateway implements AutoCloseable {
    final Path dataDir;
    final Gateway gateway;
    final EsClient client;

    private RunningGateway(Path dataDir, Gateway gateway) {
        this.dataDir = dataDir;
        this.gateway = gateway;
        this.client = new EsClient(gateway.port());
    }

    static RunningGateway start(Path dataDir, String... extraEnv) {
        Map<String, String> env = new HashMap<>();
        env.put("QEG_PORT", "0");
        env.put("QEG_DATA_DIR", dataDir.toString());
        env.put("QEG_NODE_NAME", "test-node");
        for (int i = 0; i + 1 < extraEnv.length; i += 2) {
            env.put(extraEnv[i], extraEnv[i + 1]);
        }
        return new RunningGateway(dataDir, Gateway.start(GatewayConfig.load(new String[0], env)));
    }

    @Override
    public void close() {
        gateway.close();
    }
}
