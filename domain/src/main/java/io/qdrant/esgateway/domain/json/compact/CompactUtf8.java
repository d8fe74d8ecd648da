package io.qdrant.esgateway.domain.json.compact;

import java.nio.charset.StandardCharsets;

/**
 * {@link CompactText}'s decision on UTF-8 bytes: {@link #verbatim(byte[])} is true exactly when the bytes are
 * well-formed UTF-8 and {@link CompactText#verbatim} accepts the text they decode to. A byte scan is faster than the
 * {@code String} one, and the encoded text is what an answer writes (no encode at render time).
 *
 * <p>The same rules as {@code CompactText}, on bytes: no white space outside strings; strings without escapes, control
 * characters or characters outside the Basic Multilingual Plane (a four-byte sequence), and only well-formed
 * sequences (no overlong forms, no encoded surrogates, no stray continuation bytes); integers in canonical form; other
 * numbers finite and exactly {@link Double#toString} of their value; no repeated key in an object (keys compared as
 * bytes, which for well-formed UTF-8 without escapes is comparing the strings); at most
 * {@link CompactText#MAX_KEYS} keys per object and {@link CompactText#MAX_DEPTH} levels.
 */
public final class CompactUtf8 {
    private final byte[] b;
    private int pos;
    /** Start and end offsets of the keys of the objects being scanned, innermost last. */
    private int[] keys = new int[32];
    private int keyTop;
    /** Whether a string held a {@code ?}. */
    private boolean question;

    private CompactUtf8(byte[] b) {
        this.b = b;
    }

    /** Whether {@code utf8} is a verbatim JSON object (see the class comment). */
    static boolean verbatim(byte[] utf8) {
        return verdict(utf8) != Verdict.NOT_VERBATIM;
    }

    /** What {@link #verdict} says of bytes made by encoding a {@code String}. */
    public enum Verdict {
        /** Verbatim, and no {@code ?} in a string. */
        VERBATIM,
        /** Not verbatim. */
        NOT_VERBATIM,
        /**
         * Verbatim, but with a {@code ?} in a string: if the bytes were encoded from a {@code String}, that may have
         * been a lone surrogate (which {@code String.getBytes(UTF_8)} replaces with {@code ?}), so only the text can
         * tell.
         */
        ASK_THE_TEXT
    }

    /**
     * {@link #verbatim} of {@code utf8}, telling apart the verbatim texts whose strings hold a {@code ?}. For bytes
     * encoded from a {@code String} {@code t}: {@code VERBATIM} means {@code CompactText.verbatim(t)}, and
     * {@code NOT_VERBATIM} means not (a lone surrogate in {@code t} would make it not verbatim too).
     */
    public static Verdict verdict(byte[] utf8) {
        if (utf8.length == 0 || utf8[0] != '{') {
            return Verdict.NOT_VERBATIM;
        }
        CompactUtf8 scan = new CompactUtf8(utf8);
        if (!scan.object(1) || scan.pos != utf8.length) {
            return Verdict.NOT_VERBATIM;
        }
        return scan.question ? Verdict.ASK_THE_TEXT : Verdict.VERBATIM;
    }

