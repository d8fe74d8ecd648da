package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.application.port.in.ClusterStatus;
import io.qdrant.esgateway.application.port.in.ClusterStatus.IndexSummary;
import io.qdrant.esgateway.application.port.in.IndexAdministration;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code GET /_stats} and {@code /{index}/_stats[/{metric}]}: per index and over all ({@code _all}), for
 * {@code primaries} and {@code total} (the same: the gateway keeps no replica copies of its own), the documents
 * ({@code docs}) and the store ({@code store}) of each index. Elasticsearch's other metrics (indexing, search, merge
 * counters …) are counters of its shards that the gateway does not keep: asked for by name they are a 400 that says
 * so, and {@code _stats} without a metric leaves them out.
 *
 * <pre>
 * curl 'localhost:9200/_stats'
 * curl 'localhost:9200/books/_stats/docs?level=cluster'
 * </pre>
 */
final class IndexStatsEndpoints {
    private static final String PARAMS = Routes.INDEX_OPTIONS + ",level,forbid_closed_indices,fields,"
            + "completion_fields,fielddata_fields,groups,include_segment_file_sizes,include_unloaded_segments";
    private static final Set<String> KEPT = Set.of("_all", "docs", "store");
    private static final Set<String> METRICS = Set.of("_all", "docs", "store", "indexing", "get", "search", "merge",
            "refresh", "flush", "warmer", "query_cache", "fielddata", "completion", "segments", "translog",
            "request_cache", "recovery", "bulk", "shard_stats", "mappings", "dense_vector", "sparse_vector");

    private final IndexAdministration admin;
    private final ClusterStatus status;

    IndexStatsEndpoints(IndexAdministration admin, ClusterStatus status) {
        this.admin = admin;
        this.status = status;
    }

    void register(Router router) {
        router.add(route("GET", "/_stats", "indices.stats", PARAMS, false, this::stats))
                .add(route("GET", "/_stats/{metric}", "indices.stats", PARAMS, false, this::stats))
                .add(route("GET", "/{index}/_stats", "indices.stats", PARAMS, false, this::stats))
                .add(route("GET", "/{index}/_stats/{metric}", "indices.stats", PARAMS, false, this::stats));
    }

    private EsResponse stats(EsRequest request) {
        Set<String> metrics = new LinkedHashSet<>(Arrays.asList(request.optionalPathParam("metric").orElse("_all")
                .split(",")));
        for (String m : metrics) {
            if (!METRICS.contains(m)) {
                throw GatewayException.illegalArgument("request [" + request.path()
                        + "] contains unrecognized metric: [" + m + "]");
            }
            if (!KEPT.contains(m)) {
                throw GatewayException.unsupported("[" + m + "] index statistics (the gateway keeps [docs] and "
                        + "[store])");
            }
        }
        String level = request.param("level").orElse("indices");
        if (level.equals("shards")) {
            throw GatewayException.unsupported("[level=shards] in index statistics");
        }
        if (!level.equals("indices") && !level.equals("cluster")) {
            throw GatewayException.illegalArgument("level parameter must be one of [cluster] or [indices] or "
                    + "[shards] but was [" + level + "]");
        }
        // a closed index named, or reached by a wildcard that expands to closed ones, is index_closed_exception
        List<String> names = admin.catalog().resolveOpen(request.optionalPathParam("index").orElse("_all"),
                        Routes.indexOptions(request, true)).stream()
                .map(io.qdrant.esgateway.domain.index.IndexMetadata::name).toList();
        List<IndexSummary> rows = names.isEmpty() ? List.of()
                : status.indices(Optional.of(String.join(",", names)));
        boolean all = metrics.contains("_all");
        boolean docs = all || metrics.contains("docs");
        boolean store = all || metrics.contains("store");
        long count = 0;
        long deleted = 0;
        long size = 0;
        JsonObjectBuilder indices = JsonObjectBuilder.object();
        for (IndexSummary row : rows) {
            count += row.docsCount();
            deleted += row.docsDeleted();
            size += row.storeSizeBytes();
            JsonObjectBuilder one = section(docs, store, row.docsCount(), row.docsDeleted(), row.storeSizeBytes());
            indices.put(row.name(), JsonObjectBuilder.object()
                    .put("uuid", row.uuid())
                    .put("health", row.health().esName())
                    .put("status", "open")
                    .put("primaries", one)
                    .put("total", section(docs, store, row.docsCount(), row.docsDeleted(), row.storeSizeBytes())));
        }
        JsonObjectBuilder out = JsonObjectBuilder.object()
                .put("_shards", JsonObjectBuilder.object().put("total", rows.size()).put("successful", rows.size())
                        .put("failed", 0))
                .put("_all", JsonObjectBuilder.object()
                        .put("primaries", section(docs, store, count, deleted, size))
                        .put("total", section(docs, store, count, deleted, size)));
        if (level.equals("indices")) {
            out.put("indices", indices);
        }
        return EsResponse.ok(out.build());
    }

    private static JsonObjectBuilder section(boolean docs, boolean store, long count, long deleted, long size) {
        JsonObjectBuilder b = JsonObjectBuilder.object();
        if (docs) {
            // total_size_in_bytes: Elasticsearch's estimate of the documents' size from its segments; the store
            // size is the gateway's nearest figure
            b.put("docs", JsonObjectBuilder.object().put("count", count).put("deleted", deleted)
                    .put("total_size_in_bytes", size));
        }
        if (store) {
            b.put("store", store(size));
        }
        return b;
    }

    /** Elasticsearch's {@code store} section for {@code bytes} on disk. */
    static JsonObjectBuilder store(long bytes) {
        return JsonObjectBuilder.object().put("size_in_bytes", bytes).put("total_data_set_size_in_bytes", bytes)
                .put("reserved_in_bytes", 0);
    }
}
