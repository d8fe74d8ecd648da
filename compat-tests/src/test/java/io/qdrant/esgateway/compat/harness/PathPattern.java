package io.qdrant.esgateway.compat.harness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A pattern over JSON Pointer paths of the compared document ({@code /status}, {@code /headers/content-type},
 * {@code /body/books/settings/index/uuid}): segments separated by {@code /}, {@code *} matches one segment,
 * {@code **} any number (also none), and a segment may contain {@code *} as a wildcard ({@code index.*}). Keys that
 * contain {@code /} are written {@code ~1} as in JSON Pointer, {@code ~} as {@code ~0}.
 */
public record PathPattern(String text, List<String> segments) {
    public static PathPattern of(String text) {
        if (!text.startsWith("/")) {
            throw new IllegalArgumentException("a path pattern starts with '/': [" + text + "]");
        }
        List<String> segments = new ArrayList<>(Arrays.asList(text.substring(1).split("/", -1)));
        return new PathPattern(text, List.copyOf(segments));
    }

    public boolean matches(List<String> path) {
        return matches(0, path, 0);
    }

    private boolean matches(int p, List<String> path, int i) {
        if (p == segments.size()) {
            return i == path.size();
        }
        String seg = segments.get(p);
        if (seg.equals("**")) {
            for (int k = i; k <= path.size(); k++) {
                if (matches(p + 1, path, k)) {
                    return true;
                }
            }
            return false;
        }
        return i < path.size() && segmentMatches(seg, path.get(i)) && matches(p + 1, path, i + 1);
    }

    private static boolean segmentMatches(String pattern, String key) {
        String unescaped = pattern.replace("~1", "/").replace("~0", "~");
        if (!unescaped.contains("*")) {
            return unescaped.equals(key);
        }
        String regex = Arrays.stream(unescaped.split("\\*", -1)).map(java.util.regex.Pattern::quote)
                .reduce((a, b) -> a + ".*" + b).orElse("");
        return key.matches(regex);
    }

    /** Whether the pattern matches {@code path} or a path above it (a dropped object hides what is inside). */
    public boolean matchesSelfOrAncestor(List<String> path) {
        for (int n = path.size(); n >= 0; n--) {
            if (matches(path.subList(0, n))) {
                return true;
            }
        }
        return false;
    }

    /** The segments of a JSON Pointer string (the inverse of {@link #pointer}). */
    public static List<String> segments(String pointer) {
        if (pointer.equals("/") || pointer.isEmpty()) {
            return List.of();
        }
        return Arrays.stream(pointer.substring(1).split("/", -1)).map(s -> s.replace("~1", "/").replace("~0", "~"))
                .toList();
    }

    /** A path as a JSON Pointer string. */
    public static String pointer(List<String> path) {
        StringBuilder s = new StringBuilder();
        for (String seg : path) {
            s.append('/').append(seg.replace("~", "~0").replace("/", "~1"));
        }
        return s.isEmpty() ? "/" : s.toString();
    }

    @Override
    public String toString() {
        return text;
    }
}
