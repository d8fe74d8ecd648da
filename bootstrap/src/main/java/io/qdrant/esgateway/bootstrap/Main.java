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
        if (warmUp != null) {
            warmUp.startInBackground();
        }
        IdleHeap.startIfG1(gateway.activity(), IDLE_HEAP_AFTER_NANOS);
        stopped.await();
    }
}
