package io.qdrant.esgateway.adapter.in.http;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Every endpoint's Elasticsearch action name and what its authorization looks at, in one table keyed by the route's
 * API name. An endpoint whose API is not here is refused to everyone when security is on (403), and a test checks
 * that every registered route has an entry.
 */
final class RouteActions {

    /** What the authorization of an endpoint checks. */
    enum Scope {
        /** A cluster privilege grants the action. */
        CLUSTER,
        /**
         * An index privilege on the indices of the path's {@code {index}} ({@code _all} without one): explicit names
         * must be allowed, wildcards keep only the allowed names.
         */
        INDEX,
        /** Index privileges on the indices the body names ({@code _bulk}, {@code _mget}, {@code _msearch}, …). */
        BODY,
        /** Any authenticated caller (scroll and point-in-time ids, {@code _authenticate}). */
        AUTHENTICATED,
        /** API key APIs: {@code manage_api_key} on every key, {@code manage_own_api_key} on the caller's own. */
        API_KEY,
        /** A user's own password; another user's needs the cluster action. */
        OWN_PASSWORD,
        /** {@code /healthz} and {@code /readyz}: open or authenticated as configured. */
        HEALTH,
        /** {@code /metrics}: open or authenticated as configured. */
        METRICS
    }

    record Rule(String action, Scope scope) {
    }

    private static final Map<String, Rule> RULES = new HashMap<>();

    private static void add(String api, String action, Scope scope) {
        if (RULES.put(api, new Rule(action, scope)) != null) {
            throw new IllegalStateException("two rules for " + api);
        }
    }

