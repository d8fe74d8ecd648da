package io.qdrant.esgateway.bootstrap;

import static io.qdrant.esgateway.bootstrap.EsClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The index lifecycle endpoints over HTTP on a real gateway (Helidon, SQLite file, Lucene directories). */
class IndexLifecycleHttpTest {
    @TempDir
    static Path data;
    static RunningGateway gateway;
    static EsClient es;

    @BeforeAll
    static void start() {
        gateway = RunningGateway.start(data);
        es = gateway.client;
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    private static final String BOOKS = json("""
            {'settings':{'number_of_shards':2,'index':{'number_of_replicas':0},'index.max_result_window':500},
             'mappings':{'dynamic':'strict','properties':{
               'title':{'type':'text','fields':{'raw':{'type':'keyword','ignore_above':256}}},
               'price':{'type':'double'},'year':{'type':'integer'},'published':{'type':'date','format':'yyyy-MM-dd'},
               'available':{'type':'boolean'},'author.name':{'type':'keyword'},
               'embedding':{'type':'dense_vector','dims':3,'similarity':'dot_product'}}},
             'aliases':{'library':{},'shelf':{'is_write_index':true,'routing':'1'}}}""");

    @Test
    void createThenReadBackMappingsSettingsAndAliases() {
        EsClient.Reply created = es.put("/books", BOOKS);
        assertThat(created.status()).as(created.toString()).isEqualTo(200);
        assertThat(created.json().toString()).isEqualTo(
                "{\"acknowledged\":true,\"shards_acknowledged\":true,\"index\":\"books\"}");
        assertThat(created.header("X-Elastic-Product")).isEqualTo("Elasticsearch");

        JsonNode index = es.get("/books").json().path("books");
        assertThat(index.path("aliases").toString())
                .isEqualTo("{\"library\":{},\"shelf\":{\"index_routing\":\"1\",\"search_routing\":\"1\",\"is_write_index\":true}}");
        JsonNode mappings = index.path("mappings");
        assertThat(mappings.path("dynamic").asText()).isEqualTo("strict");
        assertThat(mappings.path("properties").fieldNames()).toIterable()
                .containsExactly("author", "available", "embedding", "price", "published", "title", "year");
        assertThat(mappings.at("/properties/author/properties/name/type").asText()).isEqualTo("keyword");
        assertThat(mappings.at("/properties/title/fields/raw/ignore_above").asInt()).isEqualTo(256);
        assertThat(mappings.at("/properties/published/format").asText()).isEqualTo("yyyy-MM-dd");
        assertThat(mappings.at("/properties/embedding").toString())
                .isEqualTo("{\"type\":\"dense_vector\",\"dims\":3,\"index\":true,\"similarity\":\"dot_product\"}");
        JsonNode settings = index.path("settings").path("index");
        assertThat(settings.path("number_of_shards").asText()).isEqualTo("2");
        assertThat(settings.path("number_of_replicas").asText()).isEqualTo("0");
        assertThat(settings.path("max_result_window").asText()).isEqualTo("500");
        assertThat(settings.path("provided_name").asText()).isEqualTo("books");
        assertThat(settings.path("uuid").asText()).hasSizeGreaterThanOrEqualTo(20);
        assertThat(settings.path("version").path("created").asText()).isEqualTo("8512000");
        assertThat(Long.parseLong(settings.path("creation_date").asText()))
                .isCloseTo(System.currentTimeMillis(), org.assertj.core.data.Offset.offset(120_000L));

        assertThat(es.get("/books/_mapping").json().path("books").path("mappings")).isEqualTo(mappings);
        assertThat(es.get("/books/_settings").json().path("books").path("settings").path("index")).isEqualTo(settings);
        JsonNode flat = es.get("/books/_settings?flat_settings=true").json().path("books").path("settings");
        assertThat(flat.path("index.number_of_shards").asText()).isEqualTo("2");
        assertThat(flat.path("index.uuid").asText()).isEqualTo(settings.path("uuid").asText());
        // features not asked for are still there, empty (Elasticsearch 8.15)
        JsonNode mappingsOnly = es.get("/books?features=mappings").json().path("books");
        assertThat(mappingsOnly.path("mappings")).isEqualTo(mappings);
        assertThat(mappingsOnly.path("aliases").isEmpty()).isTrue();
        assertThat(mappingsOnly.path("settings").isEmpty()).isTrue();
        // through an alias and a wildcard, the concrete index answers
        assertThat(es.get("/library/_mapping").json().has("books")).isTrue();
        assertThat(es.get("/boo*/_settings").json().has("books")).isTrue();
        assertThat(es.head("/books").status()).isEqualTo(200);
        assertThat(es.head("/library").status()).isEqualTo(200);
    }

    @Test
    void createWithoutBodyHasDefaultSettingsAndEmptyMappings() {
        assertThat(es.put("/plain").status()).isEqualTo(200);
        JsonNode index = es.get("/plain").json().path("plain");
        assertThat(index.path("mappings").toString()).isEqualTo("{}");
        assertThat(index.path("aliases").toString()).isEqualTo("{}");
        assertThat(index.at("/settings/index/number_of_shards").asText()).isEqualTo("1");
        assertThat(index.at("/settings/index/number_of_replicas").asText()).isEqualTo("1");
    }

    @Test
    void creatingAnExistingIndexIsRejectedAndChangesNothing() {
        es.put("/dup", json("{'mappings':{'properties':{'a':{'type':'keyword'}}}}"));
        String uuid = es.get("/dup").json().at("/dup/settings/index/uuid").asText();
        EsClient.Reply again = es.put("/dup", json("{'mappings':{'properties':{'a':{'type':'long'}}}}"));
        assertThat(again.status()).isEqualTo(400);
        assertThat(again.errorType()).isEqualTo("resource_already_exists_exception");
        assertThat(again.errorReason()).isEqualTo("index [dup/" + uuid + "] already exists");
        assertThat(again.json().at("/error/root_cause/0/type").asText()).isEqualTo("resource_already_exists_exception");
        assertThat(again.json().at("/error/index").asText()).isEqualTo("dup");
        assertThat(again.json().at("/status").asInt()).isEqualTo(400);
        assertThat(es.get("/dup/_mapping").json().at("/dup/mappings/properties/a/type").asText()).isEqualTo("keyword");
    }

    @Test
    void invalidIndexNamesAreRejectedWithTheRuleTheyBreak() {
        assertInvalidName("/Upper", "Invalid index name [Upper], must be lowercase");
        assertInvalidName("/-dash", "Invalid index name [-dash], must not start with '_', '-', or '+'");
        assertInvalidName("/a%2Ab", "Invalid index name [a*b], must not contain the following characters");
        assertInvalidName("/a%23b", "Invalid index name [a#b], must not contain '#'");
        assertInvalidName("/" + "x".repeat(256), "Invalid index name [" + "x".repeat(256) + "], index name is too long, (256 > 255)");
        assertThat(es.head("/Upper").status()).isEqualTo(404);
    }

    private static void assertInvalidName(String path, String reason) {
        EsClient.Reply r = es.put(path);
        assertThat(r.status()).as(r.toString()).isEqualTo(400);
        assertThat(r.errorType()).isEqualTo("invalid_index_name_exception");
        assertThat(r.errorReason()).startsWith(reason);
    }

    @Test
    void badBodiesAreFourHundredsThatNameTheProblem() {
        EsClient.Reply unknownKey = es.put("/bad1", json("{'setting':{}}"));
        assertThat(unknownKey.status()).isEqualTo(400);
        assertThat(unknownKey.errorType()).isEqualTo("parse_exception");
        assertThat(unknownKey.errorReason()).isEqualTo("unknown key [setting] for create index");

        EsClient.Reply unknownSetting = es.put("/bad2", json("{'settings':{'index.foo':1}}"));
        assertThat(unknownSetting.errorType()).isEqualTo("illegal_argument_exception");
        assertThat(unknownSetting.errorReason()).startsWith("unknown setting [index.foo]");

        EsClient.Reply unknownType = es.put("/bad3", json("{'mappings':{'properties':{'f':{'type':'strange'}}}}"));
        assertThat(unknownType.errorType()).isEqualTo("mapper_parsing_exception");
        assertThat(unknownType.errorReason())
                .isEqualTo("Failed to parse mapping: No handler for type [strange] declared on field [f]");
        assertThat(unknownType.json().at("/error/root_cause/0/reason").asText())
                .isEqualTo("No handler for type [strange] declared on field [f]");
        assertThat(unknownType.json().at("/error/caused_by/type").asText()).isEqualTo("mapper_parsing_exception");

        EsClient.Reply unsupportedType = es.put("/bad4", json("{'mappings':{'properties':{'loc':{'type':'geo_point'}}}}"));
        assertThat(unsupportedType.status()).isEqualTo(400);
        assertThat(unsupportedType.errorReason()).contains("[geo_point]", "[loc]");

        EsClient.Reply notJson = es.put("/bad5", "{\"settings\": ");
        assertThat(notJson.status()).isEqualTo(400);
        assertThat(notJson.errorType()).isEqualTo("x_content_parse_exception");

        EsClient.Reply duplicateKey = es.put("/bad6", "{\"settings\":{},\"settings\":{}}");
        assertThat(duplicateKey.status()).isEqualTo(400);
        assertThat(duplicateKey.errorReason()).contains("Duplicate field 'settings'");

        EsClient.Reply wrongType = es.put("/bad7", json("{'settings':{'number_of_shards':'many'}}"));
        assertThat(wrongType.status()).isEqualTo(400);
        assertThat(wrongType.errorReason()).isEqualTo("Failed to parse value [many] for setting [index.number_of_shards]");

        for (int i = 1; i <= 7; i++) {
            assertThat(es.head("/bad" + i).status()).as("no index left behind by bad%d", i).isEqualTo(404);
        }
    }

    @Test
    void deleteRemovesTheIndexItsAliasesAndItsStorage() throws Exception {
        es.put("/gone", json("{'aliases':{'gone-alias':{}}}"));
        String uuid = es.get("/gone").json().at("/gone/settings/index/uuid").asText();
        assertThat(data.resolve("lucene").toFile().toString()).isNotEmpty();
        EsClient.Reply deleted = es.delete("/gone");
        assertThat(deleted.status()).isEqualTo(200);
        assertThat(deleted.json().toString()).isEqualTo("{\"acknowledged\":true}");
        assertThat(es.head("/gone").status()).isEqualTo(404);
        assertThat(es.head("/_alias/gone-alias").status()).isEqualTo(404);
        try (var files = java.nio.file.Files.walk(data)) {
            assertThat(files.map(Path::toString)).noneMatch(p -> p.contains(uuid));
        }
        EsClient.Reply missing = es.delete("/gone");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.errorType()).isEqualTo("index_not_found_exception");
        assertThat(missing.errorReason()).isEqualTo("no such index [gone]");
        assertThat(missing.json().at("/error/resource.id").asText()).isEqualTo("gone");
    }

