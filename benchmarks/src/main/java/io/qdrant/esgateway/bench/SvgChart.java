package io.qdrant.esgateway.bench;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * p50-ratios.svg: one row of bars per workload and concurrency level, one bar per engine, its length the p50 ratio
 * against the fastest native engine (the dashed line is 1.0; bars are capped at the right edge and labelled). Plain
 * SVG written by hand: no chart library to keep up to date.
 */
public final class SvgChart {
    private static final String[] COLOURS = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"};
    private static final int LABEL = 210;
    private static final int PLOT = 460;
    private static final int BAR = 12;

    private SvgChart() {
    }

    public static String render(Results r) {
        List<String> engines = r.engines().stream().map(Results.EngineFacts::name).toList();
        @SuppressWarnings("unchecked")
        List<Integer> levels = (List<Integer>) r.run().get("clients");
        List<String> workloads = List.copyOf(r.workloads().keySet());
        double max = 1.0;
        for (Results.Cell c : r.cells()) {
            max = Math.max(max, Ratios.ratio(r, c, false).orElse(0.0));
        }
        max = Math.min(Math.ceil(max), 10);
        int groupHeight = engines.size() * BAR + 10;
        StringBuilder body = new StringBuilder();
        int y = 50;
        for (String workload : workloads) {
            for (int clients : levels) {
                if (workload.equals("bulk-ingest") && clients != levels.getFirst()) {
                    continue;
                }
                int cellClients = workload.equals("bulk-ingest") ? 1 : clients;
                String label = workload + (workload.equals("bulk-ingest") ? " (time)" : " · " + clients + "c");
                body.append(text(LABEL - 8, y + groupHeight / 2 + 2, label, "end"));
                for (int e = 0; e < engines.size(); e++) {
                    int by = y + e * BAR;
                    Optional<Results.Cell> cell = Ratios.cell(r, engines.get(e), workload, cellClients);
                    Optional<Double> ratio = cell.flatMap(c -> Ratios.ratio(r, c, false));
                    if (ratio.isPresent()) {
                        double w = Math.min(ratio.get(), max) / max * PLOT;
                        body.append(String.format(Locale.ROOT,
                                "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>%n", LABEL, by, w,
                                BAR - 2, COLOURS[e % COLOURS.length]));
                        body.append(text((int) (LABEL + w + 4), by + BAR - 3,
                                String.format(Locale.ROOT, "%.2f", ratio.get()), "start"));
                    } else {
                        String why = cell.map(c -> c.status() == Status.VALID ? "no baseline"
                                : c.status().name().toLowerCase(Locale.ROOT)).orElse("–");
                        body.append(text(LABEL + 4, by + BAR - 3, engines.get(e) + ": " + why, "start"));
                    }
                }
                y += groupHeight;
            }
        }
        int height = y + 30;
        int width = LABEL + PLOT + 80;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"10\">%n", width, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        svg.append(text(10, 16, "p50 latency / fastest of Elasticsearch and OpenSearch (lower is better; "
                + r.run().get("docs") + " docs)", "start"));
        for (int e = 0; e < engines.size(); e++) {
            int x = 10 + e * 130;
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"26\" width=\"10\" height=\"10\" fill=\"%s\"/>%n",
                    x, COLOURS[e % COLOURS.length]));
            svg.append(text(x + 14, 35, engines.get(e), "start"));
        }
        double one = LABEL + 1.0 / max * PLOT;
        svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"44\" x2=\"%.1f\" y2=\"%d\" stroke=\"#444\" "
                + "stroke-dasharray=\"4 3\"/>%n", one, one, y));
        svg.append(text((int) one, y + 14, "1.0", "middle"));
        svg.append(text(LABEL + PLOT, y + 14, String.format(Locale.ROOT, "%.0f%s", max, max >= 10 ? "+" : ""),
                "middle"));
        svg.append(body);
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static String text(int x, int y, String s, String anchor) {
        return String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"%s\">%s</text>%n", x, y, anchor,
                s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"));
    }
}
