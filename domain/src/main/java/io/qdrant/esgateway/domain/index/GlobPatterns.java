package io.qdrant.esgateway.domain.index;

/** Elasticsearch's simple patterns, where {@code *} matches any run of characters and nothing else is special. */
public final class GlobPatterns {
    private GlobPatterns() {
    }

    /** True if {@code pattern} matches all of {@code text}. */
    public static boolean matches(String pattern, String text) {
        int p = 0;
        int t = 0;
        int star = -1;
        int resume = 0;
        while (t < text.length()) {
            if (p < pattern.length() && pattern.charAt(p) == '*') {
                star = p++;
                resume = t;
            } else if (p < pattern.length() && pattern.charAt(p) == text.charAt(t)) {
                p++;
                t++;
            } else if (star >= 0) {
                p = star + 1;
                t = ++resume;
            } else {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '*') {
            p++;
        }
        return p == pattern.length();
    }

    /** True if some text matches both patterns (the intersection of their languages is not empty). */
    public static boolean overlap(String a, String b) {
        boolean[][] seen = new boolean[a.length() + 1][b.length() + 1];
        return overlap(a, 0, b, 0, seen);
    }

    private static boolean overlap(String a, int i, String b, int j, boolean[][] seen) {
        if (seen[i][j]) {
            return false; // already explored without success
        }
        seen[i][j] = true;
        if (i == a.length() && j == b.length()) {
            return true;
        }
        boolean aStar = i < a.length() && a.charAt(i) == '*';
        boolean bStar = j < b.length() && b.charAt(j) == '*';
        if (aStar && (overlap(a, i + 1, b, j, seen) || j < b.length() && overlap(a, i, b, j + 1, seen))) {
            return true;
        }
        if (bStar && (overlap(a, i, b, j + 1, seen) || i < a.length() && overlap(a, i + 1, b, j, seen))) {
            return true;
        }
        return i < a.length() && j < b.length() && !aStar && !bStar && a.charAt(i) == b.charAt(j)
                && overlap(a, i + 1, b, j + 1, seen);
    }
}
