package io.qdrant.esgateway.domain.security;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a set of roles allows, compiled once per authenticated principal: whether a cluster action may run, and
 * whether an index action may run on an index (or alias) name. An API key's permission is its own roles limited by
 * its owner's (Elasticsearch's intersection: an action is allowed only when both allow it).
 */
public final class Permission {
    private final List<Grant> cluster = new ArrayList<>();
    private final List<IndexGrant> indices = new ArrayList<>();
    private final Permission limitedBy;
    private final Map<String, Boolean> clusterAnswers = new ConcurrentHashMap<>();

    private record Grant(String privilege, List<NamePattern> actions) {
        boolean allows(String action) {
            if (privilege.equals("manage") && Privileges.isSecurityAction(action)) {
                return false;
            }
            for (NamePattern p : actions) {
                if (p.matches(action)) {
                    return true;
                }
            }
            return false;
        }
    }

    private record IndexGrant(List<NamePattern> names, List<Grant> privileges) {
        boolean allows(String action, String index) {
            boolean named = false;
            for (NamePattern n : names) {
                if (n.matches(index)) {
                    named = true;
                    break;
                }
            }
            if (!named) {
                return false;
            }
            for (Grant g : privileges) {
                if (g.allows(action)) {
                    return true;
                }
            }
            return false;
        }
    }

    private Permission(Permission limitedBy) {
        this.limitedBy = limitedBy;
    }

    /** The union of what {@code roles} allow. */
    public static Permission of(Collection<RoleDescriptor> roles) {
        Permission p = new Permission(null);
        for (RoleDescriptor role : roles) {
            for (String c : role.cluster()) {
                p.cluster.add(new Grant(c, patterns(Privileges.cluster(c).orElse(List.of()))));
            }
            for (RoleDescriptor.IndicesPrivileges ip : role.indices()) {
                List<Grant> grants = new ArrayList<>();
                for (String privilege : ip.privileges()) {
                    grants.add(new Grant(privilege, patterns(Privileges.index(privilege).orElse(List.of()))));
                }
                p.indices.add(new IndexGrant(ip.names().stream().map(NamePattern::of).toList(), grants));
            }
        }
        return p;
    }

    /** This permission limited by {@code owner}'s: allowed only where both allow. */
    public Permission limitedBy(Permission owner) {
        Permission p = new Permission(owner);
        p.cluster.addAll(cluster);
        p.indices.addAll(indices);
        return p;
    }

    private static List<NamePattern> patterns(List<String> actions) {
        return actions.stream().map(NamePattern::of).toList();
    }

    /** Whether the cluster action {@code action} may run. */
    public boolean allowsCluster(String action) {
        Boolean known = clusterAnswers.get(action);
        if (known == null) {
            boolean own = false;
            for (Grant g : cluster) {
                if (g.allows(action)) {
                    own = true;
                    break;
                }
            }
            known = own && (limitedBy == null || limitedBy.allowsCluster(action));
            if (clusterAnswers.size() < 1024) {
                clusterAnswers.put(action, known);
            }
        }
        return known;
    }

    /** Whether the index action {@code action} may run on the index or alias {@code name}. */
    public boolean allowsIndex(String action, String name) {
        boolean own = false;
        for (IndexGrant g : indices) {
            if (g.allows(action, name)) {
                own = true;
                break;
            }
        }
        return own && (limitedBy == null || limitedBy.allowsIndex(action, name));
    }

    /** Whether {@code action} may run on at least one index name (a request without indices needs no more). */
    public boolean allowsIndexActionSomewhere(String action) {
        boolean own = false;
        for (IndexGrant g : indices) {
            for (Grant p : g.privileges()) {
                if (p.allows(action)) {
                    own = true;
                    break;
                }
            }
        }
        return own && (limitedBy == null || limitedBy.allowsIndexActionSomewhere(action));
    }
}
