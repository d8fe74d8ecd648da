package io.qdrant.esgateway.oracle.opensearch;

import io.qdrant.esgateway.oracle.launcher.OracleNode;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.opensearch.Version;
import org.opensearch.common.settings.Settings;
import org.opensearch.env.Environment;
import org.opensearch.node.Node;
import org.opensearch.plugins.PluginInfo;

/**
 * Runs one single-node OpenSearch 3.9 on 127.0.0.1 until the process is told to stop (SIGTERM closes the node).
 * Started by compat-tests as a child JVM: {@code java -cp <this module's class path> OpenSearchOracle HOME HTTP_PORT
 * TRANSPORT_PORT}. No security plugin on the class path, so security is off; data, logs and config live in HOME.
 */
public final class OpenSearchOracle {
    /** The modules a distribution ships that are published as class-path plugins on Maven Central. */
    private static final List<String> PLUGIN_CLASSES = List.of(
            "org.opensearch.transport.Netty4ModulePlugin",
            "org.opensearch.analysis.common.CommonAnalysisModulePlugin",
            "org.opensearch.painless.PainlessModulePlugin",
            "org.opensearch.index.reindex.ReindexModulePlugin",
            "org.opensearch.index.mapper.MapperExtrasModulePlugin",
            "org.opensearch.join.ParentJoinModulePlugin");

    private OpenSearchOracle() {
    }

    /** {@code Node}'s constructor that takes class-path plugins is protected. */
    private static final class ClasspathNode extends Node {
        ClasspathNode(Environment environment, List<PluginInfo> plugins) {
            super(environment, plugins, true);
        }
    }

    public static void main(String[] args) throws Exception {
        OracleNode.Launch launch = OracleNode.Launch.of("OpenSearchOracle", args);
        Path home = launch.home();
        Settings.Builder builder = Settings.builder();
        launch.settings("oracle-opensearch", "oracle-os-node").forEach(builder::put);
        Settings settings = builder
                // Elasticsearch 8's default (wildcard and _all deletes refused); OpenSearch 3 defaults to false
                .put("action.destructive_requires_name", true)
                .build();
        String javaVersion = Integer.toString(Runtime.version().feature());
        List<PluginInfo> plugins = PLUGIN_CLASSES.stream()
                .map(c -> new PluginInfo(c, "class path plugin", "NA", Version.CURRENT, javaVersion, c, List.of(),
                        false))
                .toList();

        Node node = new ClasspathNode(new Environment(settings, home.resolve("config")), plugins);
        OracleNode.serve("opensearch", launch.httpPort(), node::start, () -> {
            node.close();
            node.awaitClose(20, TimeUnit.SECONDS);
        });
    }
}
