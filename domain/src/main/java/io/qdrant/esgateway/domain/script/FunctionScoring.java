package io.qdrant.esgateway.domain.script;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.time.DateFormat;
import io.qdrant.esgateway.domain.time.DateMath;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.IntPredicate;
import java.util.function.LongSupplier;

/**
 * Elasticsearch's {@code function_score} arithmetic: the score functions ({@code script_score},
 * {@code field_value_factor}, {@code random_score}, the {@code gauss}/{@code linear}/{@code exp} decays, a bare
 * {@code weight}), each with its weight and filter, combined by {@code score_mode}, capped by {@code max_boost} and
 * combined with the query's score by {@code boost_mode}, as Elasticsearch 8's {@code FunctionScoreQuery} computes them
 * (doubles per function, the final score a float). A store evaluates it per document through {@link Bound#score},
 * telling which functions' filters match.
 */
public final class FunctionScoring {
    private FunctionScoring() {
    }

    /** One score function, as parsed (unbound to an index). */
    public sealed interface Fn {
    }

    /** {@code script_score}: a Painless score script's value. */
    public record ScriptFn(Script script, String source) implements Fn {
    }

    /** {@code field_value_factor}: {@code modifier(factor * value)}, {@code missing} when the document has none. */
    public record FieldValueFactor(String field, double factor, String modifier, Optional<Double> missing)
            implements Fn {
    }

    /** {@code random_score}: a value in [0, 1) from the seed and the field's first value (or the document). */
    public record RandomScore(int seed, Optional<String> field) implements Fn {
    }

    /** {@code gauss}, {@code linear} or {@code exp} on a numeric or date field. */
    public record Decay(String kind, String field, Optional<String> origin, String scale, Optional<String> offset,
                        double decay, String multiValueMode) implements Fn {
    }

    /** A function that is only a {@code weight}. */
    public record WeightOnly() implements Fn {
    }

    /** The modifiers of {@code field_value_factor}. */
    public static final List<String> MODIFIERS = List.of("none", "log", "log1p", "log2p", "ln", "ln1p", "ln2p",
            "square", "sqrt", "reciprocal");
    public static final List<String> SCORE_MODES = List.of("multiply", "sum", "avg", "first", "max", "min");
    public static final List<String> BOOST_MODES = List.of("multiply", "replace", "sum", "avg", "max", "min");

    /** Binds the functions to an index: compiles scripts, resolves fields and parses origins and scales. */
    public static Bound bind(List<Fn> functions, List<Float> weights, boolean filtered, String scoreMode,
                             String boostMode, float maxBoost, Mappings mappings, String index, LongSupplier now) {
        List<Evaluator> evaluators = new ArrayList<>();
        for (Fn fn : functions) {
            evaluators.add(evaluator(fn, mappings, index, now));
        }
        // one function without a filter is applied as is (no averaging by its weight), as in Elasticsearch
        String mode = functions.size() == 1 && !filtered ? "first" : scoreMode;
        float[] w = new float[weights.size()];
        for (int i = 0; i < w.length; i++) {
            w[i] = weights.get(i) == null ? Float.NaN : weights.get(i);
        }
        return new Bound(evaluators.toArray(Evaluator[]::new), w, mode, boostMode, maxBoost);
    }

    /**
     * Checks a function against an index's mapping as Elasticsearch does when it builds the query (fields, origins,
     * scales); scripts are compiled when the query runs.
     */
    public static void check(Fn fn, Mappings mappings) {
        if (!(fn instanceof ScriptFn)) {
            // any instant: the check reads the origin's shape, not its value
            evaluator(fn, mappings, "", () -> 0L);
        }
    }

    /** A function bound to an index. */
    private interface Evaluator {
        double score(DocReader doc, float subScore);
    }

    /** The functions of one {@code function_score}, bound to one index. */
    public static final class Bound {
        private final Evaluator[] functions;
        private final float[] weights;
        private final String scoreMode;
        private final String boostMode;
        private final float maxBoost;

