package io.qdrant.esgateway.domain.text;

import io.qdrant.esgateway.domain.error.GatewayException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A regular expression in Lucene's syntax (what Elasticsearch's {@code include}/{@code exclude} take), matched
 * against a whole term: translated into a {@link java.util.regex.Pattern}. Supported: literals, {@code .},
 * {@code ? * + {n,m}}, {@code |}, groups, character classes ({@code [a-z]}, {@code [^…]}), {@code "quoted"} strings,
 * {@code \} escapes, {@code @} (any string), {@code #} (the empty language), numeric intervals {@code <n-m>} (of
 * up to 10,000 numbers), and {@code &} (intersection) and {@code ~} (complement) at the top level of the expression.
 * A nested {@code ~} or {@code &}, or a larger interval, is rejected with a 400 naming it.
 */
public final class LuceneRegex {
    private LuceneRegex() {
    }

    public static Predicate<String> compile(String regex) {
        List<String> parts = splitTop(regex, '&');
        Predicate<String> all = s -> true;
        for (String part : parts) {
            Predicate<String> p = complementable(part);
            Predicate<String> before = all;
            all = s -> before.test(s) && p.test(s);
        }
        return all;
    }

    private static Predicate<String> complementable(String part) {
        if (part.startsWith("~")) {
            Predicate<String> inner = complementable(part.substring(1));
            return inner.negate();
        }
        Pattern p = translate(part);
        return s -> p.matcher(s).matches();
    }

    /** Splits at {@code sep} outside groups, classes, quotes and escapes. */
    private static List<String> splitTop(String regex, char sep) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        boolean inClass = false;
        boolean inQuote = false;
        int start = 0;
        for (int i = 0; i < regex.length(); i++) {
            char c = regex.charAt(i);
            if (c == '\\' && !inQuote) {
                i++;
            } else if (inQuote) {
                inQuote = c != '"';
            } else if (inClass) {
                inClass = c != ']';
            } else if (c == '"') {
                inQuote = true;
            } else if (c == '[') {
                inClass = true;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == sep && depth == 0) {
                out.add(regex.substring(start, i));
                start = i + 1;
            }
        }
        out.add(regex.substring(start));
        return out;
    }

    static Pattern translate(String regex) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        int n = regex.length();
        int depth = 0;
        while (i < n) {
            char c = regex.charAt(i);
            switch (c) {
                case '\\' -> {
                    if (i + 1 >= n) {
                        throw invalid("expected character at position " + n);
                    }
                    int cp = regex.codePointAt(i + 1);
                    out.append(Pattern.quote(new String(Character.toChars(cp))));
                    i += 1 + Character.charCount(cp);
                    continue;
                }
                case '"' -> {
                    int end = regex.indexOf('"', i + 1);
                    if (end < 0) {
                        throw invalid("expected '\"' at position " + n);
                    }
                    if (end > i + 1) {
                        out.append(Pattern.quote(regex.substring(i + 1, end)));
                    }
                    i = end + 1;
                    continue;
                }
                case '[' -> {
                    i = charClass(regex, i, out);
                    continue;
                }
                case '.' -> out.append("(?s:.)");
                case '@' -> out.append("(?s:.*)");
                case '#' -> out.append("(?!)");
                case '(' -> {
                    depth++;
                    out.append(c);
                }
                case ')' -> {
                    if (depth == 0) {
                        throw invalid("end-of-string expected at position " + i);
                    }
                    depth--;
                    out.append(c);
                }
                case '|', '*', '+', '?' -> out.append(c);
                case '{' -> {
                    int end = regex.indexOf('}', i);
                    if (end < 0 || !regex.substring(i + 1, end).matches("\\d+(,\\d*)?")) {
                        throw invalid("integer expected at position " + (i + 1));
                    }
                    out.append(regex, i, end + 1);
                    i = end + 1;
                    continue;
                }
                case '<' -> {
                    i = interval(regex, i, out);
                    continue;
                }
                case '~', '&' -> throw GatewayException.unsupported("the regular expression operator [" + c
                        + "] inside an include/exclude expression (only at its top level)");
                default -> {
                    int cp = regex.codePointAt(i);
                    out.append(Pattern.quote(new String(Character.toChars(cp))));
                    i += Character.charCount(cp);
                    continue;
                }
            }
            i++;
        }
        if (depth > 0) {
            throw invalid("expected ')' at position " + n);
        }
        try {
            return Pattern.compile(out.toString());
        } catch (PatternSyntaxException e) {
            throw invalid("invalid regular expression [" + regex + "]: " + e.getDescription());
        }
    }

    /** The most numbers a numeric interval {@code <n-m>} may hold (it is spelled out as alternatives). */
    private static final int MAX_INTERVAL = 10_000;

    /**
     * A numeric interval {@code <n-m>}: the decimal numbers from n to m; when both bounds have the same number of
     * digits the numbers are zero-padded to it, else any leading zeros are accepted (as Lucene). Returns the index
     * after it.
     */
    private static int interval(String regex, int start, StringBuilder out) {
        int end = regex.indexOf('>', start);
        String body = end < 0 ? "" : regex.substring(start + 1, end);
        int dash = body.indexOf('-');
        if (end < 0 || dash <= 0 || dash == body.length() - 1 || !body.substring(0, dash).matches("\\d+")
                || !body.substring(dash + 1).matches("\\d+")) {
            throw invalid("interval syntax error at position " + (end < 0 ? regex.length() : end));
        }
        String smin = body.substring(0, dash);
        String smax = body.substring(dash + 1);
        long min;
        long max;
        try {
            min = Long.parseLong(smin);
            max = Long.parseLong(smax);
        } catch (NumberFormatException e) {
            throw invalid("interval syntax error at position " + end);
        }
        if (min > max) {
            long t = min;
            min = max;
            max = t;
        }
        if (max - min >= MAX_INTERVAL) {
            throw GatewayException.unsupported("a numeric interval <n-m> of more than " + MAX_INTERVAL + " numbers"
                    + " in an include/exclude expression");
        }
        int digits = smin.length() == smax.length() ? smin.length() : 0;
        out.append(digits == 0 ? "(?:0*(?:" : "(?:");
        for (long v = min; v <= max; v++) {
            if (v > min) {
                out.append('|');
            }
            String number = Long.toString(v);
            out.append(digits == 0 ? number : "0".repeat(Math.max(0, digits - number.length())) + number);
        }
        out.append(digits == 0 ? "))" : ")");
        return end + 1;
    }

    /** Copies a class {@code [...]} starting at {@code start}; returns the index after it. */
    private static int charClass(String regex, int start, StringBuilder out) {
        int i = start + 1;
        out.append('[');
        if (i < regex.length() && regex.charAt(i) == '^') {
            out.append('^');
            i++;
        }
        boolean any = false;
        while (i < regex.length() && regex.charAt(i) != ']') {
            char c = regex.charAt(i);
            if (c == '-' && any && i + 1 < regex.length() && regex.charAt(i + 1) != ']') {
                out.append('-');
                i++;
                continue;
            }
            if (c == '\\' && i + 1 < regex.length()) {
                i++;
            }
            int cp = regex.codePointAt(i);
            out.append(String.format("\\x{%x}", cp));
            i += Character.charCount(cp);
            any = true;
        }
        if (i >= regex.length()) {
            throw invalid("expected ']' at position " + regex.length());
        }
        out.append(']');
        return i + 1;
    }

    /** Lucene's messages for a malformed expression (ES reports them as the cause). */
    private static GatewayException invalid(String message) {
        return GatewayException.illegalArgument(message);
    }
}
