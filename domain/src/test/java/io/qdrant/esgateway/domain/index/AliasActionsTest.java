package io.qdrant.esgateway.domain.index;

import static io.qdrant.esgateway.domain.error.Failures.failure;
import static io.qdrant.esgateway.domain.index.IndexFixtures.alias;
import static io.qdrant.esgateway.domain.index.IndexFixtures.catalog;
import static io.qdrant.esgateway.domain.index.IndexFixtures.indices;
import static io.qdrant.esgateway.domain.json.JsonFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.AliasActions.Action;
import io.qdrant.esgateway.domain.index.AliasActions.Plan;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class AliasActionsTest {

    private static List<Action> parse(String body) {
        return AliasActions.parse(json(body));
    }

    private static Action only(String body) {
        List<Action> actions = parse(body);
        assertThat(actions).hasSize(1);
        return actions.get(0);
    }

    /** logs-1 and logs-2 behind the alias {@code logs} (logs-2 writes), and a lone {@code users} index. */
    private static CatalogView logsAndUsers() {
        return catalog(indices("logs-1", "logs-2", "users"),
                alias("logs", "logs-1"), alias("logs", "logs-2", true));
    }

    private static Plan plan(CatalogView view, String body) {
        return AliasActions.plan(view, parse(body));
    }

    private static GatewayException planFailure(CatalogView view, String body) {
        List<Action> actions = parse(body);
        return failure(() -> AliasActions.plan(view, actions));
    }

    private static AliasProperties writeIndex(boolean isWriteIndex) {
        return new AliasProperties(Optional.empty(), Optional.empty(), Optional.of(isWriteIndex), Optional.empty());
    }

    /** Elasticsearch's shape: "[aliases] failed to parse field [actions]" caused by the illegal argument. */
    private static void assertValidation(GatewayException e, String what) {
        assertThat(e.kind()).isEqualTo(ErrorKind.X_CONTENT_PARSE);
        assertThat(e.reason()).isEqualTo("[aliases] failed to parse field [actions]");
        assertThat(e.gatewayCause().kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
        assertThat(e.gatewayCause().reason()).isEqualTo(what);
    }

    /** An x_content_parse_exception whose innermost cause (ES's root cause) is {@code reason}. */
    private static void assertXContent(GatewayException e, String reason) {
        assertThat(e.kind()).isEqualTo(ErrorKind.X_CONTENT_PARSE);
        GatewayException root = e;
        while (root.gatewayCause() != null) {
            root = root.gatewayCause();
        }
        assertThat(root.kind()).isEqualTo(ErrorKind.X_CONTENT_PARSE);
        assertThat(root.reason()).isEqualTo(reason);
    }

    @Nested
    class Parse {
        @Test
        void an_add_action() {
            assertThat(only("{'actions':[{'add':{'index':'logs-1','alias':'logs'}}]}"))
                    .isEqualTo(new Action.Add(List.of("logs-1"), List.of("logs"), AliasProperties.NONE));
        }

        @Test
        void index_indices_alias_and_aliases_together() {
            assertThat(only("{'actions':[{'add':{'index':'a','indices':['b','c'],'alias':'x','aliases':['y','z']}}]}"))
                    .isEqualTo(new Action.Add(List.of("a", "b", "c"), List.of("x", "y", "z"), AliasProperties.NONE));
        }

        @Test
        void indices_and_aliases_as_single_strings() {
            assertThat(only("{'actions':[{'remove':{'indices':'a','aliases':'x'}}]}"))
                    .isEqualTo(new Action.Remove(List.of("a"), List.of("x"), Optional.empty()));
        }

        @Test
        void the_add_properties() {
            assertThat(only("{'actions':[{'add':{'index':'a','alias':'x','routing':'1','is_write_index':true,"
                    + "'is_hidden':'false'}}]}"))
                    .isEqualTo(new Action.Add(List.of("a"), List.of("x"), new AliasProperties(Optional.of("1"),
                            Optional.of("1"), Optional.of(true), Optional.of(false))));
            assertThat(only("{'actions':[{'add':{'index':'a','alias':'x','index_routing':'i','search_routing':2}}]}"))
                    .isEqualTo(new Action.Add(List.of("a"), List.of("x"), new AliasProperties(Optional.of("i"),
                            Optional.of("2"), Optional.empty(), Optional.empty())));
        }

        @Test
        void a_remove_action_with_must_exist() {
            assertThat(only("{'actions':[{'remove':{'index':'a','alias':'x','must_exist':false}}]}"))
                    .isEqualTo(new Action.Remove(List.of("a"), List.of("x"), Optional.of(false)));
        }

        @Test
        void a_remove_index_action() {
            assertThat(only("{'actions':[{'remove_index':{'indices':['a','b']}}]}"))
                    .isEqualTo(new Action.RemoveIndex(List.of("a", "b")));
        }

        @Test
        void several_actions_in_their_order() {
            assertThat(parse("{'actions':[{'remove':{'index':'a','alias':'x'}},{'add':{'index':'b','alias':'x'}},"
                    + "{'remove_index':{'index':'a'}}]}"))
                    .containsExactly(new Action.Remove(List.of("a"), List.of("x"), Optional.empty()),
                            new Action.Add(List.of("b"), List.of("x"), AliasProperties.NONE),
                            new Action.RemoveIndex(List.of("a")));
        }

        @Test
        void a_single_action_without_an_array() {
            assertThat(only("{'actions':{'add':{'index':'a','alias':'x'}}}"))
                    .isEqualTo(new Action.Add(List.of("a"), List.of("x"), AliasProperties.NONE));
        }
    }

    @Nested
    class ParseErrors {
        @Test
        void no_body() {
            GatewayException e = failure(() -> AliasActions.parse(null));
            assertThat(e.kind()).isEqualTo(ErrorKind.PARSE);
            assertThat(e.getMessage()).isEqualTo("request body is required");
        }

        @Test
        void no_actions_as_elasticsearch_8_15_says_it() {
            for (String body : List.of("{}", "{'actions':[]}")) {
                GatewayException e = failure(() -> parse(body));
                assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
                assertThat(e.getMessage()).isEqualTo("No action specified");
            }
        }

        @Test
        void a_body_that_is_not_an_object() {
            GatewayException e = failure(() -> parse("[]"));

            assertThat(e.kind()).isEqualTo(ErrorKind.PARSE);
            assertThat(e.reason()).isEqualTo("[aliases] body must be an object, got [START_ARRAY]");
        }

        @Test
        void an_unknown_top_level_field() {
            assertXContent(failure(() -> parse("{'actions':[],'dry_run':true}")), "[aliases] unknown field [dry_run]");
        }

        @Test
        void an_unknown_action() {
            assertXContent(failure(() -> parse("{'actions':[{'rename':{'index':'a','alias':'x'}}]}")),
                    "[alias_action] unknown field [rename]");
        }

        @Test
        void two_actions_in_one_object() {
            GatewayException e = failure(() -> parse("{'actions':[{'add':{},'remove':{}}]}"));
            assertThat(e.reason()).isEqualTo("[aliases] failed to parse field [actions]");
            assertThat(e.gatewayCause().reason())
                    .isEqualTo("Failed to build [alias_action] after last required field arrived");
            assertThat(e.gatewayCause().gatewayCause().reason())
                    .isEqualTo("Too many operations declared on operation entry");
        }

        @Test
        void an_unknown_field_of_an_action() {
            GatewayException e = failure(() -> parse("{'actions':[{'add':{'index':'a','alias':'x','colour':1}}]}"));
            assertXContent(e, "[add] unknown field [colour]");
            assertThat(e.reason()).isEqualTo("[aliases] failed to parse field [actions]");
            assertThat(e.gatewayCause().reason()).isEqualTo("[alias_action] failed to parse field [add]");
            assertXContent(failure(() -> parse("{'actions':[{'remove':{'index':'a','alas':'x'}}]}")),
                    "[remove] unknown field [alas] did you mean any of [alias, aliases]?");
            assertXContent(failure(() -> parse("{'actions':[{'ad':{'index':'a','alias':'x'}}]}")),
                    "[alias_action] unknown field [ad] did you mean [add]?");
            assertXContent(failure(() -> parse("{'actons':[]}")), "[aliases] unknown field [actons] did you mean"
                    + " [actions]?");
        }

        @Test
        void an_add_property_on_remove() {
            assertXContent(failure(() -> parse("{'actions':[{'remove':{'index':'a','alias':'x','routing':'1'}}]}")),
                    "[remove] unknown field [routing]");
        }

        @Test
        void a_filter_that_is_not_an_object() {
            GatewayException e = failure(() -> parse("{'actions':[{'add':{'index':'a','alias':'x',"
                    + "'filter':[{'term':{'user':'kimchy'}}]}}]}"));

            assertThat(e.kind()).isEqualTo(ErrorKind.PARSE);
            assertThat(e.reason()).isEqualTo("[filter] must be an object");
        }

        @Test
        void an_action_without_an_index() {
            assertValidation(failure(() -> parse("{'actions':[{'add':{'alias':'x'}}]}")),
                    "One of [index] or [indices] is required");
            assertValidation(failure(() -> parse("{'actions':[{'remove_index':{}}]}")),
                    "One of [index] or [indices] is required");
        }

        @Test
        void an_add_or_remove_without_an_alias() {
            assertValidation(failure(() -> parse("{'actions':[{'add':{'index':'a'}}]}")),
                    "One of [alias] or [aliases] is required");
            assertValidation(failure(() -> parse("{'actions':[{'remove':{'index':'a'}}]}")),
                    "One of [alias] or [aliases] is required");
        }

        @Test
        void must_exist_on_add() {
            GatewayException e = failure(() -> parse("{'actions':[{'add':{'index':'a','alias':'x','must_exist':true}}]}"));

            assertXContent(e, "[add] unknown field [must_exist]");
            assertXContent(failure(() -> parse("{'actions':[{'remove_index':{'index':'a','must_exist':true}}]}")),
                    "[remove_index] unknown field [must_exist]");
        }

        @Test
        void an_alias_on_remove_index() {
            GatewayException e = failure(() -> parse("{'actions':[{'remove_index':{'index':'a','alias':'x'}}]}"));

            assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
            assertThat(e.reason()).isEqualTo("[remove_index] does not take [alias] or [aliases]");
        }

        @Test
        void an_index_that_is_not_a_string() {
            assertXContent(failure(() -> parse("{'actions':[{'add':{'index':{'name':'a'},'alias':'x'}}]}")),
                    "[add] failed to parse field [index]: expected a string");
        }

        @Test
        void a_must_exist_that_is_not_a_boolean() {
            GatewayException e = failure(() -> parse("{'actions':[{'remove':{'index':'a','alias':'x','must_exist':'y'}}]}"));

            assertThat(e.kind()).isEqualTo(ErrorKind.PARSE);
            assertThat(e.reason()).isEqualTo("[must_exist] must be a boolean");
        }

        @Test
        void an_is_write_index_that_is_not_a_boolean() {
            GatewayException e = failure(() -> parse("{'actions':[{'add':{'index':'a','alias':'x','is_write_index':1}}]}"));

            assertThat(e.kind()).isEqualTo(ErrorKind.PARSE);
            assertThat(e.reason()).isEqualTo("[is_write_index] must be a boolean");
        }
    }

    @Nested
    class Planning {
        @Test
        void keeps_the_aliases_it_does_not_touch_and_adds_new_ones() {
            Plan plan = plan(logsAndUsers(), "{'actions':[{'add':{'index':'users','alias':'people'}}]}");

            assertThat(plan.aliases()).containsExactly(alias("logs", "logs-1"), alias("logs", "logs-2", true),
                    alias("people", "users"));
            assertThat(plan.removedIndices()).isEmpty();
        }

        @Test
        void adds_to_every_index_an_expression_names() {
            Plan plan = plan(logsAndUsers(), "{'actions':[{'add':{'index':'logs-*','aliases':['a','b']}}]}");

            assertThat(plan.aliases()).contains(alias("a", "logs-1"), alias("a", "logs-2"), alias("b", "logs-1"),
                    alias("b", "logs-2")).hasSize(6);
        }

        @Test
        void adding_an_existing_alias_replaces_its_properties() {
            Plan plan = plan(logsAndUsers(), "{'actions':[{'add':{'index':'logs-2','alias':'logs'}}]}");

            assertThat(plan.aliases()).containsExactly(alias("logs", "logs-1"), alias("logs", "logs-2"));
        }

        @Test
        void applies_the_actions_in_order() {
            String swap = "{'actions':[{'remove':{'index':'logs-2','alias':'logs'}},"
                    + "{'add':{'index':'users','alias':'logs','is_write_index':true}}]}";

            assertThat(plan(logsAndUsers(), swap).aliases()).containsExactly(alias("logs", "logs-1"),
                    alias("logs", "users", true));
        }

        @Test
        void an_add_then_a_remove_of_the_same_alias_leaves_nothing() {
            Plan plan = plan(logsAndUsers(), "{'actions':[{'add':{'index':'users','alias':'tmp'}},"
                    + "{'remove':{'index':'users','alias':'tmp'}}]}");

            assertThat(plan.aliases()).extracting(AliasMetadata::alias).doesNotContain("tmp");
        }

        @Test
        void removes_aliases_matching_a_pattern_or_all() {
            CatalogView view = catalog(indices("a"), alias("x1", "a"), alias("x2", "a"), alias("y", "a"));

            assertThat(plan(view, "{'actions':[{'remove':{'index':'a','alias':'x*'}}]}").aliases())
                    .containsExactly(alias("y", "a"));
            assertThat(plan(view, "{'actions':[{'remove':{'index':'a','alias':'_all'}}]}").aliases()).isEmpty();
        }

        @Test
        void removing_a_missing_alias_fails() {
            GatewayException e = planFailure(logsAndUsers(), "{'actions':[{'remove':{'index':'users','alias':'logs'}}]}");

            assertThat(e.kind()).isEqualTo(ErrorKind.ALIASES_NOT_FOUND);
            assertThat(e.reason()).isEqualTo("aliases [logs] missing");
            assertThat(e.metadata()).isEqualTo(Map.of("resource.type", "aliases", "resource.id", "logs"));
        }

        @Test
        void removing_a_missing_alias_is_fine_when_it_need_not_exist() {
            Plan plan = plan(logsAndUsers(), "{'actions':[{'remove':{'index':'users','alias':'logs','must_exist':false}}]}");

            assertThat(plan.aliases()).isEqualTo(logsAndUsers().aliases());
        }

        @Test
        void removing_from_a_missing_index_fails() {
            GatewayException e = planFailure(logsAndUsers(), "{'actions':[{'remove':{'index':'nope','alias':'logs'}}]}");

            assertThat(e.kind()).isEqualTo(ErrorKind.INDEX_NOT_FOUND);
            assertThat(e.reason()).isEqualTo("no such index [nope]");
        }

        @Test
        void adding_to_a_missing_index_fails() {
            GatewayException e = planFailure(logsAndUsers(), "{'actions':[{'add':{'index':'nope','alias':'x'}}]}");

            assertThat(e.kind()).isEqualTo(ErrorKind.INDEX_NOT_FOUND);
            assertThat(e.reason()).isEqualTo("no such index [nope]");
        }

        @Test
        void adding_through_a_wildcard_that_matches_nothing_fails() {
            GatewayException e = planFailure(logsAndUsers(), "{'actions':[{'add':{'index':'nope-*','alias':'x'}}]}");

            assertThat(e.kind()).isEqualTo(ErrorKind.INDEX_NOT_FOUND);
            assertThat(e.reason()).isEqualTo("no such index [nope-*]");
        }

        @Test
        void refuses_an_invalid_alias_name() {
            GatewayException e = planFailure(logsAndUsers(), "{'actions':[{'add':{'index':'users','alias':'_x'}}]}");

            assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_ALIAS_NAME);
            assertThat(e.reason()).isEqualTo("Invalid alias name [_x]: must not start with '_', '-', or '+'");
        }

        @Test
        void refuses_an_alias_named_like_an_index() {
            GatewayException e = planFailure(logsAndUsers(), "{'actions':[{'add':{'index':'logs-1','alias':'users'}}]}");

            assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_ALIAS_NAME);
            assertThat(e.reason())
                    .isEqualTo("Invalid alias name [users]: an index or data stream exists with the same name as the alias");
        }

        @Test
        void refuses_a_second_write_index() {
            GatewayException e = planFailure(logsAndUsers(),
                    "{'actions':[{'add':{'index':'logs-1','alias':'logs','is_write_index':true}}]}");

            assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
            assertThat(e.reason()).isEqualTo("alias [logs] has more than one write index [logs-1,logs-2]");
        }

        @Test
        void moves_the_write_index_in_one_batch() {
            Plan plan = plan(logsAndUsers(), "{'actions':["
                    + "{'add':{'index':'logs-1','alias':'logs','is_write_index':true}},"
                    + "{'add':{'index':'logs-2','alias':'logs','is_write_index':false}}]}");

            assertThat(plan.aliases()).containsExactly(alias("logs", "logs-1", true), alias("logs", "logs-2", false));
        }
    }

    @Nested
    class RemoveIndex {
        @Test
        void removes_the_index_and_its_aliases() {
            Plan plan = plan(logsAndUsers(), "{'actions':[{'remove_index':{'index':'logs-2'}}]}");

            assertThat(plan.removedIndices()).containsExactly("logs-2");
            assertThat(plan.aliases()).containsExactly(alias("logs", "logs-1"));
        }

        @Test
        void removes_every_index_a_wildcard_names() {
            Plan plan = plan(logsAndUsers(), "{'actions':[{'remove_index':{'index':'logs-*'}}]}");

            assertThat(plan.removedIndices()).containsExactly("logs-1", "logs-2");
            assertThat(plan.aliases()).isEmpty();
        }

        @Test
        void refuses_an_alias_name() {
            GatewayException e = planFailure(logsAndUsers(), "{'actions':[{'remove_index':{'index':'logs'}}]}");

            assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
            assertThat(e.reason()).isEqualTo(
                    "The provided expression [logs] matches an alias, specify the corresponding concrete indices instead.");
        }

        @Test
        void refuses_a_missing_index() {
            GatewayException e = planFailure(logsAndUsers(), "{'actions':[{'remove_index':{'index':'nope'}}]}");

            assertThat(e.kind()).isEqualTo(ErrorKind.INDEX_NOT_FOUND);
        }

        @Test
        void lets_an_alias_take_the_removed_index_name() {
            Plan plan = plan(logsAndUsers(), "{'actions':[{'add':{'index':'logs-1','alias':'users'}},"
                    + "{'remove_index':{'index':'users'}}]}");

            assertThat(plan.removedIndices()).containsExactly("users");
            assertThat(plan.aliases()).contains(alias("users", "logs-1"));
        }

        @Test
        void a_later_action_cannot_use_the_removed_index() {
            GatewayException e = planFailure(logsAndUsers(), "{'actions':[{'remove_index':{'index':'users'}},"
                    + "{'add':{'index':'users','alias':'people'}}]}");

            assertThat(e.kind()).isEqualTo(ErrorKind.INDEX_NOT_FOUND);
            assertThat(e.reason()).isEqualTo("no such index [users]");
        }
    }

    @Nested
    class SingleActions {
        @Test
        void put_alias_is_one_add() {
            assertThat(AliasActions.add("a,b", "x", null))
                    .isEqualTo(new Action.Add(List.of("a", "b"), List.of("x"), AliasProperties.NONE));
        }

        @Test
        void put_alias_with_a_body() {
            assertThat(AliasActions.add("a", "x", json("{'is_write_index':true}")))
                    .isEqualTo(new Action.Add(List.of("a"), List.of("x"), writeIndex(true)));
        }

        @Test
        void put_alias_ignores_unknown_body_fields_and_is_hidden_as_elasticsearch_does() {
            assertThat(AliasActions.add("a", "x", json("{'colour':1,'is_hidden':true}")))
                    .isEqualTo(new Action.Add(List.of("a"), List.of("x"), AliasProperties.NONE));
        }

        @Test
        void put_alias_reads_the_routing_spellings_elasticsearch_reads() {
            assertThat(AliasActions.add("a", "x", json("{'indexRouting':'i','search-routing':'s'}")))
                    .isEqualTo(new Action.Add(List.of("a"), List.of("x"), new AliasProperties(Optional.of("i"),
                            Optional.of("s"), Optional.empty(), Optional.empty())));
        }

        @Test
        void delete_alias_is_one_remove() {
            assertThat(AliasActions.remove("a,b", "x,y"))
                    .isEqualTo(new Action.Remove(List.of("a", "b"), List.of("x", "y"), Optional.empty()));
        }
    }
}
