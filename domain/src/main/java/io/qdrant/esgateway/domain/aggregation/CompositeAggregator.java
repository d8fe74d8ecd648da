package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.CompositeAggregation.Source;
import io.qdrant.esgateway.domain.aggregation.FieldRef.ValueKind;
import io.qdrant.esgateway.domain.aggregation.TermsAggregator.BucketPartial;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonBool;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNull;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import io.qdrant.esgateway.domain.time.DateFormat;
import io.qdrant.esgateway.domain.time.DateMath;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * {@code composite}: every combination of the sources' values a document holds is a bucket (counted once per
 * document), keyed by a list of per-source values ({@code null} for a missing value with {@code missing_bucket}).
 * Partials keep every bucket; the final reduce sorts them by the sources' orders (a missing value first in ascending
 * order, last in descending, or as {@code missing_order} says), skips those up to {@code after} and returns
 * {@code size}.
 */
final class CompositeAggregator {
    private CompositeAggregator() {
    }

    /** A source resolved against an index: its field and how its keys are rendered. */
    record Resolved(Source source, FieldRef field) {
        Object[] values(AggregationDoc doc) {
            ValueKind kind = field.kind();
            switch (source.kind()) {
                case TERMS -> {
                    return switch (kind) {
                        case KEYWORD -> doc.keywords(field.name()).clone();
                        case LONG, DATE, BOOLEAN -> distinct(Arrays.stream(doc.longs(field.name())).boxed()
                                .toArray());
                        case DOUBLE, FLOAT -> distinct(Arrays.stream(doc.doubles(field.name())).boxed().toArray());
                        case UNMAPPED -> new Object[0];
                    };
                }
                case HISTOGRAM -> {
                    double[] values = BucketValues.doubles(doc, field);
                    Object[] keys = new Object[values.length];
                    for (int i = 0; i < values.length; i++) {
                        keys[i] = Math.floor(values[i] / source.interval()) * source.interval();
                    }
                    return distinct(keys);
                }
                default -> {
                    long[] values = kind == ValueKind.UNMAPPED ? new long[0] : doc.longs(field.name());
                    Object[] keys = new Object[values.length];
                    for (int i = 0; i < values.length; i++) {
                        keys[i] = source.rounding().round(values[i]);
                    }
                    return distinct(keys);
                }
            }
        }

        JsonValue render(Object key) {
            if (key == null) {
                return JsonNull.INSTANCE;
            }
            if (key instanceof String s) {
                return new JsonString(s);
            }
            if (source.kind() == CompositeAggregation.SourceKind.DATE_HISTOGRAM && source.format().isPresent()) {
                return new JsonString(DateFormat.of(source.format().get())
                        .format(Instant.ofEpochMilli((Long) key), source.rounding().zone()));
            }
            if (source.kind() == CompositeAggregation.SourceKind.TERMS && field.kind() == ValueKind.BOOLEAN) {
                return new JsonBool((Long) key != 0);
            }
            return new JsonNumber((Number) key);
        }

        /** An {@code after} value in this source's key type. */
        Object parseAfter(JsonValue v, LongSupplier now) {
            if (v instanceof JsonNull) {
                if (!source.missingBucket()) {
                    throw GatewayException.illegalArgument("Invalid value for [after." + source.name()
                            + "], expected comparable, got [null]");
                }
                return null;
            }
            String text = JsonReads.text(v).orElseThrow(() -> GatewayException.illegalArgument(
                    "Invalid value for [after." + source.name() + "]"));
            try {
                return switch (source.kind()) {
                    case HISTOGRAM -> Double.parseDouble(text.trim());
                    case DATE_HISTOGRAM -> v instanceof JsonNumber n ? (Object) n.value().longValue()
                            : (Object) DateMath.parse(text, source.format().map(DateFormat::of)
                                    .orElse(field.format()), source.rounding().zone(), false, now);
                    case TERMS -> switch (field.kind()) {
                        case KEYWORD, UNMAPPED -> text;
                        case LONG -> v instanceof JsonNumber n ? (Object) n.value().longValue()
                                : (Object) Long.parseLong(text.trim());
                        case DOUBLE, FLOAT -> Double.parseDouble(text.trim());
                        case DATE -> v instanceof JsonNumber n ? (Object) n.value().longValue()
                                : (Object) field.format().parseMillis(text);
                        case BOOLEAN -> Boolean.parseBoolean(text.trim()) ? 1L : 0L;
                    };
                };
            } catch (NumberFormatException e) {
                throw GatewayException.illegalArgument("For input string: \"" + text + "\"");
            }
        }
    }

