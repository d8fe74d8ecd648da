package io.qdrant.esgateway.bench;

import io.qdrant.esgateway.oracle.launcher.ChildJvm;
import io.qdrant.esgateway.oracle.launcher.OracleNode;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An engine in its own JVM, started by this runner with the same maximum heap for all: the gateway from its packaged
 * jar ({@code bootstrap/target/bootstrap.jar}, {@code --port 0}, a temp data directory) with its shipped JVM settings
 * ({@link JvmOptionsFile}, as {@code ./qeg run} starts it), Elasticsearch and OpenSearch
 * from the compat tests' oracle launchers (each {@code oracle-} module's {@code target/classes} and
 * {@code target/oracle-classpath.txt}, the same command line as compat-tests' {@code EngineProcess}). Ready when
 * {@code GET /} answers 200; stopped by its PID (SIGTERM, SIGKILL after 30 s), its temp home removed. Each also exits
 * by itself once this JVM is gone, even after a kill -9: the oracles watch {@code -Doracle.parent.pid}, the gateway
 * runs under {@link ParentWatch}. With {@code --engine-cpus} every one starts under {@code taskset} on the engines'
 * CPUs ({@link CpuPinning}).
 */
public final class ChildEngine implements RunningEngine {
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
    private static final Pattern GATEWAY_READY = Pattern.compile("API on http://([^:\\s]+):(\\d+)");

    private final EngineSpec spec;
    private final Process process;
    private final Path home;
    private final URI url;
    private final long startupMillis;
    private volatile boolean stopped;

    private ChildEngine(EngineSpec spec, Process process, Path home, URI url, long startupMillis) {
        this.spec = spec;
        this.process = process;
        this.home = home;
        this.url = url;
        this.startupMillis = startupMillis;
    }

    /** Starts the engine of {@code spec} (not a URL one) with the repository at {@code root}; logs go to logDir. */
    public static ChildEngine start(EngineSpec spec, Path root, String heap, Path logDir) {
        return start(spec, root, heap, logDir, List.of());
    }

    /** The same, with more command-line arguments for a gateway (e.g. its backend). */
    public static ChildEngine start(EngineSpec spec, Path root, String heap, Path logDir, List<String> gatewayArgs) {
        return start(spec, root, heap, logDir, gatewayArgs, java.util.Map.of(), spec.name());
    }

