package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.Map;
import java.util.Optional;

/**
 * One aggregation of a {@code _search} body, as parsed by
 * {@link io.qdrant.esgateway.domain.aggregation.parse.AggregationParser}: its Elasticsearch type, its options and its
 * sub-aggregations (in request order). Every part of the gateway that switches over aggregation
 * types (the {@link AggregationPlan}, the coverage rules) does so without a {@code default}: adding a type here means
 * updating each of those switches, which the compiler lists.
 */
public sealed interface Aggregation permits Aggregation.Terms, Aggregation.Metric, Aggregation.Filter,
        Aggregation.Filters, Aggregation.Missing, Aggregation.Global, Aggregation.Stats, Aggregation.Cardinality,
        Aggregation.Percentiles, Aggregation.TopHits, RangeAggregation, HistogramAggregation,
        DateHistogramAggregation, CompositeAggregation, Aggregation.ScriptedMetric {

    /** The sub-aggregations, by name, in request order (empty for metrics). */
    Map<String, Aggregation> subs();

    /** Elasticsearch's name of the type ({@code terms}, {@code avg}, …), used in errors and metrics. */
    String type();

    /** {@code terms}: one bucket per distinct value of {@code field}; exact counts (every bucket is kept). */
    record Terms(String field, int size, java.util.List<TermsOrder> order, long minDocCount,
                 Optional<JsonValue> missing, IncludeExclude includeExclude, Optional<String> format,
                 Optional<String> executionHint, boolean showTermDocCountError, Map<String, Aggregation> subs)
            implements Aggregation {
        public Terms {
            order = java.util.List.copyOf(order);
            subs = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(subs));
        }

        @Override
        public String type() {
            return "terms";
        }
    }

    /**
     * A bucket order of {@code terms}: by doc count, by key, or by a sub-aggregation's value ({@code path} is the
     * metric name, optionally {@code name.value}/{@code name.avg} for multi-value metrics); ties are broken as ES
     * does (count desc then key asc).
     */
    record TermsOrder(String key, boolean ascending) {
        public static final TermsOrder COUNT_DESC = new TermsOrder("_count", false);
    }

    /** {@code filter}: one bucket of the documents that match {@code query}. */
    record Filter(io.qdrant.esgateway.domain.query.Query query, Map<String, Aggregation> subs)
            implements Aggregation {
        public Filter {
            subs = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(subs));
        }

        @Override
        public String type() {
            return "filter";
        }
    }

    /**
     * {@code filters}: one bucket per named (keyed object form, buckets sorted by name as ES sorts them) or
     * anonymous (array form, request order) query, and optionally one for the documents no query matches.
     */
    record Filters(java.util.List<String> names, java.util.List<io.qdrant.esgateway.domain.query.Query> queries,
                   boolean keyed, boolean anonymous, Optional<String> otherBucketKey, Map<String, Aggregation> subs)
            implements Aggregation {
        public Filters {
            names = java.util.List.copyOf(names);
            queries = java.util.List.copyOf(queries);
            subs = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(subs));
        }

        @Override
        public String type() {
            return "filters";
        }
    }

    /** {@code missing}: one bucket of the documents without a value for {@code field}. */
    record Missing(String field, Map<String, Aggregation> subs) implements Aggregation {
        public Missing {
            subs = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(subs));
        }

        @Override
        public String type() {
            return "missing";
        }
    }

    /** {@code global}: one bucket of every document of the searched indices, whatever the query (top level only). */
    record Global(Map<String, Aggregation> subs) implements Aggregation {
        public Global {
            subs = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(subs));
        }

        @Override
        public String type() {
            return "global";
        }
    }

    /**
     * A single-value numeric metric over {@code field}: {@code min}, {@code max}, {@code avg}, {@code sum},
     * {@code value_count}; {@code missing} is the value a document without one counts as (a number, or a date in the
     * field's format; for {@code value_count} any value).
     */
    record Metric(MetricKind kind, String field, Optional<JsonValue> missing, Optional<String> format)
            implements Aggregation {
        @Override
        public Map<String, Aggregation> subs() {
            return Map.of();
        }

        @Override
        public String type() {
            return kind.esName();
        }
    }

    /**
     * {@code scripted_metric}: {@code init_script} (optional), {@code map_script}, {@code combine_script} and
     * {@code reduce_script} (each required when the aggregation runs, as Elasticsearch 8 checks them), with the
     * {@code params} every script sees.
     */
    record ScriptedMetric(Optional<io.qdrant.esgateway.domain.script.Script> init,
                          Optional<io.qdrant.esgateway.domain.script.Script> map,
                          Optional<io.qdrant.esgateway.domain.script.Script> combine,
                          Optional<io.qdrant.esgateway.domain.script.Script> reduce,
                          io.qdrant.esgateway.domain.json.JsonValue.JsonObject params) implements Aggregation {
        @Override
        public Map<String, Aggregation> subs() {
            return Map.of();
        }

        @Override
        public String type() {
            return "scripted_metric";
        }
    }

    enum MetricKind {
        MIN, MAX, AVG, SUM, VALUE_COUNT;

        public String esName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    // ---- multi-value metrics and top_hits (StatsAggregator, CardinalityAggregator, PercentilesAggregator,
    // TopHitsAggregator); none takes sub-aggregations

    /**
     * {@code stats} ({@code extended} false) or {@code extended_stats} over {@code field}; {@code sigma} is the
     * number of standard deviations of {@code std_deviation_bounds}; {@code missing} is the value (a number, or a
     * date for a date field) a document without one counts as.
     */
    record Stats(String field, boolean extended, double sigma, Optional<JsonValue> missing) implements Aggregation {
        @Override
        public Map<String, Aggregation> subs() {
            return Map.of();
        }

        @Override
        public String type() {
            return extended ? "extended_stats" : "stats";
        }
    }

    /** {@code cardinality}: the number of distinct values of {@code field} (counted exactly). */
    record Cardinality(String field, Optional<JsonValue> missing) implements Aggregation {
        @Override
        public Map<String, Aggregation> subs() {
            return Map.of();
        }

        @Override
        public String type() {
            return "cardinality";
        }
    }

    /** {@code percentiles} of {@code field} at {@code percents} (ascending, distinct, each in [0, 100]). */
    record Percentiles(String field, java.util.List<Double> percents, boolean keyed, Optional<JsonValue> missing)
            implements Aggregation {
        public Percentiles {
            percents = java.util.List.copyOf(percents);
        }

        @Override
        public Map<String, Aggregation> subs() {
            return Map.of();
        }

        @Override
        public String type() {
            return "percentiles";
        }
    }

    /**
     * {@code top_hits} (named {@code name}, for its errors): the best {@code size} documents after {@code from} of each bucket, in {@code sort} order
     * (empty: by score), rendered as search hits with their {@code _source} filtered by {@code source};
     * {@code trackScores} renders scores under a field sort too.
     */
    record TopHits(String name, int from, int size, java.util.List<io.qdrant.esgateway.domain.sort.SortSpec> sort,
                   io.qdrant.esgateway.domain.document.SourceFilter source, boolean trackScores)
            implements Aggregation {
        public TopHits {
            sort = java.util.List.copyOf(sort);
        }

        @Override
        public Map<String, Aggregation> subs() {
            return Map.of();
        }

        @Override
        public String type() {
            return "top_hits";
        }
    }
}
