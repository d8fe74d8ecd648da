package io.qdrant.esgateway.oracle.elasticsearch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
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
        if (args.length != 3) {
            System.err.println("usage: ElasticsearchOracle HOME HTTP_PORT TRANSPORT_PORT");
            System.exit(2);
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        Files.createDirectories(home.resolve("config"));
        Settings settings = Settings.builder()
                .put("path.home", home.toString())
                .put("path.data", home.resolve("data").toString())
                .put("path.logs", home.resolve("logs").toString())
                .put("cluster.name", "oracle-elasticsearch")
                .put("node.name", "oracle-es-node")
                .put("network.host", "127.0.0.1")
                .put("http.port", args[1])
                .put("transport.port", args[2])
                .put("http.type", "netty4")
                .put("transport.type", "netty4")
                .put("discovery.type", "single-node")
                .put("cluster.routing.allocation.disk.threshold_enabled", false)
                .build();
        LogConfigurator.loadLog4jPlugins();
        LogConfigurator.configureESLogging();
        LogConfigurator.configureWithoutConfig(settings);

        Node node = ClasspathNodes.create(new Environment(settings, home.resolve("config")),
                List.of(Netty4Plugin.class, RootInfoPlugin.class));
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
        System.out.println("oracle: elasticsearch ready on 127.0.0.1:" + args[1]);
        // Elasticsearch's own threads are daemons: this (non-daemon) main thread keeps the JVM alive until SIGTERM
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
