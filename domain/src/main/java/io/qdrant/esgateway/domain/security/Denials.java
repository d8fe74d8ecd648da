package io.qdrant.esgateway.domain.security;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.util.List;

/**
 * Elasticsearch's 403 {@code security_exception}: "action [a] is unauthorized for user [u] with effective roles [r]
 * on indices [i], this action is granted by the index privileges [p]" (for an API key: "API key id [k] of user [u]").
 */
public final class Denials {
    private Denials() {
    }

    /**
     * The denial of {@code action} to {@code who}; {@code indices} named when not null; {@code granting}: the
     * privileges that would grant it, of {@code kind} ({@code cluster} or {@code index}).
     */
    public static GatewayException forbidden(Authentication who, String action, List<String> indices,
                                             List<String> granting, String kind) {
        StringBuilder b = new StringBuilder("action [").append(action).append("] is unauthorized for ");
        if (who.apiKey().isPresent()) {
            b.append("API key id [").append(who.apiKey().get().id()).append("] of user [").append(who.username())
                    .append("]");
        } else {
            b.append("user [").append(who.username()).append("] with effective roles [")
                    .append(String.join(",", who.roles().stream().sorted().toList())).append("]");
        }
        if (indices != null) {
            b.append(" on indices [").append(String.join(",", indices)).append("]");
        }
        if (!granting.isEmpty()) {
            b.append(", this action is granted by the ").append(kind).append(" privileges [")
                    .append(String.join(",", granting)).append("]");
        }
        return new GatewayException(ErrorKind.FORBIDDEN, b.toString());
    }

    /** The denial of the index action {@code action} on {@code indices} (null: none named). */
    public static GatewayException index(Authentication who, String action, List<String> indices) {
        return forbidden(who, action, indices, Privileges.indexGranting(action), "index");
    }
}
