package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.Aggregation.Metric;
import io.qdrant.esgateway.domain.aggregation.FieldRef.ValueKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNull;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import java.util.function.LongSupplier;

/**
 * {@code min}, {@code max}, {@code avg}, {@code sum} and {@code value_count}: one partial state (count, compensated
 * sum, min, max) for all of them, so that any of them merges exactly; the final value is computed only in
 * {@link Stats#render}.
 */
final class MetricAggregator {
    private MetricAggregator() {
    }

    static void validate(Metric metric, FieldRef field) {
        if (field.kind() == ValueKind.KEYWORD && metric.kind() != Aggregation.MetricKind.VALUE_COUNT) {
            throw GatewayException.illegalArgument("Field [" + field.name() + "] of type [keyword] is not supported"
                    + " for aggregation [" + metric.type() + "]");
        }
    }

    static Collector collector(Metric metric, FieldRef field, LongSupplier now) {
        validate(metric, field);
        // value_count only counts documents without a value; the others take the value in the field's number space
        boolean counting = metric.kind() == Aggregation.MetricKind.VALUE_COUNT;
        java.util.OptionalDouble missing = counting
                ? metric.missing().map(m -> java.util.OptionalDouble.of(1)).orElse(java.util.OptionalDouble.empty())
                : StatsAggregator.missing(metric.missing(), field, metric.type(), now);
        return new Collector() {
            private long count;
            private double sum;
            private double delta;
            private double min = Double.POSITIVE_INFINITY;
            private double max = Double.NEGATIVE_INFINITY;

            @Override
            public void collect(AggregationDoc doc) {
                if (field.kind() == ValueKind.UNMAPPED) {
                    missing.ifPresent(this::add);
                    return;
                }
                if (field.kind() == ValueKind.KEYWORD) {
                    int n = doc.keywords(field.name()).length;
                    count += n == 0 && missing.isPresent() ? 1 : n;
                    return;
                }
                double[] values = doc.doubles(field.name());
                if (values.length == 0) {
                    missing.ifPresent(this::add);
                    return;
                }
                for (double v : values) {
                    add(v);
                }
            }

            private void add(double v) {
                count++;
                if (Double.isFinite(sum) && Double.isFinite(v)) {
                    double corrected = v - delta;
                    double next = sum + corrected;
                    delta = (next - sum) - corrected;
                    sum = next;
                } else {
                    sum += v;
                }
                min = Math.min(min, v);
                max = Math.max(max, v);
            }

            @Override
            public Partial partial() {
                return new Stats(metric, field, count, new CompensatedSum(sum, delta), min, max);
            }
        };
    }

    /** The partial state of a single-value metric. */
    record Stats(Metric metric, FieldRef field, long count, CompensatedSum sum, double min, double max)
            implements Partial {
        @Override
        public Partial merge(Partial other) {
            Stats o = (Stats) other;
            FieldRef f = field.kind() == ValueKind.UNMAPPED ? o.field : field;
            return new Stats(metric, f, count + o.count, sum.merge(o.sum), Math.min(min, o.min), Math.max(max, o.max));
        }

        double value() {
            return switch (metric.kind()) {
                case MIN -> count == 0 ? Double.POSITIVE_INFINITY : min;
                case MAX -> count == 0 ? Double.NEGATIVE_INFINITY : max;
                case AVG -> count == 0 ? Double.NaN : sum.value() / count;
                case SUM -> sum.value();
                case VALUE_COUNT -> count;
            };
        }

        @Override
        public double orderValue(String key) {
            return value();
        }

        @Override
        public String typedName() {
            return metric.kind().esName();
        }

        @Override
        public JsonValue render(boolean typedKeys) {
            JsonObjectBuilder out = JsonObjectBuilder.object();
            if (metric.kind() == Aggregation.MetricKind.VALUE_COUNT) {
                return out.put("value", count).build();
            }
            double v = value();
            if (count == 0 && metric.kind() != Aggregation.MetricKind.SUM) {
                return out.put("value", JsonNull.INSTANCE).build();
            }
            out.put("value", new JsonNumber(v));
            if (metric.format().isPresent() && (field.kind().numeric() && field.kind() != ValueKind.BOOLEAN)) {
                // a custom format: a DecimalFormat pattern for numbers, a date pattern for dates
                out.put("value_as_string", field.kind() == ValueKind.DATE
                        ? io.qdrant.esgateway.domain.time.DateFormat.of(metric.format().get()).format((long) v)
                        : BucketValues.decimal(metric.format().get()).format(v));
            } else if (StatsAggregator.formats(field)) {
                // ES formats every one of them, the sum of dates too; a boolean field's as "true"/"false"
                out.put("value_as_string", StatsAggregator.formatted(field, v, true));
            }
            return out.build();
        }
    }
}
