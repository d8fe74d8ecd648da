package io.qdrant.esgateway.adapter.out.catalog.redis;

import io.qdrant.esgateway.application.port.out.Catalog;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;

/**
 * Opens the shared catalog: every index, alias and mapping in one Valkey or Redis database, read and changed by any
 * number of gateway replicas. See {@link RedisCatalog} for what it guarantees.
 */
public final class RedisCatalogs {

    /** The default key prefix: every key the catalog writes starts with it. */
    public static final String DEFAULT_PREFIX = "qeg:";

    /** An open catalog; {@link #close()} closes its connections (later calls fail as unavailable). */
    public interface Handle extends Catalog, AutoCloseable {

        /**
         * The cluster uuid every replica sharing this catalog reports: the first one stored ({@code candidate} if
         * none is yet).
         *
         * @throws io.qdrant.esgateway.domain.error.GatewayException {@code BACKEND_UNAVAILABLE} if the server does
         *         not answer
         */
        String clusterUuid(String candidate);

        /**
         * Lets a read of the catalog use the local snapshot without reading the generation when {@code known} knows the
         * snapshot's generation and epoch current (the response cache's lease on the same server and prefix, whose
         * writers wait for it to forget them before acknowledging a change), and feeds it what reads find.
         */
        void useKnownValues(io.qdrant.esgateway.adapter.out.redis.KnownValues known);

        /** Closes the connection pool; idempotent. */
        @Override
        void close();
    }

    /**
     * Where the catalog lives. {@code url} is {@code redis://[user:password@]host:port/db}, or {@code rediss://…} for
     * TLS; {@code timeout} bounds connecting and every reply; {@code connections} is the most connections this
     * process opens. {@code leaseTerm} is the response cache's lease term when replicas answer from what they know
     * under leases (a change then waits until every running lease forgot the catalog's generation, see
     * {@link io.qdrant.esgateway.adapter.out.redis.Invalidations}); zero when they do not.
     */
    public record Settings(URI url, String prefix, Duration timeout, int connections, Duration leaseTerm) {
        /** Without leases. */
        public Settings(URI url, String prefix, Duration timeout, int connections) {
            this(url, prefix, timeout, connections, Duration.ZERO);
        }

        public Settings {
            if (leaseTerm.isNegative()) {
                throw new IllegalArgumentException("a lease term cannot be negative");
            }
            String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("redis") || scheme.equals("rediss")) || url.getHost() == null) {
                throw new IllegalArgumentException("not a redis:// or rediss:// URL with a host");
            }
            if (prefix.isEmpty() || prefix.chars().anyMatch(Character::isWhitespace)) {
                throw new IllegalArgumentException("the key prefix must be non-empty, without spaces");
            }
        }

        /** A URL with the defaults: prefix {@value #DEFAULT_PREFIX}, 5 s timeout, 32 connections. */
        public static Settings of(URI url) {
            return new Settings(url, DEFAULT_PREFIX, Duration.ofSeconds(5), 32);
        }

        /** The URL without its credentials, for messages and logs. */
        public String displayUrl() {
            return url.getScheme() + "://" + url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort())
                    + (url.getPath() == null ? "" : url.getPath());
        }
    }

    private RedisCatalogs() {
    }

    /**
     * Connects (lazily: an unreachable server makes {@link Catalog#ping()} and every call fail as unavailable until
     * it answers) and returns the catalog.
     */
    public static Handle open(Settings settings) {
        return RedisCatalog.open(settings);
    }
}
