package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.adapter.in.http.CatTable.Column;
import io.qdrant.esgateway.application.port.in.ClusterStatus;
import io.qdrant.esgateway.application.port.in.IndexAdministration;
import io.qdrant.esgateway.application.port.in.SearchOperations;
import io.qdrant.esgateway.domain.index.AliasMetadata;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.IndexName;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code GET /_cat/aliases}, {@code /_cat/count} and {@code /_cat/health}, with the columns, aliases and alignment of
 * Elasticsearch 8.15 and the common cat parameters ({@link CatTable}).
 *
 * <pre>
 * curl 'localhost:9200/_cat/aliases?v'
 * curl 'localhost:9200/_cat/count/books?format=json'
 * curl 'localhost:9200/_cat/health?v&amp;ts=false'
 * </pre>
 */
final class CatStatusEndpoints {
    private static final DateTimeFormatter HMS = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final List<String> TIME_COLUMNS = List.of("epoch", "timestamp");

    private static final CatTable<AliasMetadata> ALIASES = new CatTable<>(List.of(
            new Column<>("alias", List.of("a"), false, false, "alias name", AliasMetadata::alias),
            new Column<>("index", List.of("i", "idx"), false, false, "index alias points to", AliasMetadata::index),
            new Column<>("filter", List.of("f", "fi"), false, false, "filter",
                    a -> a.filter().isPresent() ? "*" : "-"),
            new Column<>("routing.index", List.of("ri", "routingIndex"), false, false, "index routing",
                    a -> a.indexRouting().orElse("-")),
            new Column<>("routing.search", List.of("rs", "routingSearch"), false, false, "search routing",
                    a -> a.searchRouting().orElse("-")),
            new Column<>("is_write_index", List.of("w", "isWriteIndex"), false, false, "write index",
                    a -> a.isWriteIndex().map(String::valueOf).orElse("-"))));

    /** One {@code _cat/count} row: when it was counted, and the count. */
    private record Counted(Instant at, long count) {
    }

    private static final CatTable<Counted> COUNT = new CatTable<>(List.of(
            new Column<>("epoch", List.of("t", "time"), true, false, "seconds since 1970-01-01 00:00:00",
                    c -> Long.toString(c.at().getEpochSecond())),
            new Column<>("timestamp", List.of("ts", "hms", "hhmmss"), false, false, "time in HH:MM:SS",
                    c -> HMS.format(c.at())),
            new Column<>("count", List.of("dc", "docs.count", "docsCount"), true, false, "the document count",
                    c -> Long.toString(c.count()))));

    /** One {@code _cat/health} row. */
    private record HealthRow(Instant at, String cluster, ClusterStatus.Health health) {
        int unassigned() {
            return health.numberOfIndices() - health.activePrimaryShards();
        }

        String activePercent() {
            double percent = health.numberOfIndices() == 0 ? 100.0
                    : 100.0 * health.activeShards() / health.numberOfIndices();
            return String.format(Locale.ROOT, "%1.1f%%", percent);
        }
    }

    private static final CatTable<HealthRow> HEALTH = new CatTable<>(List.of(
            new Column<>("epoch", List.of("t", "time"), true, false, "seconds since 1970-01-01 00:00:00",
                    r -> Long.toString(r.at().getEpochSecond())),
            new Column<>("timestamp", List.of("ts", "hms", "hhmmss"), false, false, "time in HH:MM:SS",
                    r -> HMS.format(r.at())),
            new Column<>("cluster", List.of("cl"), false, false, "cluster name", HealthRow::cluster),
            new Column<>("status", List.of("st"), false, false, "health status", r -> r.health().status().esName()),
            new Column<>("node.total", List.of("nt", "nodeTotal"), true, true, "total number of nodes", r -> "1"),
            new Column<>("node.data", List.of("nd", "nodeData"), true, true, "number of nodes that can store data",
                    r -> "1"),
            new Column<>("shards", List.of("t", "sh", "shards.total", "shardsTotal"), true, true,
                    "total number of shards", r -> Integer.toString(r.health().activeShards())),
            new Column<>("pri", List.of("p", "shards.primary", "shardsPrimary"), true, true,
                    "number of primary shards", r -> Integer.toString(r.health().activePrimaryShards())),
            new Column<>("relo", List.of("r", "shards.relocating", "shardsRelocating"), true, true,
                    "number of relocating nodes", r -> "0"),
            new Column<>("init", List.of("i", "shards.initializing", "shardsInitializing"), true, true,
                    "number of initializing nodes", r -> "0"),
            new Column<>("unassign", List.of("u", "shards.unassigned", "shardsUnassigned"), true, true,
                    "number of unassigned shards", r -> Integer.toString(r.unassigned())),
            new Column<>("pending_tasks", List.of("pt", "pendingTasks"), true, true, "number of pending tasks",
                    r -> "0"),
            new Column<>("max_task_wait_time", List.of("mtwt", "maxTaskWaitTime"), true, true,
                    "wait time of longest task pending", r -> "-"),
            new Column<>("active_shards_percent", List.of("asp", "activeShardsPercent"), true, true,
                    "active number of shards in percent", HealthRow::activePercent)));

    private final EsRestApi.Settings settings;
    private final IndexAdministration admin;
    private final SearchOperations search;
    private final ClusterStatus status;

    CatStatusEndpoints(EsRestApi.Settings settings, IndexAdministration admin, SearchOperations search,
                       ClusterStatus status) {
        this.settings = settings;
        this.admin = admin;
        this.search = search;
        this.status = status;
    }

    void register(Router router) {
        String aliasParams = CatTable.PARAMS + ",expand_wildcards";
        String countParams = CatTable.PARAMS + ",ts";
        router.add(route("GET", "/_cat/aliases", "cat.aliases", aliasParams, false, this::aliases))
                .add(route("GET", "/_cat/aliases/{name}", "cat.aliases", aliasParams, false, this::aliases))
                .add(route("GET", "/_cat/count", "cat.count", countParams, false, this::count))
                .add(route("GET", "/_cat/count/{index}", "cat.count", countParams, false, this::count))
                .add(route("GET", "/_cat/health", "cat.health", countParams, false, this::health));
    }

    private EsResponse aliases(EsRequest request) {
        request.param("expand_wildcards").ifPresent(Routes::checkIgnoredExpandWildcards);
        Optional<List<String>> names = request.optionalPathParam("name").map(n -> List.of(n.split(",")));
        CatalogView view = admin.catalog();
        List<AliasMetadata> rows = view.aliases().stream()
                .filter(a -> names.isEmpty() || names.get().stream().anyMatch(n -> n.equals("_all")
                        || IndexName.matches(n, a.alias())))
                .sorted(Comparator.comparing(AliasMetadata::alias).thenComparing(AliasMetadata::index))
                .toList();
        return ALIASES.render(request, rows);
    }

    private EsResponse count(EsRequest request) {
        String target = request.optionalPathParam("index").orElse("_all");
        long count = search.count(target, Optional.empty(), CatalogView.Options.STRICT_EXPAND_OPEN).count();
        return timed(request, COUNT).render(request, List.of(new Counted(Instant.now(), count)));
    }

    private EsResponse health(EsRequest request) {
        HealthRow row = new HealthRow(Instant.now(), settings.clusterName(), status.health(Optional.empty()));
        return timed(request, HEALTH).render(request, List.of(row));
    }

    /** {@code ts=false} leaves out the epoch and timestamp columns. */
    private static <R> CatTable<R> timed(EsRequest request, CatTable<R> table) {
        return request.flag("ts", true) ? table : table.without(TIME_COLUMNS);
    }
}