    static {
        add("info", "cluster:monitor/main", Scope.CLUSTER);
        add("ping", "cluster:monitor/main", Scope.CLUSTER);
        add("cluster.health", "cluster:monitor/health", Scope.CLUSTER);
        add("tasks.list", "cluster:monitor/tasks/lists", Scope.CLUSTER);
        add("tasks.get", "cluster:monitor/task/get", Scope.CLUSTER);
        add("tasks.cancel", "cluster:admin/tasks/cancel", Scope.CLUSTER);
        add("reindex_rethrottle", "cluster:admin/reindex/rethrottle", Scope.CLUSTER);
        add("delete_by_query_rethrottle", "cluster:admin/reindex/rethrottle", Scope.CLUSTER);
        add("update_by_query_rethrottle", "cluster:admin/reindex/rethrottle", Scope.CLUSTER);
        add("put_script", "cluster:admin/script/put", Scope.CLUSTER);
        add("get_script", "cluster:admin/script/get", Scope.CLUSTER);
        add("delete_script", "cluster:admin/script/delete", Scope.CLUSTER);
        add("indices.simulate_index_template", "indices:admin/index_template/simulate_index", Scope.CLUSTER);
        add("indices.simulate_template", "indices:admin/index_template/simulate", Scope.CLUSTER);
        add("indices.put_index_template", "indices:admin/index_template/put", Scope.CLUSTER);
        add("indices.get_index_template", "indices:admin/index_template/get", Scope.CLUSTER);
        add("indices.delete_index_template", "indices:admin/index_template/delete", Scope.CLUSTER);
        add("indices.put_template", "indices:admin/index_template/put", Scope.CLUSTER);
        add("indices.get_template", "indices:admin/index_template/get", Scope.CLUSTER);
        add("cluster.put_component_template", "cluster:admin/component_template/put", Scope.CLUSTER);
        add("cluster.get_component_template", "cluster:admin/component_template/get", Scope.CLUSTER);
        add("cluster.delete_component_template", "cluster:admin/component_template/delete", Scope.CLUSTER);
        add("nodes.info", "cluster:monitor/nodes/info", Scope.CLUSTER);
        add("nodes.stats", "cluster:monitor/nodes/stats", Scope.CLUSTER);
        add("cat.health", "cluster:monitor/health", Scope.CLUSTER);
        add("cat.aliases", "cluster:monitor/state", Scope.CLUSTER);

        add("cat.indices", "indices:monitor/stats", Scope.INDEX);
        add("cat.count", "indices:data/read/search", Scope.INDEX);
        add("indices.stats", "indices:monitor/stats", Scope.INDEX);
        add("field_caps", "indices:data/read/field_caps", Scope.INDEX);
        add("indices.create", "indices:admin/create", Scope.INDEX);
        add("indices.delete", "indices:admin/delete", Scope.INDEX);
        add("indices.exists", "indices:admin/get", Scope.INDEX);
        add("indices.get", "indices:admin/get", Scope.INDEX);
        add("indices.get_mapping", "indices:admin/mappings/get", Scope.INDEX);
        add("indices.get_field_mapping", "indices:admin/mappings/fields/get", Scope.INDEX);
        add("indices.put_mapping", "indices:admin/mapping/put", Scope.INDEX);
        add("indices.get_settings", "indices:monitor/settings/get", Scope.INDEX);
        add("indices.put_settings", "indices:admin/settings/update", Scope.INDEX);
        add("indices.add_block", "indices:admin/block/add", Scope.INDEX);
        add("indices.refresh", "indices:admin/refresh", Scope.INDEX);
        add("indices.close", "indices:admin/close", Scope.INDEX);
        add("indices.open", "indices:admin/open", Scope.INDEX);
        add("indices.analyze", "indices:admin/analyze", Scope.INDEX);
        add("indices.get_alias", "indices:admin/aliases/get", Scope.INDEX);
        add("indices.exists_alias", "indices:admin/aliases/get", Scope.INDEX);
        add("indices.put_alias", "indices:admin/aliases", Scope.INDEX);
        add("indices.delete_alias", "indices:admin/aliases", Scope.INDEX);
        add("index", "indices:data/write/index", Scope.INDEX);
        add("create", "indices:data/write/index:op_type/create", Scope.INDEX);
        add("update", "indices:data/write/update", Scope.INDEX);
        add("delete", "indices:data/write/delete", Scope.INDEX);
        add("get", "indices:data/read/get", Scope.INDEX);
        add("get_source", "indices:data/read/get", Scope.INDEX);
        add("exists", "indices:data/read/get", Scope.INDEX);
        add("exists_source", "indices:data/read/get", Scope.INDEX);
        add("search", "indices:data/read/search", Scope.INDEX);
        add("count", "indices:data/read/search", Scope.INDEX);
        add("open_point_in_time", "indices:data/read/open_point_in_time", Scope.INDEX);
        add("delete_by_query", "indices:data/write/delete/byquery", Scope.INDEX);
        add("update_by_query", "indices:data/write/update/byquery", Scope.INDEX);

        add("bulk", "indices:data/write/bulk", Scope.BODY);
        add("mget", "indices:data/read/mget", Scope.BODY);
        add("msearch", "indices:data/read/msearch", Scope.BODY);
        add("reindex", "indices:data/write/reindex", Scope.BODY);
        add("indices.update_aliases", "indices:admin/aliases", Scope.BODY);

        add("scroll", "indices:data/read/scroll", Scope.AUTHENTICATED);
        add("clear_scroll", "indices:data/read/scroll/clear", Scope.AUTHENTICATED);
        add("close_point_in_time", "indices:data/read/close_point_in_time", Scope.AUTHENTICATED);
        add("security.authenticate", "cluster:admin/xpack/security/user/authenticate", Scope.AUTHENTICATED);

        add("security.create_api_key", "cluster:admin/xpack/security/api_key/create", Scope.API_KEY);
        add("security.get_api_key", "cluster:admin/xpack/security/api_key/get", Scope.API_KEY);
        add("security.invalidate_api_key", "cluster:admin/xpack/security/api_key/invalidate", Scope.API_KEY);
        add("security.put_user", "cluster:admin/xpack/security/user/put", Scope.CLUSTER);
        add("security.get_user", "cluster:admin/xpack/security/user/get", Scope.CLUSTER);
        add("security.delete_user", "cluster:admin/xpack/security/user/delete", Scope.CLUSTER);
        add("security.change_password", "cluster:admin/xpack/security/user/change_password", Scope.OWN_PASSWORD);
        add("security.put_role", "cluster:admin/xpack/security/role/put", Scope.CLUSTER);
        add("security.get_role", "cluster:admin/xpack/security/role/get", Scope.CLUSTER);
        add("security.delete_role", "cluster:admin/xpack/security/role/delete", Scope.CLUSTER);

        add("gateway.healthz", "cluster:monitor/gateway/health", Scope.HEALTH);
        add("gateway.readyz", "cluster:monitor/gateway/health", Scope.HEALTH);
        add("gateway.metrics", "cluster:monitor/gateway/metrics", Scope.METRICS);
    }

    private RouteActions() {
    }

    /** The rule of an API, or empty: then the endpoint is refused to everyone. */
    static Optional<Rule> of(String api) {
        return Optional.ofNullable(RULES.get(api));
    }
}
