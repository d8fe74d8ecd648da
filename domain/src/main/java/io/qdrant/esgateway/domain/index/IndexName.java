package io.qdrant.esgateway.domain.index;

import io.qdrant.esgateway.domain.error.GatewayException;
import java.nio.charset.StandardCharsets;
import java.util.function.BiFunction;

/** Elasticsearch's naming rules for indices and aliases (MetadataCreateIndexService), with its messages. */
public final class IndexName {
    /** The characters Elasticsearch forbids in index and alias names. */
    static final String INVALID_CHARS = "\\/*?\"<>| ,";
    /** … printed as Elasticsearch 8.15 prints them (its set's order, each quoted; checked against the oracle). */
    static final String INVALID_CHARS_TEXT = "['?','*','<','\"',' ','\\','/',',','|','>']";
    public static final int MAX_BYTES = 255;

    private IndexName() {
    }

    /** Throws {@code invalid_index_name_exception} unless {@code name} may name a new index. */
    public static void validateIndex(String name) {
        validate(name, GatewayException::invalidIndexName);
        if (!name.toLowerCase(java.util.Locale.ROOT).equals(name)) {
            throw GatewayException.invalidIndexName(name, "must be lowercase");
        }
    }

    /** Throws {@code invalid_alias_name_exception} unless {@code name} may name an alias. */
    public static void validateAlias(String name) {
        if (name == null || name.isBlank()) {
            throw GatewayException.illegalArgument("alias name is required");
        }
        validate(name, GatewayException::invalidAliasName);
    }

    private static void validate(String name, BiFunction<String, String, GatewayException> error) {
        if (name.isEmpty()) {
            throw error.apply(name, "must not be empty");
        }
        for (int i = 0; i < name.length(); i++) {
            if (INVALID_CHARS.indexOf(name.charAt(i)) >= 0) {
                throw error.apply(name, "must not contain the following characters " + INVALID_CHARS_TEXT);
            }
        }
        if (name.contains("#")) {
            throw error.apply(name, "must not contain '#'");
        }
        if (name.contains(":")) {
            throw error.apply(name, "must not contain ':'");
        }
        char first = name.charAt(0);
        if (first == '_' || first == '-' || first == '+') {
            throw error.apply(name, "must not start with '_', '-', or '+'");
        }
        int bytes = name.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_BYTES) {
            throw error.apply(name, "index name is too long, (" + bytes + " > " + MAX_BYTES + ")");
        }
        if (name.equals(".") || name.equals("..")) {
            throw error.apply(name, "must not be '.' or '..'");
        }
    }

    /** Elasticsearch's simple wildcard match: {@code *} matches any run of characters, nothing else is special. */
    public static boolean matches(String pattern, String name) {
        return matches(pattern, 0, name, 0);
    }

    private static boolean matches(String p, int pi, String s, int si) {
        while (pi < p.length()) {
            char c = p.charAt(pi);
            if (c == '*') {
                for (int k = si; k <= s.length(); k++) {
                    if (matches(p, pi + 1, s, k)) {
                        return true;
                    }
                }
                return false;
            }
            if (si >= s.length() || s.charAt(si) != c) {
                return false;
            }
            pi++;
            si++;
        }
        return si == s.length();
    }

    public static boolean isWildcard(String expression) {
        return expression.indexOf('*') >= 0;
    }
}
