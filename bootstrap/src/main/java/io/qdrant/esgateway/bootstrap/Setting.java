package io.qdrant.esgateway.bootstrap;

import java.util.List;
import java.util.Optional;

/**
 * One configuration setting and every way to give it: a command-line flag, an environment variable and a key in
 * the YAML file. Precedence: flag, then environment, then file, then the default. The README's table is this list.
 */
enum Setting {
    HOST("host", "--host", "QEG_HOST", "127.0.0.1", "address to listen on"),
    PORT("port", "--port", "QEG_PORT", "9200", "port to listen on (0 = any free port)"),
    DATA_DIR("data-dir", "--data", "QEG_DATA_DIR", "./data", "directory of the SQLite catalog and the Lucene indices"),
    CONFIG_DIR("config-dir", "--config-dir", "QEG_CONFIG_DIR", "",
            "directory of the analysis files (synonyms_path, stopwords_path, …) and of the file realm's users and"
                    + " users_roles, as Elasticsearch's config directory (empty: config next to the data directory)"),
    BACKEND("backend", "--backend", "QEG_BACKEND", "lucene", "document backend: lucene or qdrant"),
    CATALOG("catalog", "--catalog", "QEG_CATALOG", "sqlite",
            "catalog backend: sqlite (one process) or redis (Valkey/Redis, shared by replicas)"),
    REDIS_URL("redis-url", "--redis-url", "QEG_REDIS_URL", "",
            "Valkey/Redis server the replicas share (catalog redis, response cache on/coordinate):"
                    + " redis://[user:password@]host:port/db, rediss:// for TLS; the password is never logged"),
    REDIS_PREFIX("redis-prefix", null, "QEG_REDIS_PREFIX", "qeg:",
            "prefix of every key the gateway writes in Valkey/Redis (one gateway cluster per prefix)"),
    CLUSTER_NAME("cluster-name", null, "QEG_CLUSTER_NAME", "qdrant-es-gateway", "cluster_name reported by GET /"),
    NODE_NAME("node-name", null, "QEG_NODE_NAME", "", "node name reported by GET / (default: the host name)"),
    ES_VERSION("es-version", null, "QEG_ES_VERSION", "8.15.0", "Elasticsearch version number reported by GET /"),
    MAX_CONTENT_LENGTH("max-content-length", null, "QEG_MAX_CONTENT_LENGTH", "100mb",
            "largest accepted request body (ES's http.max_content_length); larger ones get 413"),
    MAX_CONCURRENT_REQUESTS("max-concurrent-requests", null, "QEG_MAX_CONCURRENT_REQUESTS", "256",
            "most requests running at once; more wait in the queue"),
    MAX_QUEUED_REQUESTS("max-queued-requests", null, "QEG_MAX_QUEUED_REQUESTS", "1000",
            "most requests waiting for a turn; past it a request gets 429 es_rejected_execution_exception"),
    INDEXING_PRESSURE_MEMORY_LIMIT("indexing-pressure-memory-limit", null, "QEG_INDEXING_PRESSURE_MEMORY_LIMIT", "10%",
            "most bytes of write bodies (_bulk, index, create, update) in flight, a share of the heap or a size"
                    + " (ES's indexing_pressure.memory.limit); past it a write gets 429"),
    NATIVE_ABSENT("native-absent", "--native-absent", "QEG_NATIVE_ABSENT", "",
            "native backend capabilities to declare absent, forcing the complete-scan path: a comma list of order,"
                    + " facet, count, or all (empty: trust the backend)"),
    MAX_READS_IN_FLIGHT("max-reads-in-flight", null, "QEG_MAX_READS_IN_FLIGHT", "4",
            "most backend reads of one search running at once"),
    REQUEST_CACHE_ENTRIES("request-cache-entries", null, "QEG_REQUEST_CACHE_ENTRIES", "1000",
            "size: 0 search answers per index kept until the index's next write (0 turns the cache off)"),
    QDRANT_URL("qdrant-url", "--qdrant-url", "QEG_QDRANT_URL", "http://127.0.0.1:6333",
            "Qdrant REST endpoint (backend qdrant); no credentials in it"),
    QDRANT_API_KEY("qdrant-api-key", null, "QEG_QDRANT_API_KEY", "",
            "Qdrant API key, sent as the api-key header; never logged"),
    QDRANT_CONNECT_TIMEOUT("qdrant-connect-timeout", null, "QEG_QDRANT_CONNECT_TIMEOUT", "5s",
            "connect timeout to Qdrant (e.g. 500ms, 5s)"),
    QDRANT_REQUEST_TIMEOUT("qdrant-request-timeout", null, "QEG_QDRANT_REQUEST_TIMEOUT", "30s",
            "longest wait for one Qdrant response (e.g. 30s, 2m)"),
    QDRANT_POOL_SIZE("qdrant-pool-size", "--qdrant-pool-size", "QEG_QDRANT_POOL_SIZE", "32",
            "most requests to Qdrant in flight at once, hence most connections to it (1 to 1024); more wait"),
    RESPONSE_CACHE("response-cache", null, "QEG_RESPONSE_CACHE", "off",
            "response cache shared by replicas on Valkey/Redis (docs/deployment.md): off, on (serve and publish) or"
                    + " coordinate (publish, never serve); on and coordinate need QEG_REDIS_URL and turn the"
                    + " process-local request cache off"),
    RESPONSE_CACHE_TTL("response-cache-ttl", null, "QEG_RESPONSE_CACHE_TTL", "5m",
            "longest life of a shared response cache entry (e.g. 30s, 5m)"),
    RESPONSE_CACHE_LEASE("response-cache-lease", null, "QEG_RESPONSE_CACHE_LEASE", "1s",
            "with the response cache on, how long a replica's lease runs after each renewal: under it a replica"
                    + " answers a request it holds the answer to without asking Valkey/Redis, and a write waits until"
                    + " every running lease has dropped what it moved (a replica that dies stalls writes up to this"
                    + " long); off: every hit asks the server"),
    RESPONSE_CACHE_MIN_USES("response-cache-min-uses", null, "QEG_RESPONSE_CACHE_MIN_USES", "2",
            "how many times a replica computes a request's answer before it publishes it to the shared response"
                    + " cache (1 to 7): 1 publishes every computed answer; 2 skips requests that are never repeated"),
    RESPONSE_CACHE_MAX_ENTRY("response-cache-max-entry", null, "QEG_RESPONSE_CACHE_MAX_ENTRY", "1mb",
            "largest answer the shared response cache keeps (larger ones are answered, not kept)"),
    SECURITY("security", "--security", "QEG_SECURITY", "false",
            "authentication and authorization as Elasticsearch's security (HTTP Basic, API keys, roles): true or"
                    + " false"),
    ELASTIC_PASSWORD("elastic-password", null, "QEG_ELASTIC_PASSWORD", "",
            "password of the built-in superuser elastic, used when the catalog has no elastic user yet (empty: one"
                    + " is generated and printed once); never logged"),
    ALLOW_ANONYMOUS("allow-anonymous", null, "QEG_ALLOW_ANONYMOUS", "false",
            "true lets the gateway listen on a non-loopback address with security off"),
    HEALTH_ACCESS("health-access", null, "QEG_HEALTH_ACCESS", "open",
            "with security on, /healthz and /readyz are open or authenticated"),
    METRICS_ACCESS("metrics-access", null, "QEG_METRICS_ACCESS", "authenticated",
            "with security on, /metrics is open or authenticated (cluster privilege monitor)"),
    AUTH_CACHE_TTL("auth-cache-ttl", null, "QEG_AUTH_CACHE_TTL", "60s",
            "how long a verified credential is remembered (a keyed hash of it) before its hash is checked again"),
    TLS_CERTIFICATE("tls-certificate", null, "QEG_TLS_CERTIFICATE", "",
            "PEM certificate chain of the HTTPS listener (with QEG_TLS_KEY); empty: plain HTTP"),
    TLS_KEY("tls-key", null, "QEG_TLS_KEY", "", "PEM private key (PKCS#8, unencrypted) of QEG_TLS_CERTIFICATE"),
    TLS_KEYSTORE("tls-keystore", null, "QEG_TLS_KEYSTORE", "",
            "PKCS#12 keystore of the HTTPS listener, instead of QEG_TLS_CERTIFICATE and QEG_TLS_KEY"),
    TLS_KEYSTORE_PASSWORD("tls-keystore-password", null, "QEG_TLS_KEYSTORE_PASSWORD", "",
            "password of QEG_TLS_KEYSTORE; never logged"),
    TLS_CLIENT_AUTH("tls-client-auth", null, "QEG_TLS_CLIENT_AUTH", "none",
            "TLS client certificates: none, optional or required (checked against QEG_TLS_CLIENT_CA)"),
    TLS_CLIENT_CA("tls-client-ca", null, "QEG_TLS_CLIENT_CA", "",
            "PEM certificates of the authorities client certificates must chain to"),
    WARM_UP("warm-up", "--warm-up", "QEG_WARM_UP", "on",
            "on start, run a synthetic workload on a private throwaway instance so the JIT compiles the request paths"
                    + " before the first real bulk loads (embedded backend only): on or off");

    private final String key;
    private final String flag;
    private final String env;
    private final String defaultValue;
    private final String description;

    Setting(String key, String flag, String env, String defaultValue, String description) {
        this.key = key;
        this.flag = flag;
        this.env = env;
        this.defaultValue = defaultValue;
        this.description = description;
    }

    /** The key under {@code qeg:} in the YAML file. */
    String key() {
        return key;
    }

    Optional<String> flag() {
        return Optional.ofNullable(flag);
    }

    String env() {
        return env;
    }

    String defaultValue() {
        return defaultValue;
    }

    String description() {
        return description;
    }

    static List<Setting> all() {
        return List.of(values());
    }
}