    @Test
    void deleteTakesCommaListsButRefusesWildcardsAllAndAliases() {
        es.put("/del-a");
        es.put("/del-b", json("{'aliases':{'del-alias':{}}}"));
        assertThat(es.delete("/del-*").errorReason()).isEqualTo("Wildcard expressions or all indices are not allowed");
        assertThat(es.delete("/_all").errorReason()).isEqualTo("Wildcard expressions or all indices are not allowed");
        EsClient.Reply alias = es.delete("/del-alias");
        assertThat(alias.status()).isEqualTo(400);
        assertThat(alias.errorReason()).contains("matches an alias, specify the corresponding concrete indices");
        EsClient.Reply partlyMissing = es.delete("/del-a,nope");
        assertThat(partlyMissing.status()).isEqualTo(404);
        assertThat(es.head("/del-a").status()).as("nothing deleted when one name is missing").isEqualTo(200);
        assertThat(es.delete("/del-a,del-b").status()).isEqualTo(200);
        assertThat(es.head("/del-a").status()).isEqualTo(404);
        assertThat(es.head("/del-b").status()).isEqualTo(404);
    }

    @Test
    void putMappingAddsFieldsAndRefusesTypeChanges() {
        es.put("/evolve", json("{'mappings':{'properties':{'name':{'type':'keyword'},'meta':{'properties':{'a':{'type':'long'}}}}}}"));
        EsClient.Reply added = es.put("/evolve/_mapping",
                json("{'properties':{'age':{'type':'integer'},'meta':{'properties':{'b':{'type':'boolean'}}}}}"));
        assertThat(added.status()).as(added.toString()).isEqualTo(200);
        assertThat(added.json().toString()).isEqualTo("{\"acknowledged\":true}");
        JsonNode props = es.get("/evolve/_mapping").json().at("/evolve/mappings/properties");
        assertThat(props.fieldNames()).toIterable().containsExactly("age", "meta", "name");
        assertThat(props.at("/meta/properties").fieldNames()).toIterable().containsExactly("a", "b");

        EsClient.Reply changed = es.put("/evolve/_mapping", json("{'properties':{'name':{'type':'long'}}}"));
        assertThat(changed.status()).isEqualTo(400);
        assertThat(changed.errorType()).isEqualTo("illegal_argument_exception");
        assertThat(changed.errorReason()).isEqualTo("mapper [name] cannot be changed from type [keyword] to [long]");
        assertThat(es.get("/evolve/_mapping").json().at("/evolve/mappings/properties/name/type").asText())
                .isEqualTo("keyword");

        assertThat(es.put("/missing-index/_mapping", json("{'properties':{}}")).errorType())
                .isEqualTo("index_not_found_exception");
        assertThat(es.put("/evolve/_mapping", "").status()).isEqualTo(400);
    }

