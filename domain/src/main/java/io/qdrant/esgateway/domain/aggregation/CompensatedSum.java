package io.qdrant.esgateway.domain.aggregation;

/**
 * A Kahan-compensated running sum, as Elasticsearch sums values for {@code sum}, {@code avg} and {@code stats}: the
 * rounding error of each addition is carried in {@code delta} and subtracted from the next value. Non-finite values
 * propagate as in plain addition. Immutable; partial sums merge by adding one's value into the other.
 */
public record CompensatedSum(double value, double delta) {
    public static final CompensatedSum ZERO = new CompensatedSum(0, 0);

    public CompensatedSum add(double x) {
        if (!Double.isFinite(value) || !Double.isFinite(x)) {
            return new CompensatedSum(value + x, delta);
        }
        double corrected = x - delta;
        double next = value + corrected;
        return new CompensatedSum(next, (next - value) - corrected);
    }

    /** The sum of both partitions: as Elasticsearch reduces partial sums, their values are added compensated. */
    public CompensatedSum merge(CompensatedSum other) {
        return add(other.value);
    }
}
