package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.Aggregation.Cardinality;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * {@code cardinality}, counted exactly: the partial keeps every distinct value (Strings for keyword fields, Longs for
 * integral, date and boolean fields, Doubles for floating-point ones), and partials merge by set union.
 * Elasticsearch's HyperLogLog++ counts exactly too while a shard's distinct values stay below its precision
 * threshold (3000 by default), so both agree at those sizes; above it ES estimates and the gateway does not.
 * A long {@code 1} and a double {@code 1.0} (one field mapped differently in two indices) are two values, as ES
 * hashes them differently.
 */
final class CardinalityAggregator {
    private CardinalityAggregator() {
    }

    static Collector collector(Cardinality cardinality, FieldRef field, LongSupplier now) {
        Object missing = cardinality.missing().map(m -> missingValue(m, field, now)).orElse(null);
        return new Collector() {
            private final Set<Object> values = new HashSet<>();

            @Override
            public void collect(AggregationDoc doc) {
                boolean any = switch (field.kind()) {
                    case KEYWORD -> {
                        String[] v = doc.keywords(field.name());
                        Collections.addAll(values, v);
                        yield v.length > 0;
                    }
                    case LONG, DATE, BOOLEAN -> {
                        long[] v = doc.longs(field.name());
                        for (long x : v) {
                            values.add(x);
                        }
                        yield v.length > 0;
                    }
                    case DOUBLE, FLOAT -> {
                        double[] v = doc.doubles(field.name());
                        for (double x : v) {
                            values.add(x);
                        }
                        yield v.length > 0;
                    }
                    case UNMAPPED -> false;
                };
                if (!any && missing != null) {
                    values.add(missing);
                }
            }

            @Override
            public Partial partial() {
                return new CardinalityPartial(Set.copyOf(values));
            }
        };
    }

    /** A fractional missing value on an integral field stays a distinct double (ES counts 1.5 apart from 1 and 2). */
    private static Object missingValue(JsonValue missing, FieldRef field, LongSupplier now) {
        if (field.kind() == FieldRef.ValueKind.LONG && missing instanceof JsonValue.JsonNumber n && !n.isIntegral()) {
            double d = n.value().doubleValue();
            return d == Math.rint(d) && !Double.isInfinite(d) ? (Object) (long) d : (Object) d;
        }
        return Keys.missingKey(missing, field, now);
    }

    record CardinalityPartial(Set<Object> values) implements Partial {
        @Override
        public Partial merge(Partial other) {
            CardinalityPartial o = (CardinalityPartial) other;
            Set<Object> union = new HashSet<>(values);
            union.addAll(o.values);
            return new CardinalityPartial(Collections.unmodifiableSet(union));
        }

        @Override
        public double orderValue(String key) {
            return values.size();
        }

        @Override
        public String typedName() {
            return "cardinality";
        }

        @Override
        public JsonValue render(boolean typedKeys) {
            return JsonObjectBuilder.object().put("value", values.size()).build();
        }
    }
}
