package io.qdrant.esgateway.adapter.out.cache.redis;

import io.qdrant.esgateway.adapter.out.catalog.redis.RedisTestServer;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What the leases cost a write, measured on a real redis-server: the p50 of one generation move ({@code bump}) with no
 * lease anywhere, with only the writer's own, and with one other replica holding a lease (whose acknowledgement the
 * writer waits for). A {@code main}, not a test: {@code java -cp <adapters-catalog test class path>
 * io.qdrant.esgateway.adapter.out.cache.redis.LeaseWriteCost [n [rounds]]}.
 */
public final class LeaseWriteCost {
    private LeaseWriteCost() {
    }

    private static RedisResponseCaches.Handle open(RedisTestServer server, String prefix, Duration lease) {
        return RedisResponseCaches.open(new RedisResponseCaches.Settings(URI.create(server.url()), prefix,
                Duration.ofMinutes(1), 1 << 20, 8, Duration.ofSeconds(2), lease));
    }

    private static double p50(RedisResponseCaches.Handle cache, int n) {
        long[] took = new long[n];
        for (int i = 0; i < n; i++) {
            long start = System.nanoTime();
            cache.bump(List.of("u1"));
            took[i] = System.nanoTime() - start;
        }
        Arrays.sort(took);
        return took[n / 2] / 1000.0;
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Duration term = Duration.ofSeconds(1);
        try (RedisTestServer server = RedisTestServer.start()) {
            for (int round = 0; round < rounds; round++) {
                try (RedisResponseCaches.Handle none = open(server, "none" + round + ":", Duration.ZERO)) {
                    p50(none, n / 4);
                    System.out.printf(Locale.ROOT, "round %d: no lease anywhere p50 %.1f us%n", round, p50(none, n));
                }
                String prefix = "leased" + round + ":";
                try (RedisResponseCaches.Handle writer = open(server, prefix, term)) {
                    Thread.sleep(term.toMillis() + 200); // the lease runs, the new registry's grace is over
                    p50(writer, n / 4);
                    System.out.printf(Locale.ROOT, "round %d: only the writer's lease p50 %.1f us%n", round,
                            p50(writer, n));
                    try (RedisResponseCaches.Handle other = open(server, prefix, term)) {
                        Thread.sleep(term.toMillis() / 2);
                        p50(writer, n / 4);
                        System.out.printf(Locale.ROOT, "round %d: one other replica's lease p50 %.1f us%n", round,
                                p50(writer, n));
                    }
                }
            }
        }
    }
}
