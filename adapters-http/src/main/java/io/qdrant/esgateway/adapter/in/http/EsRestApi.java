package io.qdrant.esgateway.adapter.in.http;

import io.helidon.webserver.http.HttpRouting;
import io.micrometer.core.instrument.MeterRegistry;
import io.qdrant.esgateway.application.port.in.ByQueryOperations;
import io.qdrant.esgateway.application.port.in.ClusterStatus;
import io.qdrant.esgateway.application.port.in.DocumentOperations;
import io.qdrant.esgateway.application.port.in.IndexAdministration;
import io.qdrant.esgateway.application.port.in.PointInTimeOperations;
import io.qdrant.esgateway.application.port.in.ReindexOperations;
import io.qdrant.esgateway.application.port.in.ScrollOperations;
import io.qdrant.esgateway.application.port.in.ResponseCaching;
import io.qdrant.esgateway.application.port.in.TaskOperations;
import io.qdrant.esgateway.application.port.in.SearchOperations;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * The Elasticsearch 8.x REST surface, registered on a Helidon routing. The only public type of this adapter:
 * bootstrap passes the use cases in, and everything behind this class is package-private.
 */
public final class EsRestApi {
    /** The build Elasticsearch 8.15.0 reports; the version number itself is configurable. */
    static final String BUILD_HASH = "1a77947f34deddb41af25e6f0ddb8e830159c179";
    static final String BUILD_DATE = "2024-08-05T10:05:34.233336849Z";
    static final String LUCENE_VERSION = "9.11.1";

    /** What {@code GET /} reports and the request body limit (ES's {@code http.max_content_length}). */
    public record Settings(String clusterName, String clusterUuid, String nodeName, String versionNumber,
                           long maxContentLength, Limits limits) {
        /** With the default {@link Limits}. */
        public Settings(String clusterName, String clusterUuid, String nodeName, String versionNumber,
                        long maxContentLength) {
            this(clusterName, clusterUuid, nodeName, versionNumber, maxContentLength, Limits.DEFAULT);
        }
    }

    /**
     * Admission bounds: requests running at once and waiting for a turn (past both: 429
     * {@code es_rejected_execution_exception}), and write-body bytes in flight (Elasticsearch's
     * {@code indexing_pressure.memory.limit}, 429 past it).
     */
    public record Limits(int maxConcurrentRequests, int maxQueuedRequests, long indexingPressureBytes) {
        /** 256 running, 1,000 waiting (Elasticsearch's search queue), 10% of the heap for write bodies (as ES). */
        public static final Limits DEFAULT = new Limits(256, 1000, Runtime.getRuntime().maxMemory() / 10);

        public Limits {
            if (maxConcurrentRequests < 1 || maxQueuedRequests < 0 || indexingPressureBytes < 1) {
                throw new IllegalArgumentException("limits must be positive: " + maxConcurrentRequests + ", "
                        + maxQueuedRequests + ", " + indexingPressureBytes);
            }
        }
    }

    /**
     * Security at the edge: off ({@link #OFF}: every request runs, the security APIs answer that it is off), or
     * {@code operations} authenticating and authorizing every request; {@code healthOpen} and {@code metricsOpen}
     * leave {@code /healthz}, {@code /readyz} and {@code /metrics} open to anyone.
     */
    public record Security(io.qdrant.esgateway.application.port.in.SecurityOperations operations, boolean healthOpen,
                           boolean metricsOpen) {
        public static final Security OFF = new Security(null, true, true);
    }

    private EsRestApi() {
    }

    /**
     * To be told the duration (nanos) of each remote backend call as soon as it ended, on the thread that made it, so
     * that each request's time in backend calls is taken out of its own time ({@code qeg_request_own_seconds}, by
     * {@code api}: a histogram with buckets fine from 5 µs up). Without it the own time is the request's whole time.
     */
    public static LongConsumer backendCallEnded() {
        return RequestBackendTime.CALL_ENDED;
    }

    /** The node id Elasticsearch-shaped answers name (failed shards, task ids). */
    public static final String NODE_ID = ErrorBodies.NODE_ID;

