package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.FieldRef.ValueKind;
import io.qdrant.esgateway.domain.aggregation.TermsAggregator.BucketPartial;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.time.DateFormat;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * {@code range} and {@code date_range}: bounds resolved once per index (dates parsed with the aggregation's format and
 * time zone, date math against the current time), ranges sorted by {@code from} then {@code to} as Elasticsearch
 * sorts them, each document counted once in every range one of its values falls in.
 */
final class RangeAggregator {
    private RangeAggregator() {
    }

    /** A range with its bounds as doubles ({@code ±∞} when open) and its rendered key and bound strings. */
    record Resolved(String key, double from, double to, String fromText, String toText) {
        boolean contains(double v) {
            return v >= from && v < to;
        }
    }

    /** What a range aggregation needs from its index: resolved ranges and the value of documents without one. */
    record Setup(List<Resolved> ranges, boolean dates, Double missing) {
    }

    static Setup setup(RangeAggregation agg, FieldRef field, LongSupplier now) {
        if (agg.ranges().isEmpty()) {
            throw GatewayException.illegalArgument("No [ranges] specified for the [" + agg.name() + "] aggregation");
        }
        BucketValues.requireNumeric(field, agg.type());
        boolean dates = agg.date() || field.kind() == ValueKind.DATE;
        DateFormat format = dates ? agg.format().map(DateFormat::of).orElse(field.format()) : null;
        java.text.DecimalFormat decimal = dates ? null : agg.format().map(BucketValues::decimal).orElse(null);
        ZoneId zone = agg.timeZone().map(TimeValues::zone).orElse(ZoneOffset.UTC);
        List<Resolved> out = new ArrayList<>();
        for (RangeAggregation.Bound b : agg.ranges()) {
            double from = b.from().map(v -> dates ? (double) BucketValues.dateMillis(v, format, zone, now)
                    : BucketValues.number(v, "from")).orElse(Double.NEGATIVE_INFINITY);
            double to = b.to().map(v -> dates ? (double) BucketValues.dateMillis(v, format, zone, now)
                    : BucketValues.number(v, "to")).orElse(Double.POSITIVE_INFINITY);
            String fromString = Double.isInfinite(from) ? null : render(from, format, decimal, zone);
            String toString = Double.isInfinite(to) ? null : render(to, format, decimal, zone);
            String key = b.key().orElseGet(() -> (fromString == null ? "*" : fromString) + "-"
                    + (toString == null ? "*" : toString));
            boolean strings = dates || decimal != null;
            out.add(new Resolved(key, from, to, strings ? fromString : null, strings ? toString : null));
        }
        out.sort(Comparator.comparingDouble(Resolved::from).thenComparingDouble(Resolved::to));
        Double missing = agg.missing().map(v -> dates ? (double) BucketValues.dateMillis(v, format, zone, now)
                : BucketValues.number(v, "missing")).orElse(null);
        return new Setup(out, dates, missing);
    }

    private static String render(double bound, DateFormat format, java.text.DecimalFormat decimal, ZoneId zone) {
        if (format != null) {
            return format.format(Instant.ofEpochMilli((long) bound), zone);
        }
        return decimal != null ? decimal.format(bound) : Double.toString(bound);
    }

    static Collector collector(RangeAggregation agg, FieldRef field, Setup setup, Supplier<NamedCollectors> subs) {
        List<Resolved> ranges = setup.ranges();
        return new Collector() {
            private final long[] counts = new long[ranges.size()];
            private final NamedCollectors[] bucketSubs = new NamedCollectors[ranges.size()];

            @Override
            public void collect(AggregationDoc doc) {
                double[] values = BucketValues.doubles(doc, field);
                if (values.length == 0) {
                    if (setup.missing() == null) {
                        return;
                    }
                    values = new double[] {setup.missing()};
                }
                for (int r = 0; r < ranges.size(); r++) {
                    Resolved range = ranges.get(r);
                    for (double v : values) {
                        if (range.contains(v)) {
                            counts[r]++;
                            if (bucketSubs[r] == null) {
                                bucketSubs[r] = subs.get();
                            }
                            bucketSubs[r].collect(doc);
                            break;
                        }
                    }
                }
            }

            @Override
            public Partial partial() {
                List<BucketPartial> buckets = new ArrayList<>();
                for (int r = 0; r < ranges.size(); r++) {
                    NamedCollectors c = bucketSubs[r] != null ? bucketSubs[r] : subs.get();
                    buckets.add(new BucketPartial(counts[r], c.partial()));
                }
                return new RangePartial(agg.type(), agg.keyed(), ranges, buckets,
                        field.kind() != ValueKind.UNMAPPED);
            }
        };
    }

    /**
     * The count and sub-aggregations of each range, in the order of {@code ranges}, of a {@code range} or
     * {@code date_range} ({@code type}); {@code mapped}: whether the field is mapped where they were collected (a
     * mapped index's keys and bound strings win when merging).
     */
    record RangePartial(String type, boolean keyed, List<Resolved> ranges, List<BucketPartial> buckets,
                        boolean mapped) implements Partial {
        @Override
        public Partial merge(Partial other) {
            RangePartial o = (RangePartial) other;
            List<BucketPartial> merged = new ArrayList<>();
            for (int i = 0; i < buckets.size(); i++) {
                merged.add(buckets.get(i).merge(o.buckets.get(i)));
            }
            return new RangePartial(type, keyed, mapped || !o.mapped ? ranges : o.ranges, merged, mapped || o.mapped);
        }

        @Override
        public Partial complete(KeyUniverse universe) {
            List<BucketPartial> out = new ArrayList<>();
            buckets.forEach(b -> out.add(new BucketPartial(b.count(), b.subs().complete(universe))));
            return new RangePartial(type, keyed, ranges, out, mapped);
        }

        @Override
        public String typedName() {
            return type;
        }

        @Override
        public JsonValue render(boolean typedKeys) {
            JsonObjectBuilder keyedOut = JsonObjectBuilder.object();
            List<JsonValue> list = new ArrayList<>();
            for (int i = 0; i < ranges.size(); i++) {
                Resolved r = ranges.get(i);
                JsonObjectBuilder b = JsonObjectBuilder.object();
                if (!keyed) {
                    b.put("key", r.key());
                }
                if (!Double.isInfinite(r.from())) {
                    b.put("from", new JsonNumber(r.from()));
                    if (r.fromText() != null) {
                        b.put("from_as_string", r.fromText());
                    }
                }
                if (!Double.isInfinite(r.to())) {
                    b.put("to", new JsonNumber(r.to()));
                    if (r.toText() != null) {
                        b.put("to_as_string", r.toText());
                    }
                }
                b.put("doc_count", buckets.get(i).count());
                buckets.get(i).subs().renderInto(b, typedKeys);
                if (keyed) {
                    keyedOut.put(r.key(), b.build());
                } else {
                    list.add(b.build());
                }
            }
            return JsonObjectBuilder.object().put("buckets", keyed ? keyedOut.build() : new JsonArray(list)).build();
        }
    }
}
