package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.application.port.in.ClusterStatus;
import io.qdrant.esgateway.application.port.in.ClusterStatus.IndexSummary;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexName;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code GET /_nodes} and {@code GET /_nodes/stats} (with node filters and metrics in the path) in the shapes clients
 * read at start-up: the gateway is one node with every role, its version and build, its HTTP publish address (the
 * address the request came in on: clients that sniff connect there), and, in stats, the documents and store of its
 * indices and its JVM's memory. Sections the gateway has nothing to report for ({@code settings}, thread pools,
 * transport, ingest, …) are left out, as Elasticsearch leaves out what a node does not have.
 *
 * <pre>
 * curl 'localhost:9200/_nodes/http'
 * curl 'localhost:9200/_nodes/_local/stats/indices,jvm'
 * </pre>
 */
final class NodesEndpoints {
    private static final String PARAMS = "flat_settings,timeout,master_timeout";
    private static final String STATS_PARAMS = "completion_fields,fielddata_fields,fields,groups,level,types,"
            + "include_segment_file_sizes,include_unloaded_segments,timeout";
    private static final List<String> ROLES = List.of("data", "data_cold", "data_content", "data_frozen", "data_hot",
            "data_warm", "ingest", "master", "ml", "remote_cluster_client", "transform");
    /** Elasticsearch 8.15.0's transport and index versions. */
    private static final long TRANSPORT_VERSION = 8702002L;
    private static final long INDEX_VERSION = 8512000L;
    private static final Set<String> INFO_METRICS = Set.of("settings", "os", "process", "jvm", "thread_pool",
            "transport", "http", "remote_cluster_server", "plugins", "modules", "ingest", "aggregations", "indices",
            "_all", "_none");
    private static final Set<String> STATS_METRICS = Set.of("_all", "indices", "os", "process", "jvm", "thread_pool",
            "fs", "transport", "http", "breaker", "script", "discovery", "ingest", "adaptive_selection", "script_cache",
            "indexing_pressure", "repositories", "allocations");
    private static final Set<String> INDEX_METRICS = Set.of("_all", "docs", "store", "indexing", "get", "search",
            "merge", "refresh", "flush", "warmer", "query_cache", "fielddata", "completion", "segments", "translog",
            "request_cache", "recovery", "bulk", "shard_stats", "mappings", "dense_vector", "sparse_vector");

    private final EsRestApi.Settings settings;
    private final ClusterStatus status;

    NodesEndpoints(EsRestApi.Settings settings, ClusterStatus status) {
        this.settings = settings;
        this.status = status;
    }

    void register(Router router) {
        router.add(route("GET", "/_nodes", "nodes.info", PARAMS, false, this::info))
                .add(route("GET", "/_nodes/{node_id}", "nodes.info", PARAMS, false, this::info))
                .add(route("GET", "/_nodes/{node_id}/{metric}", "nodes.info", PARAMS, false, this::info))
                .add(route("GET", "/_nodes/stats", "nodes.stats", STATS_PARAMS, false, this::stats))
                .add(route("GET", "/_nodes/{node_id}/stats", "nodes.stats", STATS_PARAMS, false, this::stats))
                .add(route("GET", "/_nodes/stats/{metric}", "nodes.stats", STATS_PARAMS, false, this::stats))
                .add(route("GET", "/_nodes/{node_id}/stats/{metric}", "nodes.stats", STATS_PARAMS, false,
                        this::stats))
                .add(route("GET", "/_nodes/stats/{metric}/{index_metric}", "nodes.stats", STATS_PARAMS, false,
                        this::stats))
                .add(route("GET", "/_nodes/{node_id}/stats/{metric}/{index_metric}", "nodes.stats", STATS_PARAMS,
                        false, this::stats));
    }

