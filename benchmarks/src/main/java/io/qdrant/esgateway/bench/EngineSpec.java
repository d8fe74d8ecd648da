package io.qdrant.esgateway.bench;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One engine of a run: either one the runner starts ({@link Kind#GATEWAY}, {@link Kind#GATEWAY_QDRANT_CANNED},
 * {@link Kind#ELASTICSEARCH}, {@link Kind#OPENSEARCH}) or one already running at a URL ({@link Kind#URL}, given as
 * {@code name=http://host:port}).
 *
 * @param name the column name in the report
 * @param kind how it is started
 * @param url  the base URL of a {@link Kind#URL} engine
 */
public record EngineSpec(String name, Kind kind, Optional<URI> url) {

    /**
     * How an engine comes to be running. {@code GATEWAY_QDRANT_CANNED} is the gateway on its Qdrant adapter against
     * the runner's {@link CannedQdrant} (the gateway-overhead mode).
     */
    public enum Kind { GATEWAY, GATEWAY_QDRANT_CANNED, ELASTICSEARCH, OPENSEARCH, URL,
        /** One gateway on its Qdrant adapter over the fake Qdrant as a process, SQLite catalog, no request cache. */
        GATEWAY_QDRANT,
        /**
         * Shared mode: gateway replicas ({@code --replicas}, two by default) over one fake Qdrant process and one
         * redis-server, cache mode on.
         */
        GATEWAY_SHARED_ON,
        /** The same in cache mode coordinate: tickets and generations kept, nothing served from the cache. */
        GATEWAY_SHARED_COORDINATE,
        /** Shared mode (cache mode on) over the runner's {@link CannedQdrant}: its replicas, one redis-server. */
        GATEWAY_SHARED_ON_CANNED,
        /** The same in cache mode coordinate. */
        GATEWAY_SHARED_COORDINATE_CANNED,
        /**
         * The same replicas with the shared response cache off (the Redis catalog only): what replicas cost
         * without the cache, beside {@link #GATEWAY_SHARED_ON_CANNED}.
         */
        GATEWAY_SHARED_OFF_CANNED;

        /** Whether this is shared mode: replicas, a Redis catalog and the shared response cache (maybe off). */
        public boolean sharedMode() {
            return this == GATEWAY_SHARED_ON || this == GATEWAY_SHARED_COORDINATE || this == GATEWAY_SHARED_ON_CANNED
                    || this == GATEWAY_SHARED_COORDINATE_CANNED || this == GATEWAY_SHARED_OFF_CANNED;
        }

        /** Whether the replicas count the shared response cache's outcomes: shared mode with the cache not off. */
        public boolean countsSharedCache() {
            return sharedMode() && this != GATEWAY_SHARED_OFF_CANNED;
        }

        /** The shared response cache's mode ({@code QEG_RESPONSE_CACHE}) of a shared-mode kind. */
        public String cacheMode() {
            if (!sharedMode()) {
                throw new IllegalStateException(this + " is not shared mode");
            }
            if (this == GATEWAY_SHARED_OFF_CANNED) {
                return "off";
            }
            return this == GATEWAY_SHARED_ON || this == GATEWAY_SHARED_ON_CANNED ? "on" : "coordinate";
        }
    }

    /**
     * Whether this is a native search engine (the baseline of the ratios) rather than the gateway: Elasticsearch and
     * OpenSearch, started or by URL under a name that starts with theirs.
     */
    public boolean isNative() {
        return switch (kind) {
            case ELASTICSEARCH, OPENSEARCH -> true;
            case GATEWAY, GATEWAY_QDRANT_CANNED, GATEWAY_QDRANT, GATEWAY_SHARED_ON, GATEWAY_SHARED_COORDINATE,
                 GATEWAY_SHARED_ON_CANNED, GATEWAY_SHARED_COORDINATE_CANNED, GATEWAY_SHARED_OFF_CANNED -> false;
            case URL -> name.startsWith("elasticsearch") || name.startsWith("opensearch") || name.startsWith("es")
                    || name.startsWith("os");
        };
    }

    static List<EngineSpec> parseList(String value) {
        List<EngineSpec> specs = new ArrayList<>();
        for (String part : value.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            EngineSpec spec = parse(p);
            if (specs.stream().anyMatch(s -> s.name().equals(spec.name()))) {
                throw new IllegalArgumentException("engine [" + spec.name() + "] is listed twice in --engines");
            }
            specs.add(spec);
        }
        return specs;
    }

    static EngineSpec parse(String p) {
        int eq = p.indexOf('=');
        if (eq > 0) {
            String name = p.substring(0, eq).trim();
            String url = p.substring(eq + 1).trim();
            if (!url.startsWith("http://") && !url.startsWith("https://")) {
                throw new IllegalArgumentException("engine [" + name + "]: expected a URL such as http://127.0.0.1:9200,"
                        + " got [" + url + "]");
            }
            return new EngineSpec(name, Kind.URL, Optional.of(URI.create(url.endsWith("/")
                    ? url.substring(0, url.length() - 1) : url)));
        }
        return switch (p.toLowerCase(Locale.ROOT)) {
            case "gateway" -> new EngineSpec("gateway", Kind.GATEWAY, Optional.empty());
            case "gateway-qdrant-canned", "qdrant-canned" -> new EngineSpec("gateway-qdrant-canned",
                    Kind.GATEWAY_QDRANT_CANNED, Optional.empty());
            case "gateway-qdrant" -> new EngineSpec("gateway-qdrant", Kind.GATEWAY_QDRANT, Optional.empty());
            case "gateway-shared-on", "shared-on" -> new EngineSpec("gateway-shared-on", Kind.GATEWAY_SHARED_ON,
                    Optional.empty());
            case "gateway-shared-coordinate", "shared-coordinate" -> new EngineSpec("gateway-shared-coordinate",
                    Kind.GATEWAY_SHARED_COORDINATE, Optional.empty());
            case "gateway-shared-on-canned", "shared-on-canned" -> new EngineSpec("gateway-shared-on-canned",
                    Kind.GATEWAY_SHARED_ON_CANNED, Optional.empty());
            case "gateway-shared-coordinate-canned", "shared-coordinate-canned" -> new EngineSpec(
                    "gateway-shared-coordinate-canned", Kind.GATEWAY_SHARED_COORDINATE_CANNED, Optional.empty());
            case "gateway-shared-off-canned", "shared-off-canned" -> new EngineSpec("gateway-shared-off-canned",
                    Kind.GATEWAY_SHARED_OFF_CANNED, Optional.empty());
            case "elasticsearch", "es" -> new EngineSpec("elasticsearch", Kind.ELASTICSEARCH, Optional.empty());
            case "opensearch", "os" -> new EngineSpec("opensearch", Kind.OPENSEARCH, Optional.empty());
            default -> throw new IllegalArgumentException("unknown engine [" + p + "]; known: gateway, "
                    + "gateway-qdrant-canned, gateway-qdrant, gateway-shared-on, gateway-shared-coordinate, "
                    + "gateway-shared-on-canned, gateway-shared-coordinate-canned, gateway-shared-off-canned, "
                    + "elasticsearch, opensearch, or "
                    + "name=http://host:port");
        };
    }
}
