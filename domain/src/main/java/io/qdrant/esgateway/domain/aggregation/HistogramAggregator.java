package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.FieldRef.ValueKind;
import io.qdrant.esgateway.domain.aggregation.TermsAggregator.BucketPartial;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.time.DateFormat;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * {@code histogram} (Double keys: {@code floor((v - offset) / interval) * interval + offset}) and
 * {@code date_histogram} (Long keys: the {@link DateRounding} of the value). Partials hold only the buckets that have
 * documents; the empty buckets of {@code min_doc_count: 0} (between the first and last key, widened to
 * {@code extended_bounds}) are added when rendering, each with its sub-aggregations' empty answers.
 */
final class HistogramAggregator {
    private HistogramAggregator() {
    }

    /** The key line of one histogram: how keys are made, stepped and rendered. */
    interface Line {
        long minDocCount();

        boolean keyed();

        Aggregation.TermsOrder order();

        /** The key after {@code key}. */
        Object next(Object key);

        /** The first key to fill from when there are no earlier buckets ({@code null}: none). */
        Object fillFrom();

        /** Whether {@code key} is within the upper fill bound ({@code false} when there is none). */
        boolean withinFillEnd(Object key);

        void putKey(JsonObjectBuilder bucket, Object key);

        String keyString(Object key);
    }

    // ---- histogram

    /**
     * {@code format}: the date format of a date field's {@code key_as_string} ({@code null} for numbers);
     * {@code decimal}: the numeric {@code format} pattern ({@code null}: none, keys rendered as Java doubles).
     */
    record NumericLine(HistogramAggregation agg, DateFormat format, String decimal) implements Line {
        double round(double v) {
            return Math.floor((v - agg.offset()) / agg.interval()) * agg.interval() + agg.offset();
        }

        @Override
        public long minDocCount() {
            return agg.minDocCount();
        }

        @Override
        public boolean keyed() {
            return agg.keyed();
        }

        @Override
        public Aggregation.TermsOrder order() {
            return agg.order();
        }

        @Override
        public Object next(Object key) {
            return round((Double) key + agg.interval() + agg.interval() / 2);
        }

        private double fillMin() {
            double min = agg.extendedMin().orElse(Double.POSITIVE_INFINITY);
            if (agg.hardMin().isPresent() && min < agg.hardMin().get()) {
                min = agg.hardMin().get();
            }
            return min;
        }

        private double fillMax() {
            double max = agg.extendedMax().orElse(Double.NEGATIVE_INFINITY);
            if (agg.hardMax().isPresent() && max > agg.hardMax().get()) {
                max = agg.hardMax().get();
            }
            return max;
        }

        @Override
        public Object fillFrom() {
            double min = fillMin();
            return Double.isInfinite(min) ? null : round(min);
        }

        @Override
        public boolean withinFillEnd(Object key) {
            return (Double) key <= fillMax();
        }

        @Override
        public void putKey(JsonObjectBuilder bucket, Object key) {
            if (format != null || decimal != null) {
                bucket.put("key_as_string", keyString(key));
            }
            bucket.put("key", new JsonNumber((Double) key));
        }

        @Override
        public String keyString(Object key) {
            if (format != null) {
                return format.format((long) (double) (Double) key);
            }
            return decimal != null ? BucketValues.decimal(decimal).format(key) : Double.toString((Double) key);
        }
    }

    /** The checks Elasticsearch makes per shard: a positive interval, a numeric field, bounds that fit. */
    static void validate(HistogramAggregation agg, FieldRef field) {
        if (!(agg.interval() > 0)) {
            throw GatewayException.illegalArgument("interval must be positive, got: " + agg.interval());
        }
        BucketValues.requireNumeric(field, agg.type());
        if (agg.hardMin().isPresent() || agg.hardMax().isPresent()) {
            boolean outside = agg.extendedMin().isPresent() && agg.hardMin().isPresent()
                    && agg.extendedMin().get() < agg.hardMin().get()
                    || agg.extendedMax().isPresent() && agg.hardMax().isPresent()
                    && agg.extendedMax().get() > agg.hardMax().get();
            if (outside) {
                throw GatewayException.illegalArgument("Extended bounds have to be inside hard bounds, hard bounds: ["
                        + agg.hardMin().orElse(null) + "--" + agg.hardMax().orElse(null) + "], extended bounds: ["
                        + agg.extendedMin().orElse(null) + "--" + agg.extendedMax().orElse(null) + "]");
            }
        }
    }

