package io.qdrant.esgateway.domain.json;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The errors of Elasticsearch's object parsers (the named sections of a request body: {@code highlight},
 * {@code field_sort}, …), with the position of the offending key or value and, for an unknown key, ES's
 * "did you mean" suggestion.
 *
 * <p>The suggestion names the parser's known fields whose similarity to the unknown key is above one half, the
 * similarity being 1 − (Levenshtein distance) / (length of the longer name); the most similar come first, equally
 * similar ones by name: {@code " did you mean [order]?"}, {@code " did you mean any of [mode, order]?"}, or nothing.
 */
public final class ObjectParseErrors {
    private ObjectParseErrors() {
    }

    /**
     * {@code x_content_parse_exception} "[l:c] [parser] unknown field [key]" with the suggestion drawn from
     * {@code known}; {@code at} is where the key starts (0: no position).
     */
    public static GatewayException unknownField(String parser, String key, long at, Collection<String> known) {
        return new GatewayException(ErrorKind.X_CONTENT_PARSE, JsonValue.Position.prefix(at) + "[" + parser
                + "] unknown field [" + key + "]" + didYouMean(key, known));
    }

    /**
     * {@code x_content_parse_exception} "[l:c] [parser] failed to parse field [field]" caused by {@code cause};
     * {@code at} is where the parser stood, the start of the field's value.
     */
    public static GatewayException failedToParse(String parser, String field, long at, GatewayException cause) {
        return new GatewayException(ErrorKind.X_CONTENT_PARSE, JsonValue.Position.prefix(at) + "[" + parser
                + "] failed to parse field [" + field + "]", Map.of(), cause);
    }

    /** Elasticsearch's suggestion after an unknown field ({@code ""} when no known field is close). */
    public static String didYouMean(String key, Collection<String> known) {
        return didYouMean(key, known, 0.5f);
    }

    /**
     * The known names whose similarity to {@code key} ({@link #similarity}) exceeds {@code above}, most similar first
     * (ties by name), as Elasticsearch words its suggestions ({@code ""} when none is close): 0.5 after an unknown
     * field, 0.7 after an unknown aggregation type.
     */
    public static String didYouMean(String key, Collection<String> known, float above) {
        List<Map.Entry<String, Float>> close = new ArrayList<>();
        for (String candidate : known) {
            float similarity = similarity(key, candidate);
            if (similarity > above) {
                close.add(Map.entry(candidate, similarity));
            }
        }
        if (close.isEmpty()) {
            return "";
        }
        close.sort(Comparator.<Map.Entry<String, Float>>comparingDouble(Map.Entry::getValue).reversed()
                .thenComparing(Map.Entry::getKey));
        List<String> names = close.stream().map(Map.Entry::getKey).toList();
        return names.size() == 1 ? " did you mean [" + names.get(0) + "]?" : " did you mean any of " + names + "?";
    }

    /** 1 − Levenshtein distance / length of the longer string (1 for equal strings). */
    public static float similarity(String a, String b) {
        if (a.isEmpty() && b.isEmpty()) {
            return 1f;
        }
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return 1f - (float) prev[b.length()] / Math.max(a.length(), b.length());
    }
}
