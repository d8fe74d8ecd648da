package io.qdrant.esgateway.bootstrap;

import io.helidon.common.socket.SocketOptions;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.qdrant.esgateway.adapter.in.http.EsRestApi;
import io.qdrant.esgateway.adapter.out.cache.redis.RedisResponseCaches;
import io.qdrant.esgateway.adapter.out.catalog.redis.RedisCatalogs;
import io.qdrant.esgateway.adapter.out.catalog.sqlite.SqliteCatalogs;
import io.qdrant.esgateway.application.port.out.Catalog;
import io.qdrant.esgateway.adapter.out.lucene.LuceneStores;
import io.qdrant.esgateway.adapter.out.qdrant.QdrantStores;
import io.qdrant.esgateway.application.port.in.ResponseCaching;
import io.qdrant.esgateway.application.service.ClusterStatusService;
import io.qdrant.esgateway.application.service.SharedAnswers;
import io.qdrant.esgateway.application.service.ByQueryService;
import io.qdrant.esgateway.application.service.ScrollService;
import io.qdrant.esgateway.application.service.PointInTimeService;
import io.qdrant.esgateway.application.service.ReindexService;
import io.qdrant.esgateway.application.service.TaskService;
import io.qdrant.esgateway.application.port.out.ReadSnapshots;
import io.qdrant.esgateway.application.service.DocumentService;
import io.qdrant.esgateway.application.service.SearchService;
import io.qdrant.esgateway.application.service.IndexAdministrationService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.UUID;
import java.util.concurrent.ThreadFactory;

/** The wiring: every adapter and service built by hand with constructors, and the web server that serves them. */
final class Gateway implements AutoCloseable {
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Elasticsearch's default {@code search.max_open_scroll_context}. */
    static final int MAX_OPEN_SCROLL_CONTEXTS = 500;
    /** The gateway's bound on open points in time (Elasticsearch 8.15 has none; later versions name this setting). */
    static final int MAX_OPEN_PIT_CONTEXTS = 500;

    /** Connections to Valkey/Redis for the shared response cache (most commands in flight at once). */
    static final int RESPONSE_CACHE_POOL = 64;
    static final java.time.Duration RESPONSE_CACHE_TIMEOUT = java.time.Duration.ofSeconds(2);

    private final WebServer server;
    private final AutoCloseable catalog;
    private final AutoCloseable store;
    private final AutoCloseable responseCache;
    private final RequestActivity activity;

    private Gateway(WebServer server, AutoCloseable catalog, AutoCloseable store, AutoCloseable responseCache,
                    RequestActivity activity) {
        this.server = server;
        this.catalog = catalog;
        this.store = store;
        this.responseCache = responseCache;
        this.activity = activity;
    }

    static Gateway start(GatewayConfig config) {
        java.util.Optional<io.helidon.common.tls.Tls> tls = TlsMaterial.of(config.security()); // before opening anything
        createDirectories(config.dataDir());
        LuceneStores.analysisFiles(config.configDir());
        Catalog catalog = openCatalog(config);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        io.qdrant.esgateway.application.port.out.DocumentStore store;
        // each remote backend call's time is also taken out of its request's own time by the HTTP adapter
        java.util.function.LongConsumer ownTime = EsRestApi.backendCallEnded();
        try {
            store = config.backend().equals("qdrant")
                    ? QdrantStores.open(new QdrantStores.Settings(config.qdrantUrl(), config.qdrantApiKey(),
                            config.qdrantConnectTimeout(), config.qdrantRequestTimeout(),
                            QdrantStores.Settings.DEFAULT_PREFIX, config.qdrantPoolSize(),
                            config.catalog().equals("redis")),
                            new BackendMetrics(registry).andThen(call -> ownTime.accept(call.nanos())),
                            LuceneStores.relevanceScorer())
                    : LuceneStores.open(config.dataDir().resolve("lucene"));
        } catch (RuntimeException e) {
            closeQuietly((AutoCloseable) catalog);
            throw e;
        }
        RedisResponseCaches.Handle shared = null;
        if (!config.responseCache().equals("off")) {
            try {
                shared = RedisResponseCaches.open(new RedisResponseCaches.Settings(config.redisUrl().orElseThrow(),
                        config.redisPrefix(), config.responseCacheTtl(), config.responseCacheMaxEntry(),
                        RESPONSE_CACHE_POOL, RESPONSE_CACHE_TIMEOUT, leaseTerm(config)));
            } catch (RuntimeException e) {
                closeQuietly((AutoCloseable) store);
                closeQuietly((AutoCloseable) catalog);
                throw e;
            }
        }

        if (shared != null && catalog instanceof RedisCatalogs.Handle sharedCatalog) {
            sharedCatalog.useKnownValues(shared.knownValues()); // one server and prefix for both
        }

        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);