        private Bound(Evaluator[] functions, float[] weights, String scoreMode, String boostMode, float maxBoost) {
            this.functions = functions;
            this.weights = weights;
            this.scoreMode = scoreMode;
            this.boostMode = boostMode;
            this.maxBoost = maxBoost;
        }

        /** Whether the query's own score is needed ({@code boost_mode: replace} ignores it, as in Elasticsearch). */
        public boolean needsSubScore() {
            return !boostMode.equals("replace");
        }

        /**
         * The final score of a document whose query scored {@code subScore}; {@code matches} tells whether the
         * filter of function {@code i} matches it. Fails as Elasticsearch does on a negative or NaN score.
         */
        public float score(DocReader doc, float subScore, IntPredicate matches, int docId) {
            double factor = factor(doc, subScore, matches);
            double capped = Math.min(factor, maxBoost);
            float result = switch (boostMode) {
                case "replace" -> (float) capped;
                case "sum" -> (float) (subScore + capped);
                case "avg" -> (float) ((capped + subScore) / 2.0);
                case "min" -> (float) Math.min(subScore, capped);
                case "max" -> (float) Math.max(subScore, capped);
                default -> (float) (subScore * capped);
            };
            if (result < 0f || Float.isNaN(result)) {
                throw GatewayException.illegalArgument("function score query returned an invalid score: " + result
                        + " for doc: " + docId);
            }
            return result;
        }

        private double one(int i, DocReader doc, float subScore) {
            double v = functions[i].score(doc, subScore);
            return Float.isNaN(weights[i]) ? v : v * weights[i];
        }

        private double weight(int i) {
            return Float.isNaN(weights[i]) ? 1.0 : weights[i];
        }

        private double factor(DocReader doc, float subScore, IntPredicate matches) {
            int n = functions.length;
            switch (scoreMode) {
                case "first" -> {
                    for (int i = 0; i < n; i++) {
                        if (matches.test(i)) {
                            return one(i, doc, subScore);
                        }
                    }
                    return 1.0;
                }
                case "max" -> {
                    double max = Double.NEGATIVE_INFINITY;
                    for (int i = 0; i < n; i++) {
                        if (matches.test(i)) {
                            max = Math.max(one(i, doc, subScore), max);
                        }
                    }
                    return max == Double.NEGATIVE_INFINITY ? 1.0 : max;
                }
                case "min" -> {
                    double min = Double.POSITIVE_INFINITY;
                    for (int i = 0; i < n; i++) {
                        if (matches.test(i)) {
                            min = Math.min(one(i, doc, subScore), min);
                        }
                    }
                    return min == Double.POSITIVE_INFINITY ? 1.0 : min;
                }
                case "multiply" -> {
                    double f = 1.0;
                    for (int i = 0; i < n; i++) {
                        if (matches.test(i)) {
                            f *= one(i, doc, subScore);
                        }
                    }
                    return f;
                }
                default -> {
                    double total = 0;
                    double weightSum = 0;
                    for (int i = 0; i < n; i++) {
                        if (matches.test(i)) {
                            total += one(i, doc, subScore);
                            weightSum += weight(i);
                        }
                    }
                    if (weightSum == 0) {
                        return 1.0;
                    }
                    return scoreMode.equals("avg") ? total / weightSum : total;
                }
            }
        }
    }

    // ---------------------------------------------------------------- the functions

    private static Evaluator evaluator(Fn fn, Mappings mappings, String index, LongSupplier now) {
        return switch (fn) {
            case WeightOnly w -> (doc, sub) -> 1.0;
            case ScriptFn s -> {
                ScoreScript script = ScoreScript.compile(s.source(), s.script(), mappings, index);
                yield (doc, sub) -> {
                    double v = script.score(doc, sub);
                    if (v < 0) {
                        throw GatewayException.illegalArgument("script score function must not produce negative"
                                + " scores, but got: [" + v + "]");
                    }
                    return v;
                };
            }
            case FieldValueFactor f -> fieldValueFactor(f, mappings);
            case RandomScore r -> random(r, mappings);
            case Decay d -> decay(d, mappings, now);
        };
    }

