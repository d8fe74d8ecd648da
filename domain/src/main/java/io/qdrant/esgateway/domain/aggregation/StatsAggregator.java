package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.Aggregation.Stats;
import io.qdrant.esgateway.domain.aggregation.FieldRef.ValueKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNull;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.LongSupplier;

/**
 * {@code stats} and {@code extended_stats}. The partial state is count, Kahan-compensated sum, compensated sum of
 * squares, min and max: all merge exactly (counts add, compensated sums add compensated, min/max compose), as
 * Elasticsearch's shard results reduce. The variances are computed only when rendering, with Elasticsearch's
 * formula {@code (sumOfSquares - sum * sum / count) / count} (or {@code count - 1} for the sampling variance), clamped
 * at 0.
 */
final class StatsAggregator {
    private StatsAggregator() {
    }

    static void validate(String type, FieldRef field) {
        if (field.kind() == ValueKind.KEYWORD) {
            throw GatewayException.illegalArgument("Field [" + field.name() + "] of type [keyword] is not supported"
                    + " for aggregation [" + type + "]");
        }
    }

    /** The value documents without one count as, in the field's number space (dates parsed with its format). */
    static OptionalDouble missing(Optional<JsonValue> missing, FieldRef field, String type, LongSupplier now) {
        if (missing.isEmpty()) {
            return OptionalDouble.empty();
        }
        if (field.kind() == ValueKind.LONG || field.kind() == ValueKind.DOUBLE || field.kind() == ValueKind.FLOAT
                || field.kind() == ValueKind.UNMAPPED) {
            // ES takes the number as a double whatever the field's type: 1.5 on a long field counts as 1.5
            String text = io.qdrant.esgateway.domain.json.JsonReads.text(missing.get()).orElse("");
            try {
                return OptionalDouble.of(Double.parseDouble(text.trim()));
            } catch (NumberFormatException e) {
                if (field.kind() == ValueKind.UNMAPPED) {
                    throw GatewayException.unsupported("a non-numeric [missing] in a [" + type + "] aggregation");
                }
                throw GatewayException.illegalArgument("failed to parse [missing] value [" + text + "] for field ["
                        + field.name() + "]");
            }
        }
        Object key = Keys.missingKey(missing.get(), field, now);
        if (!(key instanceof Number n)) {
            throw GatewayException.unsupported("a non-numeric [missing] in a [" + type + "] aggregation");
        }
        return OptionalDouble.of(n.doubleValue());
    }

    private static final java.util.List<String> STATS_NAMES = java.util.List.of("count", "min", "max", "avg", "sum");
    private static final java.util.List<String> EXTENDED_NAMES = java.util.List.of("count", "min", "max", "avg", "sum",
            "sum_of_squares", "variance", "variance_population", "variance_sampling", "std_deviation",
            "std_deviation_population", "std_deviation_sampling", "std_upper", "std_lower", "std_upper_population",
            "std_lower_population", "std_upper_sampling", "std_lower_sampling");

    /** The metric names a parent can order by ({@code stats_agg.max}), as Elasticsearch names them. */
    static java.util.List<String> metricNames(boolean extended) {
        return extended ? EXTENDED_NAMES : STATS_NAMES;
    }

    static Collector collector(Stats stats, FieldRef field, LongSupplier now) {
        validate(stats.type(), field);
        OptionalDouble missing = missing(stats.missing(), field, stats.type(), now);
        return new Collector() {
            private long count;
            private CompensatedSum sum = CompensatedSum.ZERO;
            private CompensatedSum squares = CompensatedSum.ZERO;
            private double min = Double.POSITIVE_INFINITY;
            private double max = Double.NEGATIVE_INFINITY;

            @Override
            public void collect(AggregationDoc doc) {
                double[] values = field.kind() == ValueKind.UNMAPPED ? new double[0] : doc.doubles(field.name());
                if (values.length == 0) {
                    if (missing.isPresent()) {
                        add(missing.getAsDouble());
                    }
                    return;
                }
                for (double v : values) {
                    add(v);
                }
            }

            private void add(double v) {
                count++;
                sum = sum.add(v);
                squares = squares.add(v * v);
                min = Math.min(min, v);
                max = Math.max(max, v);
            }

            @Override
            public Partial partial() {
                return new StatsPartial(stats, field, count, sum, squares, min, max);
            }
        };
    }

