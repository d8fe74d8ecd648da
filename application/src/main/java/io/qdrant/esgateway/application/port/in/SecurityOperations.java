package io.qdrant.esgateway.application.port.in;

import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.security.Authentication;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Authentication and authorization as Elasticsearch's security answers them, and its user, role and API key APIs.
 * Failures are {@code UNAUTHENTICATED} (401) and {@code FORBIDDEN} (403) errors with Elasticsearch's reasons.
 */
public interface SecurityOperations {

    /**
     * Who sends a request with this {@code Authorization} header ({@code Basic} or {@code ApiKey}); a missing,
     * malformed or wrong credential is a 401 naming {@code path}. Verified credentials are kept (as a keyed hash) for
     * a short while, so the password hash is not computed on every request.
     */
    Authentication authenticate(String authorization, String path);

    /** Throws 403 unless {@code who} may run the cluster action. */
    void authorizeCluster(Authentication who, String action);

    /**
     * The index expression {@code who} runs {@code action} on: explicit names (indices or aliases) must each be
     * allowed (else 403), wildcards ({@code *}, {@code _all}) keep only the names {@code who} is allowed; when no name
     * is left the answer names nothing ({@code *,-*}).
     */
    String authorizeIndices(Authentication who, String action, String expression);

    /**
     * The 403 for a write by {@code who} that would create {@code index} because no index or alias of that name
     * exists (Elasticsearch's {@code indices:admin/auto_create}, granted by {@code create_index},
     * {@code auto_configure}, {@code manage} and {@code all}), or null when the name exists or {@code who} may create
     * it.
     */
    io.qdrant.esgateway.domain.error.GatewayException autoCreateDenial(Authentication who, String index);

    /**
     * Throws 403 unless {@code who} may run each action on each of its index expressions; a wildcard is allowed only
     * when every name it matches is (expressions inside a request body, which are not narrowed).
     */
    void authorizeAll(Authentication who, Map<String, List<String>> expressionsByAction);

    /** {@code GET /_security/_authenticate}. */
    JsonValue describe(Authentication who);

    /** Creates or replaces a user; true if created. */
    boolean putUser(Authentication who, String username, JsonValue body);

    /** The users named (all when empty), as {@code GET /_security/user} shows them. */
    Map<String, JsonValue> users(List<String> names);

    /** False if there was no such user. */
    boolean deleteUser(String username);

    /** Sets a user's password ({@code username} empty: the caller's own). */
    void changePassword(Authentication who, Optional<String> username, JsonValue body);

    /** Creates or replaces a role; true if created. */
    boolean putRole(String name, JsonValue body);

    /** The roles named (all when empty), reserved ones included. */
    Map<String, JsonValue> roles(List<String> names);

    /** False if there was no such role. */
    boolean deleteRole(String name);

    /** {@code POST /_security/api_key}: the new key's id, name, expiration, secret and {@code encoded} form. */
    JsonValue createApiKey(Authentication who, JsonValue body);

    /** {@code GET /_security/api_key} with its URL parameters. */
    JsonValue apiKeys(Authentication who, Map<String, String> params);

    /** {@code DELETE /_security/api_key} with Elasticsearch's invalidate body. */
    JsonValue invalidateApiKeys(Authentication who, JsonValue body);
}
