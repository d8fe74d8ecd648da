package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.Aggregation.Terms;
import io.qdrant.esgateway.domain.aggregation.FieldRef.ValueKind;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code terms}: every distinct value of the field becomes a bucket, counted once per document however often the
 * document holds it. Partials keep every bucket, so counts are exact: {@code doc_count_error_upper_bound} is 0 and
 * {@code sum_other_doc_count} is the true number of documents in the buckets not returned. Keys are Strings
 * (keyword), Longs (integral, date, boolean) or Doubles (double, float).
 */
final class TermsAggregator {
    private TermsAggregator() {
    }

    static Collector collector(Terms terms, FieldRef field, Supplier<NamedCollectors> subs) {
        return new Collector() {
            private final Map<Object, Bucket> buckets = new HashMap<>();

            @Override
            public void collect(AggregationDoc doc) {
                switch (field.kind()) {
                    case KEYWORD -> {
                        String[] values = doc.keywords(field.name());
                        for (String v : values) {
                            add(v, doc);
                        }
                        if (values.length == 0) {
                            missing(doc);
                        }
                    }
                    case LONG, DATE, BOOLEAN -> {
                        long[] values = doc.longs(field.name());
                        for (int i = 0; i < values.length; i++) {
                            if (i == 0 || values[i] != values[i - 1]) {
                                add(values[i], doc);
                            }
                        }
                        if (values.length == 0) {
                            missing(doc);
                        }
                    }
                    case DOUBLE, FLOAT -> {
                        double[] values = doc.doubles(field.name());
                        for (int i = 0; i < values.length; i++) {
                            if (i == 0 || values[i] != values[i - 1]) {
                                add(values[i], doc);
                            }
                        }
                        if (values.length == 0) {
                            missing(doc);
                        }
                    }
                    case UNMAPPED -> missing(doc);
                }
            }

            private void missing(AggregationDoc doc) {
                if (terms.missing().isPresent()) {
                    add(Keys.missingKey(terms.missing().get(), field), doc);
                }
            }

            private void add(Object key, AggregationDoc doc) {
                Bucket b = buckets.computeIfAbsent(key, k -> new Bucket(subs.get()));
                b.count++;
                b.subs.collect(doc);
            }

            @Override
            public Partial partial() {
                Map<Object, BucketPartial> out = new HashMap<>();
                buckets.forEach((k, b) -> out.put(k, new BucketPartial(b.count, b.subs.partial())));
                return new TermsPartial(terms, field, out);
            }
        };
    }

    private static final class Bucket {
        final NamedCollectors subs;
        long count;

        Bucket(NamedCollectors subs) {
            this.subs = subs;
        }
    }

    /** A bucket's count and its sub-aggregations' partials. */
    record BucketPartial(long count, NamedPartials subs) {
        BucketPartial merge(BucketPartial o) {
            return new BucketPartial(count + o.count, subs.merge(o.subs));
        }
    }

    record TermsPartial(Terms terms, FieldRef field, Map<Object, BucketPartial> buckets) implements Partial {
        @Override
        public Partial merge(Partial other) {
            TermsPartial o = (TermsPartial) other;
            Map<Object, BucketPartial> merged = new HashMap<>(buckets);
            o.buckets.forEach((k, b) -> merged.merge(k, b, BucketPartial::merge));
            return new TermsPartial(terms, field.kind() == ValueKind.UNMAPPED ? o.field : field, merged);
        }

        @Override
        public JsonValue render() {
            List<Map.Entry<Object, BucketPartial>> all = new ArrayList<>();
            for (Map.Entry<Object, BucketPartial> e : buckets.entrySet()) {
                if (e.getValue().count() >= terms.minDocCount()) {
                    all.add(e);
                }
            }
            all.sort(order());
            long other = 0;
            List<JsonValue> rendered = new ArrayList<>();
            for (int i = 0; i < all.size(); i++) {
                Map.Entry<Object, BucketPartial> e = all.get(i);
                if (i >= terms.size()) {
                    other += e.getValue().count();
                    continue;
                }
                JsonObjectBuilder b = JsonObjectBuilder.object();
                Keys.put(b, e.getKey(), field);
                b.put("doc_count", e.getValue().count());
                e.getValue().subs().renderInto(b);
                rendered.add(b.build());
            }
            return JsonObjectBuilder.object().put("doc_count_error_upper_bound", 0)
                    .put("sum_other_doc_count", other).put("buckets", new JsonArray(rendered)).build();
        }

        private Comparator<Map.Entry<Object, BucketPartial>> order() {
            Comparator<Map.Entry<Object, BucketPartial>> byKey = (a, b) -> Keys.compare(a.getKey(), b.getKey());
            Aggregation.TermsOrder order = terms.order();
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

    static JsonValue number(Object key) {
        return new JsonNumber((Number) key);
    }
}
