package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.adapter.out.lucene.LuceneStores;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;
import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand;
import io.qdrant.esgateway.application.port.in.SearchOperations.SearchResult;
import io.qdrant.esgateway.application.port.out.BackendObserver;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.service.SearchService;
import io.qdrant.esgateway.domain.document.Versioning;
import io.qdrant.esgateway.domain.index.CreateIndexRequest;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.search.Hit;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exact-kNN fast path of vector {@code script_score}s ({@code VectorScriptScores}) against the exact path it
 * replaces, on the same {@link FakeQdrant} data: for many random query vectors, script shapes, boosts, filters and
 * windows, the hits, their order, their scores (the same float bits), the total and {@code max_score} are those of the
 * Qdrant store with the fast path off, and (ties in either index order aside) those of the Lucene store. The corpus is
 * built to make rounding matter: duplicated vectors, scaled copies (the same cosine in exact arithmetic, different in
 * float), vectors one ulp apart, near-opposite vectors, and documents without the vector (which the exact path must
 * answer). The test also checks that the fast path is the one that answered most cases, and that it read only a few
 * sources.
 */
class VectorScriptScoreFastPathTest {
    private static final int DOCS = 300;
    private static final int DIMS = 6;
    private static final String MAPPING = """
            {"mappings": {"properties": {
              "v": {"type": "dense_vector", "dims": 6, "similarity": "cosine"},
              "w": {"type": "dense_vector", "dims": 3, "similarity": "cosine"},
              "tag": {"type": "keyword"}, "n": {"type": "integer"}}}}""";

    @TempDir
    static Path temp;
    private static FakeQdrant fake;
    private static QdrantVersusLuceneTest.Backend fast;
    private static QdrantVersusLuceneTest.Backend exact;
    private static QdrantVersusLuceneTest.Backend lucene;
    private static final List<float[]> VECTORS = new ArrayList<>();

    @BeforeAll
    static void setUp() {
        Random random = new Random(27);
        for (int i = 0; i < DOCS; i++) {
            float[] v = new float[DIMS];
            switch (i % 10) {
                case 3 -> scaled(VECTORS.get(i - 1), 3f, v);
                case 4 -> scaled(VECTORS.get(i - 4), 0.37f, v);
                case 5 -> System.arraycopy(VECTORS.get(i - 2), 0, v, 0, DIMS);
                case 6 -> {
                    System.arraycopy(VECTORS.get(i - 1), 0, v, 0, DIMS);
                    v[random.nextInt(DIMS)] = Math.nextUp(v[random.nextInt(DIMS)]);
                }
                default -> {
                    for (int d = 0; d < DIMS; d++) {
                        v[d] = (float) (random.nextGaussian() * (d % 2 == 0 ? 1 : 0.01));
                    }
                    v[0] = Math.abs(v[0]) + 0.5f;
                }
            }
            VECTORS.add(v);
        }
        fake = new FakeQdrant();
        QdrantStores.Settings fastSettings = new QdrantStores.Settings(fake.uri(), Optional.empty(),
                Duration.ofSeconds(2), Duration.ofSeconds(20), "fast-");
        QdrantStores.Settings exactSettings = new QdrantStores.Settings(fake.uri(), Optional.empty(),
                Duration.ofSeconds(2), Duration.ofSeconds(20), "exact-");
        fast = backend(new QdrantDocumentStore(new QdrantClient(fastSettings, BackendObserver.NONE),
                LuceneStores.relevanceScorer(), 64, 0));
        exact = backend(new QdrantDocumentStore(new QdrantClient(exactSettings, BackendObserver.NONE),
                LuceneStores.relevanceScorer(), 64, Integer.MAX_VALUE));
        lucene = backend(LuceneStores.open(temp.resolve("lucene")));
    }

    private static void scaled(float[] from, float by, float[] to) {
        for (int d = 0; d < DIMS; d++) {
            to[d] = from[d] * by;
        }
    }

