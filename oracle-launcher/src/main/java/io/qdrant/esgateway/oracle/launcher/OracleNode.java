package io.qdrant.esgateway.oracle.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The engine side of a launcher: runs one node until the process is told to stop (SIGTERM closes the node through a
 * shutdown hook) or until the JVM that started it is gone, even after a {@code kill -9} (its PID is given as the
 * system property {@code oracle.parent.pid}).
 */
public final class OracleNode {
    /** Starting or stopping a node. */
    @FunctionalInterface
    public interface Step {
        void run() throws Exception;
    }

    private OracleNode() {
    }

    /** A launcher's command line: {@code HOME HTTP_PORT TRANSPORT_PORT}. */
    public record Launch(Path home, String httpPort, String transportPort) {
        /** Reads the command line (a wrong one exits with the usage and code 2) and creates {@code HOME/config}. */
        public static Launch of(String launcher, String[] args) throws IOException {
            if (args.length != 3) {
                System.err.println("usage: " + launcher + " HOME HTTP_PORT TRANSPORT_PORT");
                System.exit(2);
            }
            Path home = Path.of(args[0]).toAbsolutePath();
            Files.createDirectories(home.resolve("config"));
            return new Launch(home, args[1], args[2]);
        }

        /**
         * The node settings both engines run with: one node on 127.0.0.1, data and logs in the home, netty4 for HTTP
         * and transport, single-node discovery, no disk threshold.
         */
        public Map<String, String> settings(String clusterName, String nodeName) {
            Map<String, String> settings = new LinkedHashMap<>();
            settings.put("path.home", home.toString());
            settings.put("path.data", home.resolve("data").toString());
            settings.put("path.logs", home.resolve("logs").toString());
            settings.put("cluster.name", clusterName);
            settings.put("node.name", nodeName);
            settings.put("network.host", "127.0.0.1");
            settings.put("http.port", httpPort);
            settings.put("transport.port", transportPort);
            settings.put("http.type", "netty4");
            settings.put("transport.type", "netty4");
            settings.put("discovery.type", "single-node");
            settings.put("cluster.routing.allocation.disk.threshold_enabled", "false");
            return settings;
        }
    }

    /**
     * Starts the node, prints {@code oracle: <engine> ready on 127.0.0.1:<httpPort>} and keeps the JVM alive (the
     * engines' own threads are daemons) until SIGTERM has run the shutdown hook that stops the node ({@code stop}:
     * close it and wait, a bounded time, until it is closed).
     */
    public static void serve(String engine, String httpPort, Step start, Step stop) throws Exception {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                stop.run();
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                stopped.countDown();
            }
        }, "oracle-shutdown"));
        watchParent();
        start.run();
        System.out.println("oracle: " + engine + " ready on 127.0.0.1:" + httpPort);
        stopped.await();
    }

    /** Stops this JVM (through the shutdown hook) when the JVM that started it is gone. */
    private static void watchParent() {
        String parent = System.getProperty("oracle.parent.pid");
        if (parent != null) {
            long pid = Long.parseLong(parent);
            exitWhenGone(pid, "oracle-parent-watch", "oracle: parent process " + pid + " is gone, stopping");
        }
    }

    /**
     * Ends this JVM (through its shutdown hooks) once the process {@code pid} is gone, even after a {@code kill -9}
     * of it: a daemon thread polls it every second, then prints {@code message}.
     */
    public static void exitWhenGone(long pid, String threadName, String message) {
        Thread watch = new Thread(() -> {
            while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
            }
            System.out.println(message);
            System.exit(0);
        }, threadName);
        watch.setDaemon(true);
        watch.start();
    }
}