    /**
     * The {@code count} replicas of a shared-mode engine ({@link EngineSpec.Kind#sharedMode}): each a gateway with
     * {@code backendArgs}, the Redis catalog on {@code redis} and the kind's shared response-cache mode, started one
     * after the other (the first creates the shared catalog, the second joins it). If one cannot start, the one
     * started is stopped.
     */
    static List<ChildEngine> startReplicas(EngineSpec spec, Path root, String heap, Path logDir,
                                           List<String> backendArgs, ServerProcess redis, int count) {
        List<String> args = new ArrayList<>(backendArgs);
        args.addAll(List.of("--catalog", "redis", "--redis-url", "redis://127.0.0.1:" + redis.port() + "/0"));
        java.util.Map<String, String> env = java.util.Map.of("QEG_RESPONSE_CACHE", spec.kind().cacheMode(),
                "QEG_REDIS_PREFIX", "bench:");
        List<ChildEngine> replicas = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                replicas.add(start(spec, root, heap, logDir, args, env, spec.name() + "-" + (char) ('a' + i)));
            }
            return List.copyOf(replicas);
        } catch (RuntimeException | Error e) {
            replicas.forEach(ChildEngine::close);
            throw e;
        }
    }

    /**
     * The same, with environment variables for a gateway (its {@code QEG_*} settings) and the log's name (a replica
     * of an engine with several processes).
     */
    public static ChildEngine start(EngineSpec spec, Path root, String heap, Path logDir, List<String> gatewayArgs,
                                    java.util.Map<String, String> env, String logName) {
        Path home;
        Path log = logDir.resolve(logName + ".log");
        try {
            Files.createDirectories(logDir);
            home = Files.createTempDirectory("qeg-bench-" + spec.name() + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> command;
        int httpPort = gateway(spec) ? 0 : ChildJvm.freePort();
        try {
            command = command(spec, root, heap, home, httpPort);
            command.addAll(gatewayArgs);
        } catch (RuntimeException e) {
            ChildJvm.deleteTree(home, problem -> System.err.println("bench: " + problem));
            throw e;
        }
        long t0 = System.nanoTime();
        Process process;
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().put("QEG_NODE_NAME", "bench-gateway");
            if (spec.kind() == EngineSpec.Kind.GATEWAY_QDRANT_CANNED) {
                // the overhead mode measures the way to the backend and back: no answer from the request cache
                builder.environment().put("QEG_REQUEST_CACHE_ENTRIES", "0");
            }
            builder.environment().putAll(env);
            process = builder.start();
        } catch (IOException e) {
            ChildJvm.deleteTree(home, problem -> System.err.println("bench: " + problem));
            throw new UncheckedIOException("cannot start " + spec.name(), e);
        }
        try {
            URI url = waitUntilAnswering(spec, process, log, httpPort);
            return new ChildEngine(spec, process, home, url, (System.nanoTime() - t0) / 1_000_000);
        } catch (RuntimeException | Error e) {
            ChildJvm.stop(process);
            ChildJvm.deleteTree(home, problem -> System.err.println("bench: " + problem));
            throw e;
        }
    }

    /** Where {@link ParentWatch} and what it uses are: this module's and the launcher module's classes (or jars). */
    private static String ownClasses() {
        return location(ParentWatch.class) + File.pathSeparator + location(OracleNode.class);
    }

    private static String location(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The command line of the engine's JVM; fails, naming what to build, when its jar or launcher is missing. */
    private static List<String> command(EngineSpec spec, Path root, String heap, Path home, int httpPort) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(CpuPinning.current().enginePrefix());
        command.add(java);
        switch (spec.kind()) {
            case GATEWAY, GATEWAY_QDRANT_CANNED, GATEWAY_QDRANT, GATEWAY_SHARED_ON, GATEWAY_SHARED_COORDINATE,
                 GATEWAY_SHARED_ON_CANNED, GATEWAY_SHARED_COORDINATE_CANNED, GATEWAY_SHARED_OFF_CANNED -> {
                Path jar = root.resolve("bootstrap/target/bootstrap.jar");
                if (!Files.isRegularFile(jar) || !Files.isDirectory(root.resolve("bootstrap/target/libs"))) {
                    throw new IllegalStateException("the gateway is not packaged: expected " + jar + " and its libs/. "
                            + "Build from the repository root (./qeg bench builds it).");
                }
                command.addAll(gatewayJvmOptions(root, heap, System.getenv("QEG_JAVA_OPTS")));
                // the jar's manifest Class-Path (libs/) holds on the class path too; ParentWatch runs the gateway's Main
                command.addAll(List.of("-Djava.io.tmpdir=" + tmp(home),
                        "-cp", ownClasses() + File.pathSeparator + jar,
                        ParentWatch.class.getName(), Long.toString(ProcessHandle.current().pid()),
                        "io.qdrant.esgateway.bootstrap.Main",
                        "--port", "0", "--host", "127.0.0.1", "--data", home.resolve("data").toString()));
            }
            case ELASTICSEARCH, OPENSEARCH -> {
                // Elasticsearch and OpenSearch pin the initial heap to the maximum, as they ship (their jvm.options
                // and bootstrap checks)
                command.addAll(List.of("-Xms" + heap, "-Xmx" + heap,
                        "--enable-native-access=ALL-UNNAMED", "--add-modules=jdk.incubator.vector"));
                String module = spec.kind() == EngineSpec.Kind.ELASTICSEARCH ? "oracle-elasticsearch" : "oracle-opensearch";
                String main = spec.kind() == EngineSpec.Kind.ELASTICSEARCH
                        ? "io.qdrant.esgateway.oracle.elasticsearch.ElasticsearchOracle"
                        : "io.qdrant.esgateway.oracle.opensearch.OpenSearchOracle";
                command.addAll(List.of("-Dio.netty.noUnsafe=true", "-Dlog4j2.disable.jmx=true",
                        "-Djava.io.tmpdir=" + tmp(home), "-Doracle.parent.pid=" + ProcessHandle.current().pid(),
                        "-cp", ChildJvm.launcherClassPath(root.resolve(module).resolve("target"),
                                module, "Build from the repository root (./qeg bench builds it)."), main,
                        home.toString(), Integer.toString(httpPort), Integer.toString(ChildJvm.freePort())));
            }
            default -> throw new IllegalArgumentException("not started by the runner: " + spec);
        }
        return command;
    }

    /**
     * The gateway's JVM flags: the shipped settings ({@link JvmOptionsFile}, what {@code ./qeg run} passes), then
     * {@code QEG_JAVA_OPTS} as {@code ./qeg run} adds it (split on white space; may be null), then {@code -Xmx} of the
     * run: every engine's common maximum heap, last so that it wins.
     */
    static List<String> gatewayJvmOptions(Path root, String heap, String javaOpts) {
        List<String> options = new ArrayList<>(JvmOptionsFile.gatewayOptions(root));
        if (javaOpts != null && !javaOpts.isBlank()) {
            options.addAll(List.of(javaOpts.trim().split("\\s+")));
        }
        options.add("-Xmx" + heap);
        return options;
    }

    /** How the gateway's JVM was set up, for the report: the shipped settings, and QEG_JAVA_OPTS when given. */
    static String gatewaySettings() {
        String javaOpts = System.getenv("QEG_JAVA_OPTS");
        return "shipped JVM settings (" + JvmOptionsFile.PATH + ")"
                + (javaOpts == null || javaOpts.isBlank() ? "" : " + QEG_JAVA_OPTS=" + javaOpts.trim());
    }

    private static boolean gateway(EngineSpec spec) {
        return !spec.isNative() && spec.kind() != EngineSpec.Kind.URL;
    }

    private static Path tmp(Path home) {
        try {
            return Files.createDirectories(home.resolve("tmp"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static URI waitUntilAnswering(EngineSpec spec, Process process, Path log, int httpPort) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        Http http = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(spec.name() + " exited with code " + process.exitValue()
                        + " before it answered; last lines of " + log + ":\n" + ChildJvm.tail(log));
            }
            if (http == null) {
                if (httpPort > 0) {
                    http = new Http(URI.create("http://127.0.0.1:" + httpPort));
                } else {
                    Matcher m = GATEWAY_READY.matcher(read(log));
                    if (m.find()) {
                        http = new Http(URI.create("http://127.0.0.1:" + m.group(2)));
                    }
                }
            }
            if (http != null) {
                try {
                    if (http.send("GET", "/", null, null).status() == 200) {
                        http.close();
                        return http.base();
                    }
                } catch (UncheckedIOException notYet) {
                    // not listening yet
                }
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + spec.name(), e);
            }
        }
        throw new IllegalStateException(spec.name() + " did not answer within " + START_TIMEOUT + "; last lines of "
                + log + ":\n" + ChildJvm.tail(log));
    }

    @Override
    public EngineSpec spec() {
        return spec;
    }

    @Override
    public URI url() {
        return url;
    }

    @Override
    public OptionalLong pid() {
        return OptionalLong.of(process.pid());
    }

    @Override
    public Optional<Long> startupMillis() {
        return Optional.of(startupMillis);
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public synchronized void close() {
        if (stopped) {
            return;
        }
        stopped = true;
        ChildJvm.stop(process);
        ChildJvm.deleteTree(home, problem -> System.err.println("bench: " + problem));
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

}
