package io.qdrant.esgateway.oracle.opensearch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
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
        if (args.length != 3) {
            System.err.println("usage: OpenSearchOracle HOME HTTP_PORT TRANSPORT_PORT");
            System.exit(2);
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        Files.createDirectories(home.resolve("config"));
        Settings settings = Settings.builder()
                .put("path.home", home.toString())
                .put("path.data", home.resolve("data").toString())
                .put("path.logs", home.resolve("logs").toString())
                .put("cluster.name", "oracle-opensearch")
                .put("node.name", "oracle-os-node")
                .put("network.host", "127.0.0.1")
                .put("http.port", args[1])
                .put("transport.port", args[2])
                .put("http.type", "netty4")
                .put("transport.type", "netty4")
                .put("discovery.type", "single-node")
                .put("cluster.routing.allocation.disk.threshold_enabled", false)
                // Elasticsearch 8's default (wildcard and _all deletes refused); OpenSearch 3 defaults to false
                .put("action.destructive_requires_name", true)
                .build();
        String javaVersion = Integer.toString(Runtime.version().feature());
        List<PluginInfo> plugins = PLUGIN_CLASSES.stream()
                .map(c -> new PluginInfo(c, "class path plugin", "NA", Version.CURRENT, javaVersion, c, List.of(),
                        false))
                .toList();

        Node node = new ClasspathNode(new Environment(settings, home.resolve("config")), plugins);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                node.close();
                node.awaitClose(20, TimeUnit.SECONDS);
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                stopped.countDown();
            }
        }, "oracle-shutdown"));
        watchParent();
        node.start();
        System.out.println("oracle: opensearch ready on 127.0.0.1:" + args[1]);
        // keep the JVM alive (the node's threads are daemons) until SIGTERM runs the hook above
        stopped.await();
    }

    /** Stops this JVM (through the shutdown hook) when the test JVM that started it is gone, even after a kill -9. */
    private static void watchParent() {
        String parent = System.getProperty("oracle.parent.pid");
        if (parent == null) {
            return;
        }
        long pid = Long.parseLong(parent);
        Thread watch = new Thread(() -> {
            while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
            }
            System.out.println("oracle: parent process " + pid + " is gone, stopping");
            System.exit(0);
        }, "oracle-parent-watch");
        watch.setDaemon(true);
        watch.start();
    }
}
