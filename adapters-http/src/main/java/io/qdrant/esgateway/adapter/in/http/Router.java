package io.qdrant.esgateway.adapter.in.http;

import io.qdrant.esgateway.domain.error.GatewayException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The route table of the Elasticsearch surface, matched the way Elasticsearch matches: the most specific pattern that
 * answers the method wins (literal segments beat {@code {param}} ones); a path that exists for other methods is a
 * 405 naming them; anything else is ES's "no handler found" 400.
 */
final class Router {
    private final List<Route> routes = new ArrayList<>();
    /** The routes in {@link #routes}' order with their patterns split once (a request tries many of them). */
    private Compiled[] compiled = new Compiled[0];

    /** A route's pattern split into segments; {@code param[i]} is the name of segment i's {@code {param}}, or null. */
    private record Compiled(Route route, String[] segments, String[] param) {
        static Compiled of(Route route) {
            List<String> segs = route.segments();
            String[] segments = segs.toArray(String[]::new);
            String[] param = new String[segments.length];
            for (int i = 0; i < segments.length; i++) {
                String seg = segments[i];
                if (seg.startsWith("{") && seg.endsWith("}")) {
                    param[i] = seg.substring(1, seg.length() - 1);
                }
            }
            return new Compiled(route, segments, param);
        }

        /** What {@link Route#match} gives, without building a map for a route that does not fit. */
        Map<String, String> match(List<String> path) {
            if (segments.length != path.size()) {
                return null;
            }
            for (int i = 0; i < segments.length; i++) {
                if (param[i] != null ? path.get(i).isEmpty() : !segments[i].equals(path.get(i))) {
                    return null;
                }
            }
            Map<String, String> params = new java.util.LinkedHashMap<>();
            for (int i = 0; i < segments.length; i++) {
                if (param[i] != null) {
                    params.put(param[i], path.get(i));
                }
            }
            return params;
        }
    }

    Router add(Route route) {
        routes.add(route);
        routes.sort(Comparator.comparing(Route::specificity).reversed());
        compiled = routes.stream().map(Compiled::of).toArray(Compiled[]::new);
        return this;
    }

    List<Route> routes() {
        return List.copyOf(routes);
    }

    /** The chosen route with its path parameters, or a {@link NoRoute} explaining why there is none. */
    sealed interface Resolution {
    }

    record Matched(Route route, Map<String, String> pathParams) implements Resolution {
    }

    /** {@code allow}: the path's methods for a 405 (its {@code Allow} header), else null. */
    record NoRoute(int status, String message, String allow) implements Resolution {
        NoRoute(int status, String message) {
            this(status, message, null);
        }
    }

    /** Elasticsearch's order of HTTP methods (its method enum), in which a 405 lists the allowed ones. */
    private static final List<String> METHOD_ORDER = List.of("GET", "POST", "PUT", "DELETE", "OPTIONS", "HEAD",
            "PATCH", "TRACE", "CONNECT");

    private static int methodRank(String method) {
        int i = METHOD_ORDER.indexOf(method);
        return i < 0 ? METHOD_ORDER.size() : i;
    }

    Resolution resolve(String method, String rawPath) {
        List<String> path;
        try {
            path = split(rawPath);
            for (int i = 0; i < path.size(); i++) {
                String s = path.get(i);
                if (s.indexOf('%') >= 0 || s.indexOf('+') >= 0) {
                    path.set(i, URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8));
                }
            }
        } catch (IllegalArgumentException e) {
            return new NoRoute(400, "invalid percent-encoding in uri [" + rawPath + "]");
        }
        Set<String> allowed = null;
        boolean literalMatched = false;
        for (Compiled c : compiled) {
            Map<String, String> params = c.match(path);
            if (params == null) {
                continue;
            }
            boolean indexFirst = c.param().length > 0 && c.param()[0] != null;
            if (literalMatched && indexFirst && path.getFirst().startsWith("_")) {
                // a path of the API's own (no index starts with '_') whose literal routes lack the method:
                // Elasticsearch answers 405 with their methods rather than reading it as an index name
                break;
            }
            if (c.route().methods().contains(method)) {
                return new Matched(c.route(), params);
            }
            literalMatched |= !indexFirst;
            if (allowed == null) {
                allowed = new TreeSet<>(java.util.Comparator.comparingInt(Router::methodRank)
                        .thenComparing(java.util.Comparator.naturalOrder()));
            }
            allowed.addAll(c.route().methods());
        }
        if (allowed != null) {
            return new NoRoute(405, "Incorrect HTTP method for uri [" + rawPath + "] and method [" + method
                    + "], allowed: " + allowed.toString(), String.join(",", allowed));
        }
        return new NoRoute(400, "no handler found for uri [" + rawPath + "] and method [" + method + "]");
    }

    /** Rejects URL parameters the route does not know, with Elasticsearch's message. */
    static void checkParams(Route route, String path, Set<String> given) {
        boolean allKnown = true;
        for (String p : given) {
            if (!route.params().contains(p) && !Route.COMMON_PARAMS.contains(p)) {
                allKnown = false;
                break;
            }
        }
        if (allKnown) {
            return;
        }
        List<String> unknown = given.stream()
                .filter(p -> !route.params().contains(p) && !Route.COMMON_PARAMS.contains(p))
                .sorted().toList();
        if (unknown.isEmpty()) {
            return;
        }
        String list = "[" + String.join("], [", unknown) + "]";
        throw GatewayException.illegalArgument("request [" + path + "] contains unrecognized parameter"
                + (unknown.size() > 1 ? "s" : "") + ": " + list);
    }

    /** The non-empty segments between slashes, in a list the caller may change. */
    static List<String> split(String path) {
        List<String> out = new ArrayList<>(4);
        int start = 0;
        int length = path.length();
        while (start <= length) {
            int slash = path.indexOf('/', start);
            int end = slash < 0 ? length : slash;
            if (end > start) {
                out.add(path.substring(start, end));
            }
            start = end + 1;
        }
        return out;
    }
}
