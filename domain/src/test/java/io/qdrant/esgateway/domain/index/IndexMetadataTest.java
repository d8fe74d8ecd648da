package io.qdrant.esgateway.domain.index;

import static io.qdrant.esgateway.domain.index.IndexFixtures.index;
import static io.qdrant.esgateway.domain.json.JsonFixtures.compact;
import static io.qdrant.esgateway.domain.json.JsonFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IndexMetadataTest {

    /** Three shards, no replicas, a refresh interval and a result window: every user setting. */
    private static IndexMetadata tuned() {
        return index("tuned", IndexSettings.parse(json(
                "{'number_of_shards':3,'number_of_replicas':0,'refresh_interval':'30s','max_result_window':500}")));
    }

    @Test
    void flat_settings_are_strings_sorted_by_key_with_the_private_ones() {
        assertThat(List.copyOf(index("logs").flatSettings().entrySet())).containsExactly(
                Map.entry("index.creation_date", "1700000000000"),
                Map.entry("index.number_of_replicas", "1"),
                Map.entry("index.number_of_shards", "1"),
                Map.entry("index.provided_name", "logs"),
                Map.entry("index.routing.allocation.include._tier_preference", "data_content"),
                Map.entry("index.uuid", "logs-uuid"),
                Map.entry("index.version.created", "8512000"));
    }

    @Test
    void flat_settings_json() {
        assertThat(compact(tuned().settingsJson(true))).isEqualTo("{'index.creation_date':'1700000000000',"
                + "'index.max_result_window':'500','index.number_of_replicas':'0','index.number_of_shards':'3',"
                + "'index.provided_name':'tuned','index.refresh_interval':'30s',"
                + "'index.routing.allocation.include._tier_preference':'data_content','index.uuid':'tuned-uuid',"
                + "'index.version.created':'8512000'}");
    }

    @Test
    void nested_settings_json() {
        assertThat(compact(tuned().settingsJson(false))).isEqualTo("{'index':{'creation_date':'1700000000000',"
                + "'max_result_window':'500','number_of_replicas':'0','number_of_shards':'3',"
                + "'provided_name':'tuned','refresh_interval':'30s',"
                + "'routing':{'allocation':{'include':{'_tier_preference':'data_content'}}},'uuid':'tuned-uuid',"
                + "'version':{'created':'8512000'}}}");
    }

    @Test
    void nested_settings_json_of_defaults() {
        assertThat(compact(index("logs").settingsJson(false))).isEqualTo("{'index':{'creation_date':'1700000000000',"
                + "'number_of_replicas':'1','number_of_shards':'1','provided_name':'logs',"
                + "'routing':{'allocation':{'include':{'_tier_preference':'data_content'}}},'uuid':'logs-uuid',"
                + "'version':{'created':'8512000'}}}");
    }

    @Test
    void with_mappings_changes_only_the_mappings() {
        Mappings mappings = Mappings.parse(json("{'properties':{'a':{'type':'long'}}}"));

        IndexMetadata updated = tuned().withMappings(mappings);

        assertThat(updated.mappings()).isEqualTo(mappings);
        assertThat(updated.withMappings(Mappings.EMPTY)).isEqualTo(tuned());
    }
}
