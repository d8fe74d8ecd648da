package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.application.port.in.ClusterStatus;
import io.qdrant.esgateway.application.port.in.ClusterStatus.IndexSummary;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code GET /_cat/indices}: aligned text (with {@code v} headers) or {@code ?format=json}; {@code h} picks columns,
 * {@code s} sorts, {@code bytes} fixes the size unit, {@code health} filters.
 *
 * <pre>
 * curl 'localhost:9200/_cat/indices?v'
 * curl 'localhost:9200/_cat/indices/books*?format=json&amp;h=index,docs.count'
 * </pre>
 */
final class CatEndpoints {
    private static final String PARAMS = "format,h,help,v,s,bytes,health,expand_wildcards,local,master_timeout,time,"
            + "include_unloaded_segments";

    /** One row being rendered, with the unit sizes are shown in. */
    private record Cell(IndexSummary row, Optional<String> bytesUnit) {
        String size(long bytes) {
            return bytesUnit.map(u -> Long.toString(bytes / unitDivisor(u))).orElseGet(() -> human(bytes));
        }
    }

    private static CatTable.Column<Cell> number(String name, List<String> aliases, String description,
                                                Function<Cell, String> value) {
        return new CatTable.Column<>(name, aliases, true, true, description, value);
    }

    /** A byte size: shown in the request's unit (or human), sorted by its bytes. */
    private static CatTable.Column<Cell> size(String name, List<String> aliases, String description) {
        return new CatTable.Column<>(name, aliases, true, true, description,
                c -> c.row().closed() ? null : c.size(c.row().storeSizeBytes()),
                c -> c.row().closed() ? null : Long.toString(c.row().storeSizeBytes()));
    }

    private static final CatTable<Cell> TABLE = new CatTable<>(List.of(
            new CatTable.Column<>("health", List.of("h"), false, false, "current health status",
                    c -> c.row().health().esName()),
            new CatTable.Column<>("status", List.of("s"), false, false, "open/close status",
                    c -> c.row().closed() ? "close" : "open"),
            new CatTable.Column<>("index", List.of("i", "idx"), false, false, "index name", c -> c.row().name()),
            new CatTable.Column<>("uuid", List.of("id", "uuid"), false, false, "index uuid", c -> c.row().uuid()),
            number("pri", List.of("p", "shards.primary", "shardsPrimary"), "number of primary shards",
                    c -> Integer.toString(c.row().primaries())),
            number("rep", List.of("r", "shards.replica", "shardsReplica"), "number of replica shards",
                    c -> Integer.toString(c.row().replicas())),
            // a closed index has no statistics: its counts and sizes are empty, as in Elasticsearch
            number("docs.count", List.of("dc", "docsCount"), "available docs",
                    c -> c.row().closed() ? null : Long.toString(c.row().docsCount())),
            number("docs.deleted", List.of("dd", "docsDeleted"), "deleted docs",
                    c -> c.row().closed() ? null : Long.toString(c.row().docsDeleted())),
            size("store.size", List.of("ss", "storeSize"), "store size of primaries & replicas"),
            size("pri.store.size", List.of(), "store size of primaries"),
            size("dataset.size", List.of(), "total size of dataset")));

    private final ClusterStatus status;

    CatEndpoints(ClusterStatus status) {
        this.status = status;
    }

    void register(Router router) {
        router.add(route("GET", "/_cat/indices", "cat.indices", PARAMS, false, this::indices))
                .add(route("GET", "/_cat/indices/{index}", "cat.indices", PARAMS, false, this::indices));
    }

    private EsResponse indices(EsRequest request) {
        // wildcards expand to open and closed indices unless expand_wildcards says otherwise, as in Elasticsearch
        io.qdrant.esgateway.domain.index.CatalogView.Options options = Routes.indexOptions(request, true, true);
        Optional<String> unit = request.param("bytes");
        if (!request.flag("help", false)) {
            unit.ifPresent(CatEndpoints::unitDivisor);
        }
        List<IndexSummary> rows = new ArrayList<>(request.flag("help", false) ? List.of()
                : status.indices(request.optionalPathParam("index"), options));
        request.param("health").ifPresent(h -> rows.removeIf(r -> !r.health().esName().equals(h)));
        // sorted by index name unless s says otherwise
        rows.sort(Comparator.comparing(IndexSummary::name));
        return TABLE.render(request, rows.stream().map(r -> new Cell(r, unit)).toList());
    }

    private static final Map<String, Long> UNITS = Map.of("b", 1L, "kb", 1L << 10, "mb", 1L << 20, "gb", 1L << 30,
            "tb", 1L << 40, "pb", 1L << 50);

    static long unitDivisor(String unit) {
        Long d = UNITS.get(unit.toLowerCase(Locale.ROOT));
        if (d == null) {
            throw GatewayException.illegalArgument("failed to parse [bytes] parameter: unknown unit [" + unit
                    + "], expected one of [b, kb, mb, gb, tb, pb]");
        }
        return d;
    }

    /** Elasticsearch's human byte size: the largest unit with a value of at least 1, one decimal, ".0" dropped. */
    static String human(long bytes) {
        String[] names = {"pb", "tb", "gb", "mb", "kb"};
        long[] sizes = {1L << 50, 1L << 40, 1L << 30, 1L << 20, 1L << 10};
        for (int i = 0; i < names.length; i++) {
            if (bytes >= sizes[i]) {
                double v = Math.round(bytes * 10.0 / sizes[i]) / 10.0;
                String text = v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
                return text + names[i];
            }
        }
        return bytes + "b";
    }
}
