package io.qdrant.esgateway.domain.security;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A name pattern as Elasticsearch's roles write them: {@code *} (any run of characters) and {@code ?} (one)
 * wildcards, or a Lucene-style regular expression between slashes ({@code /logs-[0-9]+/}, read here with Java's
 * syntax, which agrees on the common forms). Index names and action names are matched the same way.
 */
public final class NamePattern {
    private final String source;
    private final Pattern regex;
    private final boolean matchAll;

    private NamePattern(String source, Pattern regex) {
        this.source = source;
        this.regex = regex;
        this.matchAll = source.equals("*");
    }

    public static NamePattern of(String source) {
        if (source.length() >= 2 && source.startsWith("/") && source.endsWith("/")) {
            try {
                return new NamePattern(source, Pattern.compile(source.substring(1, source.length() - 1)));
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("invalid pattern [" + source + "]: " + e.getDescription());
            }
        }
        StringBuilder b = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (char c : source.toCharArray()) {
            if (c == '*' || c == '?') {
                if (!literal.isEmpty()) {
                    b.append(Pattern.quote(literal.toString()));
                    literal.setLength(0);
                }
                b.append(c == '*' ? ".*" : ".");
            } else {
                literal.append(c);
            }
        }
        if (!literal.isEmpty()) {
            b.append(Pattern.quote(literal.toString()));
        }
        return new NamePattern(source, Pattern.compile(b.toString(), Pattern.DOTALL));
    }

    public boolean matches(String name) {
        return matchAll || regex.matcher(name).matches();
    }

    public String source() {
        return source;
    }

    @Override
    public String toString() {
        return source;
    }
}