    private EsResponse info(EsRequest request) {
        Optional<String> first = request.optionalPathParam("node_id");
        Optional<String> metric = request.optionalPathParam("metric");
        String nodes = "_all";
        Set<String> metrics = Set.of("_all");
        if (metric.isPresent()) {
            nodes = first.orElseThrow();
            metrics = list(metric.get());
        } else if (first.isPresent()) {
            // /_nodes/{x}: metrics when every part is a metric name, else node ids (Elasticsearch's rule)
            Set<String> parts = list(first.get());
            if (INFO_METRICS.containsAll(parts)) {
                metrics = parts;
            } else {
                nodes = first.get();
            }
        }
        JsonObjectBuilder out = envelope(nodes);
        if (!selected(nodes)) {
            return EsResponse.ok(out.put("nodes", JsonObjectBuilder.object()).build());
        }
        boolean all = metrics.contains("_all");
        Set<String> wanted = metrics;
        String address = request.localAddress();
        JsonObjectBuilder node = identity(address)
                .put("ip", host(address))
                .put("version", settings.versionNumber())
                .put("transport_version", TRANSPORT_VERSION)
                .put("index_version", INDEX_VERSION)
                .put("component_versions", JsonObjectBuilder.object())
                .put("build_flavor", "default")
                .put("build_type", "tar")
                .put("build_hash", EsRestApi.BUILD_HASH);
        if (all) {
            node.put("total_indexing_buffer", Runtime.getRuntime().maxMemory() / 10);
        }
        node.put("roles", strings(ROLES)).put("attributes", JsonObjectBuilder.object());
        if (all || wanted.contains("os")) {
            int processors = Runtime.getRuntime().availableProcessors();
            node.put("os", JsonObjectBuilder.object()
                    .put("refresh_interval_in_millis", 1000)
                    .put("name", System.getProperty("os.name"))
                    .put("pretty_name", System.getProperty("os.name"))
                    .put("arch", System.getProperty("os.arch"))
                    .put("version", System.getProperty("os.version"))
                    .put("available_processors", processors)
                    .put("allocated_processors", processors));
        }
        if (all || wanted.contains("process")) {
            node.put("process", JsonObjectBuilder.object()
                    .put("refresh_interval_in_millis", 1000)
                    .put("id", ProcessHandle.current().pid())
                    .put("mlockall", false));
        }
        if (all || wanted.contains("jvm")) {
            var runtime = ManagementFactory.getRuntimeMXBean();
            MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
            node.put("jvm", JsonObjectBuilder.object()
                    .put("pid", ProcessHandle.current().pid())
                    .put("version", Runtime.version().toString())
                    .put("vm_name", runtime.getVmName())
                    .put("vm_version", runtime.getVmVersion())
                    .put("vm_vendor", runtime.getVmVendor())
                    .put("using_bundled_jdk", false)
                    .put("start_time_in_millis", runtime.getStartTime())
                    .put("mem", JsonObjectBuilder.object()
                            .put("heap_init_in_bytes", Math.max(0, heap.getInit()))
                            .put("heap_max_in_bytes", Math.max(0, heap.getMax()))
                            .put("non_heap_init_in_bytes", 0)
                            .put("non_heap_max_in_bytes", 0)
                            .put("direct_max_in_bytes", 0))
                    .put("gc_collectors", strings(ManagementFactory.getGarbageCollectorMXBeans().stream()
                            .map(java.lang.management.GarbageCollectorMXBean::getName).toList()))
                    .put("memory_pools", strings(ManagementFactory.getMemoryPoolMXBeans().stream()
                            .map(java.lang.management.MemoryPoolMXBean::getName).toList()))
                    .put("input_arguments", strings(List.of())));
        }
        if (all || wanted.contains("http")) {
            node.put("http", JsonObjectBuilder.object()
                    .put("bound_address", strings(List.of(address)))
                    .put("publish_address", address)
                    .put("max_content_length_in_bytes", settings.maxContentLength()));
        }
        if (all || wanted.contains("plugins")) {
            node.put("plugins", new JsonValue.JsonArray(List.of()));
        }
        if (all || wanted.contains("modules")) {
            node.put("modules", new JsonValue.JsonArray(List.of()));
        }
        return EsResponse.ok(out.put("nodes", JsonObjectBuilder.object().put(EsRestApi.NODE_ID, node)).build());
    }

