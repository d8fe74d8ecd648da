package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.application.port.in.ClusterStatus;
import io.qdrant.esgateway.application.port.in.ClusterStatus.Health;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code GET /} (the node info every client reads first), {@code HEAD /} and {@code GET /_cluster/health}.
 *
 * <pre>
 * curl localhost:9200/
 * curl localhost:9200/_cluster/health/books
 * </pre>
 */
final class ClusterEndpoints {
    private static final String HEALTH_PARAMS = "level,local,master_timeout,timeout,wait_for_active_shards,"
            + "wait_for_nodes,wait_for_events,wait_for_no_relocating_shards,wait_for_no_initializing_shards,"
            + "wait_for_status,expand_wildcards";

    private final EsRestApi.Settings settings;
    private final ClusterStatus status;

    ClusterEndpoints(EsRestApi.Settings settings, ClusterStatus status) {
        this.settings = settings;
        this.status = status;
    }

    void register(Router router) {
        router.add(route("GET", "/", "info", "", false, this::info))
                // HEAD / is GET / without the body: Elasticsearch sends its Content-Type too
                .add(route("HEAD", "/", "ping", "", false, this::info))
                .add(route("GET", "/_cluster/health", "cluster.health", HEALTH_PARAMS, false, this::health))
                .add(route("GET", "/_cluster/health/{index}", "cluster.health", HEALTH_PARAMS, false, this::health));
    }

    private EsResponse info(EsRequest request) {
        JsonObjectBuilder version = JsonObjectBuilder.object()
                .put("number", settings.versionNumber())
                .put("build_flavor", "default")
                .put("build_type", "tar")
                .put("build_hash", EsRestApi.BUILD_HASH)
                .put("build_date", EsRestApi.BUILD_DATE)
                .put("build_snapshot", false)
                .put("lucene_version", EsRestApi.LUCENE_VERSION)
                .put("minimum_wire_compatibility_version", "7.17.0")
                .put("minimum_index_compatibility_version", "7.0.0");
        return EsResponse.ok(JsonObjectBuilder.object()
                .put("name", settings.nodeName())
                .put("cluster_name", settings.clusterName())
                .put("cluster_uuid", settings.clusterUuid())
                .put("version", version)
                .put("tagline", "You Know, for Search")
                .build());
    }

    private EsResponse health(EsRequest request) {
        String level = request.param("level").orElse("cluster");
        if (!level.equals("cluster")) {
            if (level.equals("indices") || level.equals("shards")) {
                throw GatewayException.unsupported("[level=" + level + "] in cluster health");
            }
            throw GatewayException.illegalArgument("level must be one of [cluster, indices, shards], got [" + level
                    + "]");
        }
        request.param("expand_wildcards").ifPresent(Routes::checkIgnoredExpandWildcards);
        Optional<ClusterStatus.Status> waitFor = request.param("wait_for_status").map(ClusterEndpoints::status);
        Health health;
        try {
            health = status.health(request.optionalPathParam("index"));
        } catch (GatewayException e) {
            if (e.kind() != ErrorKind.INDEX_NOT_FOUND) {
                throw e;
            }
            return missingIndexHealth();
        }
        boolean timedOut = waitFor.map(w -> health.status().ordinal() > w.ordinal()).orElse(false);
        JsonObjectBuilder body = JsonObjectBuilder.object()
                .put("cluster_name", settings.clusterName())
                .put("status", health.status().esName())
                .put("timed_out", timedOut)
                .put("number_of_nodes", 1)
                .put("number_of_data_nodes", 1)
                .put("active_primary_shards", health.activePrimaryShards())
                .put("active_shards", health.activeShards())
                .put("relocating_shards", 0)
                .put("initializing_shards", 0)
                .put("unassigned_shards", health.numberOfIndices() - health.activePrimaryShards())
                .put("delayed_unassigned_shards", 0)
                .put("number_of_pending_tasks", 0)
                .put("number_of_in_flight_fetch", 0)
                .put("task_max_waiting_in_queue_millis", 0)
                .put("active_shards_percent_as_number", health.numberOfIndices() == 0 ? 100.0
                        : 100.0 * health.activeShards() / health.numberOfIndices());
        return EsResponse.json(timedOut ? 408 : 200, body.build());
    }

    /**
     * Elasticsearch 8.15 does not answer 404 for the health of an index that does not exist: it waits for the index
     * until {@code timeout} (30 s by default) and then answers 408 with a red, empty health. The gateway gives that
     * answer at once: an index cannot appear behind its back while it waits.
     */
    private EsResponse missingIndexHealth() {
        return EsResponse.json(408, JsonObjectBuilder.object()
                .put("cluster_name", settings.clusterName())
                .put("status", "red")
                .put("timed_out", true)
                .put("number_of_nodes", 1)
                .put("number_of_data_nodes", 1)
                .put("active_primary_shards", 0)
                .put("active_shards", 0)
                .put("relocating_shards", 0)
                .put("initializing_shards", 0)
                .put("unassigned_shards", 0)
                .put("delayed_unassigned_shards", 0)
                .put("number_of_pending_tasks", 0)
                .put("number_of_in_flight_fetch", 0)
                .put("task_max_waiting_in_queue_millis", 0)
                .put("active_shards_percent_as_number", 100.0)
                .build());
    }

    /**
     * {@code wait_for_status}, read as Elasticsearch reads it (an enum lookup, with the JDK's message when it fails).
     * The gateway answers at once rather than waiting: its status only changes when the backend comes or goes, which
     * a health poll will see on its next call.
     */
    private static ClusterStatus.Status status(String wanted) {
        try {
            return ClusterStatus.Status.valueOf(wanted.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw GatewayException.illegalArgument("No enum constant org.elasticsearch.cluster.health."
                    + "ClusterHealthStatus." + wanted.toUpperCase(Locale.ROOT));
        }
    }

    static Optional<String> nonEmpty(String s) {
        return s == null || s.isEmpty() ? Optional.empty() : Optional.of(s);
    }
}
