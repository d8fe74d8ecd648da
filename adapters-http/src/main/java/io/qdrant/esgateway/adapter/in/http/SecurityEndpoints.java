package io.qdrant.esgateway.adapter.in.http;

import static io.qdrant.esgateway.adapter.in.http.Routes.route;

import io.qdrant.esgateway.application.port.in.SecurityOperations;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.security.Authentication;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Elasticsearch's security APIs: {@code _authenticate}, API keys, users and roles, in the shapes Elasticsearch
 * answers. With security off they answer a 400 saying so.
 */
final class SecurityEndpoints {
    private final SecurityOperations security;

    SecurityEndpoints(SecurityOperations security) {
        this.security = security;
    }

    void register(Router router) {
        router.add(route("GET", "/_security/_authenticate", "security.authenticate", "", false,
                        r -> EsResponse.ok(security().describe(caller()))))
                .add(route("POST,PUT", "/_security/api_key", "security.create_api_key", "refresh", true,
                        r -> EsResponse.ok(security().createApiKey(caller(), r.body().orElse(null)))))
                .add(route("GET", "/_security/api_key", "security.get_api_key",
                        "id,name,username,realm_name,owner,with_limited_by,active_only,with_profile_uid", false,
                        r -> EsResponse.ok(security().apiKeys(caller(), params(r, "id", "name", "username",
                                "realm_name", "owner", "with_limited_by", "active_only")))))
                .add(route("DELETE", "/_security/api_key", "security.invalidate_api_key", "", true,
                        r -> EsResponse.ok(security().invalidateApiKeys(caller(), r.requiredBody()))))
                .add(route("PUT,POST", "/_security/user/{username}", "security.put_user", "refresh", true,
                        this::putUser))
                .add(route("GET", "/_security/user", "security.get_user", "with_profile_uid", false,
                        r -> found(security().users(List.of()), List.of())))
                .add(route("GET", "/_security/user/{username}", "security.get_user", "with_profile_uid", false,
                        r -> found(security().users(names(r, "username")), names(r, "username"))))
                .add(route("DELETE", "/_security/user/{username}", "security.delete_user", "refresh", false,
                        r -> deleted(security().deleteUser(r.pathParam("username")))))
                .add(route("PUT,POST", "/_security/user/{username}/_password", "security.change_password",
                        "refresh", true, r -> changePassword(r, Optional.of(r.pathParam("username")))))
                .add(route("PUT,POST", "/_security/user/_password", "security.change_password", "refresh", true,
                        r -> changePassword(r, Optional.empty())))
                .add(route("PUT,POST", "/_security/role/{name}", "security.put_role", "refresh", true,
                        r -> EsResponse.ok(JsonObjectBuilder.object().put("role", JsonObjectBuilder.object()
                                .put("created", security().putRole(r.pathParam("name"), r.requiredBody())))
                                .build())))
                .add(route("GET", "/_security/role", "security.get_role", "", false,
                        r -> found(security().roles(List.of()), List.of())))
                .add(route("GET", "/_security/role/{name}", "security.get_role", "", false,
                        r -> found(security().roles(names(r, "name")), names(r, "name"))))
                .add(route("DELETE", "/_security/role/{name}", "security.delete_role", "refresh", false,
                        r -> deleted(security().deleteRole(r.pathParam("name")))));
    }

    private SecurityOperations security() {
        if (security == null) {
            throw GatewayException.illegalArgument("security is not enabled on this gateway: start it with"
                    + " QEG_SECURITY=true (--security true) to use the security APIs");
        }
        return security;
    }

    private static Authentication caller() {
        return AccessControl.CALLER.get();
    }

    private EsResponse putUser(EsRequest r) {
        boolean created = security().putUser(caller(), r.pathParam("username"), r.requiredBody());
        return EsResponse.ok(JsonObjectBuilder.object().put("created", created).build());
    }

    private EsResponse changePassword(EsRequest r, Optional<String> username) {
        security().changePassword(caller(), username, r.requiredBody());
        return EsResponse.ok(JsonObjectBuilder.object().build());
    }

    private static List<String> names(EsRequest r, String param) {
        return Arrays.stream(r.pathParam(param).split(",")).filter(s -> !s.isEmpty()).toList();
    }

    private static Map<String, String> params(EsRequest r, String... names) {
        Map<String, String> out = new java.util.HashMap<>();
        for (String n : names) {
            r.param(n).ifPresent(v -> out.put(n, v.isEmpty() ? "true" : v));
        }
        return out;
    }

    /** Elasticsearch's answer to a read by name: the found ones, or {@code {}} with 404 when none was. */
    private static EsResponse found(Map<String, JsonValue> found, List<String> asked) {
        JsonObjectBuilder b = JsonObjectBuilder.object();
        found.forEach(b::put);
        return EsResponse.json(found.isEmpty() && !asked.isEmpty() ? 404 : 200, b.build());
    }

    private static EsResponse deleted(boolean found) {
        return EsResponse.json(found ? 200 : 404, JsonObjectBuilder.object().put("found", found).build());
    }
}