    private static Evaluator fieldValueFactor(FieldValueFactor f, Mappings mappings) {
        Optional<FieldMapping> mapping = mappings.field(f.field());
        if (mapping.isEmpty() && f.missing().isEmpty()) {
            throw GatewayException.scriptCause("exception", "Unable to find a field mapper for field [" + f.field()
                    + "]. No 'missing' value defined.");
        }
        Values values = mapping.isEmpty() ? doc -> new double[0] : numericValues(f.field(), mapping.get(),
                "field_value_factor");
        return (doc, sub) -> {
            double[] v = values.of(doc);
            double value;
            if (v.length > 0) {
                value = v[0];
            } else if (f.missing().isPresent()) {
                value = f.missing().get();
            } else {
                throw GatewayException.scriptCause("exception", "Missing value for field [" + f.field() + "]");
            }
            double val = value * f.factor();
            double result = switch (f.modifier()) {
                case "log" -> Math.log10(val);
                case "log1p" -> Math.log10(val + 1);
                case "log2p" -> Math.log10(val + 2);
                case "ln" -> Math.log(val);
                case "ln1p" -> Math.log1p(val);
                case "ln2p" -> Math.log1p(val + 1);
                case "square" -> Math.pow(val, 2);
                case "sqrt" -> Math.sqrt(val);
                case "reciprocal" -> 1.0 / val;
                default -> val;
            };
            if (result < 0 || Double.isNaN(result) || Double.isInfinite(result)) {
                throw GatewayException.illegalArgument("field value function must not produce negative scores, but"
                        + " got: [" + result + "] for field value: [" + value + "]"
                        + (f.modifier().equals("log") || f.modifier().equals("ln") ? "; consider using " + f.modifier()
                        + "1p or " + f.modifier() + "2p instead of " + f.modifier() + " to avoid negative scores" : ""));
            }
            return result;
        };
    }

    /** A document's numeric values of a field, ascending. */
    private interface Values {
        double[] of(DocReader doc);
    }

    private static Values numericValues(String field, FieldMapping mapping, String what) {
        return switch (mapping) {
            case FieldMapping.NumberField n when n.numberType().isIntegral() -> doc -> toDoubles(doc.longs(field));
            case FieldMapping.NumberField n -> doc -> doc.doubles(field);
            case FieldMapping.DateField d -> doc -> toDoubles(doc.longs(field));
            case FieldMapping.BooleanField b -> doc -> toDoubles(doc.longs(field));
            default -> throw GatewayException.illegalArgument("field [" + field + "] of type [" + mapping.type()
                    + "] is not supported for [" + what + "]: only numeric and date fields are");
        };
    }

