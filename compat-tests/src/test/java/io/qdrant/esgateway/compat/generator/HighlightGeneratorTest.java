package io.qdrant.esgateway.compat.generator;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.compat.generator.HighlightGenerator.Feature;
import io.qdrant.esgateway.compat.harness.Json;
import io.qdrant.esgateway.compat.harness.Scenario;
import io.qdrant.esgateway.compat.harness.ScenarioLoader;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HighlightGeneratorTest {
    private static List<String> bodies(long seed, int n) {
        CorpusGenerator.Corpus corpus = HighlightGenerator.corpus(seed, 30);
        return HighlightGenerator.generate(seed, corpus, n, true).stream().map(q -> Json.compact(q.body())).toList();
    }

    @Test
    void the_same_seed_gives_the_same_searches() {
        assertThat(bodies(5, 50)).isEqualTo(bodies(5, 50));
        assertThat(bodies(5, 50)).isNotEqualTo(bodies(6, 50));
    }

    @Test
    void the_ci_run_covers_every_feature() throws Exception {
        Scenario s = ScenarioLoader.load(Path.of(HighlightGeneratorTest.class
                .getResource("/scenarios/generated-highlight.yaml").toURI()));
        assertThat(s.cases()).hasSizeBetween(100, 200);
        CorpusGenerator.Corpus corpus = HighlightGenerator.corpus(20261203, 30);
        Set<Feature> seen = EnumSet.noneOf(Feature.class);
        HighlightGenerator.generate(20261203, corpus, s.cases().size(), true).forEach(q -> seen.addAll(q.features()));
        assertThat(seen).isEqualTo(EnumSet.allOf(Feature.class));
    }

    @Test
    void without_expansions_nothing_the_qdrant_store_refuses() {
        CorpusGenerator.Corpus corpus = HighlightGenerator.corpus(9, 30);
        assertThat(HighlightGenerator.generate(9, corpus, 200, false)).allSatisfy(q -> {
            assertThat(q.features()).doesNotContain(Feature.FUZZY, Feature.MATCH_PHRASE_PREFIX);
            assertThat(Json.compact(q.body())).doesNotContain("fuzzy", "phrase_prefix", "wildcard",
                    "regexp");
        });
    }
}
