package io.qdrant.esgateway.adapter.out.cache.redis;

import io.qdrant.esgateway.application.port.out.SharedResponseCache;
import java.net.URI;
import java.time.Duration;

/** Opens the shared response cache on Valkey or Redis ({@code redis://} or {@code rediss://} for TLS). */
public final class RedisResponseCaches {

    /**
     * @param url           {@code redis://[user:password@]host:port/db} or {@code rediss://…}
     * @param prefix        put before every key (several gateways, or a gateway and other users, on one server)
     * @param ttl           how long an entry lives at most
     * @param maxEntryBytes the largest answer kept
     * @param poolSize      most connections (hence requests to the server in flight) at once
     * @param timeout       connect and read timeout of one command
     * @param leaseTerm     how long this replica's lease runs after each renewal, under which it answers a request
     *                      whose answer it holds without asking the server ({@link Leases}); zero for none: every
     *                      lookup is a round trip, and writes do not wait for other replicas
     */
    public record Settings(URI url, String prefix, Duration ttl, int maxEntryBytes, int poolSize, Duration timeout,
                           Duration leaseTerm) {
        public Settings {
            if (leaseTerm.isNegative()) {
                throw new IllegalArgumentException("a lease term cannot be negative");
            }
        }

        /** Without a lease. */
        public Settings(URI url, String prefix, Duration ttl, int maxEntryBytes, int poolSize, Duration timeout) {
            this(url, prefix, ttl, maxEntryBytes, poolSize, timeout, Duration.ZERO);
        }
    }

    /** An open cache; {@link #close()} closes its connections. */
    public interface Handle extends SharedResponseCache, AutoCloseable {
        /**
         * What this replica's lease lets it know without asking the server ({@link
         * io.qdrant.esgateway.adapter.out.redis.KnownValues#NONE} without a lease): for the shared catalog on the same
         * server and prefix.
         */
        io.qdrant.esgateway.adapter.out.redis.KnownValues knownValues();

        @Override
        void close();
    }

    private RedisResponseCaches() {
    }

    /**
     * Connects and checks the server: it must answer, and must not evict keys without a TTL
     * ({@code maxmemory-policy} {@code allkeys-*}), since the data generations have none.
     *
     * @throws io.qdrant.esgateway.domain.error.GatewayException {@code BACKEND_UNAVAILABLE} if it cannot
     * @throws IllegalStateException if the server's eviction policy could drop a generation
     */
    public static Handle open(Settings settings) {
        return RedisResponseCache.open(settings);
    }
}