    private static Object[] distinct(Object[] sorted) {
        int n = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (i == 0 || !sorted[i].equals(sorted[n - 1])) {
                sorted[n++] = sorted[i];
            }
        }
        return n == sorted.length ? sorted : Arrays.copyOf(sorted, n);
    }

    /** The checks Elasticsearch makes per shard. */
    static void validate(Source source, FieldRef field) {
        if (!source.missingBucket() && !source.missingOrder().equals("default")) {
            throw GatewayException.illegalArgument("missingOrder can only be set if missingBucket is true");
        }
        if (source.kind() != CompositeAggregation.SourceKind.TERMS && field.kind() == ValueKind.KEYWORD) {
            throw GatewayException.illegalArgument("Field [" + field.name() + "] of type [keyword] is not supported"
                    + " for aggregation [" + source.kind().esName() + "]");
        }
    }

    /** The {@code after} key in the sources' key types ({@code null}: from the start), checked per index. */
    static List<Object> after(CompositeAggregation agg, List<Resolved> sources, LongSupplier now) {
        if (agg.after().isEmpty()) {
            return null;
        }
        Map<String, JsonValue> values = agg.after().get();
        List<Object> after = new ArrayList<>();
        for (Resolved s : sources) {
            if (!values.containsKey(s.source().name())) {
                throw GatewayException.illegalArgument("Missing value for [after." + s.source().name() + "]");
            }
            after.add(s.parseAfter(values.get(s.source().name()), now));
        }
        if (values.size() != sources.size()) {
            throw GatewayException.illegalArgument("[after] has " + values.size() + " value(s) but [sources] has "
                    + sources.size());
        }
        return after;
    }

    static Collector collector(CompositeAggregation agg, List<Resolved> sources, List<Object> after,
                               Supplier<NamedCollectors> subs) {
        return new Collector() {
            private final Map<List<Object>, Bucket> buckets = new HashMap<>();
            private final Object[][] values = new Object[sources.size()][];
            private final Object[] key = new Object[sources.size()];

            @Override
            public void collect(AggregationDoc doc) {
                for (int i = 0; i < sources.size(); i++) {
                    Object[] v = sources.get(i).values(doc);
                    if (v.length == 0) {
                        if (!sources.get(i).source().missingBucket()) {
                            return;
                        }
                        v = new Object[] {null};
                    }
                    values[i] = v;
                }
                combine(0, doc);
            }

            private void combine(int source, AggregationDoc doc) {
                if (source == sources.size()) {
                    Bucket b = buckets.computeIfAbsent(Arrays.asList(key.clone()), k -> new Bucket(subs.get()));
                    b.count++;
                    b.subs.collect(doc);
                    return;
                }
                for (Object v : values[source]) {
                    key[source] = v;
                    combine(source + 1, doc);
                }
            }

            @Override
            public Partial partial() {
                Map<List<Object>, BucketPartial> out = new HashMap<>();
                buckets.forEach((k, b) -> out.put(k, new BucketPartial(b.count, b.subs.partial())));
                return new CompositePartial(agg, sources, after, out);
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

    /** Every bucket; {@code sources} and {@code after} as resolved by a mapped index when there is one. */
    record CompositePartial(CompositeAggregation agg, List<Resolved> sources, List<Object> after,
                            Map<List<Object>, BucketPartial> buckets) implements Partial {
        @Override
        public Partial merge(Partial other) {
            CompositePartial o = (CompositePartial) other;
            Map<List<Object>, BucketPartial> merged = new HashMap<>(buckets);
            o.buckets.forEach((k, b) -> merged.merge(k, b, BucketPartial::merge));
            CompositePartial base = this;
            for (Resolved r : sources) {
                if (r.field().kind() == ValueKind.UNMAPPED) {
                    base = o;
                    break;
                }
            }
            return new CompositePartial(agg, base.sources, base.after, merged);
        }

        @Override
        public Partial complete(KeyUniverse universe) {
            Map<List<Object>, BucketPartial> out = new HashMap<>();
            buckets.forEach((k, b) -> out.put(k, new BucketPartial(b.count(), b.subs().complete(universe))));
            return new CompositePartial(agg, sources, after, out);
        }

        private Comparator<List<Object>> order() {
            return (a, b) -> {
                for (int i = 0; i < sources.size(); i++) {
                    Source source = sources.get(i).source();
                    Object x = a.get(i);
                    Object y = b.get(i);
                    int c;
                    if (x == null || y == null) {
                        // the missing bucket's place does not depend on the direction: missing_order
                        c = x == y ? 0 : (x == null) == source.missingFirst() ? -1 : 1;
                    } else {
                        c = Keys.compare(x, y);
                        if (!source.ascending()) {
                            c = -c;
                        }
                    }
                    if (c != 0) {
                        return c;
                    }
                }
                return 0;
            };
        }

        @Override
        public String typedName() {
            return "composite";
        }

        @Override
        public JsonValue render(boolean typedKeys) {
            Comparator<List<Object>> order = order();
            List<Map.Entry<List<Object>, BucketPartial>> all = new ArrayList<>();
            for (Map.Entry<List<Object>, BucketPartial> e : buckets.entrySet()) {
                if (after == null || order.compare(e.getKey(), after) > 0) {
                    all.add(e);
                }
            }
            all.sort((a, b) -> order.compare(a.getKey(), b.getKey()));
            List<JsonValue> list = new ArrayList<>();
            JsonValue afterKey = null;
            for (int i = 0; i < all.size() && i < agg.size(); i++) {
                Map.Entry<List<Object>, BucketPartial> e = all.get(i);
                JsonObjectBuilder key = JsonObjectBuilder.object();
                for (int s = 0; s < sources.size(); s++) {
                    key.put(sources.get(s).source().name(), sources.get(s).render(e.getKey().get(s)));
                }
                afterKey = key.build();
                JsonObjectBuilder b = JsonObjectBuilder.object().put("key", afterKey)
                        .put("doc_count", e.getValue().count());
                e.getValue().subs().renderInto(b, typedKeys);
                list.add(b.build());
            }
            JsonObjectBuilder out = JsonObjectBuilder.object();
            if (afterKey != null) {
                out.put("after_key", afterKey);
            }
            return out.put("buckets", new JsonArray(list)).build();
        }
    }
}
