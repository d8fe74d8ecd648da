package io.qdrant.esgateway.adapter.in.http;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * A {@code _cat} answer over rows of type {@code R}, read as Elasticsearch reads the common cat parameters:
 * {@code help} (the column list), {@code h} (columns by name or alias, shown under the name used), {@code s} (sort
 * keys with {@code :asc}/{@code :desc}; numeric columns compare as numbers), {@code v} (a header line) and
 * {@code format=text|json}.
 */
final class CatTable<R> {
    /** The URL parameters every table takes. */
    static final String PARAMS = "format,h,help,v,s,local,master_timeout";

    /**
     * A column: its name, its short aliases, whether it sorts as a number, whether its cells are right-aligned in text
     * (Elasticsearch aligns only some numeric columns right), how to read it, and what {@code s} sorts it by (its
     * value unless said: a byte size shown as {@code 1.2kb} sorts by its bytes).
     */
    record Column<R>(String name, List<String> aliases, boolean numeric, boolean right, String description,
                     Function<R, String> value, Function<R, String> sortValue) {
        Column(String name, List<String> aliases, boolean numeric, boolean right, String description,
               Function<R, String> value) {
            this(name, aliases, numeric, right, description, value, value);
        }
    }

    private record Selected<R>(Column<R> column, String display) {
    }

    private final List<Column<R>> columns;

    CatTable(List<Column<R>> columns) {
        this.columns = columns;
    }

    /** The answer for {@code rows} (in their given order unless {@code s} sorts them). */
    EsResponse render(EsRequest request, List<R> rows) {
        if (request.flag("help", false)) {
            return EsResponse.text(200, help(), "text/plain; charset=UTF-8");
        }
        String format = request.param("format").orElse("text").toLowerCase(Locale.ROOT);
        if (!format.equals("text") && !format.equals("json")) {
            throw GatewayException.unsupported("[format=" + format + "] for _cat APIs (text and json are available)");
        }
        List<Selected<R>> shown = selected(request.param("h"));
        List<R> sorted = new ArrayList<>(rows);
        request.param("s").ifPresent(s -> sorted.sort(order(s)));
        List<List<String>> cells = new ArrayList<>();
        for (R row : sorted) {
            cells.add(shown.stream().map(c -> c.column().value().apply(row)).toList());
        }
        if (format.equals("json")) {
            List<JsonValue> out = new ArrayList<>();
            for (List<String> row : cells) {
                JsonObjectBuilder b = JsonObjectBuilder.object();
                for (int i = 0; i < shown.size(); i++) {
                    // a cell without a value (a closed index's document counts) is null, as Elasticsearch
                    b.put(shown.get(i).display(), row.get(i) == null ? JsonValue.JsonNull.INSTANCE
                            : new JsonValue.JsonString(row.get(i)));
                }
                out.add(b.build());
            }
            return EsResponse.json(200, new JsonValue.JsonArray(out));
        }
        return EsResponse.text(200, text(shown, cells, request.flag("v", false)), "text/plain; charset=UTF-8");
    }

    /** The table without the columns a {@code ts=false} request leaves out. */
    CatTable<R> without(List<String> names) {
        return new CatTable<>(columns.stream().filter(c -> !names.contains(c.name())).toList());
    }

    private String help() {
        int name = 0;
        int alias = 0;
        int description = 0;
        for (Column<R> c : columns) {
            name = Math.max(name, c.name().length());
            alias = Math.max(alias, String.join(",", c.aliases()).length());
            description = Math.max(description, c.description().length());
        }
        StringBuilder out = new StringBuilder();
        for (Column<R> c : columns) {
            out.append(pad(c.name(), name)).append(" | ").append(pad(String.join(",", c.aliases()), alias))
                    .append(" | ").append(pad(c.description(), description)).append('\n');
        }
        return out.toString();
    }

    private static String pad(String s, int width) {
        return s + " ".repeat(width - s.length());
    }

    private Optional<Column<R>> column(String name) {
        return columns.stream().filter(c -> c.name().equals(name) || c.aliases().contains(name)).findFirst();
    }

    /** The columns {@code h} names, in its order; names of no column are left out, as Elasticsearch does. */
    private List<Selected<R>> selected(Optional<String> h) {
        if (h.isEmpty()) {
            return columns.stream().map(c -> new Selected<>(c, c.name())).toList();
        }
        List<Selected<R>> out = new ArrayList<>();
        for (String name : h.get().split(",")) {
            String n = name.trim();
            column(n).ifPresent(c -> out.add(new Selected<>(c, n)));
        }
        return out;
    }

    private Comparator<R> order(String s) {
        Comparator<R> order = null;
        for (String spec : s.split(",")) {
            String[] parts = spec.split(":");
            Column<R> c = column(parts[0]).orElseThrow(() -> GatewayException.illegalArgument(
                    "Unable to sort by unknown sort key `" + parts[0] + "`"));
            Comparator<R> one = c.numeric()
                    ? Comparator.comparingDouble(r -> number(c.sortValue().apply(r)))
                    : Comparator.comparing(r -> c.sortValue().apply(r),
                            Comparator.nullsFirst(Comparator.naturalOrder()));
            if (parts.length > 1 && parts[1].equals("desc")) {
                one = one.reversed();
            }
            order = order == null ? one : order.thenComparing(one);
        }
        return order;
    }

    /** A numeric cell as a number; {@code -} (no value) and {@code 12.5%} as Elasticsearch compares them. */
    private static double number(String cell) {
        if (cell == null) {
            return Double.NEGATIVE_INFINITY;
        }
        String v = cell.endsWith("%") ? cell.substring(0, cell.length() - 1) : cell;
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            return Double.NEGATIVE_INFINITY;
        }
    }

    private static <R> String text(List<Selected<R>> columns, List<List<String>> rows, boolean header) {
        List<List<String>> all = new ArrayList<>();
        if (header) {
            all.add(columns.stream().map(Selected::display).toList());
        }
        rows.forEach(row -> all.add(row.stream().map(v -> v == null ? "" : v).toList()));
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
                boolean right = columns.get(i).column().right();
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
}
