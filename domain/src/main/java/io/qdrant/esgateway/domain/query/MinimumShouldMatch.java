package io.qdrant.esgateway.domain.query;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * ES's {@code minimum_should_match}, resolved into explicit states: not given, an integer (negative: all but n), a
 * percentage (negative: all but that share), or conditions ({@code 3<90%}, {@code 2<-25% 9<-3}: up to the first bound
 * every clause, above a bound that bound's form). The number is computed exactly as Elasticsearch computes it
 * (percentages in {@code float}, truncated), which may be more than the clauses there are: then nothing matches, as
 * in Lucene.
 */
public sealed interface MinimumShouldMatch {

    /** How many of {@code optionalClauses} must match: never below 0, and more than the count when the form says so. */
    int required(int optionalClauses);

    record Unspecified() implements MinimumShouldMatch {
        @Override
        public int required(int optionalClauses) {
            return 0;
        }
    }

    record Count(int count) implements MinimumShouldMatch {
        @Override
        public int required(int optionalClauses) {
            return Math.max(0, count < 0 ? optionalClauses + count : count);
        }
    }

    record Percent(int percent) implements MinimumShouldMatch {
        @Override
        public int required(int optionalClauses) {
            // Elasticsearch's arithmetic: the share in float, truncated towards zero
            float share = (optionalClauses * percent) * (1 / 100f);
            return Math.max(0, share < 0 ? optionalClauses + (int) share : (int) share);
        }
    }

    /** {@code upTo<then}: with more than {@code upTo} clauses, {@code then} applies. */
    record Step(int upTo, MinimumShouldMatch then) {
    }

    /**
     * Conditions, in the order given: with at most the first step's bound every clause is required; otherwise each
     * step whose bound the count exceeds replaces the number, until a step whose bound it does not exceed.
     */
    record Conditional(List<Step> steps) implements MinimumShouldMatch {
        public Conditional {
            steps = List.copyOf(steps);
        }

        @Override
        public int required(int optionalClauses) {
            int result = optionalClauses;
            for (Step step : steps) {
                if (optionalClauses <= step.upTo()) {
                    return result;
                }
                result = step.then().required(optionalClauses);
            }
            return result;
        }
    }

    MinimumShouldMatch UNSPECIFIED = new Unspecified();

    static MinimumShouldMatch parse(JsonValue value) {
        String text = JsonReads.text(value).orElseThrow(() -> GatewayException.parse(
                "[minimum_should_match] must be a number or a string"));
        String spec = text.trim();
        try {
            if (spec.contains("<")) {
                List<Step> steps = new ArrayList<>();
                for (String part : Forms.SPACE.split(Forms.SPACE_AROUND_LESS_THAN.matcher(spec).replaceAll("<"))) {
                    String[] sides = part.split("<", -1);
                    if (sides.length != 2) {
                        throw new NumberFormatException(part);
                    }
                    steps.add(new Step(Integer.parseInt(sides[0]), simple(sides[1])));
                }
                return new Conditional(steps);
            }
            return simple(spec);
        } catch (NumberFormatException e) {
            throw GatewayException.illegalArgument("Unable to parse minimum_should_match [" + text + "]");
        }
    }

    private static MinimumShouldMatch simple(String spec) {
        if (spec.endsWith("%")) {
            return new Percent(Integer.parseInt(spec.substring(0, spec.length() - 1)));
        }
        return new Count(Integer.parseInt(spec));
    }

    /** The separators of conditional forms, as Elasticsearch reads them. */
    final class Forms {
        private static final Pattern SPACE_AROUND_LESS_THAN = Pattern.compile("(\\s+<\\s*)|(\\s*<\\s+)");
        private static final Pattern SPACE = Pattern.compile(" ");

        private Forms() {
        }
    }
}
