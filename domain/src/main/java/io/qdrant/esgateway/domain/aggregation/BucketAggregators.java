package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.Aggregation.Filters;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The filter-like bucket aggregations: {@code filter}, {@code missing} and {@code global} (one bucket of the
 * documents a predicate keeps) and {@code filters} (one bucket per query, plus the optional other bucket). Partials
 * hold counts and the buckets' sub-aggregation partials, so they merge exactly.
 */
final class BucketAggregators {
    private BucketAggregators() {
    }

    /** Whether the document has no value for {@code field} (an unmapped field has none). */
    static boolean hasNoValue(AggregationDoc doc, FieldRef field) {
        return switch (field.kind()) {
            case KEYWORD -> doc.keywords(field.name()).length == 0;
            case LONG, DATE, BOOLEAN -> doc.longs(field.name()).length == 0;
            case DOUBLE, FLOAT -> doc.doubles(field.name()).length == 0;
            case UNMAPPED -> true;
        };
    }

    /** {@code type}: {@code filter}, {@code missing} or {@code global}. */
    static Collector single(String type, Predicate<AggregationDoc> keep, Supplier<NamedCollectors> subs) {
        NamedCollectors collectors = subs.get();
        return new Collector() {
            private long count;

            @Override
            public void collect(AggregationDoc doc) {
                if (keep.test(doc)) {
                    count++;
                    collectors.collect(doc);
                }
            }

            @Override
            public Partial partial() {
                return new SingleBucket(type, count, collectors.partial());
            }
        };
    }

    /**
     * The partial (and answer) of a single-bucket aggregation of {@code type} ({@code filter}, {@code missing},
     * {@code global}, or one bucket of {@code filters}): {@code {"doc_count": n, <subs>}}.
     */
    record SingleBucket(String type, long count, NamedPartials subs) implements Partial {
        @Override
        public Partial merge(Partial other) {
            SingleBucket o = (SingleBucket) other;
            return new SingleBucket(type, count + o.count, subs.merge(o.subs));
        }

        @Override
        public Partial complete(KeyUniverse universe) {
            return new SingleBucket(type, count, subs.complete(universe));
        }


        @Override
        public String typedName() {
            return type;
        }

        @Override
        public JsonValue render(boolean typedKeys) {
            JsonObjectBuilder b = JsonObjectBuilder.object().put("doc_count", count);
            subs.renderInto(b, typedKeys);
            return b.build();
        }

        @Override
        public double orderValue(String key) {
            if (key.startsWith(">")) {
                return subs.orderValue(key.substring(1));
            }
            return count;
        }
    }

    /** {@code filters}: {@code first} is the plan's number of the first query (the rest follow in order). */
    static Collector filters(Filters spec, int first, Supplier<NamedCollectors> subs) {
        int n = spec.queries().size();
        boolean other = spec.otherBucketKey().isPresent();
        List<NamedCollectors> buckets = new ArrayList<>();
        for (int i = 0; i < n + (other ? 1 : 0); i++) {
            buckets.add(subs.get());
        }
        return new Collector() {
            private final long[] counts = new long[buckets.size()];

            @Override
            public void collect(AggregationDoc doc) {
                boolean any = false;
                for (int i = 0; i < n; i++) {
                    if (doc.matches(first + i)) {
                        any = true;
                        counts[i]++;
                        buckets.get(i).collect(doc);
                    }
                }
                if (other && !any) {
                    counts[n]++;
                    buckets.get(n).collect(doc);
                }
            }

            @Override
            public Partial partial() {
                List<SingleBucket> out = new ArrayList<>();
                for (int i = 0; i < buckets.size(); i++) {
                    out.add(new SingleBucket("filters", counts[i], buckets.get(i).partial()));
                }
                return new FiltersPartial(spec, out);
            }
        };
    }

    record FiltersPartial(Filters spec, List<SingleBucket> buckets) implements Partial {
        public FiltersPartial {
            buckets = List.copyOf(buckets);
        }

        @Override
        public Partial merge(Partial other) {
            FiltersPartial o = (FiltersPartial) other;
            List<SingleBucket> out = new ArrayList<>();
            for (int i = 0; i < buckets.size(); i++) {
                out.add((SingleBucket) buckets.get(i).merge(o.buckets.get(i)));
            }
            return new FiltersPartial(spec, out);
        }

        @Override
        public Partial complete(KeyUniverse universe) {
            return new FiltersPartial(spec, buckets.stream().map(b -> (SingleBucket) b.complete(universe)).toList());
        }

        private String key(int i) {
            if (i == spec.queries().size()) {
                return spec.otherBucketKey().orElseThrow();
            }
            return spec.anonymous() ? Integer.toString(i) : spec.names().get(i);
        }


        @Override
        public String typedName() {
            return "filters";
        }

        @Override
        public JsonValue render(boolean typedKeys) {
            if (spec.keyed()) {
                JsonObjectBuilder keyed = JsonObjectBuilder.object();
                for (int i = 0; i < buckets.size(); i++) {
                    keyed.put(key(i), buckets.get(i).render(typedKeys));
                }
                return JsonObjectBuilder.object().put("buckets", keyed.build()).build();
            }
            List<JsonValue> list = new ArrayList<>();
            for (int i = 0; i < buckets.size(); i++) {
                JsonObjectBuilder b = JsonObjectBuilder.object();
                if (!spec.anonymous()) {
                    b.put("key", key(i));
                }
                b.put("doc_count", buckets.get(i).count());
                buckets.get(i).subs().renderInto(b, typedKeys);
                list.add(b.build());
            }
            return JsonObjectBuilder.object().put("buckets", new JsonArray(list)).build();
        }
    }
}
