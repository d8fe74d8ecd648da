package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.error.GatewayException;

/** Elasticsearch time values ({@code 90m}, {@code 2d}, {@code 500ms}, {@code -1h}) as milliseconds. */
final class TimeValues {
    private TimeValues() {
    }

    static long millis(String text, String setting) {
        String t = text.trim();
        String[][] units = {{"nanos", "0"}, {"micros", "0"}, {"ms", "1"}, {"s", "1000"}, {"m", "60000"},
            {"h", "3600000"}, {"d", "86400000"}};
        for (String[] u : units) {
            if (t.endsWith(u[0]) && !(u[0].equals("s") && (t.endsWith("ms") || t.endsWith("nanos")
                    || t.endsWith("micros")))) {
                String number = t.substring(0, t.length() - u[0].length()).trim();
                try {
                    long n = Long.parseLong(number);
                    return u[1].equals("0") ? (u[0].equals("nanos") ? n / 1_000_000 : n / 1_000)
                            : Math.multiplyExact(n, Long.parseLong(u[1]));
                } catch (NumberFormatException | ArithmeticException e) {
                    throw GatewayException.illegalArgument("failed to parse setting [" + setting + "] with value ["
                            + text + "] as a time value: unit is missing or unrecognized");
                }
            }
        }
        throw GatewayException.illegalArgument("failed to parse setting [" + setting + "] with value [" + text
                + "] as a time value: unit is missing or unrecognized");
    }
}