    record StatsPartial(Stats stats, FieldRef field, long count, CompensatedSum sum, CompensatedSum squares,
                        double min, double max) implements Partial {
        @Override
        public Partial merge(Partial other) {
            StatsPartial o = (StatsPartial) other;
            return new StatsPartial(stats, field.kind() == ValueKind.UNMAPPED ? o.field : field, count + o.count,
                    sum.merge(o.sum), squares.merge(o.squares), Math.min(min, o.min), Math.max(max, o.max));
        }

        double avg() {
            return sum.value() / count;
        }

        double variancePopulation() {
            double v = (squares.value() - sum.value() * sum.value() / count) / count;
            return v < 0 ? 0 : v;
        }

        double varianceSampling() {
            double v = (squares.value() - sum.value() * sum.value() / count) / (count - 1);
            return v < 0 ? 0 : v;
        }

        /** The named values as Elasticsearch orders them ({@code count} … {@code std_deviation_sampling}). */
        Map<String, Double> values() {
            Map<String, Double> out = new LinkedHashMap<>();
            out.put("count", (double) count);
            out.put("min", min);
            out.put("max", max);
            out.put("avg", avg());
            out.put("sum", sum.value());
            if (stats.extended()) {
                out.put("sum_of_squares", squares.value());
                out.put("variance", variancePopulation());
                out.put("variance_population", variancePopulation());
                out.put("variance_sampling", varianceSampling());
                out.put("std_deviation", Math.sqrt(variancePopulation()));
                out.put("std_deviation_population", Math.sqrt(variancePopulation()));
                out.put("std_deviation_sampling", Math.sqrt(varianceSampling()));
            }
            return out;
        }

        private Map<String, Double> bounds() {
            Map<String, Double> out = new LinkedHashMap<>();
            double sigma = stats.sigma();
            double pop = Math.sqrt(variancePopulation());
            double sam = Math.sqrt(varianceSampling());
            out.put("upper", avg() + sigma * pop);
            out.put("lower", avg() - sigma * pop);
            out.put("upper_population", avg() + sigma * pop);
            out.put("lower_population", avg() - sigma * pop);
            out.put("upper_sampling", avg() + sigma * sam);
            out.put("lower_sampling", avg() - sigma * sam);
            return out;
        }

        @Override
        public double orderValue(String key) {
            if (key.startsWith("std_upper") || key.startsWith("std_lower")) {
                Double b = stats.extended() ? bounds().get(key.substring("std_".length())) : null;
                if (b != null) {
                    return count == 0 ? Double.NaN : b;
                }
            }
            Double v = values().get(key);
            if (v == null) {
                throw GatewayException.illegalArgument("Unknown value key [" + key + "] for [" + stats.type()
                        + "] aggregation");
            }
            return count == 0 && !key.equals("count") && !key.equals("sum") ? Double.NaN : v;
        }

        @Override
        public String typedName() {
            return stats.type();
        }

        @Override
        public JsonValue render(boolean typedKeys) {
            JsonObjectBuilder out = JsonObjectBuilder.object();
            boolean empty = count == 0;
            boolean formatted = formats(field) && !empty;
            Map<String, Double> values = values();
            values.forEach((name, v) -> {
                if (name.equals("count")) {
                    out.put("count", count);
                } else if (name.equals("sum")) {
                    out.put("sum", number(v));
                    if (formatted) {
                        for (String s : new String[] {"min", "max", "avg", "sum"}) {
                            out.put(s + "_as_string", formatted(field, values.get(s), false));
                        }
                    }
                } else {
                    out.put(name, empty ? JsonNull.INSTANCE : number(v));
                }
            });
            if (!stats.extended()) {
                return out.build();
            }
            JsonObjectBuilder bounds = JsonObjectBuilder.object();
            bounds().forEach((name, v) -> bounds.put(name, empty ? JsonNull.INSTANCE : number(v)));
            out.put("std_deviation_bounds", bounds.build());
            if (formatted) {
                // ES writes the sum of squares and variances formatted as values (a boolean field: JSON booleans),
                // the standard deviations and their bounds as the formatted text
                values.forEach((name, v) -> {
                    if (name.startsWith("sum_of_squares") || name.startsWith("variance")) {
                        out.put(name + "_as_string", formatted(field, v, false));
                    } else if (name.startsWith("std_deviation")) {
                        out.put(name + "_as_string", formatted(field, v, true));
                    }
                });
                JsonObjectBuilder asString = JsonObjectBuilder.object();
                bounds().forEach((name, v) -> asString.put(name, formatted(field, v, true)));
                out.put("std_deviation_bounds_as_string", asString.build());
            }
            return out.build();
        }
    }

    /** Whether values of the field get {@code *_as_string} renderings (dates, booleans). */
    static boolean formats(FieldRef field) {
        return field.kind() == ValueKind.DATE || field.kind() == ValueKind.BOOLEAN;
    }

    /**
     * A value as Elasticsearch formats it for {@code *_as_string}: a date in the field's format; a boolean field's
     * value as {@code v != 0}, a JSON boolean unless {@code text} (ES writes some of these as the format's object,
     * some as its string).
     */
    static JsonValue formatted(FieldRef field, double v, boolean text) {
        if (field.kind() == ValueKind.BOOLEAN) {
            return text ? new JsonString(v != 0 ? "true" : "false") : new JsonValue.JsonBool(v != 0);
        }
        return new JsonString(field.format().format((long) v));
    }

    /** A double as Elasticsearch writes it: non-finite values as strings ("NaN", "Infinity"). */
    static JsonValue number(double v) {
        return Double.isFinite(v) ? new JsonNumber(v) : new JsonString(Double.toString(v));
    }
}
