package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.application.port.in.ClusterStatus;
import io.qdrant.esgateway.application.port.in.ClusterStatus.IndexSummary;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
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

    /** A column: its name, its short aliases, whether it is numeric (right-aligned), and how to read it. */
    private record Column(String name, List<String> aliases, boolean numeric, String description,
                          Function<Cell, String> value) {
    }

    /** One row being rendered, with the unit sizes are shown in. */
    private record Cell(IndexSummary row, Optional<String> bytesUnit) {
        String size(long bytes) {
            return bytesUnit.map(u -> Long.toString(bytes / unitDivisor(u))).orElseGet(() -> human(bytes));
        }
    }

    private static final List<Column> COLUMNS = List.of(
            new Column("health", List.of("h"), false, "current health status", c -> c.row().health().esName()),
            new Column("status", List.of("s"), false, "open/close status", c -> "open"),
            new Column("index", List.of("i", "idx"), false, "index name", c -> c.row().name()),
            new Column("uuid", List.of("id", "uuid"), false, "index uuid", c -> c.row().uuid()),
            new Column("pri", List.of("p", "shards.primary", "shardsPrimary"), true, "number of primary shards",
                    c -> Integer.toString(c.row().primaries())),
            new Column("rep", List.of("r", "shards.replica", "shardsReplica"), true, "number of replica shards",
                    c -> Integer.toString(c.row().replicas())),
            new Column("docs.count", List.of("dc", "docsCount"), true, "available docs",
                    c -> Long.toString(c.row().docsCount())),
            new Column("docs.deleted", List.of("dd", "docsDeleted"), true, "deleted docs",
                    c -> Long.toString(c.row().docsDeleted())),
            new Column("store.size", List.of("ss", "storeSize"), true, "store size of primaries & replicas",
                    c -> c.size(c.row().storeSizeBytes())),
            new Column("pri.store.size", List.of(), true, "store size of primaries",
                    c -> c.size(c.row().storeSizeBytes())),
            new Column("dataset.size", List.of(), true, "total size of dataset",
                    c -> c.size(c.row().storeSizeBytes())));

    private final ClusterStatus status;

    CatEndpoints(ClusterStatus status) {
        this.status = status;
    }

    void register(Router router) {
        router.add(route("GET", "/_cat/indices", "cat.indices", PARAMS, false, this::indices))
                .add(route("GET", "/_cat/indices/{index}", "cat.indices", PARAMS, false, this::indices));
    }

    private EsResponse indices(EsRequest request) {
        request.param("expand_wildcards").ifPresent(Routes::checkExpandWildcards);
        if (request.flag("help", false)) {
            StringBuilder help = new StringBuilder();
            for (Column c : COLUMNS) {
                help.append(String.format("%-15s| %-25s| %s%n", c.name(),
                        String.join(",", c.aliases()), c.description()));
            }
            return EsResponse.text(200, help.toString(), "text/plain; charset=UTF-8");
        }
        String format = request.param("format").orElse("text").toLowerCase(Locale.ROOT);
        if (!format.equals("text") && !format.equals("json")) {
            throw GatewayException.unsupported("[format=" + format + "] for _cat APIs (text and json are available)");
        }
        Optional<String> unit = request.param("bytes");
        unit.ifPresent(CatEndpoints::unitDivisor);
        List<Selected> columns = columns(request.param("h"));
        List<IndexSummary> rows = new ArrayList<>(status.indices(request.optionalPathParam("index")));
        request.param("health").ifPresent(h -> rows.removeIf(r -> !r.health().esName().equals(h)));
        sort(rows, request.param("s"), unit);
        List<List<String>> cells = new ArrayList<>();
        for (IndexSummary row : rows) {
            Cell cell = new Cell(row, unit);
            cells.add(columns.stream().map(c -> c.column().value().apply(cell)).toList());
        }
        if (format.equals("json")) {
            List<JsonValue> out = new ArrayList<>();
            for (List<String> row : cells) {
                JsonObjectBuilder b = JsonObjectBuilder.object();
                for (int i = 0; i < columns.size(); i++) {
                    b.put(columns.get(i).display(), row.get(i));
                }
                out.add(b.build());
            }
            return EsResponse.json(200, new JsonValue.JsonArray(out));
        }
        return EsResponse.text(200, table(columns, cells, request.flag("v", false)), "text/plain; charset=UTF-8");
    }

    /** A chosen column and the name it is shown under: the name {@code h} used for it, alias or not, as ES does. */
    private record Selected(Column column, String display) {
    }

    /** The columns {@code h} names, in its order; names that are no column are left out (Elasticsearch ignores them). */
    private static List<Selected> columns(Optional<String> h) {
        if (h.isEmpty()) {
            return COLUMNS.stream().map(c -> new Selected(c, c.name())).toList();
        }
        List<Selected> out = new ArrayList<>();
        for (String name : h.get().split(",")) {
            String n = name.trim();
            COLUMNS.stream().filter(c -> c.name().equals(n) || c.aliases().contains(n)).findFirst()
                    .ifPresent(c -> out.add(new Selected(c, n)));
        }
        return out;
    }

    private static Column column(String name) {
        return COLUMNS.stream().filter(c -> c.name().equals(name) || c.aliases().contains(name)).findFirst()
                .orElseThrow(() -> GatewayException.illegalArgument("unable to find column [" + name + "]"));
    }

    private static void sort(List<IndexSummary> rows, Optional<String> s, Optional<String> unit) {
        Comparator<IndexSummary> order = null;
        for (String spec : s.map(v -> v.split(",")).orElse(new String[] {"index"})) {
            String[] parts = spec.split(":");
            Column c = column(parts[0]);
            boolean desc = parts.length > 1 && parts[1].equals("desc");
            Comparator<IndexSummary> one = c.numeric()
                    ? Comparator.comparingDouble(r -> Double.parseDouble(numericValue(c, r)))
                    : Comparator.comparing(r -> c.value().apply(new Cell(r, unit)));
            if (desc) {
                one = one.reversed();
            }
            order = order == null ? one : order.thenComparing(one);
        }
        rows.sort(order);
    }

    private static String numericValue(Column c, IndexSummary row) {
        return c.value().apply(new Cell(row, Optional.of("b")));
    }

    private static String table(List<Selected> columns, List<List<String>> rows, boolean header) {
        List<List<String>> all = new ArrayList<>();
        if (header) {
            all.add(columns.stream().map(Selected::display).toList());
        }
        all.addAll(rows);
        int[] width = new int[columns.size()];
        for (List<String> row : all) {
            for (int i = 0; i < row.size(); i++) {
                width[i] = Math.max(width[i], row.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (int r = 0; r < all.size(); r++) {
            List<String> row = all.get(r);
            for (int i = 0; i < row.size(); i++) {
                boolean right = columns.get(i).column().numeric() && !(header && r == 0);
                String v = row.get(i);
                String pad = " ".repeat(width[i] - v.length());
                out.append(right ? pad + v : v + (i < row.size() - 1 ? pad : ""));
                if (i < row.size() - 1) {
                    out.append(' ');
                }
            }
            out.append('\n');
        }
        return out.toString();
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
