package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.application.port.in.ScrollOperations;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The pages of a scroll and their release: {@code GET|POST /_search/scroll} (id in the body or the URL) and
 * {@code DELETE /_search/scroll} (one id, several, or {@code _all}). The scroll itself opens with {@code scroll=} on
 * {@code _search}.
 *
 * <pre>
 * curl -XPOST 'localhost:9200/books/_search?scroll=1m' -H 'Content-Type: application/json' -d '{"size":100}'
 * curl -XPOST localhost:9200/_search/scroll -H 'Content-Type: application/json' \
 *      -d '{"scroll":"1m","scroll_id":"…"}'
 * </pre>
 */
final class ScrollEndpoints {
    private final ScrollOperations scrolls;

    ScrollEndpoints(ScrollOperations scrolls) {
        this.scrolls = scrolls;
    }

    void register(Router router) {
        router.add(route("GET,POST", "/_search/scroll", "scroll", "scroll,scroll_id,rest_total_hits_as_int", true,
                        this::next))
                .add(route("GET,POST", "/_search/scroll/{scroll_id}", "scroll", "scroll,rest_total_hits_as_int", true,
                        this::next))
                .add(route("DELETE", "/_search/scroll", "clear_scroll", "", true, this::clear))
                .add(route("DELETE", "/_search/scroll/{scroll_id}", "clear_scroll", "", true, this::clear));
    }

    private EsResponse next(EsRequest request) {
        long start = System.nanoTime();
        Optional<String> id = request.optionalPathParam("scroll_id").or(() -> request.param("scroll_id"));
        Optional<String> keepAlive = request.param("scroll");
        if (request.body().isPresent()) {
            JsonObject body = JsonReads.object(request.body().get(), GatewayException::parse, "request body");
            for (Map.Entry<String, JsonValue> e : body.members().entrySet()) {
                switch (e.getKey()) {
                    case "scroll_id" -> id = Optional.of(text(e.getKey(), e.getValue()));
                    case "scroll" -> keepAlive = Optional.of(text(e.getKey(), e.getValue()));
                    default -> throw GatewayException.illegalArgument("Unknown parameter [" + e.getKey()
                            + "] in request body or parameter is of the wrong type[" + e.getValue().tokenName() + "] ");
                }
            }
        }
        if (id.isEmpty()) {
            throw GatewayException.validationFailed(List.of("scrollId is missing"));
        }
        Optional<Duration> renewal = keepAlive.map(k -> keepAlive(k, "scroll"));
        if (!ContextOwners.mayUse(id.get())) {
            throw scrolls.missing(id.get()); // another user's scroll does not exist for this one
        }
        ScrollOperations.Page page = scrolls.next(id.get(), renewal);
        renewal.ifPresent(k -> page.scrollId().ifPresent(next -> ContextOwners.opened(next, k)));
        return EsResponse.ok(SearchEndpoints.render(page.request(), Optional.empty(), page.result(),
                request.flag("rest_total_hits_as_int", false), start, page.scrollId(),
                page.metadata(), false));
    }

    private EsResponse clear(EsRequest request) {
        List<String> ids = new ArrayList<>();
        request.optionalPathParam("scroll_id").ifPresent(p -> ids.addAll(Arrays.asList(p.split(","))));
        if (request.body().isPresent()) {
            JsonObject body = JsonReads.object(request.body().get(), GatewayException::parse, "request body");
            for (Map.Entry<String, JsonValue> e : body.members().entrySet()) {
                if (!e.getKey().equals("scroll_id")) {
                    throw GatewayException.illegalArgument("Unknown parameter [" + e.getKey()
                            + "] in request body or parameter is of the wrong type[" + e.getValue().tokenName() + "] ");
                }
                if (e.getValue() instanceof JsonValue.JsonArray array) {
                    array.elements().forEach(v -> ids.add(text("scroll_id", v)));
                } else {
                    ids.add(text("scroll_id", e.getValue()));
                }
            }
        }
        if (ids.isEmpty()) {
            throw GatewayException.validationFailed(List.of("no scroll ids specified"));
        }
        if (ids.contains("_all")) {
            ItemAccess.clearAllScrolls();
            scrolls.clearAll();
            // Elasticsearch counts the nodes that cleared their contexts, not the contexts: one node here
            return EsResponse.ok(JsonObjectBuilder.object().put("succeeded", true).put("num_freed", 1).build());
        }
        ids.removeIf(i -> !ContextOwners.mayUse(i)); // another user's scroll is not freed
        int freed = ids.isEmpty() ? 0 : scrolls.clear(ids);
        ids.forEach(ContextOwners::closed);
        return EsResponse.json(freed == 0 ? 404 : 200, JsonObjectBuilder.object().put("succeeded", true)
                .put("num_freed", freed).build());
    }

    private static String text(String name, JsonValue value) {
        if (value instanceof JsonValue.JsonString s) {
            return s.value();
        }
        throw GatewayException.illegalArgument("Unknown parameter [" + name
                + "] in request body or parameter is of the wrong type[" + value.tokenName() + "] ");
    }

    /** Elasticsearch's time value ({@code 1m}, {@code 30s}, {@code 500ms}, {@code 2h}, {@code 1d}) for a keep-alive. */
    static Duration keepAlive(String text, String setting) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT);
        String[][] units = {{"nanos", "ns"}, {"micros", "us"}, {"ms", "ms"}, {"s", "s"}, {"m", "m"}, {"h", "h"},
            {"d", "d"}};
        for (String[] u : units) {
            if (!t.endsWith(u[0])) {
                continue;
            }
            if (u[0].equals("s") && (t.endsWith("ms") || t.endsWith("nanos") || t.endsWith("micros"))) {
                continue;
            }
            String number = t.substring(0, t.length() - u[0].length()).trim();
            try {
                long n = Long.parseLong(number);
                if (n < 0) {
                    break;
                }
                return switch (u[1]) {
                    case "ns" -> Duration.ofNanos(n);
                    case "us" -> Duration.ofNanos(Math.multiplyExact(n, 1000L));
                    case "ms" -> Duration.ofMillis(n);
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                };
            } catch (NumberFormatException | ArithmeticException e) {
                break;
            }
        }
        throw GatewayException.illegalArgument("failed to parse setting [" + setting + "] with value [" + text
                + "] as a time value: unit is missing or unrecognized");
    }
}
