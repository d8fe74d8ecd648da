package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.adapter.out.lucene.LuceneStores;
import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand;
import io.qdrant.esgateway.application.port.in.ScrollOperations.Page;
import io.qdrant.esgateway.application.port.in.SearchOperations.SearchResult;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.InMemoryCatalog;
import io.qdrant.esgateway.application.port.out.ReadSnapshots;
import io.qdrant.esgateway.application.service.DocumentService;
import io.qdrant.esgateway.application.service.IndexAdministrationService;
import io.qdrant.esgateway.application.service.ScrollService;
import io.qdrant.esgateway.application.service.SearchService;
import io.qdrant.esgateway.domain.document.Versioning;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.CreateIndexRequest;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
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
 * Property: for random corpora (ties, missing values, two indices), queries, sorts and page sizes, a scroll returns
 * exactly the documents of one unpaged search, in its order, each once — on the embedded store (which reads a held
 * snapshot) and on Qdrant (the spec-checked fake, read live in a stable order).
 */
class ScrollPagingPropertyTest {
    @TempDir
    static Path temp;
    private static FakeQdrant fake;
    private static LuceneStores.Handle luceneStore;
    private static DocumentStore qdrantStore;

    @BeforeAll
    static void start() {
        fake = new FakeQdrant();
        luceneStore = LuceneStores.open(temp);
        qdrantStore = QdrantStores.open(new QdrantStores.Settings(fake.uri(), Optional.empty(),
                Duration.ofSeconds(2), Duration.ofSeconds(10)), LuceneStores.relevanceScorer());
    }

    @AfterAll
    static void stop() throws Exception {
        ((AutoCloseable) qdrantStore).close();
        luceneStore.close();
        fake.close();
    }

    private record Backend(SearchService search, ScrollService scroll, DocumentService documents,
                           IndexAdministrationService admin) {
    }

    private static Backend backend(DocumentStore store, Optional<ReadSnapshots> snapshots) {
        AtomicInteger ids = new AtomicInteger();
        InMemoryCatalog catalog = new InMemoryCatalog();
        InstantSource clock = InstantSource.fixed(Instant.parse("2024-06-01T00:00:00Z"));
        IndexAdministrationService admin = new IndexAdministrationService(catalog, store,
                () -> "uuid" + ids.incrementAndGet(), clock);
        DocumentService documents = new DocumentService(catalog, store, admin, () -> "gen" + ids.incrementAndGet(),
                clock);
        return new Backend(new SearchService(catalog, store), new ScrollService(catalog, store, snapshots,
                store.capabilities(), clock, () -> "s" + ids.incrementAndGet(), 500), documents, admin);
    }

    private static final String[] WORDS = {"red", "green", "blue", "fast", "slow"};
    private static final String[] QUERIES = {
        "", "\"query\":{\"term\":{\"k\":\"b\"}},", "\"query\":{\"range\":{\"n\":{\"gte\":3}}},",
        "\"query\":{\"match\":{\"t\":\"red fast\"}},", "\"query\":{\"bool\":{\"must_not\":{\"term\":{\"k\":\"a\"}}}},"};
    private static final String[] SORTS = {
        "", "\"sort\":[{\"n\":\"asc\"}],", "\"sort\":[{\"k\":\"desc\"},{\"n\":{\"order\":\"asc\",\"missing\":\"_first\"}}],",
        "\"sort\":[\"_doc\"],", "\"sort\":[{\"n\":\"desc\"},\"_score\"],"};

    private static void corpus(Backend b, String index, Random random, int size) {
        b.admin().create(CreateIndexRequest.parse(index, Json.parse("{\"mappings\":{\"properties\":{"
                + "\"k\":{\"type\":\"keyword\"},\"n\":{\"type\":\"integer\"},\"t\":{\"type\":\"text\"}}}}")));
        List<WriteCommand> bulk = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            StringBuilder doc = new StringBuilder("{\"t\":\"" + WORDS[random.nextInt(WORDS.length)] + " "
                    + WORDS[random.nextInt(WORDS.length)] + "\"");
            if (random.nextInt(5) > 0) {
                doc.append(",\"k\":\"").append((char) ('a' + random.nextInt(4))).append('"');
            }
            if (random.nextInt(6) > 0) {
                doc.append(",\"n\":").append(random.nextInt(8));
            }
            bulk.add(new WriteCommand.Index(index, Optional.of("d" + i), (JsonObject) Json.parse(doc + "}"), false,
                    Versioning.Condition.NONE, false));
        }
        b.documents().bulk(bulk);
    }

    private static List<String> keys(List<Hit> hits) {
        return hits.stream().map(h -> h.index() + "/" + h.id()).toList();
    }

    @TestFactory
    Stream<DynamicTest> scrollPagesAreTheUnpagedSearch() {
        Backend lucene = backend(luceneStore, Optional.of(luceneStore));
        Backend qdrant = backend(qdrantStore, Optional.empty());
        return IntStream.rangeClosed(1, 12).boxed().flatMap(seed -> {
            Random random = new Random(seed);
            int size = 5 + random.nextInt(60);
            int second = random.nextBoolean() ? random.nextInt(20) : -1;
            String query = QUERIES[random.nextInt(QUERIES.length)];
            String sort = SORTS[random.nextInt(SORTS.length)];
            int page = 1 + random.nextInt(9);
            long corpusSeed = random.nextLong();
            return Stream.of(lucene, qdrant).map(b -> DynamicTest.dynamicTest("seed " + seed + " on "
                    + (b == lucene ? "lucene" : "qdrant") + ": " + size + (second >= 0 ? "+" + second : "")
                    + " documents, " + query + sort + " pages of " + page, () -> {
                        String target = "p" + seed + "a";
                        corpus(b, target, new Random(corpusSeed), size);
                        if (second >= 0) {
                            corpus(b, "p" + seed + "b", new Random(corpusSeed + 1), second);
                            target = "p" + seed + "*";
                        }
                        SearchRequest all = SearchRequestParser.parse(Optional.of(Json.parse(
                                "{" + query + sort + "\"size\":1000}")), Map.of());
                        SearchResult expected = b.search().search(target, all, CatalogView.Options.STRICT_EXPAND_OPEN);
                        SearchRequest paged = SearchRequestParser.parse(Optional.of(Json.parse(
                                "{" + query + sort + "\"size\":" + page + "}")), Map.of());
                        Page p = b.scroll().open(target, paged, Duration.ofMinutes(1),
                                CatalogView.Options.STRICT_EXPAND_OPEN);
                        List<Hit> got = new ArrayList<>(p.result().hits());
                        assertThat(p.result().total()).isEqualTo(expected.total());
                        int pages = 0;
                        while (!p.result().hits().isEmpty()) {
                            assertThat(p.result().hits().size()).isLessThanOrEqualTo(page);
                            p = b.scroll().next(p.scrollId().orElseThrow(), Optional.of(Duration.ofMinutes(1)));
                            got.addAll(p.result().hits());
                            assertThat(++pages).isLessThan(200);
                        }
                        assertThat(keys(got)).isEqualTo(keys(expected.hits()));
                        assertThat(new HashSet<>(keys(got))).hasSameSizeAs(got);
                        assertThat(got.stream().map(Hit::sort).toList())
                                .isEqualTo(expected.hits().stream().map(Hit::sort).toList());
                        assertThat(b.scroll().clearAll()).isEqualTo(1);
                    }));
        });
    }
}
