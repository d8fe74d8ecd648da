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
    private Path configDir;

    @BeforeAll
    void start(@TempDir Path temp) throws IOException {
        // the file realm: Elasticsearch's users and users_roles files in the configuration directory
        configDir = Files.createDirectories(temp.resolve("config"));
        Files.writeString(configDir.resolve("users"), "# file realm users\nfiona:" + bcrypt("fiona-pass") + "\n"
                + "broken line\n");
        Files.writeString(configDir.resolve("users_roles"), "logs_reader:fiona\n");
        both = BothBackends.start(Files.createDirectories(temp.resolve("lucene")),
                Files.createDirectories(temp.resolve("qdrant")), "QEG_SECURITY", "true",
                "QEG_ELASTIC_PASSWORD", PASSWORD, "QEG_CONFIG_DIR", configDir.toString());
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
        // a bulk needs some write privilege before any item is looked at
        EsClient.Reply bulk = lena.send("POST", "/_bulk", "{\"index\":{\"_index\":\"logs-a\",\"_id\":\"9\"}}\n{}\n",
                "application/x-ndjson");
        assertThat(bulk.status()).isEqualTo(403);
        assertThat(bulk.errorReason()).isEqualTo("action [indices:data/write/bulk] is unauthorized for user [lena]"
                + " with effective roles [logs_reader], this action is granted by the index privileges"
                + " [create_doc,create,delete,index,write,all]");
        // an mget or msearch item on an index the caller may not read fails alone
        EsClient.Reply mget = lena.post("/_mget", json("{'docs':[{'_index':'logs-b','_id':'1'},"
                + "{'_index':'secret','_id':'1'}]}"));
        assertThat(mget.status()).isEqualTo(200);
        assertThat(mget.json().at("/docs/0/_source/from").asText()).isEqualTo("logs-b");
        assertThat(mget.json().at("/docs/1/_index").asText()).isEqualTo("secret");
        assertThat(mget.json().at("/docs/1/error/type").asText()).isEqualTo("security_exception");
        assertThat(mget.json().at("/docs/1/error/reason").asText()).isEqualTo("action"
                + " [indices:data/read/mget[shard]] is unauthorized for user [lena] with effective roles"
                + " [logs_reader] on indices [secret], this action is granted by the index privileges [read,all]");
        assertThat(mget.json().at("/docs/1/_source").isMissingNode()).isTrue();
        EsClient.Reply msearch = lena.send("POST", "/_msearch", "{\"index\":\"secret\"}\n{}\n"
                + "{\"index\":\"logs-a\"}\n{}\n{\"index\":\"s*\"}\n{}\n", "application/x-ndjson");
        assertThat(msearch.status()).isEqualTo(200);
        assertThat(msearch.json().at("/responses/0/status").asInt()).isEqualTo(403);
        assertThat(msearch.json().at("/responses/0/error/type").asText()).isEqualTo("security_exception");
        assertThat(msearch.json().at("/responses/0/error/reason").asText()).isEqualTo("action"
                + " [indices:data/read/search] is unauthorized for user [lena] with effective roles [logs_reader]"
                + " on indices [secret], this action is granted by the index privileges [read,all]");
        assertThat(msearch.json().at("/responses/0/hits").isMissingNode()).isTrue();
        assertThat(msearch.json().at("/responses/1/status").asInt()).isEqualTo(200);
        assertThat(msearch.json().at("/responses/1/hits/hits/0/_source/from").asText()).isEqualTo("logs-a");
        assertThat(msearch.json().at("/responses/2/hits/hits").size()).as("a wildcard keeps only allowed names")
                .isZero();
        assertThat(lena.post("/_reindex", json("{'source':{'index':'logs-a'},'dest':{'index':'copy'}}")).status())
                .isEqualTo(403);
        assertThat(lena.post("/_aliases", json("{'actions':[{'add':{'index':'logs-a','alias':'x'}}]}")).status())
                .isEqualTo(403);
    }

    @ParameterizedTest
    @MethodSource("backends")
    void aPutAliasBodyNamingTheIndexOrAliasIsAuthorizedAsNamed(String backend) {
        EsClient admin = elastic(backend);
        admin.put("/_security/role/alias_manager", json("{'indices':[{'names':['logs-*','la-*'],"
                + "'privileges':['manage']}]}"));
        admin.put("/_security/user/alma", json("{'password':'alma-pass','roles':['alias_manager']}"));
        EsClient alma = both.client(backend).as("alma", "alma-pass");
        assertThat(alma.put("/logs-a/_alias/la-" + backend, json("{}")).status()).isEqualTo(200);
        assertThat(alma.put("/_alias", json("{'index':'logs-b','alias':'la-b-" + backend + "'}")).status())
                .isEqualTo(200);
        // the body's index wins over the path's: a granted path does not cover an index the body names
        assertThat(alma.put("/logs-a/_alias/la-x-" + backend, json("{'index':'secret'}")).status()).isEqualTo(403);
        assertThat(alma.put("/logs-a/_alias", json("{'alias':'open-" + backend + "'}")).status()).isEqualTo(403);
        // a wildcard in the body is not narrowed to the granted names
        assertThat(alma.put("/_alias/la-all-" + backend, json("{'index':'*'}")).status()).isEqualTo(403);
        assertThat(admin.get("/secret/_alias").json().path("secret").path("aliases").has("la-x-" + backend))
                .isFalse();
        assertThat(admin.get("/logs-b/_alias").json().path("logs-b").path("aliases").has("la-b-" + backend))
                .isTrue();
    }

    @ParameterizedTest
    @MethodSource("backends")
    void eachBulkItemIsAuthorizedOnItsOwnAsElasticsearch(String backend) {
        EsClient admin = elastic(backend);
        admin.put("/_security/role/a_creator", json("{'indices':[{'names':['logs-a'],'privileges':['create_doc']},"
                + "{'names':['logs-*'],'privileges':['read']}]}"));
        admin.put("/_security/user/cora", json("{'password':'cora-pass','roles':['a_creator']}"));
        EsClient cora = both.client(backend).as("cora", "cora-pass");
        EsClient.Reply bulk = cora.send("POST", "/_bulk?refresh=true",
                "{\"create\":{\"_index\":\"logs-a\",\"_id\":\"c1\"}}\n{\"n\":1}\n"
                        + "{\"index\":{\"_index\":\"logs-a\",\"_id\":\"c2\"}}\n{\"n\":2}\n"
                        + "{\"index\":{\"_index\":\"secret\",\"_id\":\"c3\"}}\n{\"n\":3}\n"
                        + "{\"delete\":{\"_index\":\"logs-a\",\"_id\":\"1\"}}\n", "application/x-ndjson");
        assertThat(bulk.status()).as(bulk.toString()).isEqualTo(200);
        JsonNode items = bulk.json().path("items");
        assertThat(bulk.json().path("errors").asBoolean()).isTrue();
        assertThat(items.at("/0/create/status").asInt()).isEqualTo(201);
        assertThat(items.at("/1/index/status").asInt()).isEqualTo(403);
        assertThat(items.at("/1/index/_index").asText()).isEqualTo("logs-a");
        assertThat(items.at("/1/index/_id").asText()).isEqualTo("c2");
        assertThat(items.at("/1/index/error/type").asText()).isEqualTo("security_exception");
        assertThat(items.at("/1/index/error/reason").asText()).isEqualTo("action"
                + " [indices:data/write/index:op_type/index] is unauthorized for user [cora] with effective roles"
                + " [a_creator] on indices [logs-a], this action is granted by the index privileges"
                + " [index,write,all]");
        assertThat(items.at("/2/index/status").asInt()).isEqualTo(403);
        assertThat(items.at("/2/index/error/reason").asText()).isEqualTo("action [indices:data/write/bulk[s]] is"
                + " unauthorized for user [cora] with effective roles [a_creator] on indices [secret], this action is"
                + " granted by the index privileges [create_doc,create,delete,index,write,all]");
        assertThat(items.at("/3/delete/status").asInt()).isEqualTo(403);
        assertThat(items.at("/3/delete/error/reason").asText()).startsWith("action [indices:data/write/delete] is"
                + " unauthorized for user [cora]").endsWith("granted by the index privileges [delete,write,all]");
        // what was allowed ran, nothing else did
        assertThat(admin.get("/logs-a/_doc/c1").status()).isEqualTo(200);
        assertThat(admin.get("/logs-a/_doc/c2").status()).isEqualTo(404);
        assertThat(admin.get("/secret/_doc/c3").status()).isEqualTo(404);
        assertThat(admin.get("/logs-a/_doc/1").status()).isEqualTo(200);
        assertThat(admin.delete("/logs-a/_doc/c1?refresh=true").status()).isEqualTo(200);
    }

    @ParameterizedTest
    @MethodSource("backends")
    void aWriteThatWouldCreateAnIndexNeedsAutoCreateAsElasticsearch(String backend) {
        EsClient admin = elastic(backend);
        admin.put("/_security/role/logs_writer", json("{'indices':[{'names':['logs-*'],'privileges':['write']}]}"));
        admin.put("/_security/role/logs_maker", json("{'indices':[{'names':['logs-*'],'privileges':['write',"
                + "'create_index']}]}"));
        admin.put("/_security/user/wendy", json("{'password':'wendy-pass','roles':['logs_writer']}"));
        admin.put("/_security/user/mark", json("{'password':'mark-pass','roles':['logs_maker']}"));
        EsClient wendy = both.client(backend).as("wendy", "wendy-pass");
        EsClient mark = both.client(backend).as("mark", "mark-pass");
        String missing = "logs-new-" + backend;

        EsClient.Reply refused = wendy.put("/" + missing + "/_doc/1", json("{'n':1}"));
        assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
        assertThat(refused.errorReason()).startsWith("action [indices:admin/auto_create] is unauthorized for user"
                + " [wendy] with effective roles [logs_writer] on indices [" + missing + "], this action is granted by"
                + " the index privileges [").contains("create_index");
        EsClient.Reply upsert = wendy.post("/" + missing + "/_update/1", json("{'doc':{'n':1},'doc_as_upsert':true}"));
        assertThat(upsert.status()).as(upsert.toString()).isEqualTo(403);
        assertThat(upsert.errorReason()).startsWith("action [indices:admin/auto_create]");
        assertThat(admin.get("/" + missing).status()).as("nothing created").isEqualTo(404);
        assertThat(wendy.put("/logs-a/_doc/w1?refresh=true", json("{'n':1}")).status()).isEqualTo(201);

        EsClient.Reply bulk = wendy.send("POST", "/_bulk?refresh=true",
                "{\"index\":{\"_index\":\"logs-a\",\"_id\":\"w2\"}}\n{\"n\":2}\n"
                        + "{\"index\":{\"_index\":\"" + missing + "\",\"_id\":\"w3\"}}\n{\"n\":3}\n"
                        + "{\"create\":{\"_index\":\"" + missing + "\",\"_id\":\"w4\"}}\n{\"n\":4}\n"
                        + "{\"update\":{\"_index\":\"" + missing + "\",\"_id\":\"w5\"}}\n"
                        + "{\"doc\":{\"n\":5},\"doc_as_upsert\":true}\n",
                "application/x-ndjson");
        assertThat(bulk.status()).as(bulk.toString()).isEqualTo(200);
        JsonNode items = bulk.json().path("items");
        assertThat(items.at("/0/index/status").asInt()).isEqualTo(201);
        assertThat(items.at("/1/index/status").asInt()).isEqualTo(403);
        assertThat(items.at("/1/index/error/reason").asText()).startsWith("action [indices:admin/auto_create]");
        assertThat(items.at("/2/create/status").asInt()).isEqualTo(403);
        assertThat(items.at("/3/update/status").asInt()).isEqualTo(403);
        assertThat(admin.get("/" + missing).status()).as("nothing created by the bulk").isEqualTo(404);

        assertThat(mark.put("/" + missing + "/_doc/1?refresh=true", json("{'n':1}")).status())
                .as("create_index grants it").isEqualTo(201);
        assertThat(wendy.put("/" + missing + "/_doc/2", json("{'n':2}")).status()).as("the index exists now")
                .isEqualTo(201);
        assertThat(admin.delete("/" + missing).status()).isEqualTo(200);
        assertThat(admin.delete("/logs-a/_doc/w1?refresh=true").status()).isEqualTo(200);
        assertThat(admin.delete("/logs-a/_doc/w2?refresh=true").status()).isEqualTo(200);
    }

    private static String bcrypt(String password) {
        return io.qdrant.esgateway.domain.security.PasswordHashes.bcrypt(password.toCharArray(), new byte[16]);
    }

    @ParameterizedTest
    @MethodSource("backends")
    void usersOfTheFileRealmAuthenticateWithTheirFileRoles(String backend) throws Exception {
        EsClient fiona = both.client(backend).as("fiona", "fiona-pass");
        JsonNode me = fiona.get("/_security/_authenticate").json();
        assertThat(me.path("username").asText()).isEqualTo("fiona");
        assertThat(me.path("roles").toString()).isEqualTo("[\"logs_reader\"]");
        assertThat(me.at("/authentication_realm/name").asText()).isEqualTo("default_file");
        assertThat(me.at("/authentication_realm/type").asText()).isEqualTo("file");
        assertThat(fiona.get("/logs-a/_doc/1").status()).isEqualTo(200);
        assertThat(fiona.get("/secret/_doc/1").status()).isEqualTo(403);
        assertThat(both.client(backend).as("fiona", "wrong").get("/").errorReason())
                .isEqualTo("unable to authenticate user [fiona] for REST request [/]");
        assertThat(both.client(backend).as("broken line", "x").get("/").status()).isEqualTo(401);
        // the files are read again when they change: a new user, fiona's new role
        Path users = configDir.resolve("users");
        String before = Files.readString(users);
        String rolesBefore = Files.readString(configDir.resolve("users_roles"));
        try {
            Files.writeString(users, before + "felix:" + bcrypt("felix-pass") + "\n");
            Files.writeString(configDir.resolve("users_roles"), "superuser:fiona\nlogs_reader:felix\n");
            EsClient felix = both.client(backend).as("felix", "felix-pass");
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
            while (felix.get("/logs-a/_doc/1").status() != 200 && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertThat(felix.get("/logs-a/_doc/1").status()).isEqualTo(200);
            assertThat(fiona.get("/secret/_doc/1").status()).as("a change forgets remembered credentials")
                    .isEqualTo(200);
        } finally {
            Files.writeString(users, before);
            Files.writeString(configDir.resolve("users_roles"), rolesBefore);
        }
    }

    @ParameterizedTest
    @MethodSource("backends")
    void onlyWhoOpenedAScrollOrPointInTimeMayUseIt(String backend) {
        EsClient admin = elastic(backend);
        admin.put("/_security/user/lars", json("{'password':'lars-pass','roles':['logs_reader']}"));
        EsClient lena = both.client(backend).as("lena", "lena-pass");
        EsClient lars = both.client(backend).as("lars", "lars-pass");
        String scrollId = lena.post("/logs-*/_search?scroll=1m", json("{'size':1}")).json().path("_scroll_id")
                .asText();
        String next = "{'scroll':'1m','scroll_id':'" + scrollId + "'}";
        EsClient.Reply foreign = lars.post("/_search/scroll", json(next));
        assertThat(foreign.status()).as(foreign.toString()).isEqualTo(404);
        assertThat(foreign.json().at("/error/root_cause/0/type").asText()).isEqualTo("search_context_missing_exception");
        EsClient.Reply foreignClear = lars.send("DELETE", "/_search/scroll", json("{'scroll_id':'" + scrollId + "'}"),
                "application/json");
        assertThat(foreignClear.status()).isEqualTo(404);
        assertThat(foreignClear.json().path("num_freed").asInt()).isZero();
        assertThat(lars.send("DELETE", "/_search/scroll", json("{'scroll_id':'_all'}"), "application/json")
                .errorReason()).isEqualTo("action [cluster:admin/indices/scroll/clear_all] is unauthorized for user"
                + " [lars] with effective roles [logs_reader], this action is granted by the cluster privileges"
                + " [manage,all]");
        EsClient.Reply own = lena.post("/_search/scroll", json(next));
        assertThat(own.status()).isEqualTo(200);
        assertThat(own.json().at("/hits/hits").size()).isEqualTo(1);
        EsClient.Reply cleared = lena.send("DELETE", "/_search/scroll", json("{'scroll_id':'" + scrollId + "'}"),
                "application/json");
        // one context per index of logs-*, as Elasticsearch counts them
        assertThat(cleared.json().path("num_freed").asInt()).isEqualTo(2);

        String pit = lena.post("/logs-*/_pit?keep_alive=1m", "").json().path("id").asText();
        String search = "{'size':1,'pit':{'id':'" + pit + "','keep_alive':'1m'}}";
        EsClient.Reply foreignPit = lars.post("/_search", json(search));
        assertThat(foreignPit.status()).as(foreignPit.toString()).isEqualTo(404);
        assertThat(foreignPit.json().at("/error/root_cause/0/type").asText())
                .isEqualTo("search_context_missing_exception");
        EsClient.Reply foreignClose = lars.send("DELETE", "/_pit", json("{'id':'" + pit + "'}"), "application/json");
        assertThat(foreignClose.status()).isEqualTo(404);
        assertThat(foreignClose.json().path("num_freed").asInt()).isZero();
        assertThat(lena.post("/_search", json(search)).json().at("/hits/hits").size()).isEqualTo(1);
        // one context per index of logs-*, as Elasticsearch counts them
        assertThat(lena.send("DELETE", "/_pit", json("{'id':'" + pit + "'}"), "application/json").json()
                .path("num_freed").asInt()).isEqualTo(2);
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
