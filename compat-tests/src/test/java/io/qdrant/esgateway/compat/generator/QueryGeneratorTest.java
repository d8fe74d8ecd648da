package io.qdrant.esgateway.compat.generator;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.compat.generator.QueryGenerator.Feature;
import io.qdrant.esgateway.compat.generator.QueryGenerator.GeneratedQuery;
import io.qdrant.esgateway.compat.harness.Json;
import io.qdrant.esgateway.compat.harness.Scenario;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QueryGeneratorTest {
    private static List<String> bodies(long seed, int n) {
        CorpusGenerator.Corpus corpus = CorpusGenerator.generate(seed, 30);
        return QueryGenerator.generate(seed, corpus, n).stream().map(q -> Json.compact(q.body())).toList();
    }

    @Test
    void the_same_seed_gives_the_same_queries() {
        assertThat(bodies(11, 40)).isEqualTo(bodies(11, 40));
        assertThat(bodies(11, 40)).isNotEqualTo(bodies(12, 40));
    }

    @Test
    void a_few_dozen_queries_cover_every_feature() {
        CorpusGenerator.Corpus corpus = CorpusGenerator.generate(20260101, 40);
        Set<Feature> seen = EnumSet.noneOf(Feature.class);
        QueryGenerator.generate(20260101, corpus, 60).forEach(q -> seen.addAll(q.features()));
        assertThat(seen).isEqualTo(EnumSet.allOf(Feature.class));
    }

    @Test
    void every_sort_ends_with_the_unique_tiebreaker() {
        CorpusGenerator.Corpus corpus = CorpusGenerator.generate(4, 30);
        for (GeneratedQuery q : QueryGenerator.generate(4, corpus, 50)) {
            var sort = q.body().path("sort");
            assertThat(sort.isArray()).isTrue();
            assertThat(sort.get(sort.size() - 1).has("sku")).as(q.name()).isTrue();
        }
    }

    @Test
    void a_generated_scenario_compares_the_mapping_now_and_searches_once_the_gateway_can() {
        Scenario s = GeneratedScenarios.scenario("gen", 7, 12, 5);
        assertThat(s.setup()).hasSize(2);
        assertThat(s.setup().get(0).requires()).isEmpty();
        assertThat(s.setup().get(1).requires()).containsExactly("documents");
        assertThat(s.setup().get(1).request().body().lines()).hasSize(24);
        assertThat(s.cases()).hasSize(1 + 1 + 5);
        assertThat(s.cases().get(0).requires()).isEmpty();
        assertThat(s.cases().subList(1, s.cases().size())).allSatisfy(c ->
                assertThat(c.requires()).contains("documents", "search"));
        assertThat(s.cases().subList(2, s.cases().size())).allSatisfy(c -> assertThat(c.requires()
                .contains("aggregations")).isEqualTo(c.request().body().contains("\"aggs\"")));
    }
}
