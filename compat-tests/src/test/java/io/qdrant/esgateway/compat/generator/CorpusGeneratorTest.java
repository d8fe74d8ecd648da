package io.qdrant.esgateway.compat.generator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.compat.generator.CorpusGenerator.Corpus;
import io.qdrant.esgateway.compat.generator.CorpusGenerator.EdgeCase;
import io.qdrant.esgateway.compat.harness.Json;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class CorpusGeneratorTest {
    private static String text(Corpus corpus) {
        StringBuilder s = new StringBuilder(Json.compact(corpus.mappings()));
        corpus.bulkLines().forEach(l -> s.append('\n').append(Json.compact(l)));
        return s.toString();
    }

    @Test
    void the_same_seed_gives_the_same_corpus_byte_for_byte() {
        for (long seed : List.of(1L, 42L, 20260101L, -7L)) {
            assertThat(text(CorpusGenerator.generate(seed, 50))).isEqualTo(text(CorpusGenerator.generate(seed, 50)));
        }
    }

    @Test
    void different_seeds_give_different_corpora() {
        Set<String> distinct = new HashSet<>();
        LongStream.rangeClosed(1, 20).forEach(seed -> distinct.add(text(CorpusGenerator.generate(seed, 30))));
        assertThat(distinct).hasSize(20);
    }

    @Test
    void every_corpus_has_every_edge_case_whatever_the_seed() {
        for (long seed = 1; seed <= 300; seed++) {
            assertThat(CorpusGenerator.generate(seed, 6).edgeCases()).as("seed %d", seed)
                    .isEqualTo(EnumSet.allOf(EdgeCase.class));
        }
    }

    @Test
    void edge_cases_are_read_from_the_data() {
        Corpus corpus = CorpusGenerator.generate(9, 40);
        long nulls = corpus.documents().stream().filter(d -> d.source().properties().stream()
                .anyMatch(e -> e.getValue().isNull())).count();
        long arrays = corpus.documents().stream().filter(d -> d.source().path("tags").isArray()
                && d.source().path("tags").size() > 1).count();
        long missing = corpus.documents().stream().filter(d -> !d.source().has("brand")).count();
        assertThat(nulls).isPositive();
        assertThat(arrays).isPositive();
        assertThat(missing).isPositive();
    }

    @Test
    void ids_and_skus_are_unique_so_sorts_have_a_total_order() {
        Corpus corpus = CorpusGenerator.generate(5, 100);
        assertThat(corpus.documents().stream().map(CorpusGenerator.Doc::id).distinct()).hasSize(100);
        assertThat(corpus.documents().stream().map(d -> d.source().path("sku").asText()).distinct()).hasSize(100);
    }

    @Test
    void a_corpus_too_small_for_the_edge_cases_is_refused() {
        assertThatThrownBy(() -> CorpusGenerator.generate(1, 5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void the_bulk_body_pairs_an_action_with_each_source() {
        Corpus corpus = CorpusGenerator.generate(3, 10);
        assertThat(corpus.bulkLines()).hasSize(20);
        assertThat(corpus.bulkLines().get(0).path("index").path("_id").asText())
                .isEqualTo(corpus.documents().get(0).id());
        assertThat(corpus.bulkLines().get(1)).isEqualTo(corpus.documents().get(0).source());
    }
}
