package io.qdrant.esgateway.domain.index;

import static io.qdrant.esgateway.domain.error.Failures.failure;
import static io.qdrant.esgateway.domain.json.JsonFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SimilaritiesTest {
    private static CreateIndexRequest create(String body) {
        return CreateIndexRequest.parse("books", json(body));
    }

    private static GatewayException refused(String body) {
        return failure(() -> create(body));
    }

    @Test
    void a_named_bm25_with_its_parameters_resolves_for_the_field_that_names_it() {
        CreateIndexRequest r = create("{'settings':{'similarity':{'custom_bm25':{'type':'BM25','k1':2,'b':0.3}}},"
                + "'mappings':{'properties':{'t':{'type':'text','similarity':'custom_bm25'}}}}");

        Similarities s = r.settings().similarities();
        Similarities.Definition d = s.resolve(Optional.of("custom_bm25"));
        assertThat(d.k1()).isEqualTo(2f);
        assertThat(d.b()).isEqualTo(0.3f);
        assertThat(s.resolve(Optional.empty())).isEqualTo(Similarities.BM25);
        assertThat(s.resolve(Optional.of("boolean")).isBoolean()).isTrue();
        assertThat(((FieldMapping.TextField) r.mappings().field("t").orElseThrow()).similarity())
                .contains("custom_bm25");
    }

    @Test
    void the_default_similarity_replaces_bm25_for_fields_that_name_none() {
        Similarities s = create("{'settings':{'index.similarity.default.type':'boolean'}}").settings()
                .similarities();

        assertThat(s.resolve(Optional.empty()).isBoolean()).isTrue();
        assertThat(s.resolve(Optional.of("BM25"))).isEqualTo(Similarities.BM25);
    }

    @Test
    void the_settings_render_back_as_given_strings() {
        IndexSettings settings = create("{'settings':{'similarity':{'my':{'type':'BM25','k1':1.5,"
                + "'discount_overlaps':true}}}}").settings();

        assertThat(settings.toFlatMap()).containsEntry("index.similarity.my.type", "BM25")
                .containsEntry("index.similarity.my.k1", "1.5")
                .containsEntry("index.similarity.my.discount_overlaps", "true");
        assertThat(IndexSettings.fromFlatMap(settings.toFlatMap()).similarities()).isEqualTo(settings.similarities());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{'my':{'k1':1}}|Similarity [my] must have an associated type",
            "{'my':{'type':'nope'}}|Unknown Similarity type [nope] for [my]",
            "{'BM25':{'type':'BM25'}}|illegal value for [index.similarity.BM25] cannot redefine built-in similarity",
            "{'my':{'type':'BM25','k1':-1}}|illegal k1 value: -1.0, must be a non-negative finite value",
            "{'my':{'type':'BM25','b':2}}|illegal b value: 2.0, must be between 0 and 1",
            "{'my':{'type':'BM25','c':2}}|Unknown settings for similarity of type [BM25]: [c]",
            "{'my':{'type':'BM25','k1':'x'}}|Failed to parse float setting [k1] with value [x]",
    })
    void bad_definitions_with_elasticsearchs_messages(String similarity, String message) {
        GatewayException e = refused("{'settings':{'similarity':" + similarity + "}}");

        assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
        assertThat(e.reason()).isEqualTo(message);
    }

    @Test
    void other_similarity_types_and_discounting_no_overlaps_are_refused_by_name() {
        assertThat(refused("{'settings':{'similarity':{'my':{'type':'LMDirichlet'}}}}").reason())
                .isEqualTo("similarity type [LMDirichlet] of similarity [my] is not supported by the gateway");
        assertThat(refused("{'settings':{'similarity':{'my':{'type':'BM25','discount_overlaps':false}}}}").kind())
                .isEqualTo(ErrorKind.UNSUPPORTED);
    }

    @Test
    void a_field_naming_a_similarity_the_index_lacks() {
        GatewayException e = refused("{'mappings':{'properties':{'t':{'type':'text','similarity':'custom'}}}}");

        assertThat(e.kind()).isEqualTo(ErrorKind.MAPPER_PARSING);
        assertThat(e.reason()).isEqualTo("Failed to parse mapping: Unknown Similarity type [custom] for field [t]");
    }

    @Test
    void a_similarity_cannot_change_on_a_mapping_update() {
        Mappings current = Mappings.parse(json("{'properties':{'t':{'type':'text','similarity':'boolean'}}}"));
        Mappings update = Mappings.parse(json("{'properties':{'t':{'type':'text','similarity':'BM25'}}}"));

        GatewayException e = failure(() -> current.merge(update));

        assertThat(e.reason()).contains("Cannot update parameter [similarity] from [boolean] to [BM25]");
    }
}
