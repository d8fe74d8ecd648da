package io.qdrant.esgateway.adapter.in.http;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One endpoint: the methods it answers, its path pattern ({@code /{index}/_alias/{name}}), the API name that labels
 * its metrics (Elasticsearch's own names, e.g. {@code indices.create}), the URL parameters it accepts, whether it
 * takes a body, and its handler.
 */
record Route(Set<String> methods, String pattern, String api, Set<String> params, boolean takesBody, Handler handler) {

    /** The URL parameters every Elasticsearch endpoint accepts. */
    static final Set<String> COMMON_PARAMS = Set.of("pretty", "human", "error_trace", "filter_path");

    @FunctionalInterface
    interface Handler {
        EsResponse handle(EsRequest request);
    }

    List<String> segments() {
        return Router.split(pattern);
    }

    /** Path parameters if {@code path} (split and decoded) fits the pattern, else null. */
    Map<String, String> match(List<String> path) {
        List<String> segs = segments();
        if (segs.size() != path.size()) {
            return null;
        }
        Map<String, String> params = new java.util.LinkedHashMap<>();
        for (int i = 0; i < segs.size(); i++) {
            String seg = segs.get(i);
            if (seg.startsWith("{") && seg.endsWith("}")) {
                if (path.get(i).isEmpty()) {
                    return null;
                }
                params.put(seg.substring(1, seg.length() - 1), path.get(i));
            } else if (!seg.equals(path.get(i))) {
                return null;
            }
        }
        return params;
    }

    /** How specific the pattern is: literal segments beat parameters, left to right (ES's path trie order). */
    String specificity() {
        StringBuilder b = new StringBuilder();
        for (String seg : segments()) {
            b.append(seg.startsWith("{") ? '0' : '1');
        }
        return b.toString();
    }
}
