package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.Mappings;
import java.util.Map;

/**
 * Checks the sub-aggregation paths a {@code terms} aggregation orders by ({@code "my_avg"}, {@code "my_stats.max"},
 * {@code "my_filter>my_avg"}) when the request is planned, with Elasticsearch's errors: a path must go through
 * single-bucket aggregations and end at one of them or at a metric.
 */
final class TermsOrderPaths {
    private TermsOrderPaths() {
    }

    static void validate(String index, Mappings mappings, Aggregation.Terms terms) {
        for (Aggregation.TermsOrder order : terms.order()) {
            if (!order.key().equals("_key") && !order.key().equals("_count")) {
                check(index, mappings, order.key(), terms.subs());
            }
        }
    }

    private static void check(String index, Mappings mappings, String path, Map<String, Aggregation> subs) {
        String[] elements = path.split(">", -1);
        Map<String, Aggregation> level = subs;
        for (int i = 0; i < elements.length; i++) {
            boolean last = i == elements.length - 1;
            String element = elements[i];
            String name = element;
            String key = "";
            int dot = element.indexOf('.');
            if (last && dot >= 0) {
                name = element.substring(0, dot);
                key = element.substring(dot + 1);
            }
            Aggregation agg = level.get(name);
            if (agg == null) {
                throw invalid(path, "Cannot find aggregation named [" + name + "]");
            }
            String rest = last ? "" : path.substring(path.indexOf('>', indexOfElement(path, i)));
            switch (agg) {
                case Aggregation.Metric m -> {
                    if (!last) {
                        throw invalid(path, "Metrics aggregations cannot have sub-aggregations (at [" + rest + "]");
                    }
                    if (!key.isEmpty() && !key.equals("value")) {
                        throw invalid(path, "Unknown value key [" + key + "] for single-value metric aggregation ["
                                + name + "]. Either use [value] as key or drop the key all together");
                    }
                }
                case Aggregation.Cardinality c -> {
                    if (!last) {
                        throw invalid(path, "Metrics aggregations cannot have sub-aggregations (at [" + rest + "]");
                    }
                    if (!key.isEmpty() && !key.equals("value")) {
                        throw invalid(path, "Unknown value key [" + key + "] for single-value metric aggregation ["
                                + name + "]. Either use [value] as key or drop the key all together");
                    }
                }
                case Aggregation.Stats st -> {
                    multiValue(path, key, last, rest);
                    if (!StatsAggregator.metricNames(st.extended()).contains(key)) {
                        // ES reports the failed enum lookup as it is (extended_stats falls back to the stats names)
                        throw invalid(path, "No enum constant org.elasticsearch.search.aggregations.metrics."
                                + "InternalStats.Metrics." + key);
                    }
                }
                // ES answers any percentile from its digest, asked for or not
                case Aggregation.Percentiles p -> multiValue(path, key, last, rest);
                case Aggregation.ScriptedMetric sm -> throw invalid(path, "Buckets can only be sorted on a"
                        + " sub-aggregator path that is built out of zero or more single-bucket aggregations within the"
                        + " path and a final single-bucket or a metrics aggregation at the path end.");
                case Aggregation.TopHits t -> throw invalid(path, "Buckets can only be sorted on a sub-aggregator path"
                        + " that is built out of zero or more single-bucket aggregations within the path and a final"
                        + " single-bucket or a metrics aggregation at the path end.");
                case Aggregation.Filter f -> level = singleBucket(path, name, key, f.subs());
                case Aggregation.Missing m -> level = singleBucket(path, name, key, m.subs());
                case Aggregation.Global g -> level = singleBucket(path, name, key, g.subs());
                case Aggregation.Filters f -> throw invalid(path, "Can't sort a [filters] aggregation [" + name + "]");
                case RangeAggregation _, HistogramAggregation _, DateHistogramAggregation _,
                     CompositeAggregation _ -> {
                    if (last) {
                        throw invalid(path, "Can't sort a [" + agg.type() + "] aggregation [" + name + "]");
                    }
                    String next = elements[i + 1];
                    if (i + 1 == elements.length - 1 && next.indexOf('.') >= 0) {
                        next = next.substring(0, next.indexOf('.'));
                    }
                    throw invalid(path, "Can't sort by a descendant of a [" + agg.type() + "] aggregation [" + next
                            + "]");
                }
                case Aggregation.Terms t -> {
                    FieldRef.ValueKind kind = FieldRef.of(index, t.field(), mappings).kind();
                    String type = switch (kind) {
                        case KEYWORD, UNMAPPED -> "sterms";
                        case LONG, DATE, BOOLEAN -> "lterms";
                        case DOUBLE, FLOAT -> "dterms";
                    };
                    throw invalid(path, "Can't sort a [" + type + "] aggregation [" + name + "]");
                }
            }
        }
    }

    /** A multi-value metric (stats, extended_stats, percentiles) at the end of the path, with a known metric name. */
    private static void multiValue(String path, String key, boolean last, String rest) {
        if (!last) {
            throw invalid(path, "Metrics aggregations cannot have sub-aggregations (at [" + rest + "]");
        }
        if (key.isEmpty()) {
            throw invalid(path, "Missing value key in [null] which refers to a multi-value metric aggregation");
        }
    }

    private static int indexOfElement(String path, int element) {
        int at = 0;
        for (int i = 0; i < element; i++) {
            at = path.indexOf('>', at) + 1;
        }
        return at;
    }

    private static Map<String, Aggregation> singleBucket(String path, String name, String key,
                                                         Map<String, Aggregation> subs) {
        if (!key.isEmpty() && !key.equals("doc_count")) {
            throw invalid(path, "Unknown value key [" + key + "] for single-bucket aggregation [" + name + "]. Either"
                    + " use [doc_count] as key or drop the key all together.");
        }
        return subs;
    }

    /** ES reports a bad order path from the reduce phase: no shard failed, the search did. */
    private static GatewayException invalid(String path, String why) {
        return GatewayException.reduceFailed(new GatewayException(io.qdrant.esgateway.domain.error.ErrorKind
                .ILLEGAL_ARGUMENT, "Invalid aggregation order path [" + path + "]. " + why, Map.of(),
                GatewayException.illegalArgument(why)));
    }
}
