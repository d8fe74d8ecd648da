package io.qdrant.esgateway.domain.index;

import static io.qdrant.esgateway.domain.error.Failures.failure;
import static io.qdrant.esgateway.domain.json.JsonFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.error.ErrorKind;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code PUT /{index}/_settings} and settings given back as {@code GET _settings} showed them, as ES 8.15. */
class IndexSettingsUpdateTest {
    private final IndexSettings current = IndexSettings.parse(json("{'number_of_shards':2,'number_of_replicas':0,"
            + "'refresh_interval':'30s'}"));

    @Test
    void dynamic_settings_change_in_any_form() {
        IndexSettings updated = current.update(json("{'index':{'refresh_interval':'5s','number_of_replicas':1,"
                + "'max_result_window':500,'requests.cache.enable':false}}"), "a", "u");
        assertThat(updated).isEqualTo(new IndexSettings(2, 1, Optional.of("5s"), 500, true, Optional.of(false)));
        assertThat(current.update(json("{'settings':{'index.number_of_replicas':'3'}}"), "a", "u").numberOfReplicas())
                .isEqualTo(3);
    }

    @Test
    void null_resets_to_the_default() {
        IndexSettings updated = current.update(json("{'index.refresh_interval':null}"), "a", "u");
        assertThat(updated.refreshInterval()).isEmpty();
        assertThat(updated.numberOfShards()).isEqualTo(2);
    }

    @Test
    void a_static_setting_is_refused_on_an_open_index() {
        assertThat(failure(ErrorKind.ILLEGAL_ARGUMENT, () -> current.update(json("{'number_of_shards':3}"), "a", "u"))
                .reason()).isEqualTo("Can't update non dynamic settings [[index.number_of_shards]] for open indices"
                + " [[a/u]] unless the `reopen` query parameter is set to true. Alternatively, close the indices, apply"
                + " the settings changes, and reopen the indices");
        assertThat(failure(ErrorKind.ILLEGAL_ARGUMENT, () -> current.update(json("{'colour':'blue'}"), "a", "u"))
                .reason()).startsWith("unknown setting [index.colour]");
        failure(ErrorKind.ILLEGAL_ARGUMENT, () -> current.update(json("{'number_of_replicas':-1}"), "a", "u"));
    }

    @Test
    void what_get_shows_is_accepted_back_as_by_es() {
        IndexSettings copy = IndexSettings.parse(json("{'index':{'routing':{'allocation':{'include':"
                + "{'_tier_preference':'data_hot'}}},'number_of_shards':'1'}}"));
        assertThat(copy.tierPreference()).contains("data_hot");
        assertThat(copy.toFlatMap()).containsEntry("index.routing.allocation.include._tier_preference", "data_hot");
        assertThat(IndexSettings.parse(json("{'index.routing.allocation.include._tier_preference':'data_content'}"))
                .tierPreference()).isEmpty();
        assertThat(failure(ErrorKind.ILLEGAL_ARGUMENT, () -> IndexSettings.parse(json("{'index':{'uuid':'x'}}")))
                .reason()).startsWith("unknown setting [index.uuid]");
        failure(ErrorKind.ILLEGAL_ARGUMENT, () -> IndexSettings.parse(json("{'index':{'version':{'created':'1'}}}")));
    }

    @Test
    void a_closed_index_takes_analysis_definitions_merged_into_its_own() {
        IndexSettings withAnalysis = IndexSettings.parse(json("{'analysis':{'analyzer':{'a':{'type':'custom',"
                + "'tokenizer':'standard','filter':['lowercase']}}}}"));
        failure(ErrorKind.ILLEGAL_ARGUMENT, () -> withAnalysis.update(json("{'analysis':{'analyzer':{'b':"
                + "{'type':'standard'}}}}"), "a", "u"));
        IndexSettings closed = withAnalysis.withClosed(true);
        IndexSettings updated = closed.update(json("{'analysis':{'analyzer':{'b':{'type':'standard'},"
                + "'a':{'filter':['lowercase','stop']}}}}"), "a", "u");
        assertThat(updated.closed()).isTrue();
        assertThat(updated.analysis().analyzers()).containsOnlyKeys("a", "b");
        assertThat(updated.analysis().analyzers().get("a").list("filter")).containsExactly("lowercase", "stop");
        assertThat(updated.analysis().analyzers().get("a").string("tokenizer")).contains("standard");
        assertThat(failure(ErrorKind.ILLEGAL_ARGUMENT, () -> closed.update(json("{'number_of_shards':3}"), "a", "u"))
                .reason()).isEqualTo("final a setting [index.number_of_shards], not updateable");
    }

    @Test
    void the_closed_state_persists_with_the_settings_and_cannot_be_set() {
        IndexSettings closed = current.withClosed(true);
        assertThat(closed.toFlatMap()).containsEntry("index.verified_before_close", "true");
        assertThat(IndexSettings.fromFlatMap(closed.toFlatMap())).isEqualTo(closed);
        assertThat(IndexSettings.fromFlatMap(current.toFlatMap()).closed()).isFalse();
        assertThat(closed.update(json("{'number_of_replicas':2}"), "a", "u").closed()).isTrue();
        failure(ErrorKind.ILLEGAL_ARGUMENT, () -> IndexSettings.parse(json("{'index.verified_before_close':true}")));
    }
}