    private EsResponse stats(EsRequest request) {
        String nodes = request.optionalPathParam("node_id").orElse("_all");
        Set<String> metrics = request.optionalPathParam("metric").map(NodesEndpoints::list).orElse(Set.of("_all"));
        for (String m : metrics) {
            if (!STATS_METRICS.contains(m)) {
                throw GatewayException.illegalArgument("request [" + request.path()
                        + "] contains unrecognized metric: [" + m + "]");
            }
        }
        Set<String> indexMetrics = request.optionalPathParam("index_metric").map(NodesEndpoints::list)
                .orElse(Set.of("_all"));
        for (String m : indexMetrics) {
            if (!INDEX_METRICS.contains(m)) {
                throw GatewayException.illegalArgument("request [" + request.path()
                        + "] contains unrecognized index metric: [" + m + "]");
            }
        }
        JsonObjectBuilder out = envelope(nodes);
        if (!selected(nodes)) {
            return EsResponse.ok(out.put("nodes", JsonObjectBuilder.object()).build());
        }
        boolean all = metrics.contains("_all");
        String address = request.localAddress();
        JsonObjectBuilder node = JsonObjectBuilder.object().put("timestamp", System.currentTimeMillis())
                .put("name", settings.nodeName())
                .put("transport_address", address)
                .put("host", host(address))
                .put("ip", address)
                .put("roles", strings(ROLES))
                .put("attributes", JsonObjectBuilder.object());
        if (all || metrics.contains("indices")) {
            long count = 0;
            long deleted = 0;
            long size = 0;
            for (IndexSummary s : status.indices(Optional.empty())) {
                count += s.docsCount();
                deleted += s.docsDeleted();
                size += s.storeSizeBytes();
            }
            JsonObjectBuilder indices = JsonObjectBuilder.object();
            boolean allIndex = indexMetrics.contains("_all");
            if (allIndex || indexMetrics.contains("docs")) {
                indices.put("docs", JsonObjectBuilder.object().put("count", count).put("deleted", deleted));
            }
            if (allIndex || indexMetrics.contains("store")) {
                indices.put("store", IndexStatsEndpoints.store(size));
            }
            node.put("indices", indices);
        }
        if (all || metrics.contains("jvm")) {
            var runtime = ManagementFactory.getRuntimeMXBean();
            MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
            MemoryUsage nonHeap = ManagementFactory.getMemoryMXBean().getNonHeapMemoryUsage();
            long max = Math.max(heap.getMax(), heap.getCommitted());
            node.put("jvm", JsonObjectBuilder.object()
                    .put("timestamp", System.currentTimeMillis())
                    .put("uptime_in_millis", runtime.getUptime())
                    .put("mem", JsonObjectBuilder.object()
                            .put("heap_used_in_bytes", heap.getUsed())
                            .put("heap_used_percent", max <= 0 ? 0 : heap.getUsed() * 100 / max)
                            .put("heap_committed_in_bytes", heap.getCommitted())
                            .put("heap_max_in_bytes", max)
                            .put("non_heap_used_in_bytes", nonHeap.getUsed())
                            .put("non_heap_committed_in_bytes", nonHeap.getCommitted()))
                    .put("threads", JsonObjectBuilder.object()
                            .put("count", ManagementFactory.getThreadMXBean().getThreadCount())
                            .put("peak_count", ManagementFactory.getThreadMXBean().getPeakThreadCount())));
        }
        return EsResponse.ok(out.put("nodes", JsonObjectBuilder.object().put(EsRestApi.NODE_ID, node)).build());
    }

    private JsonObjectBuilder envelope(String nodes) {
        int n = selected(nodes) ? 1 : 0;
        return JsonObjectBuilder.object()
                .put("_nodes", JsonObjectBuilder.object().put("total", n).put("successful", n).put("failed", 0))
                .put("cluster_name", settings.clusterName());
    }

    private JsonObjectBuilder identity(String address) {
        return JsonObjectBuilder.object()
                .put("name", settings.nodeName())
                .put("transport_address", address)
                .put("host", host(address));
    }

    /**
     * Whether a node filter selects the gateway's one node: {@code _all}, {@code _local}, {@code _master}, its id or
     * name (wildcards too), or a role or attribute filter such as {@code master:true}.
     */
    private boolean selected(String filter) {
        for (String part : list(filter)) {
            if (part.equals("_all") || part.equals("_local") || part.equals("_master") || part.equals("*")
                    || IndexName.matches(part, EsRestApi.NODE_ID) || IndexName.matches(part, settings.nodeName())) {
                return true;
            }
            int colon = part.indexOf(':');
            if (colon > 0) {
                String key = part.substring(0, colon);
                boolean value = !part.substring(colon + 1).equals("false");
                if (ROLES.contains(key) || key.equals("voting_only") || key.equals("coordinating_only")) {
                    boolean has = ROLES.contains(key);
                    if (has == value) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static String host(String address) {
        int colon = address.lastIndexOf(':');
        return colon < 0 ? address : address.substring(0, colon);
    }

    private static Set<String> list(String csv) {
        Set<String> out = new LinkedHashSet<>();
        Arrays.stream(csv.split(",")).map(String::trim).filter(s -> !s.isEmpty()).forEach(out::add);
        return out;
    }

    private static JsonValue strings(List<String> values) {
        return new JsonValue.JsonArray(values.stream().map(v -> (JsonValue) JsonValue.string(v)).toList());
    }
}
