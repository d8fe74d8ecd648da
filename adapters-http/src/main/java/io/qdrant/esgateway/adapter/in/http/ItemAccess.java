package io.qdrant.esgateway.adapter.in.http;

import io.qdrant.esgateway.application.port.in.SecurityOperations;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.security.Authentication;
import io.qdrant.esgateway.domain.security.Denials;
import java.util.List;

/**
 * Authorization of each item of {@code _bulk}, {@code _mget} and {@code _msearch} when security is on, as
 * Elasticsearch: the request needs its action granted on some index ({@link #composite}); then an item on an index
 * the caller may not use fails alone with a 403 {@code security_exception} while the others run. A bulk item is
 * checked as ES checks it on its shard ({@code indices:data/write/bulk[s]}, then the item's own action), an mget
 * item as {@code indices:data/read/mget[shard]}, an msearch item as a search (its wildcards narrowed to what the
 * caller may read). Without security every item is allowed.
 */
final class ItemAccess {
    /** The security service of the running request (bound with {@link AccessControl#CALLER}). */
    static final ScopedValue<SecurityOperations> SECURITY = ScopedValue.newInstance();

    static final String BULK_SHARD = "indices:data/write/bulk[s]";
    static final String MGET_SHARD = "indices:data/read/mget[shard]";
    static final String SEARCH = "indices:data/read/search";

    private ItemAccess() {
    }

    private static Authentication caller() {
        return AccessControl.CALLER.isBound() ? AccessControl.CALLER.get() : null;
    }

    /** The request-level check: {@code action} granted on at least one index, else ES's 403 naming no index. */
    static void composite(Authentication who, String action) {
        if (!who.permission().allowsIndexActionSomewhere(action)) {
            throw Denials.index(who, action, null);
        }
    }

    /**
     * The 403 of a bulk item of {@code type} ({@code index}, {@code create}, {@code update}, {@code delete}) on
     * {@code index}, or null when it may run.
     */
    static GatewayException deniedWrite(String type, String index) {
        Authentication who = caller();
        if (who == null || index == null) {
            return null;
        }
        if (!who.permission().allowsIndex(BULK_SHARD, index)) {
            return Denials.index(who, BULK_SHARD, List.of(index));
        }
        String action = switch (type) {
            case "create" -> "indices:data/write/index:op_type/create";
            case "update" -> "indices:data/write/update";
            case "delete" -> "indices:data/write/delete";
            default -> "indices:data/write/index:op_type/index";
        };
        if (!who.permission().allowsIndex(action, index)) {
            return Denials.index(who, action, List.of(index));
        }
        // a write other than a delete on a missing index creates it: that needs indices:admin/auto_create too
        return !type.equals("delete") && SECURITY.isBound()
                ? SECURITY.get().autoCreateDenial(who, index) : null;
    }

    /** The 403 of an mget item on {@code index}, or null when it may be read. */
    static GatewayException deniedGet(String index) {
        Authentication who = caller();
        if (who == null || who.permission().allowsIndex(MGET_SHARD, index)) {
            return null;
        }
        return Denials.index(who, MGET_SHARD, List.of(index));
    }

    /**
     * Clearing every scroll ({@code _all}) is the cluster action {@code cluster:admin/indices/scroll/clear_all} when
     * security is on, as Elasticsearch: a 403 unless the caller has it.
     */
    static void clearAllScrolls() {
        Authentication who = caller();
        String action = "cluster:admin/indices/scroll/clear_all";
        if (who != null && !who.permission().allowsCluster(action)) {
            throw Denials.forbidden(who, action, null,
                    io.qdrant.esgateway.domain.security.Privileges.clusterGranting(action), "cluster");
        }
    }

    /** An msearch item's index expression narrowed to what the caller may search; a 403 when it names more. */
    static String searchable(String expression) {
        Authentication who = caller();
        if (who == null || !SECURITY.isBound()) {
            return expression;
        }
        return SECURITY.get().authorizeIndices(who, SEARCH, expression);
    }
}
