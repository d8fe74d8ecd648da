package io.qdrant.esgateway.compat.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

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
        int httpPort = freePort();
        int transportPort = freePort();
        try {
            Files.createDirectories(logDir);
            Path home = Files.createTempDirectory("qeg-oracle-" + engine.id() + "-");
            Path tmp = Files.createDirectories(home.resolve("tmp"));
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
                long rss = procStatusKib(process.pid(), "VmRSS").orElse(-1L);
                EngineProcess started = new EngineProcess(engine, process, home, log, httpPort, startupMillis, rss);
                HarnessLog.info(String.format(Locale.ROOT,
                        "oracle %s: pid %d, http://127.0.0.1:%d, started in %.1f s, RSS %s after start (heap -Xmx512m); "
                                + "log %s", engine.displayName(), process.pid(), httpPort, startupMillis / 1000.0,
                        mib(rss), log));
                return started;
            } catch (RuntimeException | Error e) {
                stopProcess(process);
                deleteTree(home);
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
        Optional<Long> peak = procStatusKib(process.pid(), "VmHWM");
        long t0 = System.nanoTime();
        boolean graceful = stopProcess(process);
        HarnessLog.info(String.format(Locale.ROOT, "oracle %s: pid %d stopped %s in %.1f s; peak RSS %s",
                engine.displayName(), process.pid(), graceful ? "by SIGTERM" : "by SIGKILL after 30 s",
                (System.nanoTime() - t0) / 1e9, peak.map(EngineProcess::mib).orElse("unknown")));
        deleteTree(home);
    }

    private static boolean stopProcess(Process process) {
        if (!process.isAlive()) {
            return true;
        }
        process.destroy();
        try {
            if (process.waitFor(30, TimeUnit.SECONDS)) {
                return true;
            }
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        return false;
    }

    private static void waitUntilAnswering(Engine engine, Process process, HttpTarget target, Path log) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(engine.displayName() + " exited with code " + process.exitValue()
                        + " before it answered; last lines of " + log + ":\n" + tail(log));
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
                + "; last lines of " + log + ":\n" + tail(log));
    }

    private static String classPath(Engine engine, Path moduleTarget) {
        Path classes = moduleTarget.resolve("classes");
        Path file = moduleTarget.resolve("oracle-classpath.txt");
        if (!Files.isDirectory(classes) || !Files.isRegularFile(file)) {
            throw new IllegalStateException("the " + engine.displayName() + " launcher is not built: expected "
                    + classes + " and " + file + ". Build from the repository root (./qeg test or mvn verify), "
                    + "which builds the oracle-" + engine.id() + " module before compat-tests.");
        }
        String entries;
        try {
            entries = Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        checkOneLucene(engine, entries);
        return classes + java.io.File.pathSeparator + entries;
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

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A value in kB from /proc/PID/status (Linux), e.g. VmRSS (resident now) or VmHWM (peak resident). */
    static Optional<Long> procStatusKib(long pid, String field) {
        Path status = Path.of("/proc", Long.toString(pid), "status");
        try (Stream<String> lines = Files.lines(status)) {
            return lines.filter(l -> l.startsWith(field + ":"))
                    .map(l -> Long.parseLong(l.substring(field.length() + 1).trim().split("\\s+")[0]))
                    .findFirst();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static String mib(long kib) {
        return kib < 0 ? "unknown" : (kib / 1024) + " MiB";
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    static void deleteTree(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            HarnessLog.info("could not remove " + dir + ": " + e);
        }
    }
}
