package io.qdrant.esgateway.adapter.out.catalog.redis;

import io.qdrant.esgateway.adapter.out.cache.redis.RedisResponseCaches;
import io.qdrant.esgateway.application.port.out.Catalog;
import io.qdrant.esgateway.application.port.out.SharedResponseCache;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * Measures what the shared catalog's guarantee costs a request on a real Redis/Valkey (started on a free loopback
 * port): a catalog read on its own ({@code view()} with the generation unchanged: one {@code MGET}), a response-cache
 * lookup alone, and the lookup with the catalog check in the same script ({@code lookupIf} with the pinned snapshot).
 * The guarantee costs a request the first when read apart, the difference of the last two when pipelined.
 * Run: {@code java -cp <test classpath> io.qdrant.esgateway.adapter.out.catalog.redis.CatalogGuaranteeCost [n]}.
 */
public final class CatalogGuaranteeCost {
    private CatalogGuaranteeCost() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        try (RedisTestServer server = RedisTestServer.start();
             RedisCatalogs.Handle catalog = RedisCatalogs.open(new RedisCatalogs.Settings(URI.create(server.url()),
                     "cost:", Duration.ofSeconds(5), 4));
             RedisResponseCaches.Handle cache = RedisResponseCaches.open(new RedisResponseCaches.Settings(
                     URI.create(server.url()), "cost:", Duration.ofMinutes(5), 1 << 20, 4, Duration.ofSeconds(5)))) {
            for (int i = 0; i < 50; i++) {
                catalog.createIndex(new IndexMetadata("index-" + i, "uuid-" + i, Instant.EPOCH,
                        IndexSettings.DEFAULTS, Mappings.EMPTY), List.of());
            }
            catalog.view();
            List<String> indices = List.of("uuid-7");
            SharedResponseCache.Lookup miss = cache.lookup("key", indices);
            cache.publish(miss.ticket(), new byte[2048]);
            Catalog.Pinned pinned = catalog.pinned().orElseThrow();

            for (int round = 0; round < 2; round++) { // the first round warms the JIT up
                // interleaved, so that the machine's load falls on the three alike
                long[][] t = time(n, catalog::view, () -> cache.lookup("key", indices),
                        () -> cache.lookupIf("key", indices, pinned.keys(), pinned.values()).orElseThrow());
                long[] view = t[0];
                long[] lookup = t[1];
                long[] both = t[2];
                if (round == 1) {
                    System.out.printf("n=%d  p50/p90 µs: catalog read apart %.1f/%.1f; lookup %.1f/%.1f; lookup with"
                                    + " the catalog check %.1f/%.1f; pipelined guarantee p50 +%.1f µs%n", n,
                            p(view, 50), p(view, 90), p(lookup, 50), p(lookup, 90), p(both, 50), p(both, 90),
                            p(both, 50) - p(lookup, 50));
                }
            }
        }
    }

    private static long[][] time(int n, Runnable... work) {
        long[][] nanos = new long[work.length][n];
        for (int i = 0; i < n; i++) {
            for (int w = 0; w < work.length; w++) {
                long start = System.nanoTime();
                work[w].run();
                nanos[w][i] = System.nanoTime() - start;
            }
        }
        for (long[] one : nanos) {
            Arrays.sort(one);
        }
        return nanos;
    }

    private static double p(long[] sorted, int percentile) {
        return sorted[Math.min(sorted.length - 1, sorted.length * percentile / 100)] / 1000.0;
    }
}
