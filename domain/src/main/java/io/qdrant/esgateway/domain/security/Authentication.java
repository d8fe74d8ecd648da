package io.qdrant.esgateway.domain.security;

import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.List;
import java.util.Optional;

/**
 * Who a request runs as: a user of a realm ({@code reserved} for {@code elastic}, {@code default_native} for users
 * kept in the catalog), or an API key of its owner; with the permission its roles (limited by the owner's, for a key)
 * compile to.
 */
public record Authentication(String username, List<String> roles, String fullName, String email, JsonObject metadata,
                             String realm, String realmType, Optional<ApiKeyRef> apiKey, Permission permission) {

    /** The API key a request authenticated with. */
    public record ApiKeyRef(String id, String name) {
    }

    public Authentication {
        roles = List.copyOf(roles);
    }

    public boolean isApiKey() {
        return apiKey.isPresent();
    }
}
