package io.qdrant.esgateway.compat.harness;

import io.qdrant.esgateway.oracle.launcher.ChildJvm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * A real Elasticsearch or OpenSearch node in its own JVM (own class path, from the {@code oracle-*} module's
 * {@code target/classes} and {@code target/oracle-classpath.txt}), on 127.0.0.1 with free ports, a temp home
 * directory and a 512 MiB heap. Started, waited for until it answers, and stopped by its PID.
 */
public final class EngineProcess implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    private final Engine engine;
    private final Process process;
    private final Path home;
    private final Path log;
    private final int httpPort;
    private final long startupMillis;
    private final long rssKib;
    private volatile boolean stopped;

    private EngineProcess(Engine engine, Process process, Path home, Path log, int httpPort, long startupMillis,
            long rssKib) {
        this.engine = engine;
        this.process = process;
        this.home = home;
        this.log = log;
        this.httpPort = httpPort;
        this.startupMillis = startupMillis;
        this.rssKib = rssKib;
    }

    /** Starts the engine and returns once it answers {@code GET /} and its cluster is green. */
    public static EngineProcess start(Engine engine, Path moduleTarget, Path logDir) {
        String classPath = classPath(engine, moduleTarget);
        int httpPort = ChildJvm.freePort();
        int transportPort = ChildJvm.freePort();
        try {
            Files.createDirectories(logDir);
            Path home = Files.createTempDirectory("qeg-oracle-" + engine.id() + "-");
            Path tmp = Files.createDirectories(home.resolve("tmp"));
            AnalysisConfigFiles.copyTo(home.resolve("config"));
            Path log = logDir.resolve(engine.id() + ".log");
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xms512m", "-Xmx512m",
                    "--enable-native-access=ALL-UNNAMED",
                    "--add-modules=jdk.incubator.vector",
                    "-Dio.netty.noUnsafe=true",
                    "-Dlog4j2.disable.jmx=true",
                    "-Djava.io.tmpdir=" + tmp,
                    "-Doracle.parent.pid=" + ProcessHandle.current().pid(),
                    "-cp", classPath,
                    engine.mainClass(),
                    home.toString(), Integer.toString(httpPort), Integer.toString(transportPort)));
            long t0 = System.nanoTime();
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            try {
                HttpTarget target = new HttpTarget(engine.id(), httpPort);
                waitUntilAnswering(engine, process, target, log);
                long startupMillis = (System.nanoTime() - t0) / 1_000_000;
                HttpTarget.Exchange health = target.send(RequestSpec.of("GET",
                        "/_cluster/health?wait_for_status=green&timeout=60s"));
                if (health.status() != 200) {
                    throw new IllegalStateException(engine.displayName() + " did not turn green: " + health);
                }
                long rss = ChildJvm.procStatusKib(process.pid(), "VmRSS").orElse(-1L);
                EngineProcess started = new EngineProcess(engine, process, home, log, httpPort, startupMillis, rss);
                HarnessLog.info(String.format(Locale.ROOT,
                        "oracle %s: pid %d, http://127.0.0.1:%d, started in %.1f s, RSS %s after start (heap -Xmx512m); "
                                + "log %s", engine.displayName(), process.pid(), httpPort, startupMillis / 1000.0,
                        mib(rss), log));
                return started;
            } catch (RuntimeException | Error e) {
                ChildJvm.stop(process);
                ChildJvm.deleteTree(home, HarnessLog::info);
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + engine.displayName(), e);
        }
    }

    public Engine engine() {
        return engine;
    }

    public HttpTarget target() {
        return new HttpTarget(engine.id(), httpPort);
    }

    public long pid() {
        return process.pid();
    }

    public long startupMillis() {
        return startupMillis;
    }

    public long rssKib() {
        return rssKib;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGTERM to the PID (the node closes itself in its shutdown hook), SIGKILL after 30 s, then the home is removed. */
    @Override
    public synchronized void close() {
        if (stopped) {
            return;
        }
        stopped = true;
        OptionalLong peak = ChildJvm.procStatusKib(process.pid(), "VmHWM");
        long t0 = System.nanoTime();
        boolean graceful = ChildJvm.stop(process);
        HarnessLog.info(String.format(Locale.ROOT, "oracle %s: pid %d stopped %s in %.1f s; peak RSS %s",
                engine.displayName(), process.pid(), graceful ? "by SIGTERM" : "by SIGKILL after 30 s",
                (System.nanoTime() - t0) / 1e9, peak.isPresent() ? mib(peak.getAsLong()) : "unknown"));
        ChildJvm.deleteTree(home, HarnessLog::info);
    }

    private static void waitUntilAnswering(Engine engine, Process process, HttpTarget target, Path log) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(engine.displayName() + " exited with code " + process.exitValue()
                        + " before it answered; last lines of " + log + ":\n" + ChildJvm.tail(log));
            }
            try {
                if (target.send(RequestSpec.of("GET", "/")).status() == 200) {
                    return;
                }
            } catch (UncheckedIOException notYet) {
                // not listening yet
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + engine.displayName(), e);
            }
        }
        throw new IllegalStateException(engine.displayName() + " did not answer within " + START_TIMEOUT
                + "; last lines of " + log + ":\n" + ChildJvm.tail(log));
    }

    private static String classPath(Engine engine, Path moduleTarget) {
        String classPath = ChildJvm.launcherClassPath(moduleTarget, engine.displayName(), "Build from the repository"
                + " root (./qeg test or mvn verify), which builds the oracle-" + engine.id() + " module before"
                + " compat-tests.");
        checkOneLucene(engine, classPath);
        return classPath;
    }

    /**
     * Every Lucene jar of an engine's class path has one version: a module the gateway's build manages to its own
     * Lucene (as the parent POM does for {@code lucene-highlighter}) would otherwise run the engine's features on
     * another Lucene, and fail or answer differently only where that module is used.
     */
    static void checkOneLucene(Engine engine, String entries) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("org[/\\\\]apache[/\\\\]lucene[/\\\\]"
                + "([^/\\\\]+)[/\\\\]([^/\\\\]+)[/\\\\]").matcher(entries);
        java.util.Map<String, java.util.List<String>> byVersion = new java.util.TreeMap<>();
        while (m.find()) {
            byVersion.computeIfAbsent(m.group(2), v -> new java.util.ArrayList<>()).add(m.group(1));
        }
        if (byVersion.size() > 1) {
            throw new IllegalStateException("the " + engine.displayName() + " class path mixes Lucene versions "
                    + byVersion + ": pin each of these artifacts to the engine's Lucene in the oracle-" + engine.id()
                    + " module's dependencyManagement");
        }
    }

    private static String mib(long kib) {
        return kib < 0 ? "unknown" : (kib / 1024) + " MiB";
    }

}
