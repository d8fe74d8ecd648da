package io.qdrant.esgateway.oracle.elasticsearch;

import io.qdrant.esgateway.oracle.launcher.OracleNode;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.elasticsearch.common.logging.LogConfigurator;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.node.ClasspathNodes;
import org.elasticsearch.node.Node;
import org.elasticsearch.transport.netty4.Netty4Plugin;

/**
 * Runs one single-node Elasticsearch 8.15 on 127.0.0.1 until the process is told to stop (SIGTERM closes the node).
 * Started by compat-tests as a child JVM: {@code java -cp <this module's class path> ElasticsearchOracle HOME
 * HTTP_PORT TRANSPORT_PORT}. Security is off (no x-pack on the class path); data, logs and config live in HOME.
 */
public final class ElasticsearchOracle {
    private ElasticsearchOracle() {
    }

    public static void main(String[] args) throws Exception {
        OracleNode.Launch launch = OracleNode.Launch.of("ElasticsearchOracle", args);
        Path home = launch.home();
        Settings.Builder builder = Settings.builder();
        launch.settings("oracle-elasticsearch", "oracle-es-node").forEach(builder::put);
        Settings settings = builder.build();
        LogConfigurator.loadLog4jPlugins();
        LogConfigurator.configureESLogging();
        LogConfigurator.configureWithoutConfig(settings);

        Node node = ClasspathNodes.create(new Environment(settings, home.resolve("config")),
                List.of(Netty4Plugin.class, RootInfoPlugin.class));
        OracleNode.serve("elasticsearch", launch.httpPort(), node::start, () -> {
            node.close();
            node.awaitClose(20, TimeUnit.SECONDS);
        });
    }
}
