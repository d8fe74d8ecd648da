package io.qdrant.esgateway.adapter.out.catalog.redis;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real Valkey or Redis server for tests: started from the machine's {@code valkey-server} or {@code redis-server}
 * on a free loopback port, without persistence unless asked, and stopped by its PID.
 *
 * <p>Under {@code CI=true} a missing server binary fails the test (CI installs one, see {@code .ci/run});
 * elsewhere the test is skipped with the reason. {@code QEG_TEST_REDIS_SERVER} names a binary explicitly.
 */
public final class RedisTestServer implements AutoCloseable {

    private final Path binary;
    private final Path dir;
    private final boolean persistent;
    private final int port;
    private final int tlsPort;
    private final List<String> tlsOptions;
    private Process process;

    private RedisTestServer(Path binary, Path dir, boolean persistent, int port, int tlsPort,
                            List<String> tlsOptions) {
        this.binary = binary;
        this.dir = dir;
        this.persistent = persistent;
        this.port = port;
        this.tlsPort = tlsPort;
        this.tlsOptions = tlsOptions;
    }

    /** Starts a server without persistence on a free loopback port. */
    public static RedisTestServer start() {
        return start(false);
    }

    /**
     * Starts a server on a free loopback port; {@code persistent} turns on the append-only file (fsync every
     * write) so that {@link #restart()} keeps the data.
     */
    public static RedisTestServer start(boolean persistent) {
        return start(persistent, null, null);
    }

    /**
     * Starts a server without persistence that also accepts TLS connections on {@link #tlsPort()}, presenting the
     * PEM certificate {@code cert} with its PEM key {@code key} (clients are not asked for certificates).
     */
    public static RedisTestServer startTls(Path cert, Path key) {
        return start(false, cert, key);
    }

    private static RedisTestServer start(boolean persistent, Path cert, Path key) {
        Path binary = binary().orElse(null);
        if (binary == null) {
            String reason = "no valkey-server or redis-server on PATH (CI installs redis-server in .ci/run; "
                    + "locally: apt-get install -y redis-server, or set QEG_TEST_REDIS_SERVER)";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new IllegalStateException(reason);
            }
            Assumptions.abort(reason);
        }
        try {
            List<String> tls = cert == null ? List.of() : List.of("--tls-cert-file", cert.toString(),
                    "--tls-key-file", key.toString(), "--tls-ca-cert-file", cert.toString(),
                    "--tls-auth-clients", "no");
            RedisTestServer server = new RedisTestServer(binary, Files.createTempDirectory("qeg-redis-"), persistent,
                    freePort(), cert == null ? -1 : freePort(), tls);
            server.launch();
            return server;
        } catch (IOException e) {
            throw new IllegalStateException("could not start " + binary + ": " + e.getMessage(), e);
        }
    }

    /** The server's port on 127.0.0.1. */
    public int port() {
        return port;
    }

    /** The TLS port on 127.0.0.1 of a server started with {@link #startTls}, else -1. */
    public int tlsPort() {
        return tlsPort;
    }

    /** {@code redis://127.0.0.1:PORT/DB}. */
    public String url(int db) {
        return "redis://127.0.0.1:" + port + "/" + db;
    }

    /** {@code redis://127.0.0.1:PORT/0}. */
    public String url() {
        return url(0);
    }

    /** The server's process id. */
    public long pid() {
        return process.pid();
    }

    /** Whether the server process is running. */
    public boolean running() {
        return process != null && process.isAlive();
    }

    /** Stops the server by its PID (SIGTERM, then SIGKILL after five seconds); the data directory stays. */
    public void stop() {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    /** Kills the server by its PID with SIGKILL: no shutdown save. */
    public void kill() {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    /** Starts the server again on the same port and directory (after {@link #stop()} or {@link #kill()}). */
    public void restart() {
        if (process != null) {
            stop();
        }
        try {
            launch();
        } catch (IOException e) {
            throw new IllegalStateException("could not restart " + binary + ": " + e.getMessage(), e);
        }
    }

    /** Sends one command in RESP and returns the raw first reply line (e.g. {@code +OK}, {@code :3}). */
    public String command(String... args) {
        return exchange(args, (first, in) -> first);
    }

    /**
     * Sends one command in RESP and returns its bulk-string reply (e.g. {@code INFO}'s text), null for the null
     * bulk string; any other reply fails.
     */
    public String bulk(String... args) {
        return exchange(args, (first, in) -> {
            if (!first.startsWith("$")) {
                throw new IOException("not a bulk-string reply: " + first);
            }
            int length = Integer.parseInt(first.substring(1));
            if (length < 0) {
                return null;
            }
            byte[] text = in.readNBytes(length);
            if (text.length < length) {
                throw new IOException("connection closed inside a bulk-string reply");
            }
            readLine(in); // the CRLF after the bytes
            return new String(text, StandardCharsets.UTF_8);
        });
    }

    /** Reads the rest of a reply, given its first line. */
    @FunctionalInterface
    private interface Reply {
        String read(String first, InputStream in) throws IOException;
    }

    private String exchange(String[] args, Reply reply) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2_000);
            socket.setSoTimeout(5_000);
            StringBuilder out = new StringBuilder("*").append(args.length).append("\r\n");
            for (String arg : args) {
                out.append('$').append(arg.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(arg)
                        .append("\r\n");
            }
            OutputStream os = socket.getOutputStream();
            os.write(out.toString().getBytes(StandardCharsets.UTF_8));
            os.flush();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            return reply.read(readLine(in), in);
        } catch (IOException e) {
            throw new IllegalStateException("redis command " + String.join(" ", args) + " failed: " + e, e);
        }
    }

    /** One reply line, without its CRLF. */
    public static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    @Override
    public void close() {
        stop();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind is harmless
        }
    }

    private void launch() throws IOException {
        List<String> command = new ArrayList<>(List.of(binary.toString(),
                "--port", Integer.toString(port), "--bind", "127.0.0.1", "--dir", dir.toString(),
                "--save", "", "--daemonize", "no", "--protected-mode", "yes", "--logfile", ""));
        if (tlsPort > 0) {
            command.addAll(List.of("--tls-port", Integer.toString(tlsPort)));
            command.addAll(tlsOptions);
        }
        if (persistent) {
            command.addAll(List.of("--appendonly", "yes", "--appendfsync", "always"));
        } else {
            command.addAll(List.of("--appendonly", "no"));
        }
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("server.log").toFile())
                .start();
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("exited with " + process.exitValue() + ": "
                        + Files.readString(dir.resolve("server.log")));
            }
            try {
                if ("+PONG".equals(command("PING"))) {
                    return;
                }
            } catch (IllegalStateException notYet) {
                // not listening yet
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the server");
            }
        }
        stop();
        throw new IOException("did not answer PING within 15 s");
    }

    private static Optional<Path> binary() {
        String explicit = System.getenv("QEG_TEST_REDIS_SERVER");
        if (explicit != null && !explicit.isBlank()) {
            return Optional.of(Path.of(explicit));
        }
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (String name : List.of("valkey-server", "redis-server")) {
            for (String dir : (path + ":/usr/bin:/usr/local/bin").split(":")) {
                Path candidate = Path.of(dir, name);
                if (Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