    private static QdrantVersusLuceneTest.Backend backend(DocumentStore store) {
        StoreServices services = StoreServices.over(store);
        services.admin().create(CreateIndexRequest.parse("vecs", Json.parse(MAPPING)));
        List<WriteCommand> bulk = new ArrayList<>();
        for (int i = 0; i < DOCS; i++) {
            StringBuilder b = new StringBuilder("{\"v\": ").append(json(VECTORS.get(i)));
            if (i % 7 != 2) {
                float[] w = {VECTORS.get(i)[0], VECTORS.get(i)[2], VECTORS.get(i)[4]};
                b.append(", \"w\": ").append(json(w));
            }
            b.append(", \"tag\": \"t").append(i % 4).append("\", \"n\": ").append(i % 50).append('}');
            bulk.add(new WriteCommand.Index("vecs", Optional.of("d" + i), (JsonObject) Json.parse(b.toString()),
                    false, Versioning.Condition.NONE, false));
        }
        services.documents().bulk(bulk);
        SearchService search = new SearchService(services.catalog(), store);
        return new QdrantVersusLuceneTest.Backend(store, search, services.documents(), search);
    }

    private static String json(float[] v) {
        StringBuilder b = new StringBuilder("[");
        for (int d = 0; d < v.length; d++) {
            b.append(d == 0 ? "" : ", ").append(v[d]);
        }
        return b.append(']').toString();
    }

    @AfterAll
    static void tearDown() throws Exception {
        ((AutoCloseable) fast.store()).close();
        ((AutoCloseable) exact.store()).close();
        ((AutoCloseable) lucene.store()).close();
        fake.close();
    }

    private static final String[] SHAPES = {
        "cosineSimilarity(params.query_vector, 'v') + 1.0",
        "1.0 + cosineSimilarity(params['query_vector'], \"v\")",
        "return cosineSimilarity(params.query_vector, 'v') + 2;",
        "cosineSimilarity(params.query_vector, 'v') + 1.5",
    };

    private static final String[] FILTERS = {
        "{\"match_all\": {}}",
        "{\"term\": {\"tag\": \"t1\"}}",
        "{\"range\": {\"n\": {\"gte\": 10, \"lt\": 35}}}",
        "{\"bool\": {\"filter\": [{\"terms\": {\"tag\": [\"t0\", \"t3\"]}}], \"must_not\": [{\"term\": {\"n\": 4}}]}}",
    };

    @Test
    void theFastPathAnswersAsTheExactPathOverRandomVectorsAndScripts() {
        Random random = new Random(2027);
        int fastAnswers = 0;
        int cases = 120;
        for (int c = 0; c < cases; c++) {
            float[] q = new float[DIMS];
            int kind = random.nextInt(4);
            if (kind == 0) {
                // a document's own vector: exact duplicates and scaled copies tie with it
                System.arraycopy(VECTORS.get(random.nextInt(DOCS)), 0, q, 0, DIMS);
            } else if (kind == 1) {
                scaled(VECTORS.get(random.nextInt(DOCS)), -1f, q);
            } else {
                for (int d = 0; d < DIMS; d++) {
                    q[d] = (float) random.nextGaussian();
                }
                q[0] = Math.abs(q[0]) + 0.2f;
            }
            String shape = SHAPES[random.nextInt(SHAPES.length)];
            String filter = FILTERS[random.nextInt(FILTERS.length)];
            int size = 1 + random.nextInt(12);
            int from = random.nextInt(3) == 0 ? random.nextInt(8) : 0;
            String boost = random.nextBoolean() ? "" : ", \"boost\": " + (0.5 + random.nextInt(4));
            String body = "{\"query\": {\"script_score\": {\"query\": " + filter + ", \"script\": {\"source\": "
                    + Json.write(Json.parse("\"" + shape.replace("\"", "\\\"") + "\""))
                    + ", \"params\": {\"query_vector\": " + json(q) + "}}" + boost + "}}, \"size\": " + size
                    + ", \"from\": " + from + ", \"_source\": false}";
            fake.requests.clear();
            SearchResult actual = QdrantVersusLuceneTest.search(fast, "vecs", body);
            if (tookFastPath()) {
                fastAnswers++;
            }
            SearchResult expected = QdrantVersusLuceneTest.search(exact, "vecs", body);
            assertThat(exactly(actual)).as(body).isEqualTo(exactly(expected));
            SearchResult embedded = QdrantVersusLuceneTest.search(lucene, "vecs", body);
            // ties at the window's edge are broken by each store's index order: the scores are the same
            assertThat(actual.hits().stream().map(h -> Float.floatToIntBits(h.score())).toList()).as(body)
                    .isEqualTo(embedded.hits().stream().map(h -> Float.floatToIntBits(h.score())).toList());
            assertThat(actual.total()).isEqualTo(embedded.total());
        }
        assertThat(fake.violations).isEmpty();
        // near-opposite queries (the lowest cosine could be negative) and small windows take the exact path
        assertThat(fastAnswers).as("cases the fast path answered").isGreaterThan(cases / 2);
    }

