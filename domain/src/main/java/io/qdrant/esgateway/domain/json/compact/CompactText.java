package io.qdrant.esgateway.domain.json.compact;

/**
 * Decides whether a JSON text is <em>verbatim</em>: a JSON object that {@link io.qdrant.esgateway.domain.json.Json#parse} accepts and that is, character
 * for character, what writing the parsed tree compactly gives — with {@link io.qdrant.esgateway.domain.json.Json#write} and with Jackson's generator
 * (which escapes {@code "}, the backslash, control characters and characters outside the Basic Multilingual Plane,
 * and writes numbers with {@code Long/BigInteger/Double.toString}). Such a text can stand for its tree in an answer
 * without a parse and a re-render. A single pass, no allocation except for numbers with a fraction or exponent.
 *
 * <p>Verbatim means: no white space outside strings; strings without escapes, control characters or surrogates (so
 * every character stands for itself and no writer escapes it; Jackson writes a surrogate pair as two escapes);
 * integers in canonical form ({@code -?(0|[1-9]\d*)}, not {@code -0}); other numbers finite and exactly
 * {@link Double#toString} of their value; no object with a repeated key (the parse keeps one of them); nesting at most
 * {@link #MAX_DEPTH}. Anything else is not verbatim, which only means the caller takes the parsing path.
 */
public final class CompactText {
    static final int MAX_DEPTH = 100;
    /** Objects with more keys are not checked for repeats (quadratic) and not verbatim. */
    static final int MAX_KEYS = 256;

    private final String s;
    private int pos;
    /** Start and end offsets of the keys of the objects being scanned, innermost last. */
    private int[] keys = new int[32];
    private int keyTop;

    private CompactText(String s) {
        this.s = s;
    }

    /** Whether {@code text} is a verbatim JSON object (see the class comment). */
    public static boolean verbatim(String text) {
        if (text.isEmpty() || text.charAt(0) != '{') {
            return false;
        }
        CompactText scan = new CompactText(text);
        return scan.object(1) && scan.pos == text.length();
    }

    private boolean value(int depth) {
        if (pos >= s.length()) {
            return false;
        }
        return switch (s.charAt(pos)) {
            case '{' -> object(depth + 1);
            case '[' -> array(depth + 1);
            case '"' -> string();
            case 't' -> literal("true");
            case 'f' -> literal("false");
            case 'n' -> literal("null");
            default -> number();
        };
    }

    private boolean object(int depth) {
        if (depth > MAX_DEPTH) {
            return false;
        }
        pos++; // '{'
        if (pos < s.length() && s.charAt(pos) == '}') {
            pos++;
            return true;
        }
        int base = keyTop;
        try {
            while (true) {
                int keyStart = pos;
                if (!string()) {
                    return false;
                }
                if (!newKey(base, keyStart, pos)) {
                    return false;
                }
                if (pos >= s.length() || s.charAt(pos) != ':') {
                    return false;
                }
                pos++;
                if (!value(depth)) {
                    return false;
                }
                if (pos >= s.length()) {
                    return false;
                }
                char c = s.charAt(pos++);
                if (c == '}') {
                    return true;
                }
                if (c != ',') {
                    return false;
                }
            }
        } finally {
            keyTop = base;
        }
    }

    /** Records the key {@code s[start, end)} (quotes included) of the object whose keys start at {@code base}. */
    private boolean newKey(int base, int start, int end) {
        int len = end - start;
        if ((keyTop - base) / 2 >= MAX_KEYS) {
            return false;
        }
        for (int i = base; i < keyTop; i += 2) {
            if (keys[i + 1] - keys[i] == len && s.regionMatches(keys[i], s, start, len)) {
                return false;
            }
        }
        if (keyTop + 2 > keys.length) {
            keys = java.util.Arrays.copyOf(keys, keys.length * 2);
        }
        keys[keyTop++] = start;
        keys[keyTop++] = end;
        return true;
    }

    private boolean array(int depth) {
        if (depth > MAX_DEPTH) {
            return false;
        }
        pos++; // '['
        if (pos < s.length() && s.charAt(pos) == ']') {
            pos++;
            return true;
        }
        while (true) {
            if (!value(depth)) {
                return false;
            }
            if (pos >= s.length()) {
                return false;
            }
            char c = s.charAt(pos++);
            if (c == ']') {
                return true;
            }
            if (c != ',') {
                return false;
            }
        }
    }

    /** A string without escapes, control characters or surrogates; leaves {@code pos} after its closing quote. */
    private boolean string() {
        if (pos >= s.length() || s.charAt(pos) != '"') {
            return false;
        }
        pos++;
        while (pos < s.length()) {
            char c = s.charAt(pos++);
            if (c == '"') {
                return true;
            }
            // Jackson writes a character outside the BMP (a surrogate pair) as two escapes
            if (c == '\\' || c < 0x20 || Character.isSurrogate(c)) {
                return false;
            }
        }
        return false;
    }

    private boolean literal(String word) {
        if (!s.startsWith(word, pos)) {
            return false;
        }
        pos += word.length();
        return true;
    }

    /** The characters {@link io.qdrant.esgateway.domain.json.Json#parse} reads as a number, in the form every writer gives its value. */
    private boolean number() {
        int start = pos;
        boolean fraction = false;
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (c == '.' || c == 'e' || c == 'E') {
                fraction = true;
            } else if (!(c >= '0' && c <= '9') && c != '-' && c != '+') {
                break;
            }
            pos++;
        }
        if (pos == start) {
            return false;
        }
        if (fraction) {
            return CanonicalNumbers.fraction(s.substring(start, pos));
        }
        int digits = start;
        if (s.charAt(digits) == '-') {
            digits++;
        }
        if (digits == pos) {
            return false;
        }
        for (int i = digits; i < pos; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return CanonicalNumbers.integer(s.charAt(digits), pos - digits, digits != start);
    }
}
