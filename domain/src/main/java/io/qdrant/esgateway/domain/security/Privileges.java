package io.qdrant.esgateway.domain.security;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Elasticsearch's named privileges and the action names each grants. Cluster privileges grant {@code cluster:*}
 * actions (and the index-template ones, which Elasticsearch also treats as cluster actions); index privileges grant
 * {@code indices:*} actions on the indices their role names. A privilege may also be written as an action pattern
 * ({@code indices:data/read/*}). The maps are in the order a 403 lists "the privileges that grant this action".
 */
public final class Privileges {
    /** The security APIs' actions. */
    public static final String SECURITY_ACTIONS = "cluster:admin/xpack/security/*";
    public static final String API_KEY_ACTIONS = "cluster:admin/xpack/security/api_key/*";

    /**
     * The suffix of an API key action on the caller's own keys ({@code …/api_key/get/own}): what
     * {@code manage_own_api_key} grants, where {@code manage_api_key} grants the action on every key.
     */
    public static final String OWN = "/own";

    private static final Map<String, List<String>> CLUSTER = new LinkedHashMap<>();
    private static final Map<String, List<String>> INDEX = new LinkedHashMap<>();

    static {
        CLUSTER.put("none", List.of());
        CLUSTER.put("monitor", List.of("cluster:monitor/*"));
        CLUSTER.put("manage_own_api_key", List.of(API_KEY_ACTIONS + OWN));
        CLUSTER.put("manage_api_key", List.of(API_KEY_ACTIONS));
        CLUSTER.put("manage_index_templates", List.of("indices:admin/template/*", "indices:admin/index_template/*",
                "cluster:admin/component_template/*"));
        CLUSTER.put("manage_security", List.of(SECURITY_ACTIONS));
        CLUSTER.put("manage", List.of("cluster:*", "indices:admin/template/*", "indices:admin/index_template/*"));
        CLUSTER.put("all", List.of("cluster:*", "indices:admin/template/*", "indices:admin/index_template/*"));

        INDEX.put("none", List.of());
        INDEX.put("create_doc", List.of("indices:data/write/index:op_type/create", "indices:data/write/bulk*",
                "indices:admin/mapping/auto_put"));
        INDEX.put("create", List.of("indices:data/write/index:op_type/create", "indices:data/write/bulk*",
                "indices:admin/mapping/auto_put"));
        INDEX.put("delete", List.of("indices:data/write/delete*", "indices:data/write/bulk*"));
        INDEX.put("index", List.of("indices:data/write/index*", "indices:data/write/update*",
                "indices:data/write/bulk*", "indices:admin/mapping/auto_put"));
        INDEX.put("write", List.of("indices:data/write/*", "indices:admin/mapping/auto_put"));
        INDEX.put("read", List.of("indices:data/read/*", "indices:admin/resolve/index"));
        INDEX.put("view_index_metadata", List.of("indices:admin/get", "indices:admin/aliases/get",
                "indices:admin/mappings/get", "indices:admin/mappings/fields/get*", "indices:monitor/settings/get",
                "indices:admin/resolve/index", "indices:admin/validate/query*", "indices:admin/analyze*"));
        INDEX.put("monitor", List.of("indices:monitor/*"));
        INDEX.put("maintenance", List.of("indices:admin/refresh*", "indices:admin/flush*",
                "indices:admin/forcemerge*"));
        INDEX.put("auto_configure", List.of("indices:admin/auto_create", "indices:admin/mapping/auto_put"));
        INDEX.put("create_index", List.of("indices:admin/create", "indices:admin/auto_create"));
        INDEX.put("delete_index", List.of("indices:admin/delete"));
        INDEX.put("manage", List.of("indices:monitor/*", "indices:admin/*"));
        INDEX.put("all", List.of("indices:*"));
    }

    private Privileges() {
    }

    /** The action patterns of a cluster privilege (a name or an action pattern), or empty if it is unknown. */
    public static Optional<List<String>> cluster(String privilege) {
        if (privilege.startsWith("cluster:")) {
            return Optional.of(List.of(privilege));
        }
        return Optional.ofNullable(CLUSTER.get(privilege));
    }

    /** The action patterns of an index privilege (a name or an action pattern), or empty if it is unknown. */
    public static Optional<List<String>> index(String privilege) {
        if (privilege.startsWith("indices:")) {
            return Optional.of(List.of(privilege));
        }
        return Optional.ofNullable(INDEX.get(privilege));
    }

    /** The named cluster privileges that grant {@code action}, in the order Elasticsearch lists them. */
    public static List<String> clusterGranting(String action) {
        return granting(CLUSTER, action);
    }

    /** The named index privileges that grant {@code action}. */
    public static List<String> indexGranting(String action) {
        return granting(INDEX, action);
    }

    private static List<String> granting(Map<String, List<String>> privileges, String action) {
        return privileges.keySet().stream().filter(name -> grants(name, privileges.get(name), action)).toList();
    }

    /**
     * Whether the privilege {@code name} with these action patterns grants {@code action}: {@code manage} does not
     * reach the security actions (only {@code all} and the security privileges do).
     */
    static boolean grants(String name, List<String> patterns, String action) {
        if (name.equals("manage") && isSecurityAction(action)) {
            return false;
        }
        for (String p : patterns) {
            if (NamePattern.of(p).matches(action)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code action} is one of the actions only security privileges (or {@code all}) grant. */
    public static boolean isSecurityAction(String action) {
        return action.startsWith("cluster:admin/xpack/security/");
    }

    /** Whether {@code action} is an index action (checked against index privileges), not a cluster one. */
    public static boolean isIndexAction(String action) {
        return action.startsWith("indices:") && !action.startsWith("indices:admin/template/")
                && !action.startsWith("indices:admin/index_template/");
    }
}