        IndexAdministrationService admin = new IndexAdministrationService(catalog, store, indexUuids::get,
                Clock.systemUTC(), LuceneStores.textAnalysis());
        ClusterStatusService status = new ClusterStatusService(catalog, store, shared);
        DocumentService documents = new DocumentService(catalog, store, admin, Gateway::newId, Clock.systemUTC(),
                shared);
        ThreadFactory cacheWork = Thread.ofVirtual().name("qeg-response-cache-", 0).factory();
        ResponseCaching caching = shared == null ? ResponseCaching.OFF : new SharedAnswers(catalog, shared,
                config.responseCache().equals("on") ? ResponseCaching.Mode.ON : ResponseCaching.Mode.COORDINATE,
                work -> cacheWork.newThread(work).start(), config.responseCacheMinUses());
        ResponseCacheMetrics.bind(registry, caching);
        io.qdrant.esgateway.domain.plan.BackendCapabilities capabilities = store.capabilities()
                .without(config.nativeAbsent());
        SearchService search = new SearchService(catalog, store, capabilities, new PlanMetrics(registry),
                config.maxReadsInFlight(), config.localRequestCacheEntries(), Clock.systemUTC());
        ByQueryService byQuery = new ByQueryService(catalog, store, documents);
        ScrollService scrolls = new ScrollService(catalog, store,
                store instanceof ReadSnapshots snapshots ? java.util.Optional.of(snapshots) : java.util.Optional.empty(), capabilities,
                Clock.systemUTC(), Gateway::newId, MAX_OPEN_SCROLL_CONTEXTS);
        PointInTimeService pits = new PointInTimeService(catalog, store,
                store instanceof ReadSnapshots snapshots ? java.util.Optional.of(snapshots) : java.util.Optional.empty(),
                capabilities, Clock.systemUTC(), Gateway::newId, MAX_OPEN_PIT_CONTEXTS);
        ReindexService reindex = new ReindexService(catalog, store, documents);
        // background tasks (wait_for_completion=false): two at a time, 64 queued, the last 1,000 results kept
        java.util.concurrent.ExecutorService taskExecutor = new java.util.concurrent.ThreadPoolExecutor(2, 2, 1,
                java.util.concurrent.TimeUnit.MINUTES, new java.util.concurrent.ArrayBlockingQueue<>(64),
                Thread.ofVirtual().name("task-", 0).factory());
        TaskService tasks = new TaskService(EsRestApi.NODE_ID, taskExecutor, Clock.systemUTC(), System::nanoTime, 1000);
        String clusterUuid = clusterUuid(config.dataDir());
        if (catalog instanceof RedisCatalogs.Handle sharedCatalog) {
            try {
                clusterUuid = sharedCatalog.clusterUuid(clusterUuid); // one cluster uuid for every replica
            } catch (RuntimeException e) {
                System.getLogger(Gateway.class.getName()).log(System.Logger.Level.WARNING, "the shared catalog does"
                        + " not answer; GET / reports this replica's own cluster uuid until the next start", e);
            }
        }
        EsRestApi.Settings settings = new EsRestApi.Settings(config.clusterName(), clusterUuid,
                config.nodeName(), config.esVersion(), config.maxContentLength(), config.limits());
        EsRestApi.Security security = EsRestApi.Security.OFF;
        if (config.security().enabled()) {
            io.qdrant.esgateway.application.service.SecurityService service =
                    new io.qdrant.esgateway.application.service.SecurityService(catalog, Clock.systemUTC(),
                            new SecureRandom(), config.security().cacheTtl(), 10_000, System::nanoTime,
                            new FileRealm(config.configDir(),
                                    java.time.Duration.ofSeconds(1), System::nanoTime));
            service.bootstrapElastic(config.security().elasticPassword()).ifPresent(password -> System.out.println(
                    "qeg: security is on; the password of the built-in superuser elastic is shown this once (only its"
                            + " hash is kept; change it with POST /_security/user/elastic/_password): " + password));
            security = new EsRestApi.Security(service, config.security().healthOpen(),
                    config.security().metricsOpen());
        }
        EsRestApi.Security edge = security;
        RequestActivity activity = new RequestActivity(System::nanoTime);
        WebServer server = WebServer.builder()
                .host(config.host())
                .port(config.port())
                .featuresDiscoverServices(false)
                // TCP_NODELAY on every accepted connection, as Elasticsearch sets it (http.tcp.no_delay): a response
                // written in more than one piece (a streamed _bulk answer, a page of sources) must not wait for the
                // client's delayed ACK of the first piece (Nagle). Helidon's default is off; measured on _bulk of
                // 1,000 documents: 20-225 ms per 10 requests spent outside the handler, ~20 ms with it on
                .connectionOptions(SocketOptions.builder().tcpNoDelay(true).build())
                .shutdownHook(false)
                .update(b -> tls.ifPresent(b::tls))
                .routing(routing -> {
                    routing.addFilter((chain, req, res) -> {
                        activity.begin();
                        try {
                            chain.proceed();
                        } finally {
                            activity.end();
                        }
                    });
                    EsRestApi.register(routing, settings, admin, documents, search, scrolls, byQuery, pits, reindex, tasks,
                            status, registry, registry::scrape, caching, edge);
                })
                .build()
                .start();
        AutoCloseable storeAndTasks = () -> {
            taskExecutor.shutdownNow(); // running tasks stop before the store closes under them
            ((AutoCloseable) store).close();
        };
        return new Gateway(server, (AutoCloseable) catalog, storeAndTasks, shared == null ? () -> { } : shared,
                activity);
    }

    /**
     * The response cache's lease term: only when it serves ({@code on}); {@code coordinate} computes every answer, so
     * its replicas need not know anything between lookups.
     */
    private static java.time.Duration leaseTerm(GatewayConfig config) {
        return config.responseCache().equals("on") ? config.responseCacheLease() : java.time.Duration.ZERO;
    }

    /** The catalog {@code QEG_CATALOG} names: SQLite in the data directory, or the shared one in Valkey/Redis. */
    private static Catalog openCatalog(GatewayConfig config) {
        if (config.catalog().equals("redis")) {
            return RedisCatalogs.open(new RedisCatalogs.Settings(config.redisUrl().orElseThrow(), config.redisPrefix(),
                    java.time.Duration.ofSeconds(5), 32, leaseTerm(config)));
        }
        return SqliteCatalogs.open(config.dataDir().resolve("catalog.db"));
    }

    int port() {
        return server.port();
    }

    /** Requests in flight and the time of the last one. */
    RequestActivity activity() {
        return activity;
    }

    /** The running server's configuration (its listener's socket options, for a test). */
    WebServerConfig serverConfig() {
        return server.prototype();
    }

    @Override
    public void close() {
        server.stop();
        closeQuietly(store);
        closeQuietly(catalog);
        closeQuietly(responseCache);
    }

    /**
     * Where new indices' uuids come from: {@link #newId()}. Read once per start; tests that compare two deployments
     * answer for answer (the Qdrant backend orders ties by a hash of the index uuid) set it before starting them.
     */
    static volatile java.util.function.Supplier<String> indexUuids = Gateway::newId;

    /** Elasticsearch-shaped ids: 15 random bytes, URL-safe base64 without padding (20 characters). */
    static String newId() {
        byte[] bytes = new byte[15];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** The cluster uuid reported by {@code GET /}: created once per data directory and kept there. */
    static String clusterUuid(Path dataDir) {
        Path file = dataDir.resolve("cluster_uuid");
        try {
            if (Files.exists(file)) {
                return Files.readString(file, StandardCharsets.UTF_8).trim();
            }
            UUID uuid = UUID.randomUUID();
            ByteBuffer buffer = ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits())
                    .putLong(uuid.getLeastSignificantBits());
            String value = Base64.getUrlEncoder().withoutPadding().encodeToString(buffer.array());
            Files.writeString(file, value + "\n", StandardCharsets.UTF_8);
            return value;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write " + file, e);
        }
    }

    private static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the data directory " + dir.toAbsolutePath(), e);
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            System.getLogger(Gateway.class.getName()).log(System.Logger.Level.WARNING, "close failed", e);
        }
    }
}
