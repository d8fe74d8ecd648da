package io.qdrant.esgateway.domain.index;

import static io.qdrant.esgateway.domain.error.Failures.failure;
import static io.qdrant.esgateway.domain.index.IndexFixtures.alias;
import static io.qdrant.esgateway.domain.json.JsonFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.FieldMapping.KeywordField;
import io.qdrant.esgateway.domain.json.Json;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class CreateIndexRequestTest {
    private static final String NAME = "products";

    private static CreateIndexRequest create(String body) {
        return CreateIndexRequest.parse(NAME, json(body));
    }

    private static GatewayException refused(String body) {
        return failure(() -> create(body));
    }

    @Test
    void without_a_body_everything_is_default() {
        assertThat(CreateIndexRequest.parse(NAME, null))
                .isEqualTo(new CreateIndexRequest(NAME, IndexSettings.DEFAULTS, Mappings.EMPTY, List.of()));
    }

    @Test
    void an_empty_body_is_default_too() {
        assertThat(create("{}")).isEqualTo(new CreateIndexRequest(NAME, IndexSettings.DEFAULTS, Mappings.EMPTY, List.of()));
    }

    @Test
    void reads_settings_mappings_and_aliases() {
        CreateIndexRequest request = create("{'settings':{'number_of_shards':2},"
                + "'mappings':{'properties':{'sku':{'type':'keyword'}}},"
                + "'aliases':{'shop':{},'shop-write':{'is_write_index':true}}}");

        assertThat(request.settings().numberOfShards()).isEqualTo(2);
        assertThat(request.mappings().field("sku")).contains(new KeywordField(Optional.empty(), new TreeMap<>()));
        assertThat(request.aliases()).containsExactly(alias("shop", NAME), alias("shop-write", NAME, true));
    }

    @Test
    void reads_alias_routing() {
        assertThat(create("{'aliases':{'shop':{'routing':'r','is_hidden':true}}}").aliases()).containsExactly(
                new AliasMetadata("shop", NAME, Optional.of("r"), Optional.of("r"), Optional.empty(), Optional.of(true)));
    }

    @Test
    void validates_the_index_name_first() {
        GatewayException e = failure(() -> CreateIndexRequest.parse("Products", json("{'bogus':1}")));

        assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INDEX_NAME);
        assertThat(e.reason()).isEqualTo("Invalid index name [Products], must be lowercase");
    }

    @Test
    void refuses_an_unknown_key() {
        GatewayException e = refused("{'settings':{},'setting':{}}");

        assertThat(e.kind()).isEqualTo(ErrorKind.PARSE);
        assertThat(e.reason()).isEqualTo("unknown key [setting] for create index");
    }

    @Test
    void refuses_a_body_that_is_not_an_object() {
        GatewayException e = refused("[]");

        assertThat(e.kind()).isEqualTo(ErrorKind.PARSE);
        assertThat(e.reason()).isEqualTo("create index body must be an object, got [START_ARRAY]");
    }

    @Test
    void refuses_aliases_that_are_not_an_object() {
        GatewayException e = refused("{'aliases':['shop']}");

        assertThat(e.kind()).isEqualTo(ErrorKind.PARSE);
        assertThat(e.reason()).isEqualTo("[aliases] must be an object, got [START_ARRAY]");
    }

    @Test
    void keeps_an_alias_filter_as_given_and_an_empty_one_as_none() {
        CreateIndexRequest request = CreateIndexRequest.parse("shop-1",
                Json.parse("{\"aliases\":{\"shop\":{\"filter\":{\"term\":{\"a\":1}}},\"all\":{\"filter\":{}}}}"));

        assertThat(request.aliases()).extracting(a -> a.alias() + "=" + a.filter().map(Json::write).orElse("-"))
                .containsExactlyInAnyOrder("shop={\"term\":{\"a\":1}}", "all=-");
        assertThat(refused("{'aliases':{'shop':{'filter':'x'}}}").reason()).isEqualTo("[filter] must be an object");
    }

    @Test
    void refuses_an_unknown_alias_property() {
        GatewayException e = refused("{'aliases':{'shop':{'colour':'red'}}}");

        assertThat(e.kind()).isEqualTo(ErrorKind.PARSE);
        assertThat(e.reason()).isEqualTo("unknown field [colour] for alias [shop]");
    }

    @Test
    void refuses_an_alias_named_like_the_index() {
        GatewayException e = refused("{'aliases':{'products':{}}}");

        assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_ALIAS_NAME);
        assertThat(e.reason())
                .isEqualTo("Invalid alias name [products]: an index or data stream exists with the same name as the alias");
    }

    @Test
    void refuses_an_invalid_alias_name() {
        GatewayException e = refused("{'aliases':{'a,b':{}}}");

        assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_ALIAS_NAME);
    }

    @Test
    void passes_settings_errors_through() {
        assertThat(refused("{'settings':{'index.foo':1}}").reason()).startsWith("unknown setting [index.foo]");
    }

    @Test
    void passes_mapping_errors_through() {
        assertThat(refused("{'mappings':{'properties':{'f':{'type':'nope'}}}}").reason())
                .isEqualTo("Failed to parse mapping: No handler for type [nope] declared on field [f]");
    }
}
