package io.qdrant.esgateway.domain.security;

import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The reserved roles every gateway has, which the role API can read but not change: {@code superuser} (everything),
 * {@code viewer} (monitor the cluster, read every index and its metadata) and {@code editor} (as viewer, and write
 * documents of every index).
 */
public final class BuiltInRoles {
    private static final Map<String, RoleDescriptor> ROLES = Map.of(
            "superuser", role("superuser", List.of("all"),
                    List.of(new RoleDescriptor.IndicesPrivileges(List.of("*"), List.of("all"), true))),
            "viewer", role("viewer", List.of("monitor"),
                    List.of(new RoleDescriptor.IndicesPrivileges(List.of("*"),
                            List.of("read", "view_index_metadata", "monitor"), false))),
            "editor", role("editor", List.of("monitor"),
                    List.of(new RoleDescriptor.IndicesPrivileges(List.of("*"),
                            List.of("read", "write", "view_index_metadata", "monitor"), false))));

    private BuiltInRoles() {
    }

    private static RoleDescriptor role(String name, List<String> cluster,
                                       List<RoleDescriptor.IndicesPrivileges> indices) {
        return new RoleDescriptor(name, cluster, indices, JsonObjectBuilder.object().put("_reserved", true).build(),
                null);
    }

    public static Optional<RoleDescriptor> get(String name) {
        return Optional.ofNullable(ROLES.get(name));
    }

    public static boolean isReserved(String name) {
        return ROLES.containsKey(name);
    }

    /** The reserved role names, sorted. */
    public static List<String> names() {
        return ROLES.keySet().stream().sorted().toList();
    }
}
