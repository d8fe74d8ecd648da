package io.qdrant.esgateway.compat.harness;

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

/**
 * The processes of one test run: each oracle engine is started at most once per test JVM (on first use, shared by all
 * scenario tests) and the gateway once, in-process. They are stopped when the JUnit launcher session ends
 * ({@link OracleSessionListener}), and by a JVM shutdown hook if that never comes (failure, Ctrl-C). A failed start
 * is remembered and rethrown: every test that needs that engine fails; none is skipped.
 */
public final class Oracles {
    private static final Map<Engine, EngineProcess> RUNNING = new EnumMap<>(Engine.class);
    private static final Map<Engine, RuntimeException> FAILED = new EnumMap<>(Engine.class);
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

    public static synchronized EngineProcess engine(Engine engine) {
        if (FAILED.containsKey(engine)) {
            throw new IllegalStateException(engine.displayName() + " could not be started earlier in this run",
                    FAILED.get(engine));
        }
        EngineProcess running = RUNNING.get(engine);
        if (running != null && running.isAlive()) {
            return running;
        }
        if (running != null) {
            throw new IllegalStateException(engine.displayName() + " (pid " + running.pid() + ") died during the run;"
                    + " see target/oracle-logs/" + engine.id() + ".log");
        }
        String home = System.getProperty("oracle." + engine.id() + ".home");
        if (home == null) {
            throw new IllegalStateException("system property oracle." + engine.id() + ".home is not set; run the "
                    + "compat tests through Maven (./qeg test)");
        }
        try {
            EngineProcess started = EngineProcess.start(engine, Path.of(home),
                    Path.of(System.getProperty("oracle.logs", "target/oracle-logs")));
            RUNNING.put(engine, started);
            return started;
        } catch (RuntimeException e) {
            FAILED.put(engine, e);
            throw e;
        }
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

    public static synchronized void stopAll() {
        RUNNING.values().forEach(EngineProcess::close);
        RUNNING.clear();
        if (gateway != null) {
            gateway.close();
            gateway = null;
        }
    }
}
