package io.qdrant.esgateway.oracle.launcher;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The starting side of a launcher: what the compat tests and the benchmarks need to run an engine in a JVM of its
 * own and stop it by its PID.
 */
public final class ChildJvm {
    private ChildJvm() {
    }

    /** A TCP port free on the loopback interface now. */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The class path of a launcher module from its build directory: {@code target/classes} and the entries of
     * {@code target/oracle-classpath.txt}; a launcher not built is an error that says {@code howToBuild}.
     */
    public static String launcherClassPath(Path target, String name, String howToBuild) {
        Path classes = target.resolve("classes");
        Path file = target.resolve("oracle-classpath.txt");
        if (!Files.isDirectory(classes) || !Files.isRegularFile(file)) {
            throw new IllegalStateException("the " + name + " launcher is not built: expected " + classes + " and "
                    + file + ". " + howToBuild);
        }
        try {
            return classes + File.pathSeparator + Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * SIGTERM to the process (the node closes itself in its shutdown hook), SIGKILL after 30 s; true when it ended
     * on SIGTERM (or had ended already).
     */
    public static boolean stop(Process process) {
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

    /** A value in kB from /proc/PID/status (Linux), e.g. VmRSS (resident now) or VmHWM (peak resident). */
    public static OptionalLong procStatusKib(long pid, String field) {
        Path status = Path.of("/proc", Long.toString(pid), "status");
        try (Stream<String> lines = Files.lines(status)) {
            return lines.filter(l -> l.startsWith(field + ":"))
                    .mapToLong(l -> Long.parseLong(l.substring(field.length() + 1).trim().split("\\s+")[0]))
                    .findFirst();
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    /** The last 40 lines of a log, or why it cannot be read. */
    public static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    /** Removes a directory tree; a failure is reported to {@code problems}, not thrown. */
    public static void deleteTree(Path dir, Consumer<String> problems) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            problems.accept("could not remove " + dir + ": " + e);
        }
    }
}
