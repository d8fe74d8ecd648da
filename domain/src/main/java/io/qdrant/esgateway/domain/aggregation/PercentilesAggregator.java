package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.Aggregation.Percentiles;
import io.qdrant.esgateway.domain.aggregation.FieldRef.ValueKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNull;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.LongSupplier;

/**
 * {@code percentiles}, computed exactly: the partial keeps every value (partials merge by concatenation) and the
 * final reduce sorts them and interpolates linearly between the two closest ranks, at rank {@code p / 100 * (n - 1)}
 * (Hyndman–Fan type 7). Elasticsearch 8.15's default t-digest ({@code HybridDigest}) keeps all values of small inputs
 * and answers exactly this (checked against the oracle up to 1000 values); for larger inputs it switches to a merging
 * t-digest whose answers are approximations, so results then differ from the gateway's exact ones.
 */
final class PercentilesAggregator {
    private static final double[] NONE = new double[0];

    private PercentilesAggregator() {
    }

    static Collector collector(Percentiles percentiles, FieldRef field, LongSupplier now) {
        StatsAggregator.validate(percentiles.type(), field);
        OptionalDouble missing = StatsAggregator.missing(percentiles.missing(), field, percentiles.type(), now);
        return new Collector() {
            private double[] values = NONE;
            private int size;

            @Override
            public void collect(AggregationDoc doc) {
                double[] v = field.kind() == ValueKind.UNMAPPED ? NONE : doc.doubles(field.name());
                if (v.length == 0) {
                    if (missing.isPresent()) {
                        add(missing.getAsDouble());
                    }
                    return;
                }
                for (double x : v) {
                    add(x);
                }
            }

            private void add(double v) {
                if (size == values.length) {
                    values = Arrays.copyOf(values, Math.max(8, size * 2));
                }
                values[size++] = v;
            }

            @Override
            public Partial partial() {
                return new PercentilesPartial(percentiles, field, Arrays.copyOf(values, size));
            }
        };
    }

    /** All values of the partition, in no particular order (the array is never changed). */
    record PercentilesPartial(Percentiles percentiles, FieldRef field, double[] values) implements Partial {
        @Override
        public Partial merge(Partial other) {
            PercentilesPartial o = (PercentilesPartial) other;
            double[] all = Arrays.copyOf(values, values.length + o.values.length);
            System.arraycopy(o.values, 0, all, values.length, o.values.length);
            return new PercentilesPartial(percentiles, field.kind() == ValueKind.UNMAPPED ? o.field : field, all);
        }

        private double[] sorted() {
            double[] s = values.clone();
            Arrays.sort(s);
            return s;
        }

        /** The {@code percent}th percentile of sorted values (NaN when there are none). */
        static double percentile(double[] sorted, double percent) {
            if (sorted.length == 0) {
                return Double.NaN;
            }
            double rank = percent / 100 * (sorted.length - 1);
            int low = (int) Math.floor(rank);
            int high = Math.min(low + 1, sorted.length - 1);
            double fraction = rank - low;
            return sorted[low] + fraction * (sorted[high] - sorted[low]);
        }

        @Override
        public double orderValue(String key) {
            double percent;
            try {
                percent = Double.parseDouble(key);
            } catch (NumberFormatException e) {
                throw GatewayException.illegalArgument("Invalid percentile [" + key + "]");
            }
            return percentile(sorted(), percent);
        }

        @Override
        public String typedName() {
            return "tdigest_percentiles";
        }

        @Override
        public JsonValue render(boolean typedKeys) {
            double[] sorted = sorted();
            boolean formatted = StatsAggregator.formats(field) && sorted.length > 0;
            if (percentiles.keyed()) {
                JsonObjectBuilder out = JsonObjectBuilder.object();
                for (double p : percentiles.percents()) {
                    double v = percentile(sorted, p);
                    String key = Double.toString(p);
                    out.put(key, sorted.length == 0 ? JsonNull.INSTANCE : StatsAggregator.number(v));
                    if (formatted) {
                        out.put(key + "_as_string", StatsAggregator.formatted(field, v, true));
                    }
                }
                return JsonObjectBuilder.object().put("values", out.build()).build();
            }
            List<JsonValue> out = new ArrayList<>();
            for (double p : percentiles.percents()) {
                double v = percentile(sorted, p);
                JsonObjectBuilder entry = JsonObjectBuilder.object().put("key", new JsonNumber(p))
                        .put("value", sorted.length == 0 ? JsonNull.INSTANCE : StatsAggregator.number(v));
                if (formatted) {
                    entry.put("value_as_string", StatsAggregator.formatted(field, v, true));
                }
                out.add(entry.build());
            }
            return JsonObjectBuilder.object().put("values", new JsonArray(out)).build();
        }
    }
}