    private static double[] toDoubles(long[] values) {
        double[] out = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = values[i];
        }
        return out;
    }

    private static Evaluator random(RandomScore r, Mappings mappings) {
        if (r.field().isEmpty()) {
            return (doc, sub) -> unit(ScoreFunctions.murmur3(Integer.toString(doc.docId())
                    .getBytes(StandardCharsets.UTF_8), r.seed()));
        }
        String field = r.field().get();
        FieldMapping mapping = mappings.field(field).orElseThrow(() -> GatewayException.illegalArgument(
                "No field found for [" + field + "] in mapping"));
        java.util.function.Function<DocReader, String> first = switch (mapping) {
            case FieldMapping.KeywordField k -> doc -> {
                List<String> v = doc.keywords(field);
                return v.isEmpty() ? null : v.get(0);
            };
            case FieldMapping.NumberField n when n.numberType().isIntegral() -> doc -> {
                long[] v = doc.longs(field);
                return v.length == 0 ? null : Long.toString(v[0]);
            };
            case FieldMapping.NumberField n -> doc -> {
                double[] v = doc.doubles(field);
                return v.length == 0 ? null : Double.toString(v[0]);
            };
            case FieldMapping.DateField d -> doc -> {
                long[] v = doc.longs(field);
                return v.length == 0 ? null : Long.toString(v[0]);
            };
            default -> throw GatewayException.illegalArgument("field [" + field + "] of type ["
                    + mapping.type() + "] is not supported for [random_score]");
        };
        return (doc, sub) -> {
            String v = first.apply(doc);
            return v == null ? unit(r.seed()) : unit(ScoreFunctions.murmur3(v.getBytes(StandardCharsets.UTF_8),
                    r.seed()));
        };
    }

    private static double unit(int hash) {
        return (hash & 0x00FFFFFF) / (float) (1 << 24);
    }

    private static Evaluator decay(Decay d, Mappings mappings, LongSupplier now) {
        String field = d.field();
        FieldMapping mapping = mappings.field(field).orElseThrow(() -> GatewayException.illegalArgument(
                "unknown field [" + field + "]"));
        double origin;
        double scale;
        double offset;
        Values values;
        switch (mapping) {
            case FieldMapping.DateField date -> {
                DateFormat format = DateFormat.of(date.format().orElse(DateFormat.DEFAULT_PATTERN));
                origin = DateMath.parse(d.origin().orElse("now"), format, ZoneOffset.UTC, false, now);
                scale = timeMillis(d.scale(), "scale");
                offset = d.offset().map(o -> timeMillis(o, "offset")).orElse(0.0);
                values = doc -> toDoubles(doc.longs(field));
            }
            case FieldMapping.NumberField n -> {
                origin = number(d.origin().orElseThrow(() -> GatewayException.illegalArgument(
                        "[origin] must be set for numeric fields")), "origin");
                scale = number(d.scale(), "scale");
                offset = d.offset().map(o -> number(o, "offset")).orElse(0.0);
                values = numericValues(field, n, d.kind());
            }
            default -> throw GatewayException.illegalArgument("field [" + field + "] is of type ["
                    + mapping.type() + "], but only numeric types are supported.");
        }
        if (!(scale > 0)) {
            throw GatewayException.illegalArgument("[scale] must be greater than 0.");
        }
        if (!(d.decay() > 0 && d.decay() < 1)) {
            throw GatewayException.illegalArgument("[decay] must be in the range (0..1).");
        }
        double decay = d.decay();
        double processed = switch (d.kind()) {
            case "linear" -> scale / (1.0 - decay);
            case "exp" -> Math.log(decay) / scale;
            default -> 0.5 * Math.pow(scale, 2.0) / Math.log(decay);
        };
        String mode = d.multiValueMode();
        return (doc, sub) -> {
            double[] v = values.of(doc);
            if (v.length == 0) {
                return 1.0;
            }
            double distance = switch (mode) {
                case "max" -> Double.NEGATIVE_INFINITY;
                case "min" -> Double.POSITIVE_INFINITY;
                default -> 0;
            };
            for (double x : v) {
                double dist = Math.max(0.0d, Math.abs(x - origin) - offset);
                distance = switch (mode) {
                    case "max" -> Math.max(distance, dist);
                    case "min" -> Math.min(distance, dist);
                    default -> distance + dist;
                };
            }
            if (mode.equals("avg")) {
                distance /= v.length;
            }
            return switch (d.kind()) {
                case "linear" -> Math.max(0.0, (processed - distance) / processed);
                case "exp" -> Math.exp(processed * distance);
                default -> Math.exp(0.5 * Math.pow(distance, 2.0) / processed);
            };
        };
    }

    private static double number(String text, String what) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw GatewayException.illegalArgument("[" + what + "] of a numeric decay must be a number, got ["
                    + text + "]");
        }
    }

    /** An Elasticsearch time value ({@code 12h}, {@code 2d}, {@code 500ms}) in milliseconds. */
    private static double timeMillis(String text, String what) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        String[][] units = {{"nanos", "0.000001"}, {"micros", "0.001"}, {"ms", "1"}, {"s", "1000"}, {"m", "60000"},
            {"h", "3600000"}, {"d", "86400000"}};
        for (String[] u : units) {
            if (t.endsWith(u[0])) {
                String number = t.substring(0, t.length() - u[0].length()).trim();
                try {
                    return Long.parseLong(number) * Double.parseDouble(u[1]);
                } catch (NumberFormatException e) {
                    break;
                }
            }
        }
        throw GatewayException.parse("failed to parse setting [" + what + "] with value [" + text
                + "] as a time value: unit is missing or unrecognized");
    }
}
