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

    Router add(Route route) {
        routes.add(route);
        routes.sort(Comparator.comparing(Route::specificity).reversed());
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

    record NoRoute(int status, String message) implements Resolution {
    }

    Resolution resolve(String method, String rawPath) {
        List<String> path;
        try {
            path = split(rawPath).stream().map(s -> URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8))
                    .toList();
        } catch (IllegalArgumentException e) {
            return new NoRoute(400, "invalid percent-encoding in uri [" + rawPath + "]");
        }
        Set<String> allowed = new TreeSet<>();
        for (Route route : routes) {
            Map<String, String> params = route.match(path);
            if (params == null) {
                continue;
            }
            if (route.methods().contains(method)) {
                return new Matched(route, params);
            }
            allowed.addAll(route.methods());
        }
        if (!allowed.isEmpty()) {
            return new NoRoute(405, "Incorrect HTTP method for uri [" + rawPath + "] and method [" + method
                    + "], allowed: " + allowed.toString());
        }
        return new NoRoute(400, "no handler found for uri [" + rawPath + "] and method [" + method + "]");
    }

    /** Rejects URL parameters the route does not know, with Elasticsearch's message. */
    static void checkParams(Route route, String path, Set<String> given) {
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

    static List<String> split(String path) {
        List<String> out = new ArrayList<>();
        for (String s : path.split("/")) {
            if (!s.isEmpty()) {
                out.add(s);
            }
        }
        return out;
    }
}
