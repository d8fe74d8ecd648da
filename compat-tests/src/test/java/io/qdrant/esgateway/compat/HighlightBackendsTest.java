package io.qdrant.esgateway.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import io.qdrant.esgateway.adapter.out.qdrant.FakeQdrant;
import io.qdrant.esgateway.compat.generator.CorpusGenerator;
import io.qdrant.esgateway.compat.generator.GeneratedScenarios;
import io.qdrant.esgateway.compat.generator.HighlightGenerator;
import io.qdrant.esgateway.compat.harness.HttpTarget;
import io.qdrant.esgateway.compat.harness.Json;
import io.qdrant.esgateway.compat.harness.RequestSpec;
import io.qdrant.esgateway.compat.harness.Scenario;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The generated highlight searches ({@link HighlightGenerator}, the seed of the Elasticsearch differential) on a
 * gateway with {@code QEG_BACKEND=qdrant} (on the spec-checked {@link FakeQdrant}) and on one with the embedded Lucene
 * store: the same answers, highlights included (the Qdrant store highlights with the gateway's scorer). Searches that
 * expand terms from the index (fuzzy, phrase prefix) are left out: the Qdrant store refuses to highlight them. No
 * oracle needed.
 */
class HighlightBackendsTest {
    private static final long SEED = Long.getLong(GeneratedScenarios.HIGHLIGHT_SEED, 20261203);
    private static final int SEARCHES = Integer.getInteger(GeneratedScenarios.HIGHLIGHT_QUERIES, 150);
    private static BackendPair backends;
    private static final AtomicInteger HIGHLIGHTED = new AtomicInteger();

    @BeforeAll
    static void start() throws IOException {
        backends = BackendPair.start("qeg-highlight-backends-", Map.of());
    }

    @AfterAll
    static void stop() throws IOException {
        if (backends != null) {
            backends.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> theQdrantStoreHighlightsAsTheLuceneStore() {
        CorpusGenerator.Corpus corpus = HighlightGenerator.corpus(SEED, 30);
        HttpTarget qdrantTarget = new HttpTarget("qdrant", backends.onQdrant.port());
        HttpTarget luceneTarget = new HttpTarget("lucene", backends.onLucene.port());
        Stream<DynamicTest> setup = Stream.of(dynamicTest("setup: the corpus on both backends", () -> {
            for (Scenario.Step step : GeneratedScenarios.setup(corpus)) {
                for (HttpTarget t : List.of(qdrantTarget, luceneTarget)) {
                    HttpTarget.Exchange answer = t.send(step.request());
                    assertThat(answer.status()).as(t.name() + " " + answer.body()).isEqualTo(200);
                    assertThat(answer.body()).doesNotContain("\"errors\":true");
                }
            }
        }));
        String index = "/" + corpus.index() + "/_search";
        Stream<DynamicTest> searches = HighlightGenerator.generate(SEED, corpus, SEARCHES, false).stream()
                .map(q -> dynamicTest(q.name(), () -> {
                    RequestSpec request = RequestSpec.json("POST", index, Json.compact(q.body()));
                    HttpTarget.Exchange lucene = luceneTarget.send(request);
                    HttpTarget.Exchange onQ = qdrantTarget.send(request);
                    JsonNode expected = NativeVersusScanTest.withoutTook(Json.parseOrText(lucene.body()));
                    JsonNode actual = NativeVersusScanTest.withoutTook(Json.parseOrText(onQ.body()));
                    if (lucene.status() != onQ.status() || !expected.equals(actual)) {
                        throw new AssertionError("the Qdrant and Lucene backends answer differently\n  request: "
                                + request.describe() + "\n  lucene: " + lucene.status() + " " + expected
                                + "\n  qdrant: " + onQ.status() + " " + actual);
                    }
                    assertThat(lucene.status()).as(lucene.body()).isEqualTo(200);
                    JsonNode hits = Json.parseOrText(lucene.body()).path("hits").path("hits");
                    hits.forEach(h -> {
                        if (h.has("highlight")) {
                            HIGHLIGHTED.incrementAndGet();
                        }
                    });
                }));
        // not vacuous: the searches highlighted many hits, and every call to the fake followed Qdrant's spec
        Stream<DynamicTest> checks = Stream.of(dynamicTest("many hits were highlighted; Qdrant's spec was kept", () -> {
            assertThat(HIGHLIGHTED.get()).isGreaterThan(SEARCHES);
            assertThat(backends.qdrant.violations).isEmpty();
        }));
        return Stream.concat(Stream.concat(setup, searches), checks);
    }
}
