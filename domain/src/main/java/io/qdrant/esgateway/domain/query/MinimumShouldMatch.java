package io.qdrant.esgateway.domain.query;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;

/**
 * ES's {@code minimum_should_match}, resolved into explicit states: not given, an integer (negative: all but n),
 * a percentage (negative: all but that share), rounded down as ES rounds. Combinations ({@code 3<90%}) are a 400.
 */
public sealed interface MinimumShouldMatch {

    /** How many of {@code optionalClauses} must match; never below 0 or above the count. */
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
            int n = count < 0 ? optionalClauses + count : count;
            return Math.max(0, Math.min(n, optionalClauses));
        }
    }

    record Percent(int percent) implements MinimumShouldMatch {
        @Override
        public int required(int optionalClauses) {
            int n = (int) Math.floor(optionalClauses * (Math.abs(percent) / 100.0));
            n = percent < 0 ? optionalClauses - n : n;
            return Math.max(0, Math.min(n, optionalClauses));
        }
    }

    MinimumShouldMatch UNSPECIFIED = new Unspecified();

    static MinimumShouldMatch parse(JsonValue value) {
        String text = JsonReads.text(value).orElseThrow(() -> GatewayException.parse(
                "[minimum_should_match] must be a number or a string"));
        text = text.trim();
        try {
            if (text.endsWith("%")) {
                return new Percent(Integer.parseInt(text.substring(0, text.length() - 1)));
            }
            return new Count(Integer.parseInt(text));
        } catch (NumberFormatException e) {
            if (text.contains("<")) {
                throw GatewayException.unsupported("conditional [minimum_should_match] [" + text + "]");
            }
            throw GatewayException.illegalArgument("Unable to parse minimum_should_match [" + text + "]");
        }
    }
}