    /** Whether the last search was answered by the fast path: an exact Qdrant search, then a scroll of a few ids. */
    private static boolean tookFastPath() {
        boolean exactSearch = fake.requests("POST", "/points/query").stream()
                .anyMatch(r -> r.path().contains("fast-") && r.body().path("params").path("exact").asBoolean());
        boolean restricted = fake.requests("POST", "/points/scroll").stream()
                .filter(r -> r.path().contains("fast-"))
                .allMatch(r -> r.body().path("filter").path("must").toString().contains("has_id"));
        return exactSearch && restricted && !fake.requests("POST", "/points/scroll").isEmpty();
    }

    /** Everything of an answer, scores as their float bits. */
    private static List<String> exactly(SearchResult r) {
        List<String> out = new ArrayList<>();
        out.add("total " + r.total());
        out.add("max " + Float.floatToIntBits(r.maxScore()));
        for (Hit h : r.hits()) {
            out.add(h.id() + " " + Float.floatToIntBits(h.score()) + " (" + h.score() + ")");
        }
        return out;
    }

    @Test
    void aDocumentWithoutTheVectorGetsTheExactPathsError() {
        String body = "{\"query\": {\"script_score\": {\"query\": {\"match_all\": {}}, \"script\": {\"source\":"
                + " \"cosineSimilarity(params.q, 'w') + 1.0\", \"params\": {\"q\": [1, 0.5, 0.25]}}}}, \"size\": 3}";
        Throwable onFast = org.assertj.core.api.Assertions.catchThrowable(
                () -> QdrantVersusLuceneTest.search(fast, "vecs", body));
        Throwable onExact = org.assertj.core.api.Assertions.catchThrowable(
                () -> QdrantVersusLuceneTest.search(exact, "vecs", body));
        assertThat(onExact).as("the exact path fails: some documents have no [w]").isNotNull();
        assertThat(onFast).isNotNull();
        assertThat(QdrantVersusLuceneTest.unwrap(onFast).getMessage())
                .isEqualTo(QdrantVersusLuceneTest.unwrap(onExact).getMessage());
    }

    @Test
    void theFastPathReadsTheSourcesOfAFewCandidatesOnly() {
        String body = "{\"query\": {\"script_score\": {\"query\": {\"match_all\": {}}, \"script\": {\"source\":"
                + " \"cosineSimilarity(params.q, 'v') + 1.0\", \"params\": {\"q\": " + json(VECTORS.get(11))
                + "}}}}, \"size\": 5}";
        fake.requests.clear();
        SearchResult r = QdrantVersusLuceneTest.search(fast, "vecs", body);
        assertThat(r.total().orElseThrow().value()).isEqualTo(DOCS);
        assertThat(r.hits()).hasSize(5);
        assertThat(tookFastPath()).isTrue();
        int read = fake.requests("POST", "/points/scroll").stream()
                .mapToInt(req -> req.body().path("filter").path("must").path(0).path("has_id").size()).sum();
        assertThat(read).as("ids whose sources the exact scoring read").isBetween(5, 40);
    }
}