    static Collector histogram(HistogramAggregation agg, FieldRef field, Supplier<NamedCollectors> subs) {
        NumericLine line = field.kind() == ValueKind.DATE
                ? new NumericLine(agg, agg.format().map(DateFormat::of).orElse(field.format()), null)
                : new NumericLine(agg, null, agg.format().orElse(null));
        if (line.decimal() != null) {
            BucketValues.decimal(line.decimal());
        }
        return new Buckets(line, subs, field.kind() != ValueKind.UNMAPPED) {
            @Override
            public void collect(AggregationDoc doc) {
                double[] values = BucketValues.doubles(doc, field);
                if (values.length == 0 && agg.missing().isPresent()) {
                    values = new double[] {agg.missing().get()};
                }
                double previous = Double.NaN;
                for (double v : values) {
                    double index = Math.floor((v - agg.offset()) / agg.interval());
                    double start = index * agg.interval();
                    if (agg.hardMin().isPresent() && start < agg.hardMin().get()
                            || agg.hardMax().isPresent() && start > agg.hardMax().get()) {
                        continue;
                    }
                    double key = start + agg.offset();
                    if (key != previous) {
                        add(key, doc);
                        previous = key;
                    }
                }
            }
        };
    }

    // ---- date_histogram

    record DateLine(DateHistogramAggregation agg, DateFormat format, Long fillMin, Long fillMax) implements Line {
        @Override
        public long minDocCount() {
            return agg.minDocCount();
        }

        @Override
        public boolean keyed() {
            return agg.keyed();
        }

        @Override
        public Aggregation.TermsOrder order() {
            return agg.order();
        }

        @Override
        public Object next(Object key) {
            return agg.interval().next((Long) key);
        }

        @Override
        public Object fillFrom() {
            return fillMin == null ? null : agg.interval().round(fillMin);
        }

        @Override
        public boolean withinFillEnd(Object key) {
            return fillMax != null && (Long) key <= fillMax;
        }

        @Override
        public void putKey(JsonObjectBuilder bucket, Object key) {
            bucket.put("key_as_string", keyString(key));
            bucket.put("key", (Long) key);
        }

        @Override
        public String keyString(Object key) {
            return format.format(Instant.ofEpochMilli((Long) key), agg.interval().zone());
        }
    }

    /**
     * The per-index setup of a {@code date_histogram}: its key line, the value of documents without one and its
     * {@code hard_bounds} rounded to bucket starts ({@code null} when open). As in Elasticsearch 8.15, a bucket is kept
     * when its start is at or after the rounded minimum and before the rounded maximum (the maximum's own bucket is
     * left out).
     */
    record DateSetup(DateLine line, Long missing, Long hardMin, Long hardMax) {
        boolean inside(long key) {
            return (hardMin == null || hardMin <= key) && (hardMax == null || key < hardMax);
        }
    }

    static DateSetup dateSetup(DateHistogramAggregation agg, FieldRef field, LongSupplier now) {
        if (agg.interval() == null) {
            throw GatewayException.illegalArgument("Invalid interval specified, must be non-null and non-empty");
        }
        if (field.kind() != ValueKind.DATE && field.kind() != ValueKind.LONG && field.kind() != ValueKind.UNMAPPED) {
            throw GatewayException.illegalArgument("Field [" + field.name() + "] of type ["
                    + field.kind().name().toLowerCase(java.util.Locale.ROOT) + "] is not supported for aggregation"
                    + " [date_histogram]");
        }
        DateFormat format = agg.format().map(DateFormat::of).orElse(field.format());
        java.time.ZoneId zone = agg.interval().zone();
        Long min = agg.extendedMin().map(v -> BucketValues.dateMillis(v, format, zone, now)).orElse(null);
        Long max = agg.extendedMax().map(v -> BucketValues.dateMillis(v, format, zone, now)).orElse(null);
        if (min != null && max != null && min > max) {
            throw GatewayException.illegalArgument("[extended_bounds.min][" + min + "] cannot be greater than"
                    + " [extended_bounds.max][" + max + "] for histogram aggregation [" + field.name() + "]");
        }
        Long missing = agg.missing().map(v -> BucketValues.dateMillis(v, format, ZoneOffset.UTC, now)).orElse(null);
        Long hardMin = agg.hardMin().map(v -> BucketValues.dateMillis(v, format, zone, now)).orElse(null);
        Long hardMax = agg.hardMax().map(v -> BucketValues.dateMillis(v, format, zone, now)).orElse(null);
        if (hardMin != null && min != null && min < hardMin || hardMax != null && max != null && max > hardMax) {
            throw GatewayException.illegalArgument("Extended bounds have to be inside hard bounds, hard bounds: ["
                    + bounds(agg.hardMin(), agg.hardMax()) + "], extended bounds: ["
                    + bounds(agg.extendedMin(), agg.extendedMax()) + "]");
        }
        DateRounding rounding = agg.interval();
        return new DateSetup(new DateLine(agg, format, min, max), missing,
                hardMin == null ? null : rounding.round(hardMin), hardMax == null ? null : rounding.round(hardMax));
    }

