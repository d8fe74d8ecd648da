package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * What a shared-cache miss costs once the JIT has settled: rounds of cold {@code terms} searches (each a new cache key)
 * on a shared gateway over a real redis-server, then as many on an embedded one, in one JVM ({@link SharedHitCostTest}'s
 * set-up). Per round and gateway: the JIT's and the collector's time in the round, the wall time, the process's CPU
 * and redis-server's CPU per search. Not a test: a measurement,
 * {@code java -cp <test class path> io.qdrant.esgateway.bootstrap.SharedMissCost [searches per round] [rounds]}.
 */
public final class SharedMissCost {
    private SharedMissCost() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 12;
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try (SharedHitCostTest.Setup setup = SharedHitCostTest.Setup.start("1s")) {
            String body = json(SharedHitCostTest.TERMS);
            for (int round = 0; round < rounds; round++) {
                for (boolean shared : new boolean[] {true, false}) {
                    SharedHitCostTest.RawClient client = shared ? setup.shared() : setup.embedded();
                    long cpu = os.getProcessCpuTime();
                    long redis = redisCpuMicros(setup);
                    long jit = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
                    long gc = gcMillis();
                    long start = System.nanoTime();
                    for (int i = 0; i < n; i++) {
                        client.search("/bench/_search?_source_excludes=cost_" + round + "_" + i, body);
                    }
                    long wall = System.nanoTime() - start;
                    Thread.sleep(200); // the last publications finish after their answers
                    System.out.printf(Locale.ROOT, "round %d %s: jit %d ms, gc %d ms; per search: wall %.1f us, "
                                    + "process CPU %.1f us, redis-server CPU %.1f us%n", round,
                            shared ? "shared  " : "embedded",
                            ManagementFactory.getCompilationMXBean().getTotalCompilationTime() - jit, gcMillis() - gc,
                            wall / 1e3 / n, (os.getProcessCpuTime() - cpu) / 1e3 / n,
                            (redisCpuMicros(setup) - redis) / (double) n);
                }
            }
        }
    }

    private static long gcMillis() {
        long total = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            total += gc.getCollectionTime();
        }
        return total;
    }

    /** redis-server's user + system CPU ({@code INFO cpu}) in µs. */
    private static long redisCpuMicros(SharedHitCostTest.Setup setup) {
        double seconds = 0;
        for (String line : setup.redis().bulk("INFO", "cpu").split("\r?\n")) {
            if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
                seconds += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return (long) (seconds * 1e6);
    }
}
