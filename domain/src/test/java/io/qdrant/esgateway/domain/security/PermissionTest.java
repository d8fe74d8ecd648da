package io.qdrant.esgateway.domain.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class PermissionTest {
    private static RoleDescriptor role(String json) {
        return RoleDescriptor.parse("r", Json.parse(json));
    }

    @Test
    void namePatternsMatchWildcardsAndRegularExpressions() {
        assertThat(NamePattern.of("logs-*").matches("logs-2024")).isTrue();
        assertThat(NamePattern.of("logs-*").matches("metrics")).isFalse();
        assertThat(NamePattern.of("log?").matches("logs")).isTrue();
        assertThat(NamePattern.of("log?").matches("logs1")).isFalse();
        assertThat(NamePattern.of("a.b").matches("axb")).as("a dot is literal").isFalse();
        assertThat(NamePattern.of("/logs-[0-9]+/").matches("logs-42")).isTrue();
        assertThat(NamePattern.of("/logs-[0-9]+/").matches("logs-x")).isFalse();
    }

    @Test
    void indexPrivilegesGrantTheirActionsOnTheirPatternsOnly() {
        Permission p = Permission.of(List.of(role("""
                {"cluster":["monitor"],"indices":[{"names":["logs-*"],"privileges":["read"]},
                 {"names":"events","privileges":["create_doc","delete_index"]}]}""")));
        assertThat(p.allowsCluster("cluster:monitor/health")).isTrue();
        assertThat(p.allowsCluster("cluster:admin/script/put")).isFalse();
        assertThat(p.allowsIndex("indices:data/read/search", "logs-1")).isTrue();
        assertThat(p.allowsIndex("indices:data/read/search", "events")).isFalse();
        assertThat(p.allowsIndex("indices:data/write/index", "logs-1")).isFalse();
        assertThat(p.allowsIndex("indices:data/write/index:op_type/create", "events")).isTrue();
        assertThat(p.allowsIndex("indices:data/write/index", "events")).as("create_doc only creates").isFalse();
        assertThat(p.allowsIndex("indices:admin/delete", "events")).isTrue();
        assertThat(p.allowsIndex("indices:admin/create", "events")).isFalse();
    }

    @Test
    void manageDoesNotReachSecurityButAllAndManageSecurityDo() {
        Permission manage = Permission.of(List.of(role("{\"cluster\":[\"manage\"]}")));
        assertThat(manage.allowsCluster("cluster:monitor/health")).isTrue();
        assertThat(manage.allowsCluster("cluster:admin/xpack/security/user/put")).isFalse();
        assertThat(Permission.of(List.of(role("{\"cluster\":[\"all\"]}")))
                .allowsCluster("cluster:admin/xpack/security/user/put")).isTrue();
        assertThat(Permission.of(List.of(role("{\"cluster\":[\"manage_security\"]}")))
                .allowsCluster("cluster:admin/xpack/security/role/get")).isTrue();
    }

    @Test
    void anApiKeyIsLimitedByItsOwner() {
        Permission owner = Permission.of(List.of(role("""
                {"cluster":["monitor"],"indices":[{"names":["a*"],"privileges":["read","write"]}]}""")));
        Permission key = Permission.of(List.of(role("""
                {"cluster":["all"],"indices":[{"names":["*"],"privileges":["read"]}]}"""))).limitedBy(owner);
        assertThat(key.allowsIndex("indices:data/read/search", "abc")).isTrue();
        assertThat(key.allowsIndex("indices:data/read/search", "bcd")).as("the owner may not").isFalse();
        assertThat(key.allowsIndex("indices:data/write/index", "abc")).as("the key may not").isFalse();
        assertThat(key.allowsCluster("cluster:monitor/health")).isTrue();
        assertThat(key.allowsCluster("cluster:admin/script/put")).isFalse();
        assertThat(key.allowsIndexActionSomewhere("indices:data/read/search")).isTrue();
        assertThat(key.allowsIndexActionSomewhere("indices:data/write/index")).isFalse();
    }

    @Test
    void theGrantingPrivilegesAreListedAsElasticsearchDoes() {
        assertThat(Privileges.indexGranting("indices:data/read/search")).containsExactly("read", "all");
        assertThat(Privileges.clusterGranting("cluster:monitor/health")).containsExactly("monitor", "manage", "all");
        assertThat(Privileges.indexGranting("indices:data/write/index:op_type/create"))
                .containsExactly("create_doc", "create", "index", "write", "all");
        assertThat(Privileges.clusterGranting("cluster:admin/xpack/security/user/put"))
                .containsExactly("manage_security", "all");
    }

    @Test
    void unknownPrivilegesAndUnsupportedRoleFeaturesAreRefused() {
        assertThatThrownBy(() -> role("{\"cluster\":[\"fly\"]}")).isInstanceOf(GatewayException.class)
                .hasMessageContaining("unknown cluster privilege [fly]");
        assertThatThrownBy(() -> role("{\"indices\":[{\"names\":[\"a\"],\"privileges\":[\"fly\"]}]}"))
                .hasMessageContaining("unknown index privilege [fly]");
        assertThatThrownBy(() -> role("{\"indices\":[{\"names\":[\"a\"],\"privileges\":[\"read\"],"
                + "\"query\":{\"match_all\":{}}}]}")).hasMessageContaining("document and field level security");
        assertThatThrownBy(() -> role("{\"indices\":[{\"privileges\":[\"read\"]}]}"))
                .hasMessageContaining("missing required [names]");
    }

    @Test
    void builtInRolesAreReservedAndAnswerAsTheirNamesSay() {
        Permission viewer = Permission.of(List.of(BuiltInRoles.get("viewer").orElseThrow()));
        assertThat(viewer.allowsIndex("indices:data/read/search", "x")).isTrue();
        assertThat(viewer.allowsIndex("indices:data/write/bulk", "x")).isFalse();
        Permission editor = Permission.of(List.of(BuiltInRoles.get("editor").orElseThrow()));
        assertThat(editor.allowsIndex("indices:data/write/index", "x")).isTrue();
        assertThat(editor.allowsIndex("indices:admin/delete", "x")).isFalse();
        Permission superuser = Permission.of(List.of(BuiltInRoles.get("superuser").orElseThrow()));
        assertThat(superuser.allowsCluster("cluster:admin/xpack/security/role/put")).isTrue();
        assertThat(superuser.allowsIndex("indices:admin/delete", "x")).isTrue();
        assertThat(BuiltInRoles.isReserved("superuser")).isTrue();
        assertThat(BuiltInRoles.get("superuser").orElseThrow().toJson().get("metadata").toString()).contains("_reserved");
    }
}