    /** Bounds as Elasticsearch prints them: as given in the request. */
    private static String bounds(java.util.Optional<JsonValue> min, java.util.Optional<JsonValue> max) {
        return min.flatMap(JsonReads::text).orElse("null") + "--" + max.flatMap(JsonReads::text).orElse("null");
    }

    static Collector dateHistogram(DateHistogramAggregation agg, FieldRef field, DateSetup setup,
                                   Supplier<NamedCollectors> subs) {
        DateRounding rounding = agg.interval();
        return new Buckets(setup.line(), subs, field.kind() != ValueKind.UNMAPPED) {
            @Override
            public void collect(AggregationDoc doc) {
                long[] values = field.kind() == ValueKind.UNMAPPED ? new long[0] : doc.longs(field.name());
                if (values.length == 0 && setup.missing() != null) {
                    values = new long[] {setup.missing()};
                }
                long previous = 0;
                boolean any = false;
                for (long value : values) {
                    long key = rounding.round(value);
                    if (setup.inside(key) && (!any || key != previous)) {
                        add(key, doc);
                        previous = key;
                        any = true;
                    }
                }
            }
        };
    }

    // ---- shared

    private abstract static class Buckets implements Collector {
        private final Line line;
        private final Supplier<NamedCollectors> subs;
        private final Map<Object, Bucket> buckets = new HashMap<>();
        private final boolean mapped;

        Buckets(Line line, Supplier<NamedCollectors> subs, boolean mapped) {
            this.line = line;
            this.subs = subs;
            this.mapped = mapped;
        }

        final void add(Object key, AggregationDoc doc) {
            Bucket b = buckets.computeIfAbsent(key, k -> new Bucket(subs.get()));
            b.count++;
            b.subs.collect(doc);
        }

        @Override
        public Partial partial() {
            Map<Object, BucketPartial> out = new HashMap<>();
            buckets.forEach((k, b) -> out.put(k, new BucketPartial(b.count, b.subs.partial())));
            return new HistogramPartial(line, subs, out, mapped);
        }
    }

    private static final class Bucket {
        final NamedCollectors subs;
        long count;

        Bucket(NamedCollectors subs) {
            this.subs = subs;
        }
    }

