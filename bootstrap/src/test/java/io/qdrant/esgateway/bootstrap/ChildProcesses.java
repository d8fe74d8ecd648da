package io.qdrant.esgateway.bootstrap;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Gateways and the fake Qdrant as child JVMs on this test's class path, each stopped or killed by its own PID. */
final class ChildProcesses {
    static final Pattern GATEWAY_READY = Pattern.compile("on http://127\\.0\\.0\\.1:(\\d+) .* ready in");
    static final Pattern QDRANT_READY = Pattern.compile("fake-qdrant on (\\d+)");

    private ChildProcesses() {
    }

    /** {@code java <jvmOptions> -cp <this class path> <mainAndArgs>}, output to {@code log}. */
    static Process java(List<String> jvmOptions, List<String> mainAndArgs, Path log, Map<String, String> env)
            throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-XX:TieredStopAtLevel=1", "--enable-native-access=ALL-UNNAMED",
                "--add-modules=jdk.incubator.vector", "-Dorg.jooq.no-logo=true", "-cp",
                System.getProperty("java.class.path")));
        cmd.addAll(mainAndArgs);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().putAll(env);
        return pb.start();
    }

    /** The fake Qdrant as a process; its port once it listens. */
    static Process fakeQdrant(Path log) throws IOException {
        return java(List.of("-Xmx128m", "-XX:+UseSerialGC"), List.of(FakeQdrantProcess.class.getName()), log, Map.of());
    }

    /** The port {@code line} names in the log (the latest match), waiting up to two minutes. */
    static int awaitPort(Process process, Path log, Pattern line) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            Matcher m = line.matcher(Files.readString(log));
            int port = -1;
            while (m.find()) {
                port = Integer.parseInt(m.group(1));
            }
            if (port > 0) {
                return port;
            }
            if (!process.isAlive()) {
                break;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("no [" + line + "] from the process; its output:\n" + Files.readString(log));
    }

    /** SIGTERM, then SIGKILL after 20 s; this process only. */
    static void stop(Process p) throws InterruptedException {
        if (p == null) {
            return;
        }
        p.destroy();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** The resident set of a process in KiB ({@code VmRSS} of {@code /proc/<pid>/status}), or -1. */
    static long rssKib(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }
}
