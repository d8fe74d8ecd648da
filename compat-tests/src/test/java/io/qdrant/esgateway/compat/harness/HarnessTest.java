package io.qdrant.esgateway.compat.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The comparator, the normaliser and the file formats, without any engine. */
class HarnessTest {
    private static JsonNode json(String singleQuoted) {
        return Json.parseOrText(singleQuoted.replace('\'', '"'));
    }

    private static HttpTarget.Exchange answer(int status, String body) {
        return new HttpTarget.Exchange(status, Map.of("content-type", "application/json; charset=UTF-8",
                "x-elastic-product", "Elasticsearch"), body.replace('\'', '"'));
    }

    private static Scenario scenario(String yaml) {
        try {
            return ScenarioLoader.parse("test", ScenarioLoader.YAML.readTree(yaml));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static KnownDifferences known(String yaml) {
        try {
            return KnownDifferences.parse(ScenarioLoader.YAML.readTree(yaml));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final Scenario ONE_CASE = scenario("""
            cases:
              - name: read the index
                request: GET /books
            """);

    @Nested
    class Patterns {
        @Test
        void stars_match_one_segment_and_double_stars_any_depth() {
            assertThat(PathPattern.of("/body/*/uuid").matches(List.of("body", "books", "uuid"))).isTrue();
            assertThat(PathPattern.of("/body/*/uuid").matches(List.of("body", "a", "b", "uuid"))).isFalse();
            assertThat(PathPattern.of("/body/**/uuid").matches(List.of("body", "a", "b", "uuid"))).isTrue();
            assertThat(PathPattern.of("/body/**/uuid").matches(List.of("body", "uuid"))).isTrue();
            assertThat(PathPattern.of("/body/index.*").matches(List.of("body", "index.uuid"))).isTrue();
            assertThat(PathPattern.of("/a~1b").matches(List.of("a/b"))).isTrue();
        }

        @Test
        void pointers_round_trip() {
            List<String> path = List.of("body", "a/b", "index.uuid", "0");
            assertThat(PathPattern.segments(PathPattern.pointer(path))).isEqualTo(path);
        }
    }

    @Nested
    class Normalising {
        @Test
        void uuids_dates_and_timings_are_masked_but_still_compared_for_presence() {
            JsonNode doc = Normalizer.apply(Normalizer.document(answer(200,
                    "{'took':5,'books':{'settings':{'index':{'uuid':'x','creation_date':'1','number_of_shards':'1'}}}}"),
                    List.of()), Normalizer.DEFAULTS);
            assertThat(doc.at("/body/took").asText()).isEqualTo("<masked>");
            assertThat(doc.at("/body/books/settings/index/uuid").asText()).isEqualTo("<masked>");
            assertThat(doc.at("/body/books/settings/index/creation_date").asText()).isEqualTo("<masked>");
            assertThat(doc.at("/body/books/settings/index/number_of_shards").asText()).isEqualTo("1");
        }

        @Test
        void uuids_inside_messages_are_rewritten() {
            JsonNode doc = Normalizer.apply(json("{'body':{'reason':'index [books/-cujmK-USxq79cTjZ79jlg] already exists'}}"),
                    Normalizer.DEFAULTS);
            assertThat(doc.at("/body/reason").asText()).isEqualTo("index [books/<uuid>] already exists");
        }

        @Test
        void a_set_printed_in_random_order_is_compared_as_a_set() {
            com.fasterxml.jackson.databind.node.ObjectNode a = Json.MAPPER.createObjectNode();
            a.putObject("body").put("r", "must not contain the following characters ['?','*','<']");
            com.fasterxml.jackson.databind.node.ObjectNode b = Json.MAPPER.createObjectNode();
            b.putObject("body").put("r", "must not contain the following characters ['<','?','*']");
            assertThat(Normalizer.apply(a, Normalizer.DEFAULTS)).isEqualTo(Normalizer.apply(b, Normalizer.DEFAULTS));
        }

        @Test
        void the_content_type_is_compared_without_its_charset() {
            JsonNode doc = Normalizer.document(answer(200, "{}"), List.of("content-type"));
            assertThat(doc.at("/headers/content-type").asText()).isEqualTo("application/json");
        }

        @Test
        void a_drop_removes_the_value_on_both_sides() {
            JsonNode doc = Normalizer.apply(json("{'body':{'a':1,'b':2}}"), List.of(Normalizer.drop("/body/a", "why")));
            assertThat(doc.toString()).isEqualTo("{\"body\":{\"b\":2}}");
        }
    }

    @Nested
    class Differences {
        @Test
        void the_first_difference_is_named_by_its_path() {
            Optional<JsonDiff.Difference> d = JsonDiff.first(json("{'a':{'b':[1,2,{'c':'x'}]}}"),
                    json("{'a':{'b':[1,2,{'c':'y'}]}}"));
            assertThat(d).isPresent();
            assertThat(d.get().path()).isEqualTo("/a/b/2/c");
        }

        @Test
        void missing_and_extra_keys_are_differences() {
            assertThat(JsonDiff.first(json("{'a':1}"), json("{'a':1,'b':2}")).orElseThrow().what())
                    .isEqualTo("only the oracle has it");
            assertThat(JsonDiff.first(json("{'a':1,'b':2}"), json("{'a':1}")).orElseThrow().what())
                    .isEqualTo("only the gateway has it");
        }

        @Test
        void key_order_does_not_matter_but_array_order_does() {
            assertThat(JsonDiff.first(json("{'a':1,'b':2}"), json("{'b':2,'a':1}"))).isEmpty();
            assertThat(JsonDiff.first(json("[1,2]"), json("[2,1]"))).isPresent();
        }

        @Test
        void json_types_matter() {
            assertThat(JsonDiff.first(json("{'n':1}"), json("{'n':'1'}"))).isPresent();
            assertThat(JsonDiff.first(json("{'n':1}"), json("{'n':1.0}"))).isPresent();
            assertThat(JsonDiff.first(json("{'n':1.50}"), json("{'n':1.5}"))).isEmpty();
        }

        @Test
        void scores_may_differ_within_the_tolerance_only() {
            assertThat(JsonDiff.first(json("{'_score':1.00001}"), json("{'_score':1.0}"))).isEmpty();
            assertThat(JsonDiff.first(json("{'max_score':2.2}"), json("{'max_score':1.0}"))).isPresent();
            assertThat(JsonDiff.first(json("{'value':1.00001}"), json("{'value':1.0}"))).isPresent();
        }
    }

    @Nested
    class WrongAnswers {
        @Test
        void a_single_wrong_field_fails_with_the_request_both_answers_and_the_path() {
            HttpTarget.Exchange oracle = answer(200, "{'books':{'aliases':{},'settings':{'index':{'uuid':'u1',"
                    + "'number_of_shards':'1'}}}}");
            HttpTarget.Exchange wrong = answer(200, "{'books':{'aliases':{},'settings':{'index':{'uuid':'u2',"
                    + "'number_of_shards':'2'}}}}");

            Optional<String> report = Comparison.compare(ONE_CASE, ONE_CASE.cases().getFirst(), Engine.ELASTICSEARCH,
                    wrong, oracle, new KnownDifferences(List.of()));

            assertThat(report).isPresent();
            assertThat(report.get())
                    .contains("first difference at /body/books/settings/index/number_of_shards")
                    .contains("request: GET /books")
                    .contains("gateway:       \"2\"")
                    .contains("elasticsearch: \"1\"")
                    .contains("gateway, normalised:")
                    .contains("elasticsearch, normalised:");
        }

        @Test
        void the_same_answer_with_other_uuids_and_timings_passes() {
            HttpTarget.Exchange oracle = answer(200, "{'took':3,'books':{'settings':{'index':{'uuid':'u1'}}}}");
            HttpTarget.Exchange gateway = answer(200, "{'took':9,'books':{'settings':{'index':{'uuid':'u2'}}}}");
            assertThat(Comparison.compare(ONE_CASE, ONE_CASE.cases().getFirst(), Engine.ELASTICSEARCH, gateway,
                    oracle, new KnownDifferences(List.of()))).isEmpty();
        }

        @Test
        void a_wrong_status_fails() {
            Optional<String> report = Comparison.compare(ONE_CASE, ONE_CASE.cases().getFirst(), Engine.ELASTICSEARCH,
                    answer(400, "{}"), answer(404, "{}"), new KnownDifferences(List.of()));
            assertThat(report.orElseThrow()).contains("first difference at /status");
        }

        @Test
        void a_known_difference_hides_only_its_paths_for_its_engine_and_is_counted_as_used() {
            KnownDifferences known = known("""
                    differences:
                      - id: shards
                        engines: [elasticsearch]
                        case: read the*
                        paths: [/body/books/settings/index/number_of_shards]
                        why: test
                    """);
            HttpTarget.Exchange oracle = answer(200, "{'books':{'settings':{'index':{'number_of_shards':'1'}}}}");
            HttpTarget.Exchange gateway = answer(200, "{'books':{'settings':{'index':{'number_of_shards':'2'}}}}");
            Scenario.Case c = ONE_CASE.cases().getFirst();

            assertThat(known.unused(Engine.ELASTICSEARCH)).hasSize(1);
            assertThat(Comparison.compare(ONE_CASE, c, Engine.ELASTICSEARCH, gateway, oracle, known)).isEmpty();
            assertThat(known.unused(Engine.ELASTICSEARCH)).isEmpty();
            assertThat(Comparison.compare(ONE_CASE, c, Engine.OPENSEARCH, gateway, oracle, known)).isPresent();
            HttpTarget.Exchange other = answer(200, "{'books':{'settings':{'index':{'number_of_shards':'1',"
                    + "'x':'y'}}}}");
            assertThat(Comparison.compare(ONE_CASE, c, Engine.ELASTICSEARCH, other, oracle, known).orElseThrow())
                    .contains("/body/books/settings/index/x");
        }
    }

    @Nested
    class Files {
        @Test
        void a_scenario_reads_bodies_as_json_raw_bodies_verbatim_and_bulk_arrays_as_ndjson() {
            Scenario s = scenario("""
                    description: d
                    setup:
                      - request: POST /b/_bulk
                        body: [{index: {_id: "1"}}, {a: 1}]
                        requires: [documents]
                    cases:
                      - name: json
                        request: PUT /b
                        body: {settings: {number_of_replicas: 0}}
                      - name: raw
                        request: put /b
                        raw_body: '{"a": '
                        content_type: text/plain
                    """);
            assertThat(s.setup().getFirst().request().body()).isEqualTo("{\"index\":{\"_id\":\"1\"}}\n{\"a\":1}\n");
            assertThat(s.setup().getFirst().request().contentType()).isEqualTo("application/x-ndjson");
            assertThat(s.cases().get(0).request().body()).isEqualTo("{\"settings\":{\"number_of_replicas\":0}}");
            assertThat(s.cases().get(1).request().method()).isEqualTo("PUT");
            assertThat(s.cases().get(1).request().body()).isEqualTo("{\"a\": ");
            assertThat(s.cases().get(1).request().contentType()).isEqualTo("text/plain");
            assertThat(s.cases().get(0).engines()).isEqualTo(EnumSet.allOf(Engine.class));
        }

        @Test
        void typos_in_scenario_files_are_errors() {
            assertThatThrownBy(() -> scenario("cases: [{name: a, request: GET /, bdy: {}}]"))
                    .hasMessageContaining("unknown key [bdy]");
            assertThatThrownBy(() -> scenario("cases: [{request: GET /}]")).hasMessageContaining("needs a name");
            assertThatThrownBy(() -> scenario("cases: [{name: a, request: GET /, normalise: [{path: /body/x}]}]"))
                    .hasMessageContaining("needs a path and a why");
            assertThatThrownBy(() -> scenario("cases: [{name: a, request: GET /, requires: [teleport]}]"))
                    .hasMessageContaining("unknown capability [teleport]");
            assertThatThrownBy(() -> scenario("cases: [{name: a, request: GET /, engines: [solr]}]"))
                    .hasMessageContaining("unknown engine [solr]");
            assertThatThrownBy(() -> scenario("setup: []")).hasMessageContaining("at least one case");
        }

        @Test
        void known_differences_need_a_reason_and_unique_ids() {
            assertThatThrownBy(() -> known("differences: [{id: a, engines: [elasticsearch], paths: [/status]}]"))
                    .hasMessageContaining("needs id, engines, paths and why");
            assertThatThrownBy(() -> known("""
                    differences:
                      - {id: a, engines: [elasticsearch], paths: [/status], why: w}
                      - {id: a, engines: [opensearch], paths: [/status], why: w}
                    """)).hasMessageContaining("used twice");
        }

        @Test
        void every_shipped_scenario_and_known_difference_loads() {
            assertThat(ScenarioLoader.loadAll()).extracting(Scenario::id).contains("root-info", "index-lifecycle",
                    "mappings", "settings", "aliases", "cat-and-health", "errors", "generated-corpus");
            assertThat(KnownDifferences.load().all()).isNotEmpty();
            assertThat(Set.copyOf(ScenarioLoader.DEFAULT_HEADERS)).contains("content-type", "x-elastic-product");
        }
    }
}
