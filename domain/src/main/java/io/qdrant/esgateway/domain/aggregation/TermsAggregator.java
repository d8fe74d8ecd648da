package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.Aggregation.Terms;
import io.qdrant.esgateway.domain.aggregation.FieldRef.ValueKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.time.DateFormat;
import java.math.RoundingMode;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * {@code terms}: every distinct value of the field becomes a bucket, counted once per document however often the
 * document holds it. Partials keep every bucket, so counts are exact: {@code doc_count_error_upper_bound} is 0 and
 * {@code sum_other_doc_count} is the true number of documents in the buckets not returned. Keys are Strings
 * (keyword), Longs (integral, date, boolean) or Doubles (double, float). {@code include}/{@code exclude} filter keys
 * as they are collected; {@code min_doc_count: 0} buckets come from the index's key universe
 * ({@link Partial#complete}).
 */
final class TermsAggregator {
    private TermsAggregator() {
    }

    /**
     * The field with the aggregation's {@code format}: a date pattern for dates, a {@link DecimalFormat} pattern for
     * numbers (rendered as {@code key_as_string}); keyword and boolean fields refuse one, as ES.
     */
    static FieldRef formatted(FieldRef field, Optional<String> format) {
        return formatted(field, format, Optional.empty());
    }

    /** As {@link #formatted(FieldRef, Optional)}, also checking {@code execution_hint} on a keyword field as ES. */
    static FieldRef formatted(FieldRef field, Optional<String> format, Optional<String> executionHint) {
        if (field.kind() == ValueKind.KEYWORD && executionHint.isPresent()
                && !executionHint.get().equals("map") && !executionHint.get().equals("global_ordinals")) {
            throw GatewayException.illegalArgument("Unknown `execution_hint`: [" + executionHint.get()
                    + "], expected any of [map, global_ordinals]");
        }
        if (format.isEmpty()) {
            return field;
        }
        return switch (field.kind()) {
            case KEYWORD, BOOLEAN -> throw GatewayException.illegalArgument("Field [" + field.name() + "] of type ["
                    + (field.kind() == ValueKind.KEYWORD ? "keyword" : "boolean")
                    + "] does not support custom formats");
            case DATE -> new FieldRef(field.name(), field.kind(), DateFormat.of(format.get()));
            case LONG, DOUBLE, FLOAT, UNMAPPED -> {
                try {
                    decimal(format.get());
                } catch (IllegalArgumentException e) {
                    throw GatewayException.illegalArgument("Invalid format: [" + format.get() + "]");
                }
                yield field;
            }
        };
    }

    static DecimalFormat decimal(String pattern) {
        DecimalFormat f = new DecimalFormat(pattern, DecimalFormatSymbols.getInstance(Locale.ROOT));
        f.setRoundingMode(RoundingMode.HALF_EVEN);
        return f;
    }

    /** Hands each distinct key of the document (or the {@code missing} key) that {@code accept} keeps to {@code out}. */
    static void keys(Terms terms, FieldRef field, Predicate<Object> accept, AggregationDoc doc, Consumer<Object> out,
                     LongSupplier now) {
        boolean none = switch (field.kind()) {
            case KEYWORD -> {
                String[] values = doc.keywords(field.name());
                for (int i = 0; i < values.length; i++) {
                    // sorted: a script's repeated value counts the document once, as a field's distinct values do
                    if ((i == 0 || !values[i].equals(values[i - 1])) && accept.test(values[i])) {
                        out.accept(values[i]);
                    }
                }
                yield values.length == 0;
            }
            case LONG, DATE, BOOLEAN -> {
                long[] values = doc.longs(field.name());
                for (int i = 0; i < values.length; i++) {
                    if ((i == 0 || values[i] != values[i - 1]) && accept.test(values[i])) {
                        out.accept(values[i]);
                    }
                }
                yield values.length == 0;
            }
            case DOUBLE, FLOAT -> {
                double[] values = doc.doubles(field.name());
                for (int i = 0; i < values.length; i++) {
                    if ((i == 0 || values[i] != values[i - 1]) && accept.test(values[i])) {
                        out.accept(values[i]);
                    }
                }
                yield values.length == 0;
            }
            case UNMAPPED -> true;
        };
        if (none && terms.missing().isPresent()) {
            Object key = Keys.missingKey(terms.missing().get(), field, now);
            if (accept.test(key)) {
                out.accept(key);
            }
        }
    }

    static Collector collector(Terms terms, FieldRef field, Predicate<Object> accept, Supplier<NamedCollectors> subs,
                               LongSupplier now) {
        return new Collector() {
            private final Map<Object, Bucket> buckets = new HashMap<>();

            @Override
            public void collect(AggregationDoc doc) {
                keys(terms, field, accept, doc, key -> {
                    Bucket b = buckets.computeIfAbsent(key, k -> new Bucket(subs.get()));
                    b.count++;
                    b.subs.collect(doc);
                }, now);
            }

            @Override
            public Partial partial() {
                Map<Object, BucketPartial> out = new HashMap<>();
                buckets.forEach((k, b) -> out.put(k, new BucketPartial(b.count, b.subs.partial())));
                return new TermsPartial(terms, field, out, subs);
            }
        };
    }

    /** Collects the keys of every document (the universe {@code min_doc_count: 0} adds as empty buckets). */
    static Collector keyCollector(Terms terms, FieldRef field, Predicate<Object> accept, LongSupplier now) {
        return new Collector() {
            private final Set<Object> keys = new HashSet<>();

            @Override
            public void collect(AggregationDoc doc) {
                keys(terms, field, accept, doc, keys::add, now);
            }

            @Override
            public Partial partial() {
                if (field.kind() == ValueKind.KEYWORD && terms.missing().isPresent()) {
                    // ES puts the missing value among a keyword field's terms whether or not a document lacks one
                    Object key = Keys.missingKey(terms.missing().get(), field, now);
                    if (accept.test(key)) {
                        keys.add(key);
                    }
                }
                return new KeySet(Set.copyOf(keys));
            }
        };
    }

    /** The keys found in some documents; merges by union. Internal: never rendered in a response. */
    record KeySet(Set<Object> keys) implements Partial {
        @Override
        public Partial merge(Partial other) {
            Set<Object> all = new HashSet<>(keys);
            all.addAll(((KeySet) other).keys);
            return new KeySet(Set.copyOf(all));
        }

        @Override
        public String typedName() {
            throw new IllegalStateException("a key universe is not an aggregation result");
        }

        @Override
        public JsonValue render(boolean typedKeys) {
            throw new IllegalStateException("a key universe is not an aggregation result");
        }
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

    /** {@code subs} makes the empty sub-aggregations of a bucket added by {@link #complete}. */
    record TermsPartial(Terms terms, FieldRef field, Map<Object, BucketPartial> buckets,
                        Supplier<NamedCollectors> subs) implements Partial {
        @Override
        public Partial merge(Partial other) {
            TermsPartial o = (TermsPartial) other;
            FieldRef f = field;
            TermsPartial mine = this;
            if (stringKeyed() && o.numericKeyed() || numericKeyed() && o.stringKeyed()) {
                // one field, mapped differently in two indices (an unmapped one with [missing] has string keys):
                // ES fails a string against a number (see docs/compatibility.md for its order-dependent case)
                throw new NamedPartials.MixedTypes();
            }
            if (field.kind() == ValueKind.UNMAPPED) {
                f = o.field;
            } else if (o.field.kind() != ValueKind.UNMAPPED && o.field.kind() != field.kind()) {
                // an integral against a floating-point field reduces as doubles
                if (floating(field) != floating(o.field)) {
                    f = floating(field) ? field : o.field;
                    mine = asDoubles();
                    o = o.asDoubles();
                }
            }
            Map<Object, BucketPartial> merged = new HashMap<>(mine.buckets);
            o.buckets.forEach((k, b) -> merged.merge(k, b, BucketPartial::merge));
            return new TermsPartial(terms, f, merged, subs);
        }

        private boolean stringKeyed() {
            return field.kind() == ValueKind.KEYWORD || field.kind() == ValueKind.UNMAPPED && !buckets.isEmpty();
        }

        private boolean numericKeyed() {
            return field.kind().numeric();
        }

        private static boolean floating(FieldRef f) {
            return f.kind() == ValueKind.DOUBLE || f.kind() == ValueKind.FLOAT;
        }

        /** The buckets with integral keys as doubles (merged when two keys meet). */
        private TermsPartial asDoubles() {
            Map<Object, BucketPartial> out = new HashMap<>();
            buckets.forEach((k, b) -> out.merge(k instanceof Long l ? (Object) l.doubleValue() : k, b,
                    BucketPartial::merge));
            return new TermsPartial(terms, field, out, subs);
        }

        @Override
        public Partial complete(KeyUniverse universe) {
            Map<Object, BucketPartial> out = new HashMap<>();
            buckets.forEach((k, b) -> out.put(k, new BucketPartial(b.count(), b.subs().complete(universe))));
            if (terms.minDocCount() == 0) {
                for (Object key : universe.keys(terms)) {
                    if (!out.containsKey(key)) {
                        out.put(key, new BucketPartial(0, subs.get().partial().complete(universe)));
                    }
                }
            }
            return new TermsPartial(terms, field, out, subs);
        }

        @Override
        public String typedName() {
            return switch (field.kind()) {
                // ES names its unmapped terms answer (no index maps the field) as a keyword one
                case KEYWORD, UNMAPPED -> "sterms";
                case LONG, DATE, BOOLEAN -> "lterms";
                case DOUBLE, FLOAT -> "dterms";
            };
        }

        @Override
        public JsonValue render(boolean typedKeys) {
            List<Map.Entry<Object, BucketPartial>> all = new ArrayList<>();
            for (Map.Entry<Object, BucketPartial> e : buckets.entrySet()) {
                if (e.getValue().count() >= terms.minDocCount()) {
                    all.add(e);
                }
            }
            all.sort(order(terms));
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
                if (terms.format().isPresent() && e.getKey() instanceof Number n && field.kind() != ValueKind.DATE) {
                    DecimalFormat f = decimal(terms.format().get());
                    b.put("key_as_string", n instanceof Long l ? f.format(l.longValue()) : f.format(n.doubleValue()));
                }
                b.put("doc_count", e.getValue().count());
                if (terms.showTermDocCountError()) {
                    b.put("doc_count_error_upper_bound", 0);
                }
                e.getValue().subs().renderInto(b, typedKeys);
                rendered.add(b.build());
            }
            return JsonObjectBuilder.object().put("doc_count_error_upper_bound", 0)
                    .put("sum_other_doc_count", other).put("buckets", new JsonArray(rendered)).build();
        }
    }

    /** The bucket order: the criteria in turn, then (unless one of them is the key) the key ascending, as ES. */
    static Comparator<Map.Entry<Object, BucketPartial>> order(Terms terms) {
        Comparator<Map.Entry<Object, BucketPartial>> byKey = (a, b) -> Keys.compare(a.getKey(), b.getKey());
        Comparator<Map.Entry<Object, BucketPartial>> all = null;
        boolean keyed = false;
        for (Aggregation.TermsOrder order : terms.order()) {
            Comparator<Map.Entry<Object, BucketPartial>> one = switch (order.key()) {
                case "_key" -> byKey;
                case "_count" -> Comparator.comparingLong(e -> e.getValue().count());
                default -> Comparator.comparingDouble(e -> e.getValue().subs().orderValue(order.key()));
            };
            keyed |= order.key().equals("_key");
            if (!order.ascending()) {
                one = one.reversed();
            }
            all = all == null ? one : all.thenComparing(one);
        }
        if (all == null) {
            all = Comparator.<Map.Entry<Object, BucketPartial>>comparingLong(e -> e.getValue().count()).reversed();
        }
        return keyed ? all : all.thenComparing(byKey);
    }

    static JsonValue number(Object key) {
        return new JsonNumber((Number) key);
    }
}
