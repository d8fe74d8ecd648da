package io.qdrant.esgateway.bootstrap;

import io.helidon.logging.common.LogConfig;
import java.util.concurrent.CountDownLatch;

/**
 * Starts the gateway: {@code java -jar bootstrap.jar [--port N] [--data DIR] [--config FILE]}. Configuration errors
 * end the process with status 2 and a message naming the setting; Ctrl-C (SIGINT/SIGTERM) stops it gracefully.
 */
public final class Main {
    /** A gateway without a collection for this long parks its heap ({@link IdleHeap}). */
    private static final long IDLE_HEAP_AFTER_NANOS = 7_500_000_000L;

    /**
     * With {@code -Dqeg.exitAfterWarmUp=true} the gateway runs its start-up warm-up in the foreground (none with
     * {@code QEG_WARM_UP=off}) and then stops with exit code 0: the training run of the AOT cache ({@code ./qeg}
     * starts it with {@code -XX:AOTCacheOutput}; the JVM writes the cache when it exits).
     */
    static final String EXIT_AFTER_WARM_UP = "qeg.exitAfterWarmUp";

    private Main() {
    }

    public static void main(String[] args) throws InterruptedException {
        long t0 = System.nanoTime();
        CarrierThreads.configure(Runtime.getRuntime().availableProcessors());
        System.setProperty("org.jooq.no-logo", System.getProperty("org.jooq.no-logo", "true"));
        System.setProperty("org.jooq.no-tips", System.getProperty("org.jooq.no-tips", "true"));
        LogConfig.configureRuntime();
        GatewayConfig config;
        try {
            config = GatewayConfig.load(args, System.getenv());
        } catch (GatewayConfig.ConfigException e) {
            System.err.println("qeg: configuration error: " + e.getMessage());
            System.exit(2);
            return;
        }
        Gateway gateway;
        try {
            gateway = Gateway.start(config);
        } catch (RuntimeException e) {
            System.err.println("qeg: cannot start: " + e.getMessage());
            e.printStackTrace(System.err);
            System.exit(1);
            return;
        }
        WarmUp warmUp = config.warmUp() && config.backend().equals("lucene") ? WarmUp.standard() : null;
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("qeg: stopping");
            if (warmUp != null) {
                warmUp.stop(10_000);
            }
            gateway.close();
            stopped.countDown();
        }, "qeg-shutdown"));
        System.out.printf("qeg: Elasticsearch %s API on http://%s:%d (data: %s, backend: %s, catalog: %s) ready in %d ms%n",
                config.esVersion(), config.host(), gateway.port(), config.dataDir().toAbsolutePath().normalize(),
                config.backend(), config.catalog(), (System.nanoTime() - t0) / 1_000_000);
        if (Boolean.getBoolean(EXIT_AFTER_WARM_UP)) {
            if (warmUp != null) {
                warmUp.runInForeground();
            }
            System.exit(0); // the shutdown hook closes the gateway
        }
        if (warmUp != null) {
            warmUp.startInBackground();
        }
        IdleHeap.startIfG1(gateway.activity(), IDLE_HEAP_AFTER_NANOS);
        stopped.await();
    }
}
