package io.qdrant.esgateway.domain.json.compact;

/**
 * The number rules {@link CompactText} and {@link CompactUtf8} share: a number with a fraction or exponent is verbatim
 * only as exactly {@link Double#toString} of its finite value; an integer only in canonical form
 * ({@code -?(0|[1-9]\d*)}, not {@code -0}). The scanners find the number's extent over their own input (a
 * {@code String}, UTF-8 bytes) and ask here.
 */
final class CanonicalNumbers {
    private CanonicalNumbers() {
    }

    /** Whether {@code text} (a number with a fraction or exponent) is the exact rendering of its finite value. */
    static boolean fraction(String text) {
        try {
            double d = Double.parseDouble(text);
            return Double.isFinite(d) && Double.toString(d).equals(text);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * Whether an integer of {@code digits} ASCII digits (at least one), the first {@code first}, after a minus sign when
     * {@code negative}, is canonical: no leading zero ({@code Json.parse} would drop it), and not {@code -0} (it parses
     * to 0).
     */
    static boolean integer(int first, int digits, boolean negative) {
        return first != '0' || digits == 1 && !negative;
    }
}
