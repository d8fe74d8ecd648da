package io.qdrant.esgateway.domain.index;

import static io.qdrant.esgateway.domain.error.Failures.failure;
import static io.qdrant.esgateway.domain.json.JsonFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IndexSettingsTest {

    private static IndexSettings parse(String settings) {
        return IndexSettings.parse(json(settings));
    }

    private static GatewayException rejected(String settings) {
        return failure(() -> parse(settings));
    }

    private static IndexSettings settings(int shards, int replicas, String refresh, Integer window) {
        return new IndexSettings(shards, replicas, Optional.ofNullable(refresh),
                window == null ? IndexSettings.DEFAULT_MAX_RESULT_WINDOW : window, window != null);
    }

    private static String unknownSetting(String key) {
        return "unknown setting [" + key + "] please check that any required plugins are installed, or check the"
                + " breaking changes documentation for removed settings";
    }

    @Nested
    class Shapes {
        @Test
        void empty_settings_are_the_defaults() {
            assertThat(parse("{}")).isEqualTo(IndexSettings.DEFAULTS);
            assertThat(IndexSettings.DEFAULTS).isEqualTo(settings(1, 1, null, null));
        }

        @Test
        void reads_nested_settings() {
            assertThat(parse("{'index':{'number_of_shards':3,'number_of_replicas':0,'refresh_interval':'5s',"
                    + "'max_result_window':500}}"))
                    .isEqualTo(settings(3, 0, "5s", 500));
        }

        @Test
        void reads_flat_settings() {
            assertThat(parse("{'index.number_of_shards':2,'index.number_of_replicas':2}"))
                    .isEqualTo(settings(2, 2, null, null));
        }

        @Test
        void reads_settings_without_the_index_prefix() {
            assertThat(parse("{'number_of_shards':4,'refresh_interval':'1m'}")).isEqualTo(settings(4, 1, "1m", null));
        }

        @Test
        void reads_a_mix_of_shapes() {
            assertThat(parse("{'index':{'number_of_shards':2},'index.number_of_replicas':3,'max_result_window':20}"))
                    .isEqualTo(settings(2, 3, null, 20));
        }

        @Test
        void reads_numbers_given_as_strings() {
            assertThat(parse("{'index':{'number_of_shards':'5','number_of_replicas':'0','max_result_window':'100'}}"))
                    .isEqualTo(settings(5, 0, null, 100));
        }

        @Test
        void refuses_settings_that_are_not_an_object() {
            GatewayException e = failure(() -> IndexSettings.parse(json("'x'")));

            assertThat(e.kind()).isEqualTo(ErrorKind.PARSE);
            assertThat(e.reason()).isEqualTo("[settings] must be an object, got [VALUE_STRING]");
        }
    }

    @Nested
    class Bounds {
        @Test
        void at_least_one_shard() {
            GatewayException e = rejected("{'number_of_shards':0}");

            assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
            assertThat(e.reason())
                    .isEqualTo("Failed to parse value [0] for setting [index.number_of_shards] must be >= 1");
        }

        @Test
        void at_most_1024_shards() {
            assertThat(parse("{'number_of_shards':1024}").numberOfShards()).isEqualTo(1024);
            assertThat(rejected("{'number_of_shards':1025}").reason())
                    .isEqualTo("Failed to parse value [1025] for setting [index.number_of_shards] must be <= 1024");
        }

        @Test
        void no_negative_replicas() {
            assertThat(rejected("{'index.number_of_replicas':-1}").reason())
                    .isEqualTo("Failed to parse value [-1] for setting [index.number_of_replicas] must be >= 0");
        }

        @Test
        void a_positive_result_window() {
            assertThat(rejected("{'index':{'max_result_window':0}}").reason())
                    .isEqualTo("Failed to parse value [0] for setting [index.max_result_window] must be >= 1");
        }

        @Test
        void a_value_beyond_int_as_elasticsearch_words_it() {
            assertThat(parse("{'max_result_window':2147483647}").maxResultWindow()).isEqualTo(Integer.MAX_VALUE);
            assertThat(rejected("{'max_result_window':2147483648}").reason())
                    .isEqualTo("Failed to parse value [2147483648] for setting [index.max_result_window]");
        }

        @Test
        void a_number_that_is_not_an_integer() {
            GatewayException e = rejected("{'number_of_shards':'two'}");

            assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
            assertThat(e.reason()).isEqualTo("Failed to parse value [two] for setting [index.number_of_shards]");
        }

        @Test
        void a_fraction() {
            assertThat(rejected("{'number_of_replicas':1.5}").reason())
                    .isEqualTo("Failed to parse value [1.5] for setting [index.number_of_replicas]");
        }

        @Test
        void an_integer_too_large_for_any_setting_is_not_wrapped_into_range() {
            assertThat(rejected("{'number_of_shards':18446744073709551617}").reason())
                    .isEqualTo("Failed to parse value [18446744073709551617] for setting [index.number_of_shards]");
        }

        @Test
        void a_value_without_text() {
            assertThat(rejected("{'number_of_shards':[1]}").reason())
                    .isEqualTo("Failed to parse value [START_ARRAY] for setting [index.number_of_shards]");
        }
    }

    @Nested
    class RequestCache {
        @Test
        void defaults_to_enabled_and_is_not_rendered_unless_set() {
            assertThat(IndexSettings.DEFAULTS.requestCacheEnabled()).isTrue();
            assertThat(IndexSettings.DEFAULTS.toFlatMap()).doesNotContainKey("index.requests.cache.enable");
        }

        @ParameterizedTest
        @ValueSource(strings = {"{'requests':{'cache':{'enable':false}}}", "{'index.requests.cache.enable':'false'}",
                "{'index':{'requests.cache.enable':false}}"})
        void reads_false_in_every_shape(String body) {
            IndexSettings read = parse(body);
            assertThat(read.requestCacheEnabled()).isFalse();
            assertThat(read.toFlatMap()).containsEntry("index.requests.cache.enable", "false");
            assertThat(IndexSettings.fromFlatMap(read.toFlatMap())).isEqualTo(read);
        }

        @Test
        void reads_true() {
            assertThat(parse("{'requests.cache.enable':true}").requestCache()).contains(true);
        }

        @ParameterizedTest
        @ValueSource(strings = {"'yes'", "0", "'False'"})
        void refuses_anything_but_true_or_false(String value) {
            GatewayException e = rejected("{'index.requests.cache.enable':" + value + "}");
            assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
            assertThat(e.reason()).isEqualTo("Failed to parse value [" + value.replace("'", "")
                    + "] as only [true] or [false] are allowed.");
        }
    }

    @Nested
    class RefreshInterval {
        @ParameterizedTest
        @ValueSource(strings = {"1s", "500ms", "30m", "1h", "2d", "100micros", "10nanos", "-1", "0"})
        void accepts_a_time_value(String value) {
            assertThat(parse("{'refresh_interval':'" + value + "'}").refreshInterval()).contains(value);
        }

        @ParameterizedTest
        @ValueSource(strings = {"10", "5x", "fast", "1.5"})
        void refuses_a_value_without_a_known_unit(String value) {
            GatewayException e = rejected("{'index.refresh_interval':'" + value + "'}");

            assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
            assertThat(e.reason()).isEqualTo("failed to parse setting [index.refresh_interval] with value [" + value
                    + "] as a time value: unit is missing or unrecognized");
        }

        @Test
        void refuses_a_number() {
            assertThat(rejected("{'refresh_interval':5}").reason()).isEqualTo("failed to parse setting"
                    + " [index.refresh_interval] with value [5] as a time value: unit is missing or unrecognized");
        }

        @Test
        void refuses_an_array() {
            assertThat(rejected("{'refresh_interval':['1s']}").reason())
                    .isEqualTo("Failed to parse value [START_ARRAY] for setting [index.refresh_interval]");
        }
    }

    @Nested
    class Refused {
        @Test
        void an_unknown_setting_with_elasticsearchs_message() {
            GatewayException e = rejected("{'index':{'foo':1}}");

            assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
            assertThat(e.reason()).isEqualTo(unknownSetting("index.foo"));
        }

        @Test
        void an_unknown_setting_named_with_its_index_prefix_in_every_shape() {
            assertThat(rejected("{'foo':1}").reason()).isEqualTo(unknownSetting("index.foo"));
            assertThat(rejected("{'index.foo.bar':1}").reason()).isEqualTo(unknownSetting("index.foo.bar"));
        }

        @ParameterizedTest
        @ValueSource(strings = {"index.codec", "index.max_terms_count", "index.sort.field", "index.max_regex_length",
                "index.translog.durability", "index.mapping.total_fields.limit", "index.number_of_routing_shards",
                "index.knn", "index.mode", "index.default_pipeline"})
        void a_setting_elasticsearch_knows_but_the_gateway_does_not_implement(String key) {
            GatewayException e = rejected("{'" + key + "':'x'}");

            assertThat(e.kind()).isEqualTo(ErrorKind.UNSUPPORTED);
            assertThat(e.reason()).isEqualTo("index setting [" + key + "] is not supported by the gateway");
        }

        @Test
        void a_similarity_type_the_gateway_does_not_implement_named_with_its_similarity() {
            GatewayException e = rejected("{'similarity':{'my':{'type':'DFR'}}}");

            assertThat(e.kind()).isEqualTo(ErrorKind.UNSUPPORTED);
            assertThat(e.reason())
                    .isEqualTo("similarity type [DFR] of similarity [my] is not supported by the gateway");
        }

        @ParameterizedTest
        @ValueSource(strings = {"index.uuid", "index.creation_date", "index.provided_name"})
        void a_private_setting_is_unknown_as_in_es_8_15(String key) {
            GatewayException e = rejected("{'" + key + "':'x'}");

            assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
            assertThat(e.reason()).isEqualTo("unknown setting [" + key + "] please check that any required plugins are"
                    + " installed, or check the breaking changes documentation for removed settings");
        }

        @Test
        void a_private_setting_given_nested() {
            assertThat(rejected("{'index':{'version':{'created':'8512000'}}}").reason())
                    .isEqualTo("private index setting [index.version.created] can not be set explicitly");
        }
    }

    @Nested
    class FlatMap {
        @Test
        void renders_the_user_settings_as_sorted_strings() {
            Map<String, String> flat = settings(3, 0, "5s", 500).toFlatMap();

            assertThat(List.copyOf(flat.entrySet())).containsExactly(
                    Map.entry("index.max_result_window", "500"),
                    Map.entry("index.number_of_replicas", "0"),
                    Map.entry("index.number_of_shards", "3"),
                    Map.entry("index.refresh_interval", "5s"));
        }

        @Test
        void leaves_out_what_was_not_set() {
            assertThat(IndexSettings.DEFAULTS.toFlatMap())
                    .containsExactly(Map.entry("index.number_of_replicas", "1"), Map.entry("index.number_of_shards", "1"));
        }

        @Test
        void round_trips() {
            for (IndexSettings original : List.of(IndexSettings.DEFAULTS, settings(3, 0, "5s", 500),
                    settings(1, 2, "-1", null), settings(7, 1, null, 10_000))) {
                assertThat(IndexSettings.fromFlatMap(original.toFlatMap())).isEqualTo(original);
            }
        }

        @Test
        void reading_back_validates_like_parse() {
            Map<String, String> flat = new LinkedHashMap<>();
            flat.put("index.number_of_shards", "0");

            assertThat(failure(() -> IndexSettings.fromFlatMap(flat)).reason())
                    .isEqualTo("Failed to parse value [0] for setting [index.number_of_shards] must be >= 1");
        }
    }

    @Nested
    class Hidden {
        @Test
        void is_kept_dynamic_and_rendered_as_a_string() {
            IndexSettings s = parse("{'index.hidden': true}");

            assertThat(s.isHidden()).isTrue();
            assertThat(s.toFlatMap()).containsEntry("index.hidden", "true");
            assertThat(s.update(json("{'index.hidden': false}"), "books", "u").isHidden()).isFalse();
            assertThat(parse("{}").isHidden()).isFalse();
        }
    }

    @Nested
    class Blocks {
        @Test
        void are_kept_as_set_and_rendered_as_strings() {
            IndexSettings s = parse("{'index': {'blocks': {'write': true, 'read': 'false'}}}");

            assertThat(s.blocks().write()).contains(true);
            assertThat(s.blocks().read()).contains(false);
            assertThat(s.toFlatMap()).containsEntry("index.blocks.write", "true")
                    .containsEntry("index.blocks.read", "false").doesNotContainKey("index.blocks.metadata");
            assertThat(IndexSettings.fromFlatMap(s.toFlatMap())).isEqualTo(s);
        }

        @Test
        void a_value_that_is_not_a_boolean_is_refused_as_elasticsearch_does() {
            GatewayException e = rejected("{'index.blocks.write': 'maybe'}");

            assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
            assertThat(e.reason()).isEqualTo("Failed to parse value [maybe] as only [true] or [false] are allowed.");
        }

        @Test
        void a_read_only_index_refuses_settings_changes_but_those_that_can_lift_a_block() {
            IndexSettings s = parse("{'index.blocks.read_only': true}");

            GatewayException e = failure(() -> s.update(json("{'index.refresh_interval': '5s'}"), "books", "u"));
            assertThat(e.kind()).isEqualTo(ErrorKind.CLUSTER_BLOCK);
            assertThat(e.reason()).isEqualTo("index [books] blocked by: [FORBIDDEN/5/index read-only (api)];");
            assertThat(s.update(json("{'index.blocks.read_only': false, 'index.refresh_interval': '5s'}"), "books",
                    "u").blocks().readOnly()).contains(false);
        }

        @Test
        void read_only_allow_delete_alone_is_a_retryable_refusal() {
            IndexSettings s = parse("{'index.blocks.read_only_allow_delete': true}");

            GatewayException e = failure(() -> s.update(json("{'index.refresh_interval': '5s'}"), "books", "u"));
            assertThat(e.kind()).isEqualTo(ErrorKind.CLUSTER_BLOCK_RETRYABLE);
        }
    }

    @Nested
    class GcDeletes {
        @Test
        void defaults_to_sixty_seconds_and_is_kept_as_given() {
            assertThat(parse("{}").gcDeletesDuration()).isEqualTo(java.time.Duration.ofSeconds(60));
            assertThat(parse("{}").toFlatMap()).doesNotContainKey("index.gc_deletes");
            IndexSettings s = parse("{'index':{'gc_deletes':'90s'}}");
            assertThat(s.gcDeletesDuration()).isEqualTo(java.time.Duration.ofSeconds(90));
            assertThat(s.toFlatMap()).containsEntry("index.gc_deletes", "90s");
            assertThat(IndexSettings.fromFlatMap(s.toFlatMap())).isEqualTo(s);
            assertThat(parse("{'gc_deletes':'250ms'}").gcDeletesDuration()).isEqualTo(java.time.Duration.ofMillis(250));
            assertThat(parse("{'gc_deletes':'0'}").gcDeletesDuration()).isZero();
            assertThat(parse("{'gc_deletes':'-1'}").gcDeletesDuration()).isZero();
        }

        @Test
        void is_dynamic_and_refuses_a_value_without_a_unit() {
            IndexSettings s = parse("{}").update(json("{'index.gc_deletes': '2m'}"), "books", "u");
            assertThat(s.gcDeletesDuration()).isEqualTo(java.time.Duration.ofMinutes(2));
            assertThat(s.update(json("{'index.gc_deletes': null}"), "books", "u").gcDeletesDuration())
                    .isEqualTo(java.time.Duration.ofSeconds(60));
            GatewayException e = rejected("{'index.gc_deletes':'10'}");
            assertThat(e.reason()).isEqualTo("failed to parse setting [index.gc_deletes] with value [10] as a time"
                    + " value: unit is missing or unrecognized");
        }
    }
}
