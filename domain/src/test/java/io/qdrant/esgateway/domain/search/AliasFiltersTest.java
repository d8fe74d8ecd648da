package io.qdrant.esgateway.domain.search;

import static io.qdrant.esgateway.domain.error.Failures.failure;
import static io.qdrant.esgateway.domain.index.IndexFixtures.alias;
import static io.qdrant.esgateway.domain.index.IndexFixtures.index;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.AliasMetadata;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.query.dsl.QueryDsl;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class AliasFiltersTest {
    private static final JsonObject RED = (JsonObject) Json.parse("{\"term\":{\"colour\":\"red\"}}");
    private static final JsonObject BIG = (JsonObject) Json.parse("{\"range\":{\"n\":{\"gte\":3}}}");

    private static AliasMetadata filtered(String alias, String index, JsonObject filter) {
        return new AliasMetadata(alias, index, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of(filter));
    }

    private static CatalogView view(AliasMetadata... aliases) {
        TreeMap<String, IndexMetadata> indices = new TreeMap<>();
        for (String name : List.of("a", "b")) {
            indices.put(name, index(name));
        }
        return new CatalogView(1, indices, List.of(aliases));
    }

    private static final CatalogView VIEW = view(filtered("red", "a", RED), filtered("big", "a", BIG),
            filtered("big", "b", BIG), alias("plain", "b"), filtered("blue", "b", RED));

    @Test
    void anIndexReachedThroughOneFilteredAliasIsFilteredByIt() {
        assertThat(AliasFilters.of(VIEW, "red")).isEqualTo(Map.of("a", QueryDsl.parse(RED)));
        assertThat(AliasFilters.of(VIEW, "big")).isEqualTo(Map.of("a", QueryDsl.parse(BIG), "b", QueryDsl.parse(BIG)));
    }

    @Test
    void severalFilteredAliasesOfOneIndexAreCombinedAsShoulds() {
        Query combined = AliasFilters.of(VIEW, "red,big").get("a");

        assertThat(combined).isInstanceOf(Query.Bool.class);
        Query.Bool bool = (Query.Bool) combined;
        assertThat(bool.should()).containsExactlyInAnyOrder(QueryDsl.parse(RED), QueryDsl.parse(BIG));
        assertThat(bool.must()).isEmpty();
        assertThat(bool.filter()).isEmpty();
    }

    @Test
    void anIndexNamedItselfOrThroughAnUnfilteredAliasIsReadWhole() {
        assertThat(AliasFilters.of(VIEW, "red,a")).isEmpty();
        assertThat(AliasFilters.of(VIEW, "a*")).isEmpty();
        assertThat(AliasFilters.of(VIEW, "_all")).isEmpty();
        assertThat(AliasFilters.of(VIEW, "")).isEmpty();
        assertThat(AliasFilters.of(VIEW, "blue,plain")).isEmpty();
        assertThat(AliasFilters.of(VIEW, "big,plain")).containsOnlyKeys("a");
    }

    @Test
    void wildcardsOverAliasNamesApplyTheirFiltersAndExclusionsRemoveThem() {
        assertThat(AliasFilters.of(VIEW, "re*")).isEqualTo(Map.of("a", QueryDsl.parse(RED)));
        assertThat(AliasFilters.of(VIEW, "re*,bi*,-red")).isEqualTo(Map.of("a", QueryDsl.parse(BIG),
                "b", QueryDsl.parse(BIG)));
        assertThat(AliasFilters.of(VIEW, "b*")).as("the wildcard names index b itself")
                .isEqualTo(Map.of("a", QueryDsl.parse(BIG)));
    }

    @Test
    void theFilterRestrictsTheQueryAndEachKnnSectionWithoutScoring() {
        Query term = QueryDsl.parse(RED);
        Query.Bool restricted = (Query.Bool) AliasFilters.restrict(Optional.empty(), term).orElseThrow();
        assertThat(restricted.must()).containsExactly(new Query.MatchAll(1f));
        assertThat(restricted.filter()).containsExactly(term);

        SearchRequest knnOnly = SearchRequestParser.parse(Optional.of(Json.parse(
                "{\"knn\":{\"field\":\"v\",\"query_vector\":[1,0],\"k\":2,\"num_candidates\":5}}")), Map.of());
        SearchRequest out = AliasFilters.restrict(knnOnly, term);
        assertThat(out.query()).as("a kNN-only search gets no match-everything query").isEmpty();
        assertThat(out.knn().get(0).filter()).containsExactly(term);
    }

    @Test
    void aFilterThatDoesNotParseIsRefusedNamingTheAlias() {
        GatewayException e = failure(ErrorKind.ILLEGAL_ARGUMENT, () -> AliasFilters.validate(filtered("x", "a",
                (JsonObject) Json.parse("{\"no_such_query\":{}}"))));

        assertThat(e.reason()).isEqualTo("failed to parse filter for alias [x]");
        assertThat(e.gatewayCause().reason()).isEqualTo("unknown query [no_such_query]");
    }
}
