package io.qdrant.esgateway.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkloadsTest {
    @Test
    void theSameSeedGivesTheSameCorpusAndRequests() {
        Corpus a = Corpus.generate(42, 500);
        Corpus b = Corpus.generate(42, 500);
        assertThat(bodies(a, false)).isEqualTo(bodies(b, false));
        assertThat(bodies(a, true)).isEqualTo(bodies(b, true));
        assertThat(Workloads.all(a, 42, 20, true)).isEqualTo(Workloads.all(b, 42, 20, true));
        assertThat(bodies(Corpus.generate(43, 500), false)).isNotEqualTo(bodies(a, false));
    }

    @Test
    void theBulkBatchesHoldEveryDocumentOnce() {
        Corpus corpus = Corpus.generate(3, 250);
        assertThat(corpus.batches(100)).isEqualTo(3);
        String all = String.join("", bodies(corpus, false));
        assertThat(all.lines()).hasSize(500);
        assertThat(all).contains("\"_id\":\"d0\"", "\"_id\":\"d249\"");
    }

    private static List<String> bodies(Corpus corpus, boolean vectors) {
        return java.util.stream.IntStream.range(0, corpus.batches(100)).mapToObj(n -> corpus.bulkBody(n, 100, vectors))
                .toList();
    }

    @Test
    void rankIsAPermutationSoTheSortIsATotalOrder() {
        Corpus corpus = Corpus.generate(7, 1000);
        assertThat(new HashSet<>(corpus.docs().stream().map(Corpus.Doc::rank).toList())).hasSize(1000);
        assertThat(corpus.docs().stream().map(Corpus.Doc::category).distinct().count()).isEqualTo(Corpus.CATEGORIES);
    }

    @Test
    void everyWorkloadOfTheIssueIsThere() {
        List<Workload> all = Workloads.all(Corpus.generate(1, 100), 1, 5, true);
        assertThat(all).extracting(Workload::name).containsExactly("bulk-ingest", "get", "sorted-page", "cursor-page",
                "terms", "filter-counts", "match", "knn", "script-score-vector", "scroll-10k", "write-read",
                "write-refresh-count");
        assertThat(all.stream().filter(w -> w.kind() == Workload.Kind.READ)).allSatisfy(w -> {
            assertThat(w.requests()).hasSize(5);
            assertThat(w.requests().stream().distinct().count()).isGreaterThan(1);
        });
        assertThat(Workloads.all(Corpus.generate(1, 100), 1, 5, false)).extracting(Workload::name)
                .doesNotContain("knn", "script-score-vector");
    }

    @Test
    void theScriptScoreVectorWorkloadIsOptInAndAsksTheReferenceForTheSameExactKnn() {
        assertThat(Workloads.OPT_IN).containsExactly("script-score-vector");
        Workload w = Workloads.all(Corpus.generate(1, 100), 1, 5, true).stream()
                .filter(x -> x.name().equals("script-score-vector")).findFirst().orElseThrow();
        assertThat(w.forReference()).hasSize(w.requests().size());
        assertThat(w.asReference().requests()).isEqualTo(w.forReference()).isNotEqualTo(w.requests());
        for (int i = 0; i < w.requests().size(); i++) {
            com.fasterxml.jackson.databind.JsonNode gateway = Json.parse(w.requests().get(i).body());
            com.fasterxml.jackson.databind.JsonNode reference = Json.parse(w.forReference().get(i).body());
            com.fasterxml.jackson.databind.JsonNode scriptScore = gateway.path("query").path("script_score");
            assertThat(scriptScore.path("script").path("source").asText())
                    .isEqualTo("cosineSimilarity(params.query_vector, 'embedding_cosine') + 1.0");
            assertThat(reference.path("knn").path("query_vector"))
                    .isEqualTo(scriptScore.path("script").path("params").path("query_vector"));
            assertThat(reference.path("knn").path("filter"))
                    .isEqualTo(scriptScore.path("query").path("bool").path("filter").path(0));
            assertThat(reference.path("knn").path("field").asText()).isEqualTo(Corpus.COSINE_FIELD);
            assertThat(reference.path("knn").path("k").asInt()).isEqualTo(gateway.path("size").asInt());
            assertThat(gateway.path("track_total_hits").asBoolean(true)).isFalse();
            assertThat(reference.path("track_total_hits").asBoolean(true)).isFalse();
        }
        assertThat(Corpus.vectorMapping(true)).contains("\"embedding_cosine\"", "\"flat\"", "\"cosine\"");
        assertThat(Corpus.vectorMapping()).doesNotContain("embedding_cosine");
    }
}
