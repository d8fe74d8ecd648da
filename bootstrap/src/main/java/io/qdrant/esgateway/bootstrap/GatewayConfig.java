package io.qdrant.esgateway.bootstrap;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The validated configuration of one gateway process. Read once in {@link Main} from flags, environment and an
 * optional YAML file ({@code --config FILE} or {@code QEG_CONFIG}); nothing else reads configuration.
 */
record GatewayConfig(String host, int port, Path dataDir, String backend, String catalog, String clusterName,
                     String nodeName, String esVersion, long maxContentLength, java.util.Set<String> nativeAbsent,
                     int maxReadsInFlight, java.net.URI qdrantUrl, Optional<String> qdrantApiKey,
                     java.time.Duration qdrantConnectTimeout, java.time.Duration qdrantRequestTimeout,
                     int qdrantPoolSize, int requestCacheEntries, boolean warmUp, String responseCache,
                     Optional<java.net.URI> redisUrl, String redisPrefix, java.time.Duration responseCacheTtl,
                     int responseCacheMaxEntry, java.time.Duration responseCacheLease, int responseCacheMinUses,
                     SecurityConfig security,
                     io.qdrant.esgateway.adapter.in.http.EsRestApi.Limits limits, Path configDir) {

    /**
     * The process-local request cache's size: off while the shared response cache is on or coordinating, since
     * it is keyed by this process's view of the write generations and could serve an answer older than a write
     * acknowledged by another replica.
     */
    int localRequestCacheEntries() {
        return responseCache.equals("off") ? requestCacheEntries : 0;
    }

    /** Never shows the Qdrant API key. */
    @Override
    public String toString() {
        return "GatewayConfig[host=" + host + ", port=" + port + ", dataDir=" + dataDir + ", backend=" + backend
                + ", catalog=" + catalog + ", qdrantUrl=" + qdrantUrl + ", qdrantApiKey="
                + (qdrantApiKey.isPresent() ? "<set>" : "<none>") + ", responseCache=" + responseCache
                + ", redisUrl=" + redisUrl.map(u -> u.getScheme() + "://" + u.getHost() + ":" + u.getPort() + u.getPath())
                .orElse("<none>") + ", redisPrefix=" + redisPrefix + ", security=" + security + "]";
    }

    /** A setting with a value that cannot be used; the message names the setting, its source and what is allowed. */
    static final class ConfigException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ConfigException(String message) {
            super(message);
        }
    }

    static GatewayConfig load(String[] args, Map<String, String> env) {
        Map<Setting, String> flags = new EnumMap<>(Setting.class);
        Optional<String> configFile = Optional.ofNullable(env.get("QEG_CONFIG"));
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            String value;
            if (arg.contains("=")) {
                value = arg.substring(arg.indexOf('=') + 1);
            } else {
                if (i + 1 >= args.length) {
                    throw new ConfigException("option " + name + " needs a value");
                }
                value = args[++i];
            }
            if (name.equals("--config")) {
                configFile = Optional.of(value);
                continue;
            }
            Setting setting = Setting.all().stream().filter(s -> s.flag().map(name::equals).orElse(false))
                    .findFirst().orElseThrow(() -> new ConfigException("unknown option " + name + " (options: "
                            + String.join(", ", Setting.all().stream().flatMap(s -> s.flag().stream()).toList())
                            + ", --config)"));
            flags.put(setting, value);
        }
        Config file = configFile.map(GatewayConfig::readFile).orElse(Config.empty());
        Map<Setting, String> values = new EnumMap<>(Setting.class);
        Map<Setting, String> sources = new EnumMap<>(Setting.class);
        for (Setting s : Setting.all()) {
            if (flags.containsKey(s)) {
                values.put(s, flags.get(s));
                sources.put(s, s.flag().orElseThrow());
            } else if (env.containsKey(s.env())) {
                values.put(s, env.get(s.env()));
                sources.put(s, s.env());
            } else if (file.get("qeg").get(s.key()).exists()) {
                values.put(s, file.get("qeg").get(s.key()).asString().get());
                sources.put(s, "qeg." + s.key() + " in " + configFile.orElseThrow());
            } else {
                values.put(s, s.defaultValue());
                sources.put(s, "the default");
            }
        }
        return validate(values, sources);
    }

    private static Config readFile(String path) {
        if (!Files.isRegularFile(Path.of(path))) {
            throw new ConfigException("configuration file " + path + " does not exist");
        }
        return Config.builder().disableEnvironmentVariablesSource().disableSystemPropertiesSource()
                .sources(ConfigSources.file(path)).build();
    }

    private static GatewayConfig validate(Map<Setting, String> v, Map<Setting, String> from) {
        int port = integer(Setting.PORT, v, from, 0, 65535);
        String backend = oneOf(Setting.BACKEND, v, from, "lucene", "qdrant");
        String catalog = oneOf(Setting.CATALOG, v, from, "sqlite", "redis");
        String host = v.get(Setting.HOST);
        if (host.isBlank()) {
            throw invalid(Setting.HOST, v, from, "an address such as 127.0.0.1 or 0.0.0.0");
        }
        String version = v.get(Setting.ES_VERSION);
        if (!version.matches("\\d+\\.\\d+\\.\\d+")) {
            throw invalid(Setting.ES_VERSION, v, from, "a version number such as 8.15.0");
        }
        String nodeName = v.get(Setting.NODE_NAME).isBlank() ? hostName() : v.get(Setting.NODE_NAME);
        java.util.Set<String> absent = new java.util.TreeSet<>();
        for (String part : v.get(Setting.NATIVE_ABSENT).split(",")) {
            String name = part.trim().toLowerCase(Locale.ROOT);
            if (name.isEmpty()) {
                continue;
            }
            if (!io.qdrant.esgateway.domain.plan.BackendCapabilities.SWITCHES.contains(name)) {
                throw invalid(Setting.NATIVE_ABSENT, v, from, "a comma list of order, facet, count, all");
            }
            absent.add(name);
        }
        String responseCache = oneOf(Setting.RESPONSE_CACHE, v, from, "off", "on", "coordinate");
        Optional<java.net.URI> redisUrl = redisUrl(v, from);
        if (catalog.equals("redis") && redisUrl.isEmpty()) {
            throw new ConfigException(Setting.CATALOG.env() + "=redis (from " + from.get(Setting.CATALOG) + ") needs "
                    + Setting.REDIS_URL.env() + ", the Valkey/Redis server the replicas share");
        }
        if (!responseCache.equals("off") && redisUrl.isEmpty()) {
            throw new ConfigException(Setting.RESPONSE_CACHE.env() + "=" + responseCache + " (from "
                    + from.get(Setting.RESPONSE_CACHE) + ") needs " + Setting.REDIS_URL.env()
                    + ", the Valkey/Redis server the replicas share");
        }
        return new GatewayConfig(host, port, Path.of(v.get(Setting.DATA_DIR)), backend, catalog,
                v.get(Setting.CLUSTER_NAME), nodeName, version, byteSize(Setting.MAX_CONTENT_LENGTH, v, from),
                java.util.Set.copyOf(absent), integer(Setting.MAX_READS_IN_FLIGHT, v, from, 1, 64),
                qdrantUrl(v, from), Optional.of(v.get(Setting.QDRANT_API_KEY).trim()).filter(k -> !k.isEmpty()),
                duration(Setting.QDRANT_CONNECT_TIMEOUT, v, from), duration(Setting.QDRANT_REQUEST_TIMEOUT, v, from),
                integer(Setting.QDRANT_POOL_SIZE, v, from, 1, 1024),
                integer(Setting.REQUEST_CACHE_ENTRIES, v, from, 0, 1_000_000),
                oneOf(Setting.WARM_UP, v, from, "on", "off").equals("on"),
                responseCache, redisUrl, redisPrefix(v, from),
                duration(Setting.RESPONSE_CACHE_TTL, v, from),
                (int) Math.min(512L << 20, byteSize(Setting.RESPONSE_CACHE_MAX_ENTRY, v, from)),
                lease(v, from),
                integer(Setting.RESPONSE_CACHE_MIN_USES, v, from, 1, 7),
                SecurityConfig.validate(host, v, from, duration(Setting.AUTH_CACHE_TTL, v, from)),
                new io.qdrant.esgateway.adapter.in.http.EsRestApi.Limits(
                        integer(Setting.MAX_CONCURRENT_REQUESTS, v, from, 1, 100_000),
                        integer(Setting.MAX_QUEUED_REQUESTS, v, from, 0, 1_000_000), indexingPressure(v, from)),
                configDir(v));
    }

    /** The analysis files' directory: the setting, else {@code config} next to the data directory. */
    private static Path configDir(Map<Setting, String> v) {
        String given = v.get(Setting.CONFIG_DIR).trim();
        Path data = Path.of(v.get(Setting.DATA_DIR)).toAbsolutePath().normalize();
        Path parent = data.getParent() == null ? data : data.getParent();
        return (given.isEmpty() ? parent.resolve("config") : Path.of(given)).toAbsolutePath().normalize();
    }

    /** {@code indexing_pressure.memory.limit}: a share of the heap ({@code 10%}) or a byte size. */
    private static long indexingPressure(Map<Setting, String> v, Map<Setting, String> from) {
        String text = v.get(Setting.INDEXING_PRESSURE_MEMORY_LIMIT).trim();
        if (text.endsWith("%")) {
            try {
                double share = Double.parseDouble(text.substring(0, text.length() - 1));
                if (share > 0 && share <= 100) {
                    return Math.max(1, (long) (Runtime.getRuntime().maxMemory() * share / 100));
                }
            } catch (NumberFormatException ignored) {
                // reported below
            }
            throw invalid(Setting.INDEXING_PRESSURE_MEMORY_LIMIT, v, from,
                    "a share of the heap such as 10% or a size such as 64mb");
        }
        return byteSize(Setting.INDEXING_PRESSURE_MEMORY_LIMIT, v, from);
    }

    /**
     * {@code redis://[user:password@]host[:port][/db]} or {@code rediss://…}, or nothing; never echoed (it may hold
     * a password).
     */
    private static Optional<java.net.URI> redisUrl(Map<Setting, String> v, Map<Setting, String> from) {
        String text = v.get(Setting.REDIS_URL).trim();
        if (text.isEmpty()) {
            return Optional.empty();
        }
        String expected = "invalid value for " + Setting.REDIS_URL.env() + " (from " + from.get(Setting.REDIS_URL)
                + "): expected a URL such as redis://127.0.0.1:6379/0 or rediss://user:password@host:6380/0";
        java.net.URI uri;
        try {
            uri = new java.net.URI(text);
        } catch (java.net.URISyntaxException e) {
            throw new ConfigException(expected);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        String path = uri.getPath() == null ? "" : uri.getPath();
        if (!(scheme.equals("redis") || scheme.equals("rediss")) || uri.getHost() == null
                || !(path.isEmpty() || path.matches("/\\d{1,2}"))) {
            throw new ConfigException(expected);
        }
        return Optional.of(uri);
    }

    private static String redisPrefix(Map<Setting, String> v, Map<Setting, String> from) {
        String prefix = v.get(Setting.REDIS_PREFIX);
        if (prefix.isEmpty() || prefix.chars().anyMatch(Character::isWhitespace)) {
            throw invalid(Setting.REDIS_PREFIX, v, from, "a non-empty key prefix without spaces, such as qeg:");
        }
        return prefix;
    }

    /** An http(s) URL with a host; one with credentials is refused without echoing it. */
    private static java.net.URI qdrantUrl(Map<Setting, String> v, Map<Setting, String> from) {
        String text = v.get(Setting.QDRANT_URL).trim();
        java.net.URI uri;
        try {
            uri = new java.net.URI(text);
        } catch (java.net.URISyntaxException e) {
            throw invalid(Setting.QDRANT_URL, v, from, "a URL such as http://127.0.0.1:6333");
        }
        if (uri.getRawUserInfo() != null) {
            throw new ConfigException("invalid value for " + Setting.QDRANT_URL.env() + " (from "
                    + from.get(Setting.QDRANT_URL) + "): the URL must not carry credentials; give the API key in "
                    + Setting.QDRANT_API_KEY.env());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
            throw invalid(Setting.QDRANT_URL, v, from, "a URL such as http://127.0.0.1:6333");
        }
        return uri;
    }

    /** The response cache's lease term: {@code off} (zero) or a duration up to 10 s. */
    private static java.time.Duration lease(Map<Setting, String> v, Map<Setting, String> from) {
        if (v.get(Setting.RESPONSE_CACHE_LEASE).trim().equalsIgnoreCase("off")) {
            return java.time.Duration.ZERO;
        }
        java.time.Duration term = duration(Setting.RESPONSE_CACHE_LEASE, v, from);
        if (term.compareTo(java.time.Duration.ofSeconds(10)) > 0) {
            throw invalid(Setting.RESPONSE_CACHE_LEASE, v, from, "off or a duration up to 10s");
        }
        return term;
    }

    /** {@code 500ms}, {@code 5s}, {@code 2m}, or a plain number of milliseconds; positive. */
    private static java.time.Duration duration(Setting s, Map<Setting, String> v, Map<Setting, String> from) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)(ms|s|m)?")
                .matcher(v.get(s).trim().toLowerCase(Locale.ROOT));
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            java.time.Duration d = switch (m.group(2) == null ? "ms" : m.group(2)) {
                case "s" -> java.time.Duration.ofSeconds(n);
                case "m" -> java.time.Duration.ofMinutes(n);
                default -> java.time.Duration.ofMillis(n);
            };
            if (n > 0) {
                return d;
            }
        }
        throw invalid(s, v, from, "a positive duration such as 500ms, 5s or 2m");
    }

    private static int integer(Setting s, Map<Setting, String> v, Map<Setting, String> from, int min, int max) {
        try {
            int n = Integer.parseInt(v.get(s).trim());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw invalid(s, v, from, "a whole number from " + min + " to " + max);
    }

    static String oneOf(Setting s, Map<Setting, String> v, Map<Setting, String> from, String... allowed) {
        String value = v.get(s).trim().toLowerCase(Locale.ROOT);
        for (String a : allowed) {
            if (a.equals(value)) {
                return a;
            }
        }
        throw invalid(s, v, from, "one of " + String.join(", ", allowed));
    }

    /** Elasticsearch's byte sizes: {@code 100mb}, {@code 512kb}, {@code 1gb}, or a plain number of bytes. */
    private static long byteSize(Setting s, Map<Setting, String> v, Map<Setting, String> from) {
        String text = v.get(s).trim().toLowerCase(Locale.ROOT);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)(b|kb|mb|gb)?").matcher(text);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            long unit = switch (m.group(2) == null ? "b" : m.group(2)) {
                case "kb" -> 1L << 10;
                case "mb" -> 1L << 20;
                case "gb" -> 1L << 30;
                default -> 1L;
            };
            if (n > 0) {
                return n * unit;
            }
        }
        throw invalid(s, v, from, "a positive size such as 100mb, 512kb or 1048576");
    }

    static ConfigException invalid(Setting s, Map<Setting, String> v, Map<Setting, String> from,
                                           String expected) {
        return new ConfigException("invalid value [" + v.get(s) + "] for " + s.env() + " (from " + from.get(s)
                + "): expected " + expected);
    }

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            return "qeg-node";
        }
    }
}
