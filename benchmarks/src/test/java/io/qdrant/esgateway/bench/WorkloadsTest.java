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
        assertThat(a.bulkBodies(100, false)).isEqualTo(b.bulkBodies(100, false));
        assertThat(a.bulkBodies(100, true)).isEqualTo(b.bulkBodies(100, true));
        assertThat(Workloads.all(a, 42, 20, true)).isEqualTo(Workloads.all(b, 42, 20, true));
        assertThat(Corpus.generate(43, 500).bulkBodies(100, false)).isNotEqualTo(a.bulkBodies(100, false));
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
                "terms", "filter-counts", "match", "knn", "write-read", "write-refresh-count");
        assertThat(all.stream().filter(w -> w.kind() == Workload.Kind.READ)).allSatisfy(w -> {
            assertThat(w.requests()).hasSize(5);
            assertThat(w.requests().stream().distinct().count()).isGreaterThan(1);
        });
        assertThat(Workloads.all(Corpus.generate(1, 100), 1, 5, false)).extracting(Workload::name).doesNotContain("knn");
    }
}