    /** Registers every endpoint on {@code routing}; unknown routes answer as Elasticsearch does. */
    public static void register(HttpRouting.Builder routing, Settings settings, IndexAdministration admin,
                                DocumentOperations documents, SearchOperations search, ScrollOperations scrolls,
                                ByQueryOperations byQuery, PointInTimeOperations pits,
                                ReindexOperations reindex, TaskOperations tasks,
                                ClusterStatus status, MeterRegistry registry,
                                Supplier<String> prometheusScrape) {
        register(routing, settings, admin, documents, search, scrolls, byQuery, pits, reindex, tasks, status, registry,
                prometheusScrape, ResponseCaching.OFF);
    }

    /**
     * As {@link #register(HttpRouting.Builder, Settings, IndexAdministration, DocumentOperations, SearchOperations,
     * ScrollOperations, ByQueryOperations, PointInTimeOperations, ReindexOperations, TaskOperations, ClusterStatus,
     * MeterRegistry, Supplier)}, with searches, counts and each
     * search of an msearch answered through {@code caching}.
     */
    public static void register(HttpRouting.Builder routing, Settings settings, IndexAdministration admin,
                                DocumentOperations documents, SearchOperations search, ScrollOperations scrolls,
                                ByQueryOperations byQuery, PointInTimeOperations pits,
                                ReindexOperations reindex, TaskOperations tasks,
                                ClusterStatus status, MeterRegistry registry,
                                Supplier<String> prometheusScrape, ResponseCaching caching) {
        register(routing, settings, admin, documents, search, scrolls, byQuery, pits, reindex, tasks, status, registry,
                prometheusScrape, caching, Security.OFF);
    }

    /** As the overload before, with {@code security} checking every request. */
    public static void register(HttpRouting.Builder routing, Settings settings, IndexAdministration admin,
                                DocumentOperations documents, SearchOperations search, ScrollOperations scrolls,
                                ByQueryOperations byQuery, PointInTimeOperations pits,
                                ReindexOperations reindex, TaskOperations tasks,
                                ClusterStatus status, MeterRegistry registry,
                                Supplier<String> prometheusScrape, ResponseCaching caching, Security security) {
        JsonCodec codec = new JsonCodec();
        Router router = router(settings, admin, documents, search, scrolls, byQuery, pits, reindex, tasks, status,
                prometheusScrape, caching, security, codec);
        EsHttpHandler handler = new EsHttpHandler(router, codec, settings.maxContentLength(), registry,
                new Admission(settings.limits()), security.operations() == null ? null : new AccessControl(security.operations(), security.healthOpen(),
                        security.metricsOpen(), codec));
        routing.addFilter((chain, req, res) -> {
            res.header(EsHttpHandler.PRODUCT);
            chain.proceed();
        });
        routing.any(handler);
    }

    /** Every endpoint's route. */
    static Router router(Settings settings, IndexAdministration admin, DocumentOperations documents,
                         SearchOperations search, ScrollOperations scrolls, ByQueryOperations byQuery,
                         PointInTimeOperations pits, ReindexOperations reindex, TaskOperations tasks,
                         ClusterStatus status, Supplier<String> prometheusScrape, ResponseCaching caching,
                         Security security, JsonCodec codec) {
        Router router = new Router();
        new ClusterEndpoints(settings, status).register(router);
        new CatEndpoints(status).register(router);
        new IndexEndpoints(admin).register(router);
        new TemplateEndpoints(admin.templates()).register(router);
        new AliasEndpoints(admin).register(router);
        new ScriptEndpoints(admin).register(router);
        new AnalyzeEndpoints(admin).register(router);
        new DocumentEndpoints(documents).register(router);
        new BulkEndpoints(documents, codec).register(router);
        new MultiGetEndpoints(documents).register(router);
        SearchEndpoints searchEndpoints = new SearchEndpoints(search, scrolls, pits, caching, codec);
        searchEndpoints.register(router);
        new MultiSearchEndpoints(searchEndpoints, codec).register(router);
        new ByQueryEndpoints(byQuery, tasks).register(router);
        new ReindexEndpoints(reindex, tasks).register(router);
        new TaskEndpoints(tasks, settings.nodeName()).register(router);
        new ScrollEndpoints(scrolls).register(router);
        new PitEndpoints(pits).register(router);
        new OpsEndpoints(status, prometheusScrape).register(router);
        new SecurityEndpoints(security.operations()).register(router);
        new CatStatusEndpoints(settings, admin, search, status).register(router);
        new FieldCapsEndpoints(admin).register(router);
        new NodesEndpoints(settings, status).register(router);
        new IndexStatsEndpoints(admin, status).register(router);
        return router;
    }
}
