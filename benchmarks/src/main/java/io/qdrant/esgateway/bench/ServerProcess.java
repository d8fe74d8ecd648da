package io.qdrant.esgateway.bench;

import io.qdrant.esgateway.oracle.launcher.ChildJvm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A helper process of an engine (the fake Qdrant, a redis-server) on a loopback port, started by the runner and
 * stopped by its PID (SIGTERM, SIGKILL after 30 s). Its output goes to a log under {@code bench-logs/}.
 */
final class ServerProcess implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern FAKE_QDRANT = Pattern.compile("fake-qdrant on (\\d+)");

    private final Process process;
    private final int port;
    private final Path dir;

    private ServerProcess(Process process, int port, Path dir) {
        this.process = process;
        this.port = port;
        this.dir = dir;
    }

    /**
     * The fake Qdrant in its own JVM (this JVM's class path, which holds adapters-qdrant's test jar); its standard
     * input stays open so that it ends with the runner.
     */
    static ServerProcess fakeQdrant(Path log) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-cp",
                System.getProperty("java.class.path"), FakeQdrantMain.class.getName());
        Process process = launch(command, log, null);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the fake Qdrant exited with code " + process.exitValue()
                        + "; last lines of " + log + ":\n" + ChildJvm.tail(log));
            }
            Matcher m = FAKE_QDRANT.matcher(read(log));
            if (m.find()) {
                return new ServerProcess(process, Integer.parseInt(m.group(1)), null);
            }
            sleep(50);
        }
        ChildJvm.stop(process);
        throw new IllegalStateException("the fake Qdrant did not start within " + START_TIMEOUT + "; " + log);
    }

    /**
     * The machine's {@code valkey-server} or {@code redis-server} on a free loopback port, no persistence, its
     * eviction left at the server's default ({@code noeviction}: the shared cache bounds itself by TTL and size).
     */
    static ServerProcess redis(Path log) {
        Path binary = redisBinary();
        Path dir;
        int port;
        try {
            dir = Files.createTempDirectory("qeg-bench-redis-");
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = socket.getLocalPort();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // part of the shared-mode engine: on the engines' CPUs when pinned (the fake Qdrant stays on the runner's)
        List<String> command = new ArrayList<>(CpuPinning.current().enginePrefix());
        command.addAll(List.of(binary.toString(), "--port", Integer.toString(port), "--bind", "127.0.0.1", "--dir",
                dir.toString(), "--save", "", "--appendonly", "no", "--daemonize", "no", "--protected-mode", "yes"));
        Process process = launch(command, log, dir);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(binary + " exited with code " + process.exitValue()
                        + "; last lines of " + log + ":\n" + ChildJvm.tail(log));
            }
            if (read(log).contains("Ready to accept connections")) {
                return new ServerProcess(process, port, dir);
            }
            sleep(20);
        }
        ChildJvm.stop(process);
        throw new IllegalStateException(binary + " did not start within " + START_TIMEOUT + "; " + log);
    }

    /** {@code QEG_BENCH_REDIS_SERVER}, else {@code valkey-server} or {@code redis-server} on the PATH. */
    static Path redisBinary() {
        String explicit = System.getenv("QEG_BENCH_REDIS_SERVER");
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit);
        }
        for (String name : List.of("valkey-server", "redis-server")) {
            for (String d : (System.getenv().getOrDefault("PATH", "") + ":/usr/bin:/usr/local/bin").split(":")) {
                Path candidate = Path.of(d.isEmpty() ? "." : d, name);
                if (Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
        throw new IllegalStateException("shared mode needs a valkey-server or redis-server on the PATH (e.g. "
                + "apt-get install -y redis-server) or QEG_BENCH_REDIS_SERVER naming one");
    }

    private static Process launch(List<String> command, Path log, Path dir) {
        try {
            Files.createDirectories(log.getParent());
            return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + String.join(" ", command), e);
        }
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        ChildJvm.stop(process);
        if (dir != null) {
            ChildJvm.deleteTree(dir, problem -> System.err.println("bench: " + problem));
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