    private boolean value(int depth) {
        if (pos >= b.length) {
            return false;
        }
        return switch (b[pos]) {
            case '{' -> object(depth + 1);
            case '[' -> array(depth + 1);
            case '"' -> string();
            case 't' -> literal(TRUE);
            case 'f' -> literal(FALSE);
            case 'n' -> literal(NULL);
            default -> number();
        };
    }

    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};

    private boolean object(int depth) {
        if (depth > CompactText.MAX_DEPTH) {
            return false;
        }
        pos++; // '{'
        if (pos < b.length && b[pos] == '}') {
            pos++;
            return true;
        }
        int base = keyTop;
        try {
            while (true) {
                int keyStart = pos;
                if (!string() || !newKey(base, keyStart, pos)) {
                    return false;
                }
                if (pos >= b.length || b[pos] != ':') {
                    return false;
                }
                pos++;
                if (!value(depth) || pos >= b.length) {
                    return false;
                }
                byte c = b[pos++];
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

    /** Records the key {@code b[start, end)} (quotes included) of the object whose keys start at {@code base}. */
    private boolean newKey(int base, int start, int end) {
        int len = end - start;
        if ((keyTop - base) / 2 >= CompactText.MAX_KEYS) {
            return false;
        }
        for (int i = base; i < keyTop; i += 2) {
            if (keys[i + 1] - keys[i] == len
                    && java.util.Arrays.equals(b, keys[i], keys[i + 1], b, start, end)) {
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
        if (depth > CompactText.MAX_DEPTH) {
            return false;
        }
        pos++; // '['
        if (pos < b.length && b[pos] == ']') {
            pos++;
            return true;
        }
        while (true) {
            if (!value(depth) || pos >= b.length) {
                return false;
            }
            byte c = b[pos++];
            if (c == ']') {
                return true;
            }
            if (c != ',') {
                return false;
            }
        }
    }

    /**
     * A string of well-formed one- to three-byte sequences without escapes, control characters or encoded
     * surrogates; leaves {@code pos} after its closing quote.
     */
    private boolean string() {
        if (pos >= b.length || b[pos] != '"') {
            return false;
        }
        pos++;
        while (pos < b.length) {
            pos = plain(pos);
            if (pos >= b.length) {
                return false; // no closing quote
            }
            int c = b[pos++];
            if (c >= 0) { // ASCII
                if (c == '"') {
                    return true;
                }
                if (c == '\\' || c < 0x20) {
                    return false;
                }
                if (c == '?') {
                    question = true;
                }
                continue;
            }
            c &= 0xFF;
            if (c >= 0xC2 && c <= 0xDF) { // two bytes, U+0080..U+07FF
                if (!continuation(0x80, 0xBF)) {
                    return false;
                }
            } else if (c >= 0xE0 && c <= 0xEF) { // three bytes, U+0800..U+FFFF without the surrogates
                int low = c == 0xE0 ? 0xA0 : 0x80; // no overlong form
                int high = c == 0xED ? 0x9F : 0xBF; // no U+D800..U+DFFF
                if (!continuation(low, high) || !continuation(0x80, 0xBF)) {
                    return false;
                }
            } else {
                return false; // a continuation byte first, an overlong lead, or four bytes (outside the BMP)
            }
        }
        return false;
    }

    /** Eight bytes at a time, for the runs of a string's text that need no attention. */
    private static final java.lang.invoke.VarHandle LONGS = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
            long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;

    /**
     * From {@code i}, past the string bytes that need no attention (ASCII from space on, other than a quote, a
     * backslash and {@code ?}), eight at a time; where the first one that needs it is (near the end: where the last
     * eight bytes start).
     */
    private int plain(int i) {
        int last = b.length - 8;
        while (i <= last) {
            long x = (long) LONGS.get(b, i);
            long quote = x ^ 0x2222222222222222L;
            long slash = x ^ 0x5C5C5C5C5C5C5C5CL;
            long question = x ^ 0x3F3F3F3F3F3F3F3FL;
            long special = ((quote - ONES) & ~quote | (slash - ONES) & ~slash | (question - ONES) & ~question
                    | (x - 0x2020202020202020L) & ~x | x) & 0x8080808080808080L;
            if (special != 0) {
                // the lowest flag is a true one (a borrow only flags bytes above the byte it came from)
                return i + (Long.numberOfTrailingZeros(special) >>> 3);
            }
            i += 8;
        }
        return i;
    }

    private boolean continuation(int low, int high) {
        if (pos >= b.length) {
            return false;
        }
        int c = b[pos] & 0xFF;
        if (c < low || c > high) {
            return false;
        }
        pos++;
        return true;
    }

    private boolean literal(byte[] word) {
        if (pos + word.length > b.length) {
            return false;
        }
        for (int i = 0; i < word.length; i++) {
            if (b[pos + i] != word[i]) {
                return false;
            }
        }
        pos += word.length;
        return true;
    }

    /** The bytes {@link io.qdrant.esgateway.domain.json.Json#parse} reads as a number, in the form every writer gives its value. */
    private boolean number() {
        int start = pos;
        boolean fraction = false;
        while (pos < b.length) {
            byte c = b[pos];
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
            return CanonicalNumbers.fraction(new String(b, start, pos - start, StandardCharsets.ISO_8859_1));
        }
        int digits = start;
        if (b[digits] == '-') {
            digits++;
        }
        if (digits == pos) {
            return false;
        }
        for (int i = digits; i < pos; i++) {
            byte c = b[i];
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return CanonicalNumbers.integer(b[digits], pos - digits, digits != start);
    }
}
