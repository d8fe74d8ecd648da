package io.qdrant.esgateway.domain.index;

import static io.qdrant.esgateway.domain.error.Failures.failure;
import static io.qdrant.esgateway.domain.index.IndexFixtures.alias;
import static io.qdrant.esgateway.domain.index.IndexFixtures.catalog;
import static io.qdrant.esgateway.domain.index.IndexFixtures.index;
import static io.qdrant.esgateway.domain.index.IndexFixtures.indices;
import static io.qdrant.esgateway.domain.index.IndexFixtures.names;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.CatalogView.Options;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class CatalogViewTest {
    private static final Options STRICT = new Options(false, false);
    private static final Options LENIENT = new Options(true, true);
    private static final Options DEFAULT = Options.STRICT_EXPAND_OPEN;

    /**
     * Three log indices, a products index and a users index; {@code logs} aliases every log index,
     * {@code current-logs} writes to logs-3, {@code products-read} aliases products alone.
     */
    private static CatalogView shop() {
        return catalog(indices("logs-1", "logs-2", "logs-3", "products", "users"),
                alias("logs", "logs-1"), alias("logs", "logs-2"), alias("logs", "logs-3", true),
                alias("current-logs", "logs-3"), alias("products-read", "products"));
    }

    private static List<String> resolve(String expression, Options options) {
        return names(shop().resolve(expression, options));
    }

    private static void assertIndexNotFound(GatewayException e, String name) {
        assertThat(e.kind()).isEqualTo(ErrorKind.INDEX_NOT_FOUND);
        assertThat(e.reason()).isEqualTo("no such index [" + name + "]");
        assertThat(e.metadata()).containsEntry("resource.id", name).containsEntry("index", name);
    }

    @Nested
    class Lookups {
        @Test
        void finds_an_index_by_name() {
            assertThat(shop().index("products")).contains(index("products"));
            assertThat(shop().index("logs")).isEmpty();
        }

        @Test
        void knows_its_aliases() {
            assertThat(shop().isAlias("logs")).isTrue();
            assertThat(shop().isAlias("logs-1")).isFalse();
            assertThat(shop().aliasNames()).containsExactly("current-logs", "logs", "products-read");
        }

        @Test
        void lists_an_indexs_aliases_sorted_by_name() {
            assertThat(shop().aliasesOf("logs-3")).extracting(AliasMetadata::alias).containsExactly("current-logs", "logs");
            assertThat(shop().aliasesOf("users")).isEmpty();
        }
    }

    @Nested
    class Resolve {
        @Test
        void a_single_index() {
            assertThat(resolve("products", DEFAULT)).containsExactly("products");
        }

        @Test
        void a_comma_list_sorted_and_deduplicated() {
            assertThat(resolve("users,products,users", DEFAULT)).containsExactly("products", "users");
        }

        @Test
        void an_alias_to_its_indices() {
            assertThat(resolve("logs", DEFAULT)).containsExactly("logs-1", "logs-2", "logs-3");
            assertThat(resolve("products-read", DEFAULT)).containsExactly("products");
        }

        @Test
        void a_mix_of_indices_and_aliases() {
            assertThat(resolve("current-logs,users,logs-3", DEFAULT)).containsExactly("logs-3", "users");
        }

        @Test
        void a_wildcard_over_index_names() {
            assertThat(resolve("logs-*", DEFAULT)).containsExactly("logs-1", "logs-2", "logs-3");
            assertThat(resolve("prod*", DEFAULT)).containsExactly("products");
        }

        @Test
        void a_wildcard_over_alias_names() {
            assertThat(resolve("current-*", DEFAULT)).containsExactly("logs-3");
            assertThat(resolve("*-read", DEFAULT)).containsExactly("products");
        }

        @Test
        void a_wildcard_over_both() {
            // "*s" names no log index itself, but the aliases "logs" and "current-logs"
            assertThat(resolve("*s", DEFAULT)).containsExactly("logs-1", "logs-2", "logs-3", "products", "users");
        }

        @Test
        void an_exclusion_after_a_wildcard() {
            assertThat(resolve("logs-*,-logs-2", DEFAULT)).containsExactly("logs-1", "logs-3");
        }

        @Test
        void a_wildcard_exclusion() {
            assertThat(resolve("*,-logs-*", DEFAULT)).containsExactly("products", "users");
        }

        @Test
        void an_exclusion_after_all() {
            assertThat(resolve("_all,-users", DEFAULT)).containsExactly("logs-1", "logs-2", "logs-3", "products");
        }

        @Test
        void a_name_after_an_exclusion_is_added_again() {
            assertThat(resolve("logs-*,-logs-2,logs-2", DEFAULT)).containsExactly("logs-1", "logs-2", "logs-3");
        }

        @Test
        void a_leading_minus_without_a_wildcard_before_it_is_a_name() {
            assertIndexNotFound(failure(() -> resolve("-logs-1,logs-*", DEFAULT)), "-logs-1");
        }

        @ParameterizedTest
        @NullAndEmptySource
        @ValueSource(strings = {"_all", "*"})
        void everything(String expression) {
            assertThat(resolve(expression, DEFAULT)).containsExactly("logs-1", "logs-2", "logs-3", "products", "users");
        }

        @Test
        void skips_empty_parts() {
            assertThat(resolve("users,,products,", DEFAULT)).containsExactly("products", "users");
        }

        @Test
        void a_missing_name_is_not_found() {
            assertIndexNotFound(failure(() -> resolve("users,missing", DEFAULT)), "missing");
        }

        @Test
        void a_missing_name_is_skipped_with_ignore_unavailable() {
            assertThat(resolve("users,missing", LENIENT)).containsExactly("users");
        }

        @Test
        void a_wildcard_matching_nothing_is_empty_when_no_indices_are_allowed() {
            assertThat(resolve("nothing-*", DEFAULT)).isEmpty();
        }

        @Test
        void a_wildcard_matching_nothing_is_not_found_when_no_indices_are_not_allowed() {
            assertIndexNotFound(failure(() -> resolve("nothing-*", STRICT)), "nothing-*");
        }

        @Test
        void only_missing_names_ignored_and_no_indices_not_allowed() {
            assertIndexNotFound(failure(() -> resolve("a,b", new Options(true, false))), "a,b");
        }

        @Test
        void all_of_an_empty_catalog() {
            CatalogView empty = catalog(List.of());

            assertThat(empty.resolve("_all", DEFAULT)).isEmpty();
            assertIndexNotFound(failure(() -> empty.resolve("", STRICT)), "_all");
            assertIndexNotFound(failure(() -> empty.resolve("_all", STRICT)), "_all");
        }
    }

    @Nested
    class ResolveForDelete {
        @Test
        void names_indices() {
            assertThat(names(shop().resolveForDelete("users,products,users"))).containsExactly("users", "products");
        }

        @ParameterizedTest
        @ValueSource(strings = {"*", "logs-*", "users,logs-*", "_all"})
        void refuses_wildcards_and_all(String expression) {
            GatewayException e = failure(() -> shop().resolveForDelete(expression));

            assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
            assertThat(e.reason()).isEqualTo("Wildcard expressions or all indices are not allowed");
        }

        @Test
        void refuses_an_alias() {
            GatewayException e = failure(() -> shop().resolveForDelete("users,logs"));

            assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
            assertThat(e.reason()).isEqualTo(
                    "The provided expression [logs] matches an alias, specify the corresponding concrete indices instead.");
        }

        @Test
        void refuses_an_unknown_name() {
            assertIndexNotFound(failure(() -> shop().resolveForDelete("users,missing")), "missing");
        }
    }

    @Nested
    class ResolveWriteIndex {
        @Test
        void an_index_is_its_own_write_index() {
            assertThat(shop().resolveWriteIndex("users")).isEqualTo(index("users"));
        }

        @Test
        void an_alias_of_one_index() {
            assertThat(shop().resolveWriteIndex("products-read")).isEqualTo(index("products"));
            assertThat(shop().resolveWriteIndex("current-logs")).isEqualTo(index("logs-3"));
        }

        @Test
        void the_marked_index_of_an_alias_of_many() {
            assertThat(shop().resolveWriteIndex("logs")).isEqualTo(index("logs-3"));
        }

        @Test
        void an_alias_of_one_index_marked_true() {
            CatalogView view = catalog(indices("a"), alias("w", "a", true));

            assertThat(view.resolveWriteIndex("w")).isEqualTo(index("a"));
        }

        @Test
        void none_for_an_alias_of_many_without_a_marked_index() {
            assertNoWriteIndex(catalog(indices("a", "b"), alias("w", "a"), alias("w", "b")));
        }

        @Test
        void none_for_an_alias_of_one_index_marked_false() {
            assertNoWriteIndex(catalog(indices("a"), alias("w", "a", false)));
        }

        @Test
        void none_when_every_index_is_marked_false() {
            assertNoWriteIndex(catalog(indices("a", "b"), alias("w", "a", false), alias("w", "b", false)));
        }

        @Test
        void an_unknown_name_is_not_found() {
            assertIndexNotFound(failure(() -> shop().resolveWriteIndex("missing")), "missing");
        }

        private void assertNoWriteIndex(CatalogView view) {
            GatewayException e = failure(() -> view.resolveWriteIndex("w"));

            assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
            assertThat(e.reason()).isEqualTo("no write index is defined for alias [w]. The write index may be explicitly"
                    + " disabled using is_write_index=false or the alias points to multiple indices without one being"
                    + " designated as a write index");
        }
    }

    @Nested
    class ValidateAliases {
        @Test
        void accepts_one_write_index_per_alias() {
            assertThatCode(() -> CatalogView.validateAliases(Map.of("a", index("a"), "b", index("b")),
                    List.of(alias("w", "a", true), alias("w", "b", false), alias("v", "b", true))))
                    .doesNotThrowAnyException();
        }

        @Test
        void refuses_two_write_indices() {
            GatewayException e = failure(() -> CatalogView.validateAliases(Map.of("a", index("a"), "b", index("b")),
                    List.of(alias("w", "b", true), alias("w", "a", true))));

            assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
            assertThat(e.reason()).isEqualTo("alias [w] has more than one write index [a,b]");
        }

        @Test
        void refuses_an_alias_named_like_an_index() {
            GatewayException e = failure(() -> CatalogView.validateAliases(Map.of("a", index("a"), "b", index("b")),
                    List.of(alias("b", "a"))));

            assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_ALIAS_NAME);
            assertThat(e.reason())
                    .isEqualTo("Invalid alias name [b]: an index or data stream exists with the same name as the alias");
        }
    }

    @org.junit.jupiter.api.Nested
    class ClosedIndices {
        private final CatalogView view = catalog(List.of(index("logs-1"), index("logs-2",
                IndexSettings.DEFAULTS.withClosed(true)), index("users")), alias("logs", "logs-1"),
                alias("logs", "logs-2"), alias("old-logs", "logs-2", true));

        @Test
        void wildcardsAndAllLeaveClosedIndicesOut() {
            assertThat(names(view.resolveOpen("logs-*", DEFAULT))).containsExactly("logs-1");
            assertThat(names(view.resolveOpen("_all", DEFAULT))).containsExactly("logs-1", "users");
            assertThat(names(view.resolve("logs-*", DEFAULT))).containsExactly("logs-1");
            assertThat(names(view.resolve("logs-*", DEFAULT.withStates(true, true)))).containsExactly("logs-1", "logs-2");
        }

        @Test
        void expandWildcardsChoosesOpenOrClosedIndices() {
            Options closed = DEFAULT.withStates(false, true);
            assertThat(names(view.resolve("logs-*", closed))).containsExactly("logs-2");
            assertThat(names(view.resolve("_all", closed))).containsExactly("logs-2");
            // an alias matched by the wildcard reaches its indices in the states asked for
            assertThat(names(view.resolve("lo*", closed))).containsExactly("logs-2");
            // a named index is reached whatever its state
            assertThat(names(view.resolve("users,logs-*", closed))).containsExactly("logs-2", "users");
        }

        @Test
        void aClosedIndexAWildcardReachesWhenAskedForIsIndexClosed() {
            failure(ErrorKind.INDEX_CLOSED, () -> view.resolveOpen("logs-*", DEFAULT.withStates(true, true)));
            failure(ErrorKind.INDEX_CLOSED, () -> view.resolveOpen("*", DEFAULT.withStates(false, true)));
            assertThat(names(view.resolveOpen("logs-*", LENIENT.withStates(false, true)))).isEmpty();
            assertThat(names(view.resolveOpen("logs-*", LENIENT.withStates(true, true)))).containsExactly("logs-1");
        }

        @Test
        void expandWildcardsNoneReadsAWildcardAsAName() {
            Options none = DEFAULT.withStates(false, false);
            failure(ErrorKind.INDEX_NOT_FOUND, () -> view.resolve("logs-*", none));
            assertThat(names(view.resolve("users,logs-*", LENIENT.withStates(false, false)))).containsExactly("users");
        }

        @Test
        void oneIndexByItsNameResolvesAsInAList() {
            for (Options options : List.of(DEFAULT, LENIENT, DEFAULT.withStates(false, false))) {
                assertThat(view.resolveOpen("users", options)).isEqualTo(view.resolve("users", options));
                List<IndexMetadata> one = view.resolveOpen("users", options);
                one.clear(); // the caller's own list, as resolve gives
                assertThat(names(view.resolveOpen("users", options))).containsExactly("users");
            }
            GatewayException e = failure(ErrorKind.INDEX_CLOSED, () -> view.resolveOpen("logs-2", DEFAULT));
            assertThat(e.metadata()).containsEntry("index", "logs-2");
            assertThat(names(view.resolveOpen("logs-2", LENIENT))).isEmpty();
        }

        @Test
        void aClosedIndexNamedOrReachedThroughAnAliasIsIndexClosed() {
            GatewayException e = failure(ErrorKind.INDEX_CLOSED, () -> view.resolveOpen("users,logs-2", DEFAULT));
            assertThat(e.reason()).isEqualTo("closed");
            assertThat(e.metadata()).containsEntry("index", "logs-2").containsEntry("index_uuid", "logs-2-uuid");
            failure(ErrorKind.INDEX_CLOSED, () -> view.resolveOpen("logs", DEFAULT));
            assertThat(names(view.resolveOpen("users,logs-2", LENIENT))).containsExactly("users");
        }

        @Test
        void writesToAClosedIndexAreIndexClosed() {
            failure(ErrorKind.INDEX_CLOSED, () -> view.resolveWriteIndex("logs-2"));
            failure(ErrorKind.INDEX_CLOSED, () -> view.resolveWriteIndex("old-logs"));
            assertThat(view.resolveWriteIndex("users").name()).isEqualTo("users");
        }
    }
}
