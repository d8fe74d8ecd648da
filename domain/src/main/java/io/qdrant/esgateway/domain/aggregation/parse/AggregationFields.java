package io.qdrant.esgateway.domain.aggregation.parse;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.ObjectParseErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The options Elasticsearch 8.15's aggregation parsers know, by aggregation type (those the gateway does not
 * implement included), for the "did you mean" suggestion of an unknown option.
 */
final class AggregationFields {
    /** The options of every values-source aggregation. */
    private static final List<String> VALUES_SOURCE = List.of("field", "missing", "script", "format", "value_type",
            "valueType");
    private static final List<String> HISTOGRAM = List.of("offset", "min_doc_count", "keyed", "order",
            "extended_bounds", "hard_bounds");
    private static final Map<String, List<String>> KNOWN = Map.ofEntries(
            Map.entry("terms", with(VALUES_SOURCE, "size", "shard_size", "min_doc_count", "shard_min_doc_count",
                    "execution_hint", "show_term_doc_count_error", "collect_mode", "order", "include", "exclude")),
            Map.entry("min", VALUES_SOURCE), Map.entry("max", VALUES_SOURCE), Map.entry("avg", VALUES_SOURCE),
            Map.entry("sum", VALUES_SOURCE), Map.entry("value_count", VALUES_SOURCE),
            Map.entry("stats", VALUES_SOURCE), Map.entry("missing", VALUES_SOURCE),
            Map.entry("extended_stats", with(VALUES_SOURCE, "sigma")),
            Map.entry("cardinality", with(VALUES_SOURCE, "precision_threshold", "rehash", "execution_hint")),
            Map.entry("percentiles", with(VALUES_SOURCE, "percents", "keyed", "tdigest", "TDigest", "hdr", "HDR")),
            Map.entry("scripted_metric", List.of("init_script", "map_script", "combine_script", "reduce_script",
                    "params")),
            Map.entry("histogram", with(with(VALUES_SOURCE, "interval"), HISTOGRAM.toArray(String[]::new))),
            Map.entry("date_histogram", with(with(VALUES_SOURCE, "time_zone", "calendar_interval",
                    "fixed_interval"), HISTOGRAM.toArray(String[]::new))),
            Map.entry("range", with(VALUES_SOURCE, "ranges", "keyed")),
            Map.entry("date_range", with(VALUES_SOURCE, "time_zone", "ranges", "keyed")));

    private AggregationFields() {
    }

    /**
     * {@code x_content_parse_exception} "[l:c] [type] unknown field [key]" at the key in {@code options}, with ES's
     * suggestion from the options of {@code type}.
     */
    static GatewayException unknown(String type, String key, JsonObject options) {
        return ObjectParseErrors.unknownField(type, key, options.keyAt(key), KNOWN.getOrDefault(type, List.of()));
    }

    private static List<String> with(List<String> base, String... more) {
        List<String> all = new ArrayList<>(base);
        all.addAll(List.of(more));
        return List.copyOf(all);
    }
}
