package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Security on both backends, over HTTP: Elasticsearch's 401 and 403 answers, the users, roles and API key APIs,
 * index privileges through explicit names, aliases and wildcards, and the operations endpoints' access settings.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SecurityHttpTest {
    private static final String PASSWORD = "s3cret-elastic";

    private BothBackends both;

    @BeforeAll
    void start(@TempDir Path temp) throws IOException {
        both = BothBackends.start(Files.createDirectories(temp.resolve("lucene")),
                Files.createDirectories(temp.resolve("qdrant")), "QEG_SECURITY", "true",
                "QEG_ELASTIC_PASSWORD", PASSWORD);
        for (String backend : List.of("lucene", "qdrant")) {
            EsClient admin = elastic(backend);
            for (String index : List.of("logs-a", "logs-b", "secret")) {
                assertThat(admin.put("/" + index + "/_doc/1?refresh=true", json("{'from':'" + index + "'}")).status())
                        .isEqualTo(201);
            }
            assertThat(admin.post("/_aliases", json("{'actions':[{'add':{'index':'secret','alias':'open-alias'}}]}"))
                    .status()).isEqualTo(200);
            assertThat(admin.put("/_security/role/logs_reader", json("{'cluster':['monitor'],'indices':["
                    + "{'names':['logs-*'],'privileges':['read','view_index_metadata']}]}")).json()
                    .at("/role/created").asBoolean()).isTrue();
            assertThat(admin.put("/_security/user/lena", json("{'password':'lena-pass','roles':['logs_reader'],"
                    + "'full_name':'Lena Reader'}")).json().path("created").asBoolean()).isTrue();
        }
    }

    @AfterAll
    void stop() {
        if (both != null) {
            both.close();
        }
    }

    static List<String> backends() {
        return List.of("lucene", "qdrant");
    }

    private EsClient elastic(String backend) {
        return both.client(backend).as("elastic", PASSWORD);
    }

    @ParameterizedTest
    @MethodSource("backends")
    void withoutCredentialsTheAnswerIsElasticsearchs401(String backend) {
        EsClient.Reply r = both.client(backend).get("/_cluster/health");
        assertThat(r.status()).isEqualTo(401);
        assertThat(r.errorType()).isEqualTo("security_exception");
        assertThat(r.errorReason()).isEqualTo("missing authentication credentials for REST request [/_cluster/health]");
        assertThat(r.raw().headers().allValues("WWW-Authenticate"))
                .containsExactly("Basic realm=\"security\" charset=\"UTF-8\"", "ApiKey");
        assertThat(r.json().at("/error/root_cause/0/header/WWW-Authenticate/1").asText()).isEqualTo("ApiKey");
        assertThat(r.json().path("status").asInt()).isEqualTo(401);

        EsClient.Reply wrong = both.client(backend).as("elastic", "not-the-password").get("/");
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.errorReason()).isEqualTo("unable to authenticate user [elastic] for REST request [/]");
        assertThat(wrong.body()).doesNotContain("not-the-password");
        assertThat(both.client(backend).as("nobody", "whatever").get("/").errorReason())
                .isEqualTo("unable to authenticate user [nobody] for REST request [/]");
        assertThat(both.client(backend).withAuthorization("Bearer abc").get("/").status()).isEqualTo(401);
        assertThat(both.client(backend).withAuthorization("Basic !!!").get("/").status()).isEqualTo(401);
    }

    @ParameterizedTest
    @MethodSource("backends")
    void authenticateDescribesTheUser(String backend) {
        JsonNode me = elastic(backend).get("/_security/_authenticate").json();
        assertThat(me.path("username").asText()).isEqualTo("elastic");
        assertThat(me.path("roles").toString()).isEqualTo("[\"superuser\"]");
        assertThat(me.at("/authentication_realm/name").asText()).isEqualTo("reserved");
        assertThat(me.path("authentication_type").asText()).isEqualTo("realm");
        assertThat(me.at("/metadata/_reserved").asBoolean()).isTrue();
        JsonNode lena = both.client(backend).as("lena", "lena-pass").get("/_security/_authenticate").json();
        assertThat(lena.path("full_name").asText()).isEqualTo("Lena Reader");
        assertThat(lena.at("/authentication_realm/name").asText()).isEqualTo("default_native");
    }

    @ParameterizedTest
    @MethodSource("backends")
    void indexPrivilegesHoldForNamesAliasesAndWildcards(String backend) {
        EsClient lena = both.client(backend).as("lena", "lena-pass");
        assertThat(lena.get("/logs-a/_doc/1").json().at("/_source/from").asText()).isEqualTo("logs-a");
        EsClient.Reply denied = lena.get("/secret/_doc/1");
        assertThat(denied.status()).isEqualTo(403);
        assertThat(denied.errorType()).isEqualTo("security_exception");
        assertThat(denied.errorReason()).isEqualTo("action [indices:data/read/get] is unauthorized for user [lena]"
                + " with effective roles [logs_reader] on indices [secret], this action is granted by the index"
                + " privileges [read,all]");
        assertThat(lena.post("/secret,logs-a/_search", "{}").errorReason()).isEqualTo("action [indices:data/read/search]"
                + " is unauthorized for user [lena] with effective roles [logs_reader] on indices [secret], this"
                + " action is granted by the index privileges [read,all]");
        assertThat(lena.get("/open-alias/_search").status()).as("an alias is checked by its own name").isEqualTo(403);
        assertThat(sources(lena.get("/*/_search"))).containsExactlyInAnyOrder("logs-a", "logs-b");
        assertThat(sources(lena.get("/_search"))).containsExactlyInAnyOrder("logs-a", "logs-b");
        assertThat(sources(lena.get("/s*/_search"))).as("a wildcard keeps only allowed names").isEmpty();
        assertThat(lena.get("/_count").json().path("count").asInt()).isEqualTo(2);
        assertThat(sources(elastic(backend).get("/*/_search"))).containsExactlyInAnyOrder("logs-a", "logs-b",
                "secret");
        assertThat(lena.put("/logs-a/_doc/2", "{}").errorReason()).startsWith("action [indices:data/write/index] is"
                + " unauthorized for user [lena]").endsWith("granted by the index privileges [index,write,all]");
        assertThat(lena.delete("/logs-a").status()).isEqualTo(403);
        assertThat(lena.get("/_cluster/health").status()).isEqualTo(200);
        assertThat(lena.put("/_scripts/s", json("{'script':{'lang':'painless','source':'1'}}")).errorReason())
                .isEqualTo("action [cluster:admin/script/put] is unauthorized for user [lena] with effective roles"
                        + " [logs_reader], this action is granted by the cluster privileges [manage,all]");
        assertThat(lena.get("/logs-*/_mapping").status()).isEqualTo(200);
        assertThat(lena.get("/_mapping").json().has("secret")).isFalse();
    }

    @ParameterizedTest
    @MethodSource("backends")
    void bodyNamedIndicesAreChecked(String backend) {
        EsClient lena = both.client(backend).as("lena", "lena-pass");
        EsClient.Reply bulk = lena.send("POST", "/_bulk", "{\"index\":{\"_index\":\"logs-a\",\"_id\":\"9\"}}\n{}\n",
                "application/x-ndjson");
        assertThat(bulk.status()).isEqualTo(403);
        assertThat(bulk.errorReason()).contains("indices:data/write/index", "on indices [logs-a]");
        assertThat(lena.post("/_mget", json("{'docs':[{'_index':'secret','_id':'1'}]}")).status()).isEqualTo(403);
        assertThat(lena.post("/_mget", json("{'docs':[{'_index':'logs-b','_id':'1'}]}")).status()).isEqualTo(200);
        assertThat(lena.send("POST", "/_msearch", "{\"index\":\"secret\"}\n{}\n", "application/x-ndjson").status())
                .isEqualTo(403);
        assertThat(lena.send("POST", "/_msearch", "{\"index\":\"logs-a\"}\n{}\n", "application/x-ndjson").status())
                .isEqualTo(200);
        assertThat(lena.post("/_reindex", json("{'source':{'index':'logs-a'},'dest':{'index':'copy'}}")).status())
                .isEqualTo(403);
        assertThat(lena.post("/_aliases", json("{'actions':[{'add':{'index':'logs-a','alias':'x'}}]}")).status())
                .isEqualTo(403);
    }

    @ParameterizedTest
    @MethodSource("backends")
    void apiKeysAuthenticateAreLimitedByTheirOwnerAndCanBeInvalidated(String backend) {
        EsClient admin = elastic(backend);
        admin.put("/_security/role/key_maker", json("{'cluster':['manage_own_api_key'],'indices':["
                + "{'names':['logs-*'],'privileges':['read']}]}"));
        admin.put("/_security/user/maker-" + backend, json("{'password':'maker-pass','roles':['key_maker']}"));
        EsClient maker = both.client(backend).as("maker-" + backend, "maker-pass");
        EsClient.Reply created = maker.post("/_security/api_key", json("{'name':'only-a','expiration':'1d',"
                + "'role_descriptors':{'r':{'indices':[{'names':['logs-a','secret'],'privileges':['read']}]}}}"));
        assertThat(created.status()).as(created.toString()).isEqualTo(200);
        JsonNode key = created.json();
        String encoded = key.path("encoded").asText();
        assertThat(new String(java.util.Base64.getDecoder().decode(encoded), java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo(key.path("id").asText() + ":" + key.path("api_key").asText());
        assertThat(key.path("expiration").asLong()).isGreaterThan(System.currentTimeMillis());
        EsClient withKey = both.client(backend).withAuthorization("ApiKey " + encoded);
        assertThat(withKey.get("/logs-a/_doc/1").status()).isEqualTo(200);
        assertThat(withKey.get("/logs-b/_doc/1").status()).as("the key's own roles").isEqualTo(403);
        EsClient.Reply secret = withKey.get("/secret/_doc/1");
        assertThat(secret.status()).as("the owner's roles").isEqualTo(403);
        assertThat(secret.errorReason()).startsWith("action [indices:data/read/get] is unauthorized for API key id ["
                + key.path("id").asText() + "] of user [maker-" + backend + "] on indices [secret]");
        JsonNode me = withKey.get("/_security/_authenticate").json();
        assertThat(me.path("authentication_type").asText()).isEqualTo("api_key");
        assertThat(me.at("/api_key/name").asText()).isEqualTo("only-a");

        JsonNode listed = maker.get("/_security/api_key?name=only-a").json().path("api_keys");
        assertThat(listed).hasSize(1);
        assertThat(listed.get(0).path("username").asText()).isEqualTo("maker-" + backend);
        assertThat(listed.get(0).toString()).doesNotContain(key.path("api_key").asText());
        assertThat(admin.get("/_security/api_key?username=maker-" + backend).json().path("api_keys")).hasSize(1);
        assertThat(maker.get("/_security/api_key?username=elastic").status()).as("only its own keys").isEqualTo(400);

        JsonNode invalidated = maker.send("DELETE", "/_security/api_key", json("{'ids':['" + key.path("id").asText()
                + "']}"), "application/json").json();
        assertThat(invalidated.path("invalidated_api_keys").toString()).contains(key.path("id").asText());
        assertThat(invalidated.path("error_count").asInt()).isZero();
        EsClient.Reply after = withKey.get("/logs-a/_doc/1");
        assertThat(after.status()).isEqualTo(401);
        assertThat(after.json().at("/error/additional_unsuccessful_credentials").asText()).contains("invalidated");
        assertThat(both.client(backend).withAuthorization("ApiKey " + java.util.Base64.getEncoder().encodeToString(
                (key.path("id").asText() + ":wrong").getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .get("/").status()).isEqualTo(401);
        assertThat(both.client(backend).as("lena", "lena-pass").post("/_security/api_key", json("{'name':'k'}"))
                .errorReason()).contains("cluster:admin/xpack/security/api_key/create", "manage_own_api_key");
    }

    @ParameterizedTest
    @MethodSource("backends")
    void usersAndRolesAnswerInElasticsearchsShapes(String backend) {
        EsClient admin = elastic(backend);
        JsonNode role = admin.get("/_security/role/logs_reader").json().path("logs_reader");
        assertThat(role.path("cluster").toString()).isEqualTo("[\"monitor\"]");
        assertThat(role.at("/indices/0/names").toString()).isEqualTo("[\"logs-*\"]");
        assertThat(role.at("/transient_metadata/enabled").asBoolean()).isTrue();
        assertThat(admin.get("/_security/role/superuser").json().at("/superuser/metadata/_reserved").asBoolean())
                .isTrue();
        assertThat(admin.get("/_security/role/nope").status()).isEqualTo(404);
        assertThat(admin.put("/_security/role/superuser", "{}").status()).isEqualTo(400);
        assertThat(admin.put("/_security/role/bad", json("{'cluster':['fly']}")).errorReason())
                .contains("unknown cluster privilege [fly]");
        JsonNode user = admin.get("/_security/user/lena").json().path("lena");
        assertThat(user.path("username").asText()).isEqualTo("lena");
        assertThat(user.path("roles").toString()).isEqualTo("[\"logs_reader\"]");
        assertThat(user.has("password_hash")).isFalse();
        assertThat(admin.get("/_security/user").json().has("elastic")).isTrue();
        assertThat(admin.get("/_security/user/ghost").status()).isEqualTo(404);
        assertThat(admin.put("/_security/user/short", json("{'password':'abc'}")).errorReason())
                .contains("passwords must be at least [6] characters long");
        assertThat(admin.delete("/_security/user/elastic").status()).isEqualTo(400);

        admin.put("/_security/user/temp", json("{'password':'temp-pass','roles':['viewer']}"));
        EsClient temp = both.client(backend).as("temp", "temp-pass");
        assertThat(temp.get("/secret/_doc/1").status()).as("viewer reads every index").isEqualTo(200);
        assertThat(temp.put("/secret/_doc/2", "{}").status()).as("viewer does not write").isEqualTo(403);
        assertThat(temp.post("/_security/user/_password", json("{'password':'temp-pass-2'}")).status()).isEqualTo(200);
        assertThat(temp.get("/").status()).as("the old password is gone").isEqualTo(401);
        assertThat(both.client(backend).as("temp", "temp-pass-2").get("/").status()).isEqualTo(200);
        assertThat(both.client(backend).as("temp", "temp-pass-2").post("/_security/user/lena/_password",
                json("{'password':'hijacked'}")).status()).as("another user's password").isEqualTo(403);
        assertThat(admin.delete("/_security/user/temp").json().path("found").asBoolean()).isTrue();
        assertThat(admin.delete("/_security/user/temp").status()).isEqualTo(404);
        assertThat(both.client(backend).as("temp", "temp-pass-2").get("/").status()).isEqualTo(401);
    }

    @Test
    void healthIsOpenAndMetricsNeedMonitor() {
        EsClient anonymous = both.client("lucene");
        assertThat(anonymous.get("/healthz").status()).isEqualTo(200);
        assertThat(anonymous.get("/readyz").status()).isEqualTo(200);
        assertThat(anonymous.get("/metrics").status()).isEqualTo(401);
        EsClient.Reply metrics = elastic("lucene").get("/metrics");
        assertThat(metrics.status()).isEqualTo(200);
        assertThat(metrics.body()).doesNotContain(PASSWORD).doesNotContain("lena-pass");
        assertThat(anonymous.get("/no/such/route/_x").status()).as("authentication comes first").isEqualTo(401);
    }

    private static List<String> sources(EsClient.Reply reply) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        List<String> out = new ArrayList<>();
        reply.json().at("/hits/hits").forEach(h -> out.add(h.at("/_source/from").asText()));
        return out;
    }
}
