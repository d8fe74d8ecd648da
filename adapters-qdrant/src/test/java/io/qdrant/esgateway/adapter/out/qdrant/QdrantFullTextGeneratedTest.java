package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.adapter.out.lucene.LuceneStores;
import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand;
import io.qdrant.esgateway.application.port.in.SearchOperations.SearchResult;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.InMemoryCatalog;
import io.qdrant.esgateway.application.service.DocumentService;
import io.qdrant.esgateway.application.service.IndexAdministrationService;
import io.qdrant.esgateway.application.service.SearchService;
import io.qdrant.esgateway.domain.document.Versioning;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.CreateIndexRequest;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Generated full-text searches on the Qdrant backend after updates and deletes, against a fresh Lucene index holding
 * the same final documents: the Qdrant backend's statistics ({@code _t}/{@code _n}, facet and count) follow every
 * write exactly, so its matches, scores, order and totals equal those of an index that never saw the old versions.
 * (A Lucene index that saw them keeps counting deleted documents until its segments merge, as Elasticsearch does.)
 */
class QdrantFullTextGeneratedTest {
    private static final String MAPPING = """
            {"mappings": {"properties": {
              "title": {"type": "text", "fields": {"raw": {"type": "keyword"}}}, "body": {"type": "text"},
              "tags": {"type": "keyword"}, "flag": {"type": "boolean"}, "n": {"type": "integer"},
              "u": {"type": "integer"}}}}""";
    private static final String[] WORDS = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
        "iota", "kappa", "Lambda", "mu"};
    private static final long SEED = 20261130L;

    @TempDir
    static Path temp;
    private static FakeQdrant fake;
    private static SearchService qdrant;
    private static SearchService lucene;
    private static DocumentStore qdrantStore;
    private static DocumentStore luceneStore;

    private static DocumentService services(DocumentStore store, SearchService[] search) {
        AtomicInteger ids = new AtomicInteger();
        InMemoryCatalog catalog = new InMemoryCatalog();
        InstantSource clock = InstantSource.fixed(Instant.parse("2024-06-01T00:00:00Z"));
        IndexAdministrationService admin = new IndexAdministrationService(catalog, store, () -> "uuid" + ids
                .incrementAndGet(), clock);
        admin.create(CreateIndexRequest.parse("gen", Json.parse(MAPPING)));
        search[0] = new SearchService(catalog, store);
        return new DocumentService(catalog, store, admin, () -> "gen" + ids.incrementAndGet(), clock);
    }

    private static JsonObject source(Random random, int u) {
        StringBuilder b = new StringBuilder("{\"u\": " + u + ", ");
        if (random.nextInt(8) > 0) {
            b.append("\"title\": \"").append(words(random, 1 + random.nextInt(5))).append("\", ");
        }
        if (random.nextInt(5) > 0) {
            b.append("\"body\": \"").append(words(random, 3 + random.nextInt(25))).append("\", ");
        }
        if (random.nextBoolean()) {
            b.append("\"tags\": [\"").append(WORDS[random.nextInt(5)]).append("\", \"").append(WORDS[random.nextInt(5)])
                    .append("\"], ");
        }
        if (random.nextInt(3) > 0) {
            b.append("\"flag\": ").append(random.nextBoolean()).append(", ");
        }
        b.append("\"n\": ").append(random.nextInt(10)).append("}");
        return (JsonObject) Json.parse(b.toString());
    }

    private static String words(Random random, int n) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < n; k++) {
            b.append(k == 0 ? "" : " ").append(WORDS[Math.min(WORDS.length - 1, (int) Math.abs(random.nextGaussian()
                    * 4))]);
        }
        return b.toString();
    }

    @BeforeAll
    static void setUp() {
        fake = new FakeQdrant();
        qdrantStore = QdrantStores.open(new QdrantStores.Settings(fake.uri(), Optional.empty(), Duration.ofSeconds(2),
                Duration.ofSeconds(10), "gen-"), LuceneStores.relevanceScorer());
        luceneStore = LuceneStores.open(temp.resolve("lucene"));
        SearchService[] q = new SearchService[1];
        SearchService[] l = new SearchService[1];
        DocumentService qdrantDocs = services(qdrantStore, q);
        DocumentService luceneDocs = services(luceneStore, l);
        qdrant = q[0];
        lucene = l[0];
        Random random = new Random(SEED);
        Map<String, JsonObject> finalState = new LinkedHashMap<>();
        List<WriteCommand> writes = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            JsonObject s = source(random, i);
            finalState.put("g" + i, s);
            writes.add(new WriteCommand.Index("gen", Optional.of("g" + i), s, false, Versioning.Condition.NONE, false));
        }
        qdrantDocs.bulk(writes);
        // then rewrite a third and delete a tenth, on Qdrant only
        List<WriteCommand> changes = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            if (i % 3 == 1) {
                JsonObject s = source(random, i);
                finalState.put("g" + i, s);
                changes.add(new WriteCommand.Index("gen", Optional.of("g" + i), s, false, Versioning.Condition.NONE,
                        false));
            } else if (i % 10 == 5) {
                finalState.remove("g" + i);
                changes.add(new WriteCommand.Delete("gen", "g" + i, Versioning.Condition.NONE, false));
            }
        }
        qdrantDocs.bulk(changes);
        List<WriteCommand> fresh = new ArrayList<>();
        finalState.forEach((id, s) -> fresh.add(new WriteCommand.Index("gen", Optional.of(id), s, false,
                Versioning.Condition.NONE, false)));
        luceneDocs.bulk(fresh);
    }

    @AfterAll
    static void tearDown() throws Exception {
        ((AutoCloseable) qdrantStore).close();
        ((AutoCloseable) luceneStore).close();
        fake.close();
    }

    /** A random scored query: full-text and term leaves under bool/dis_max/boosting, with boosts and options. */
    static String query(Random r, int depth) {
        int kind = depth > 1 ? r.nextInt(6) : r.nextInt(9);
        String field = r.nextBoolean() ? "title" : "body";
        String text = words(r, 1 + r.nextInt(3));
        String boost = r.nextInt(4) == 0 ? ", \"boost\": " + (1 + r.nextInt(4)) * 0.5 : "";
        return switch (kind) {
            case 0, 1 -> "{\"match\": {\"" + field + "\": {\"query\": \"" + text + "\"" + boost
                    + (r.nextInt(3) == 0 ? ", \"operator\": \"and\"" : "")
                    + (r.nextInt(4) == 0 ? ", \"minimum_should_match\": \"" + (1 + r.nextInt(2)) + "\"" : "") + "}}}";
            case 2 -> "{\"match_phrase\": {\"" + field + "\": {\"query\": \"" + text + "\", \"slop\": " + r.nextInt(3)
                    + boost + "}}}";
            case 3 -> "{\"term\": {\"" + (r.nextBoolean() ? "tags" : field) + "\": {\"value\": \""
                    + WORDS[r.nextInt(6)].toLowerCase(java.util.Locale.ROOT) + "\"" + boost + "}}}";
            case 4 -> "{\"multi_match\": {\"query\": \"" + text + "\", \"fields\": [\"title^2\", \"body\", \"tags\"],"
                    + " \"type\": \"" + (r.nextBoolean() ? "best_fields" : "most_fields") + "\"}}";
            case 5 -> "{\"term\": {\"flag\": " + r.nextBoolean() + "}}";
            case 6 -> {
                StringBuilder b = new StringBuilder("{\"bool\": {");
                List<String> parts = new ArrayList<>();
                for (String occur : List.of("must", "should", "filter", "must_not")) {
                    int n = occur.equals("should") ? r.nextInt(4) : r.nextInt(occur.equals("must") ? 2 : 2);
                    if (n > 0) {
                        List<String> clauses = IntStream.range(0, n).mapToObj(x -> query(r, depth + 1)).toList();
                        parts.add("\"" + occur + "\": [" + String.join(", ", clauses) + "]");
                    }
                }
                if (parts.isEmpty()) {
                    parts.add("\"should\": [" + query(r, depth + 1) + "]");
                }
                if (r.nextInt(3) == 0) {
                    parts.add("\"minimum_should_match\": 1");
                }
                yield b.append(String.join(", ", parts)).append("}}").toString();
            }
            case 7 -> "{\"dis_max\": {\"queries\": [" + query(r, depth + 1) + ", " + query(r, depth + 1)
                    + "], \"tie_breaker\": " + r.nextInt(10) / 10.0 + "}}";
            default -> "{\"boosting\": {\"positive\": " + query(r, depth + 1) + ", \"negative\": " + query(r, depth + 1)
                    + ", \"negative_boost\": 0.3}}";
        };
    }

    @TestFactory
    Stream<DynamicTest> generatedSearchesAnswerAsAFreshLuceneIndex() {
        Random r = new Random(SEED + 1);
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < 48; i++) {
            // a window that cuts through ties would show each backend's index order: break ties by [u]
            String extra = switch (i % 4) {
                case 0 -> ", \"size\": 200";
                case 1 -> ", \"from\": 2, \"size\": 5, \"sort\": [\"_score\", {\"u\": \"asc\"}]";
                case 2 -> ", \"size\": 200, \"sort\": [{\"n\": \"asc\"}, \"_score\"], \"track_scores\": true";
                default -> ", \"size\": 200, \"min_score\": 1.0";
            };
            bodies.add("{\"query\": " + query(r, 0) + extra + "}");
        }
        // the generator must produce searches that match something, or the comparison proves little
        assertThat(bodies.stream().filter(b -> !search(lucene, b).hits().isEmpty()).count()).isGreaterThan(36);
        return bodies.stream().map(body -> DynamicTest.dynamicTest(body, () -> {
            SearchResult expected = search(lucene, body);
            SearchResult actual = search(qdrant, body);
            assertThat(actual.total()).as("total").isEqualTo(expected.total());
            assertThat(render(actual.hits())).as("hits").isEqualTo(render(expected.hits()));
            assertThat(fake.violations).isEmpty();
        }));
    }

    private static SearchResult search(SearchService service, String body) {
        return service.search("gen", SearchRequestParser.parse(Optional.of(Json.parse(body)), Map.of()),
                CatalogView.Options.STRICT_EXPAND_OPEN);
    }

    /** Ids with scores and sort values; ties (same score and sort values) ordered by id, as index order differs. */
    private static List<String> render(List<Hit> hits) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < hits.size()) {
            String key = "score=" + hits.get(i).score() + " sort=" + hits.get(i).sort().stream().map(Json::write)
                    .toList();
            int j = i;
            List<String> run = new ArrayList<>();
            while (j < hits.size() && ("score=" + hits.get(j).score() + " sort=" + hits.get(j).sort().stream()
                    .map(Json::write).toList()).equals(key)) {
                run.add(key + " " + hits.get(j).id() + " " + Json.write(hits.get(j).source()));
                j++;
            }
            run.sort(null);
            out.addAll(run);
            i = j;
        }
        return out;
    }
}