    @Test
    void getOfMissingIndicesFollowsIgnoreUnavailableAndWildcards() {
        es.put("/present");
        EsClient.Reply missing = es.get("/absent");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.errorType()).isEqualTo("index_not_found_exception");
        assertThat(es.get("/present,absent").status()).isEqualTo(404);
        EsClient.Reply lenient = es.get("/present,absent?ignore_unavailable=true");
        assertThat(lenient.status()).isEqualTo(200);
        assertThat(lenient.json().fieldNames()).toIterable().containsExactly("present");
        assertThat(es.get("/nothing-like-this*").json().toString()).isEqualTo("{}");
        assertThat(es.get("/nothing-like-this*?allow_no_indices=false").status()).isEqualTo(404);
        assertThat(es.head("/nothing-like-this*").status()).isEqualTo(404);
    }

    @Test
    void refreshAnswersWithOneShardPerIndex() {
        es.put("/fresh");
        EsClient.Reply r = es.post("/fresh/_refresh", null);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().toString()).isEqualTo("{\"_shards\":{\"total\":1,\"successful\":1,\"failed\":0}}");
        assertThat(es.post("/no-such/_refresh", null).status()).isEqualTo(404);
    }

    @Test
    void dynamicSettingsChangeAndStaticOnesAreRefused() {
        es.put("/settled");
        EsClient.Reply r = es.put("/settled/_settings", json("{'index':{'number_of_replicas':2,'max_result_window':5}}"));
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().toString()).isEqualTo("{\"acknowledged\":true}");
        assertThat(es.get("/settled/_settings?flat_settings=true").json().toString())
                .contains("\"index.max_result_window\":\"5\"", "\"index.number_of_replicas\":\"2\"");
        assertThat(es.post("/settled/_search", json("{'from':3,'size':3}")).status()).isEqualTo(400);
        EsClient.Reply fixed = es.put("/settled/_settings", json("{'number_of_shards':2}"));
        assertThat(fixed.status()).isEqualTo(400);
        assertThat(fixed.errorReason()).startsWith("Can't update non dynamic settings [[index.number_of_shards]]");
        assertThat(es.put("/missing/_settings", json("{'number_of_replicas':0}")).status()).isEqualTo(404);
    }

    @Test
    void deleteWithIgnoreUnavailableSkipsMissingIndices() {
        es.put("/doomed");
        assertThat(es.delete("/doomed,absent").status()).isEqualTo(404);
        assertThat(es.delete("/doomed,absent?ignore_unavailable=true").status()).isEqualTo(200);
        assertThat(es.get("/doomed").status()).isEqualTo(404);
    }
}