    /**
     * The buckets with documents; {@code mapped}: whether the field is mapped where they were collected (the key line
     * and sub-aggregations of a mapped index win over an unmapped one's when merging, for their formats).
     */
    record HistogramPartial(Line line, Supplier<NamedCollectors> subs, Map<Object, BucketPartial> buckets,
                            boolean mapped) implements Partial {
        @Override
        public Partial merge(Partial other) {
            HistogramPartial o = (HistogramPartial) other;
            Map<Object, BucketPartial> merged = new HashMap<>(buckets);
            o.buckets.forEach((k, b) -> merged.merge(k, b, BucketPartial::merge));
            HistogramPartial base = mapped || !o.mapped ? this : o;
            return new HistogramPartial(base.line, base.subs, merged, mapped || o.mapped);
        }

        @Override
        public Partial complete(KeyUniverse universe) {
            Map<Object, BucketPartial> out = new HashMap<>();
            buckets.forEach((k, b) -> out.put(k, new BucketPartial(b.count(), b.subs().complete(universe))));
            return new HistogramPartial(line, subs, out, mapped);
        }

        @Override
        public String typedName() {
            return line instanceof DateLine ? "date_histogram" : "histogram";
        }

        @Override
        public JsonValue render(boolean typedKeys) {
            List<Map.Entry<Object, BucketPartial>> all = new ArrayList<>(buckets.entrySet());
            all.sort((a, b) -> Keys.compare(a.getKey(), b.getKey()));
            if (line.minDocCount() == 0) {
                all = filled(all);
            } else {
                all.removeIf(e -> e.getValue().count() < line.minDocCount());
            }
            if (all.size() > BucketValues.MAX_BUCKETS) {
                throw BucketValues.tooManyBuckets();
            }
            Aggregation.TermsOrder order = line.order();
            if (!(order.key().equals("_key") && order.ascending())) {
                all.sort(comparator(order));
            }
            JsonObjectBuilder keyed = JsonObjectBuilder.object();
            List<JsonValue> list = new ArrayList<>();
            for (Map.Entry<Object, BucketPartial> e : all) {
                JsonObjectBuilder b = JsonObjectBuilder.object();
                line.putKey(b, e.getKey());
                b.put("doc_count", e.getValue().count());
                e.getValue().subs().renderInto(b, typedKeys);
                if (line.keyed()) {
                    keyed.put(line.keyString(e.getKey()), b.build());
                } else {
                    list.add(b.build());
                }
            }
            return JsonObjectBuilder.object().put("buckets", line.keyed() ? keyed.build() : new JsonArray(list))
                    .build();
        }

        /** The buckets in key order with the empty ones between (and to the extended bounds) added. */
        private List<Map.Entry<Object, BucketPartial>> filled(List<Map.Entry<Object, BucketPartial>> sorted) {
            List<Map.Entry<Object, BucketPartial>> out = new ArrayList<>();
            NamedPartials empty = null;
            Object key = line.fillFrom();
            if (sorted.isEmpty()) {
                if (key != null) {
                    while (line.withinFillEnd(key)) {
                        empty = empty == null ? subs.get().partial() : empty;
                        out.add(Map.entry(key, new BucketPartial(0, empty)));
                        guard(out.size());
                        key = line.next(key);
                    }
                }
                return out;
            }
            if (key != null) {
                while (Keys.compare(key, sorted.getFirst().getKey()) < 0) {
                    empty = empty == null ? subs.get().partial() : empty;
                    out.add(Map.entry(key, new BucketPartial(0, empty)));
                    guard(out.size());
                    key = line.next(key);
                }
            }
            Object last = null;
            for (Map.Entry<Object, BucketPartial> e : sorted) {
                if (last != null) {
                    Object k = line.next(last);
                    while (Keys.compare(k, e.getKey()) < 0) {
                        empty = empty == null ? subs.get().partial() : empty;
                        out.add(Map.entry(k, new BucketPartial(0, empty)));
                        guard(out.size());
                        k = line.next(k);
                    }
                }
                out.add(e);
                guard(out.size());
                last = e.getKey();
            }
            Object k = line.next(last);
            while (line.withinFillEnd(k)) {
                empty = empty == null ? subs.get().partial() : empty;
                out.add(Map.entry(k, new BucketPartial(0, empty)));
                guard(out.size());
                k = line.next(k);
            }
            return out;
        }

        private static void guard(int size) {
            if (size > BucketValues.MAX_BUCKETS) {
                throw BucketValues.tooManyBuckets();
            }
        }

        private static Comparator<Map.Entry<Object, BucketPartial>> comparator(Aggregation.TermsOrder order) {
            Comparator<Map.Entry<Object, BucketPartial>> byKey = (a, b) -> Keys.compare(a.getKey(), b.getKey());
            Comparator<Map.Entry<Object, BucketPartial>> primary = switch (order.key()) {
                case "_key" -> byKey;
                case "_count" -> Comparator.comparingLong(e -> e.getValue().count());
                default -> Comparator.comparingDouble(e -> e.getValue().subs().orderValue(order.key()));
            };
            if (!order.ascending()) {
                primary = primary.reversed();
            }
            return order.key().equals("_key") ? primary : primary.thenComparing(byKey);
        }
    }
}
