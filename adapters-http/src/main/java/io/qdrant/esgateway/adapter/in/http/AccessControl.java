package io.qdrant.esgateway.adapter.in.http;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.ServerRequest;
import io.qdrant.esgateway.application.port.in.SecurityOperations;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.index.AliasActions;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.security.Authentication;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Security at the HTTP edge when it is on: authenticates every request (but the open operations endpoints) from its
 * {@code Authorization} header before its body is read, then authorizes it by its route's rule
 * ({@link RouteActions}) once the body is there, narrowing the path's index expression to what the caller may see.
 * The caller is bound to {@link #CALLER} while the request runs.
 */
final class AccessControl {
    static final String BASIC_CHALLENGE = "Basic realm=\"security\" charset=\"UTF-8\"";
    static final String API_KEY_CHALLENGE = "ApiKey";
    /** Elasticsearch's 401 headers. */
    static final Header CHALLENGE = HeaderValues.create(HeaderNames.WWW_AUTHENTICATE, BASIC_CHALLENGE,
            API_KEY_CHALLENGE);
    /** The same, as Elasticsearch repeats them in a 401 body's {@code header}. */
    static final JsonObject CHALLENGE_BODY = JsonObjectBuilder.object().put("WWW-Authenticate",
            new JsonArray(List.of(new JsonValue.JsonString(BASIC_CHALLENGE),
                    new JsonValue.JsonString(API_KEY_CHALLENGE)))).build();

    /** The requests whose items are authorized one by one, as Elasticsearch ({@link ItemAccess}). */
    private static final java.util.Set<String> ITEMIZED = java.util.Set.of("bulk", "mget", "msearch");

    /** Who the current request runs as. */
    static final ScopedValue<Authentication> CALLER = ScopedValue.newInstance();

    private final SecurityOperations security;
    private final boolean healthOpen;
    private final boolean metricsOpen;
    private final JsonCodec codec;
    private final ContextOwners owners = new ContextOwners();

    AccessControl(SecurityOperations security, boolean healthOpen, boolean metricsOpen, JsonCodec codec) {
        this.security = security;
        this.healthOpen = healthOpen;
        this.metricsOpen = metricsOpen;
        this.codec = codec;
    }

    /** The security service requests are checked against. */
    SecurityOperations security() {
        return security;
    }

    /** Who opened each scroll and point in time of this gateway. */
    ContextOwners owners() {
        return owners;
    }

    /** The caller, or null for a route that is open to anyone; a 401 without (valid) credentials. */
    Authentication authenticate(ServerRequest req, Router.Resolution resolution, String rawPath) {
        if (resolution instanceof Router.Matched m) {
            RouteActions.Scope scope = RouteActions.of(m.route().api()).map(RouteActions.Rule::scope).orElse(null);
            if (scope == RouteActions.Scope.HEALTH && healthOpen || scope == RouteActions.Scope.METRICS && metricsOpen) {
                return null;
            }
        }
        return security.authenticate(req.headers().first(HeaderNames.AUTHORIZATION).orElse(null), rawPath);
    }

    /**
     * Authorizes the request of the bound caller; the path parameters to run it with (the index expression narrowed
     * to the allowed names). A 403 when the caller may not.
     */
    Map<String, String> authorize(Route route, Map<String, String> pathParams, Map<String, String> params,
                                  byte[] body) {
        Authentication who = CALLER.get();
        RouteActions.Rule rule = RouteActions.of(route.api()).orElseThrow(() -> new GatewayException(
                ErrorKind.FORBIDDEN, "action [" + route.api() + "] has no authorization rule and is refused while"
                + " security is on"));
        String action = rule.action();
        switch (rule.scope()) {
            case CLUSTER, API_KEY -> security.authorizeCluster(who, action);
            case HEALTH, METRICS -> security.authorizeCluster(who, action);
            case AUTHENTICATED -> {
            }
            case OWN_PASSWORD -> {
                String user = pathParams.get("username");
                if (user != null && !user.equals(who.username()) || who.isApiKey()) {
                    security.authorizeCluster(who, action);
                }
            }
            case INDEX -> {
                return indices(who, route, action, pathParams, params, body);
            }
            case BODY -> {
                if (ITEMIZED.contains(route.api())) {
                    ItemAccess.composite(who, action); // then each item on its own (ItemAccess)
                } else {
                    security.authorizeAll(who, bodyIndices(route.api(), pathParams.get("index"), body));
                }
            }
        }
        return pathParams;
    }

    private Map<String, String> indices(Authentication who, Route route, String action, Map<String, String> pathParams,
                                        Map<String, String> params, byte[] body) {
        if (route.api().equals("index") && "create".equals(params.get("op_type"))) {
            action = "indices:data/write/index:op_type/create";
        }
        if (route.api().equals("indices.put_alias") && body.length > 0
                && codec.parse(body) instanceof JsonObject given
                && (given.get("index") != null || given.get("alias") != null)) {
            // the body's index and alias win over the path's: both must be granted as named, without narrowing
            Map<String, List<String>> named = new LinkedHashMap<>();
            add(named, action, AliasActions.bodyText(given, "index").orElse(pathParams.get("index")));
            add(named, action, AliasActions.bodyText(given, "alias").orElse(pathParams.get("name")));
            security.authorizeAll(who, named);
            return pathParams;
        }
        String expression = pathParams.get("index");
        if (expression == null) {
            if (route.api().equals("indices.analyze")) {
                return pathParams; // analyzes text with built-in analyzers: reads no index
            }
            if ((route.api().equals("search") || route.api().equals("count")) && isPitSearch(body)) {
                return pathParams; // the point in time's id is the capability, as a scroll id is
            }
            expression = "_all";
        }
        String narrowed = security.authorizeIndices(who, action, expression);
        if (route.api().equals("index") || route.api().equals("create") || route.api().equals("update")) {
            GatewayException denied = security.autoCreateDenial(who, expression);
            if (denied != null) {
                throw denied;
            }
        }
        String alias = pathParams.get("name");
        if (alias != null && (route.api().equals("indices.put_alias") || route.api().equals("indices.delete_alias"))) {
            security.authorizeIndices(who, action, alias);
        }
        if (narrowed.equals(expression) && pathParams.containsKey("index")) {
            return pathParams;
        }
        Map<String, String> out = new LinkedHashMap<>(pathParams);
        out.put("index", narrowed);
        return out;
    }

    private boolean isPitSearch(byte[] body) {
        if (body.length == 0 || !new String(body, StandardCharsets.UTF_8).contains("\"pit\"")) {
            return false;
        }
        try {
            return codec.parse(body) instanceof JsonObject o && o.has("pit");
        } catch (GatewayException e) {
            return false;
        }
    }

    /** The index expressions a body-addressed request names, by the action each is used for. */
    private Map<String, List<String>> bodyIndices(String api, String pathIndex, byte[] body) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        switch (api) {
            case "reindex" -> reindex(body, out);
            case "indices.update_aliases" -> aliases(body, out);
            default -> throw new IllegalStateException("no body rule for " + api);
        }
        return out;
    }

    private static void add(Map<String, List<String>> out, String action, String expression) {
        if (expression != null && !expression.isEmpty()) {
            out.computeIfAbsent(action, a -> new ArrayList<>()).add(expression);
        }
    }

    private void reindex(byte[] body, Map<String, List<String>> out) {
        if (body.length == 0 || !(codec.parse(body) instanceof JsonObject o)) {
            return;
        }
        if (o.get("source") instanceof JsonObject source) {
            strings(source.get("index")).forEach(i -> add(out, "indices:data/read/search", i));
        }
        if (o.get("dest") instanceof JsonObject dest) {
            boolean create = dest.get("op_type") instanceof JsonValue.JsonString s && s.value().equals("create");
            strings(dest.get("index")).forEach(i -> add(out, create ? "indices:data/write/index:op_type/create"
                    : "indices:data/write/index", i));
        }
    }

    private void aliases(byte[] body, Map<String, List<String>> out) {
        if (body.length == 0 || !(codec.parse(body) instanceof JsonObject o)
                || !(o.get("actions") instanceof JsonArray actions)) {
            return;
        }
        for (JsonValue a : actions.elements()) {
            if (!(a instanceof JsonObject action)) {
                continue;
            }
            action.members().forEach((kind, value) -> {
                if (!(value instanceof JsonObject v)) {
                    return;
                }
                String name = kind.equals("remove_index") ? "indices:admin/delete" : "indices:admin/aliases";
                strings(v.get("index")).forEach(i -> add(out, name, i));
                strings(v.get("indices")).forEach(i -> add(out, name, i));
                strings(v.get("alias")).forEach(i -> add(out, "indices:admin/aliases", i));
                strings(v.get("aliases")).forEach(i -> add(out, "indices:admin/aliases", i));
            });
        }
    }

    private static List<String> strings(JsonValue v) {
        if (v instanceof JsonValue.JsonString s) {
            return List.of(s.value());
        }
        List<String> out = new ArrayList<>();
        if (v instanceof JsonArray a) {
            a.elements().forEach(e -> {
                if (e instanceof JsonValue.JsonString s) {
                    out.add(s.value());
                }
            });
        }
        return out;
    }
}
