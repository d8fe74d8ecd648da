package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * Elasticsearch 8.15's {@code search.max_buckets} over a whole answer, counted as ES's final reduce counts: the
 * buckets of every multi-bucket aggregation at every depth, together; more than 65,536 is
 * {@code too_many_buckets_exception} (400). A histogram or date histogram with {@code min_doc_count: 0} also counts,
 * as ES does while it adds the empty buckets, each full ten thousand of them a second time (measured against
 * Elasticsearch 8.15: one such histogram passes with 35,536 buckets and fails with 35,537). Single-bucket
 * aggregations and metrics count nothing.
 */
public final class BucketLimit {
    /** How often ES reports the empty buckets it is adding ({@code REPORT_EMPTY_EVERY}). */
    private static final int REPORT_EMPTY_EVERY = 10_000;

    private BucketLimit() {
    }

    /**
     * {@code aggregations} (the rendered {@code aggregations} object of {@code requested}, with or without
     * {@code typed_keys}) as it is, or ES's error past the limit.
     */
    public static JsonObject check(JsonObject aggregations, Map<String, Aggregation> requested) {
        long[] count = {0};
        level(aggregations, requested, count);
        return aggregations;
    }

    private static void level(JsonObject level, Map<String, Aggregation> requested, long[] count) {
        if (requested.isEmpty()) {
            return;
        }
        for (Map.Entry<String, Aggregation> e : requested.entrySet()) {
            if (answer(level, e.getKey()) instanceof JsonObject answer) {
                aggregation(answer, e.getValue(), count);
            }
        }
    }

    /** The answer of the aggregation {@code name}: under its name, or {@code <type>#<name>} with typed keys. */
    private static JsonValue answer(JsonObject level, String name) {
        JsonValue plain = level.members().get(name);
        if (plain != null) {
            return plain;
        }
        String suffix = "#" + name;
        for (Map.Entry<String, JsonValue> m : level.members().entrySet()) {
            if (m.getKey().endsWith(suffix) && m.getKey().indexOf('#') == m.getKey().length() - suffix.length()) {
                return m.getValue();
            }
        }
        return null;
    }

    private static void aggregation(JsonObject answer, Aggregation agg, long[] count) {
        switch (agg) {
            case Aggregation.Filter f -> level(answer, f.subs(), count);
            case Aggregation.Missing m -> level(answer, m.subs(), count);
            case Aggregation.Global g -> level(answer, g.subs(), count);
            case Aggregation.Metric ignored -> { }
            case Aggregation.Stats ignored -> { }
            case Aggregation.Cardinality ignored -> { }
            case Aggregation.Percentiles ignored -> { }
            case Aggregation.TopHits ignored -> { }
            case Aggregation.ScriptedMetric ignored -> { }
            case HistogramAggregation h -> buckets(answer, h.subs(), h.minDocCount() == 0, count);
            case DateHistogramAggregation h -> buckets(answer, h.subs(), h.minDocCount() == 0, count);
            case Aggregation.Terms t -> buckets(answer, t.subs(), false, count);
            case Aggregation.Filters f -> buckets(answer, f.subs(), false, count);
            case RangeAggregation r -> buckets(answer, r.subs(), false, count);
            case CompositeAggregation c -> buckets(answer, c.subs(), false, count);
        }
    }

    private static void buckets(JsonObject answer, Map<String, Aggregation> subs, boolean fillsEmpty, long[] count) {
        List<JsonValue> buckets = switch (answer.members().get("buckets")) {
            case JsonArray a -> a.elements();
            case JsonObject keyed -> List.copyOf(keyed.members().values());
            case null, default -> List.of();
        };
        for (JsonValue b : buckets) {
            if (b instanceof JsonObject bucket) {
                level(bucket, subs, count);
            }
        }
        long added = buckets.size();
        if (fillsEmpty) {
            long empty = buckets.stream().filter(b -> b instanceof JsonObject o
                    && o.members().get("doc_count") instanceof JsonValue.JsonNumber n && n.value().longValue() == 0)
                    .count();
            added += reportedEmpty(buckets.size() - empty, empty);
        }
        count[0] += added;
        if (count[0] > BucketValues.MAX_BUCKETS) {
            throw BucketValues.tooManyBuckets();
        }
    }

    /**
     * What ES reports while it adds {@code empty} buckets to {@code filled} ones: a running size, starting at the
     * filled buckets, reported and reset each time it reaches ten thousand.
     */
    private static long reportedEmpty(long filled, long empty) {
        long size = filled;
        long reported = 0;
        long left = empty;
        while (left > 0) {
            long step = Math.max(1, REPORT_EMPTY_EVERY - size);
            if (step > left) {
                break;
            }
            left -= step;
            size += step;
            reported += size;
            size = 0;
        }
        return reported;
    }
}
