package io.qdrant.esgateway.domain.security;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonReads;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A role as Elasticsearch's role API reads and writes it: cluster privileges, and index privileges over index name
 * patterns. Document and field level security ({@code query}, {@code field_security}), {@code run_as} and
 * application privileges are refused as not supported.
 */
public record RoleDescriptor(String name, List<String> cluster, List<IndicesPrivileges> indices,
                             JsonObject metadata, String description) {

    /** One {@code indices} entry: the index name patterns and the privileges on them. */
    public record IndicesPrivileges(List<String> names, List<String> privileges, boolean allowRestrictedIndices) {
        public IndicesPrivileges {
            names = List.copyOf(names);
            privileges = List.copyOf(privileges);
        }
    }

    public RoleDescriptor {
        cluster = List.copyOf(cluster);
        indices = List.copyOf(indices);
        metadata = metadata == null ? JsonObject.of() : metadata;
    }

    /** Reads a role body ({@code PUT /_security/role/{name}} or one of an API key's {@code role_descriptors}). */
    public static RoleDescriptor parse(String name, JsonValue body) {
        JsonObject o = JsonReads.object(body, GatewayException::parse, "role [" + name + "]");
        List<String> cluster = List.of();
        List<IndicesPrivileges> indices = new ArrayList<>();
        JsonObject metadata = JsonObject.of();
        String description = null;
        for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
            JsonValue v = e.getValue();
            switch (e.getKey()) {
                case "cluster" -> cluster = strings(v, "cluster");
                case "indices", "index" -> {
                    if (!(v instanceof JsonArray a)) {
                        throw GatewayException.parse("failed to parse indices privileges for role [" + name
                                + "]. expected field [indices] value to be an array, but found [" + v.tokenName()
                                + "] instead");
                    }
                    for (JsonValue entry : a.elements()) {
                        indices.add(indicesPrivileges(name, entry));
                    }
                }
                case "metadata" -> metadata = JsonReads.object(v, GatewayException::parse, "[metadata]");
                case "description" -> description = JsonReads.text(v).orElse(null);
                case "transient_metadata" -> {
                    // Elasticsearch ignores it on input
                }
                case "applications", "run_as", "remote_indices", "remote_cluster" -> {
                    if (!(v instanceof JsonArray a) || !a.elements().isEmpty()) {
                        throw GatewayException.unsupported("[" + e.getKey() + "] in a role");
                    }
                }
                case "global" -> {
                    if (!(v instanceof JsonObject g) || !g.members().isEmpty()) {
                        throw GatewayException.unsupported("[global] privileges in a role");
                    }
                }
                default -> throw GatewayException.parse("failed to parse role [" + name + "]. unexpected field ["
                        + e.getKey() + "]");
            }
        }
        for (String privilege : cluster) {
            if (Privileges.cluster(privilege).isEmpty()) {
                throw GatewayException.illegalArgument("unknown cluster privilege [" + privilege
                        + "]. a privilege must be either one of the predefined cluster privilege names "
                        + "[all,manage,manage_api_key,manage_index_templates,manage_own_api_key,manage_security,"
                        + "monitor,none] or a pattern over one of the available cluster actions");
            }
        }
        return new RoleDescriptor(name, cluster, indices, metadata, description);
    }

    private static IndicesPrivileges indicesPrivileges(String role, JsonValue entry) {
        JsonObject o = JsonReads.object(entry, GatewayException::parse, "indices privileges of role [" + role + "]");
        List<String> names = null;
        List<String> privileges = null;
        boolean restricted = false;
        for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
            switch (e.getKey()) {
                case "names" -> names = strings(e.getValue(), "names");
                case "privileges" -> privileges = strings(e.getValue(), "privileges");
                case "allow_restricted_indices" -> restricted = JsonReads.bool(e.getValue()).orElseThrow(() ->
                        GatewayException.parse("failed to parse indices privileges for role [" + role
                                + "]. [allow_restricted_indices] must be a boolean"));
                case "field_security", "query" -> throw GatewayException.unsupported("[" + e.getKey()
                        + "] (document and field level security) in a role");
                default -> throw GatewayException.parse("failed to parse indices privileges for role [" + role
                        + "]. unexpected field [" + e.getKey() + "]");
            }
        }
        if (names == null) {
            throw GatewayException.parse("failed to parse indices privileges for role [" + role
                    + "]. missing required [names] field");
        }
        if (privileges == null) {
            throw GatewayException.parse("failed to parse indices privileges for role [" + role
                    + "]. missing required [privileges] field");
        }
        for (String privilege : privileges) {
            if (Privileges.index(privilege).isEmpty()) {
                throw GatewayException.illegalArgument("unknown index privilege [" + privilege
                        + "]. a privilege must be either one of the predefined fixed indices privileges "
                        + "[all,auto_configure,create,create_doc,create_index,delete,delete_index,index,maintenance,"
                        + "manage,monitor,none,read,view_index_metadata,write] or a pattern over one of the "
                        + "available index actions");
            }
        }
        for (String n : names) {
            try {
                NamePattern.of(n);
            } catch (IllegalArgumentException ex) {
                throw GatewayException.illegalArgument(ex.getMessage());
            }
        }
        return new IndicesPrivileges(names, privileges, restricted);
    }

    private static List<String> strings(JsonValue v, String field) {
        if (v instanceof JsonValue.JsonString s) {
            return List.of(s.value());
        }
        if (!(v instanceof JsonArray a)) {
            throw GatewayException.parse("[" + field + "] must be a string or an array of strings, got ["
                    + v.tokenName() + "]");
        }
        List<String> out = new ArrayList<>();
        for (JsonValue e : a.elements()) {
            out.add(JsonReads.text(e).orElseThrow(() -> GatewayException.parse("[" + field
                    + "] must hold strings, got [" + e.tokenName() + "]")));
        }
        return out;
    }

    /** The role as Elasticsearch's {@code GET /_security/role} shows it (without the name). */
    public JsonObject toJson() {
        List<JsonValue> idx = new ArrayList<>();
        for (IndicesPrivileges p : indices) {
            idx.add(JsonObjectBuilder.object().put("names", array(p.names()))
                    .put("privileges", array(p.privileges()))
                    .put("allow_restricted_indices", p.allowRestrictedIndices()).build());
        }
        JsonObjectBuilder b = JsonObjectBuilder.object().put("cluster", array(cluster))
                .put("indices", new JsonArray(idx))
                .put("applications", new JsonArray(List.of()))
                .put("run_as", new JsonArray(List.of()))
                .put("metadata", metadata)
                .put("transient_metadata", JsonObjectBuilder.object().put("enabled", true).build());
        if (description != null) {
            b.put("description", description);
        }
        return b.build();
    }

    private static JsonArray array(List<String> values) {
        return new JsonArray(values.stream().<JsonValue>map(JsonValue.JsonString::new).toList());
    }
}
