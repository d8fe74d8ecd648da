package io.qdrant.esgateway.compat.harness;

import io.qdrant.esgateway.oracle.launcher.ChildJvm;
import io.qdrant.esgateway.bootstrap.GatewayForCompat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The processes of one test run: each oracle engine is started at most once per test JVM (on first use, shared by all
 * scenario tests) and the gateway once, in-process. They are stopped when the JUnit launcher session ends
 * ({@link OracleSessionListener}), and by a JVM shutdown hook if that never comes (failure, Ctrl-C). A failed start
 * is remembered and rethrown: every test that needs that engine fails; none is skipped. Should even the hook not
 * run (kill -9), each engine stops itself once this JVM is gone (it watches its parent's PID).
 */
public final class Oracles {
    private static final Map<Engine, CompletableFuture<EngineProcess>> STARTING = new EnumMap<>(Engine.class);
    private static final Executor STARTER = runnable -> {
        Thread t = new Thread(runnable, "compat-oracle-start");
        t.setDaemon(true);
        t.start();
    };
    private static GatewayForCompat gateway;
    private static Path gatewayData;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Oracles::stopAll, "compat-oracles-stop"));
    }

    private Oracles() {
    }

    /** The engines this run compares against: {@code -Doracle.engines=elasticsearch,opensearch} (the default). */
    public static Set<Engine> enabled() {
        String value = System.getProperty("oracle.engines", "elasticsearch,opensearch");
        Set<Engine> engines = new LinkedHashSet<>();
        Arrays.stream(value.split(",")).filter(s -> !s.isBlank()).map(Engine::byId).forEach(engines::add);
        return engines;
    }

    /**
     * The running engine, started on first use. The first call starts every enabled engine at once (in parallel, on
     * daemon threads), so the second engine is usually up by the time its scenarios begin.
     */
    public static EngineProcess engine(Engine engine) {
        CompletableFuture<EngineProcess> future;
        synchronized (Oracles.class) {
            if (STARTING.isEmpty()) {
                enabled().forEach(e -> STARTING.put(e, startAsync(e)));
            }
            future = STARTING.computeIfAbsent(engine, Oracles::startAsync);
        }
        EngineProcess running;
        try {
            running = future.join();
        } catch (CompletionException e) {
            throw new IllegalStateException(engine.displayName() + " could not be started", e.getCause());
        }
        if (!running.isAlive()) {
            throw new IllegalStateException(engine.displayName() + " (pid " + running.pid() + ") died during the run;"
                    + " see target/oracle-logs/" + engine.id() + ".log");
        }
        return running;
    }

    private static CompletableFuture<EngineProcess> startAsync(Engine engine) {
        return CompletableFuture.supplyAsync(() -> {
            String home = System.getProperty("oracle." + engine.id() + ".home");
            if (home == null) {
                throw new IllegalStateException("system property oracle." + engine.id() + ".home is not set; run the "
                        + "compat tests through Maven (./qeg test)");
            }
            return EngineProcess.start(engine, Path.of(home),
                    Path.of(System.getProperty("oracle.logs", "target/oracle-logs")));
        }, STARTER);
    }

    /** The gateway under test: one per run, in this JVM, with its data in a temp directory. */
    public static synchronized HttpTarget gateway() {
        if (gateway == null) {
            try {
                gatewayData = Files.createTempDirectory("qeg-compat-gateway-");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            long t0 = System.nanoTime();
            gateway = GatewayForCompat.start(gatewayData);
            HarnessLog.info(String.format(java.util.Locale.ROOT, "gateway: http://127.0.0.1:%d (in-process), started in "
                    + "%.2f s, data %s", gateway.port(), (System.nanoTime() - t0) / 1e9, gatewayData));
        }
        return new HttpTarget("gateway", gateway.port());
    }

    /** Stops every engine this run started (waiting for one still starting), then the gateway. */
    public static synchronized void stopAll() {
        for (CompletableFuture<EngineProcess> f : STARTING.values()) {
            try {
                f.get(5, TimeUnit.MINUTES).close();
            } catch (ExecutionException | TimeoutException e) {
                // never started, nothing to stop (a start that hangs is killed with the JVM by its parent watch)
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        STARTING.clear();
        if (gateway != null) {
            gateway.close();
            gateway = null;
            ChildJvm.deleteTree(gatewayData, HarnessLog::info);
        }
    }
}
