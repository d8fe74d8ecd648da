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
import io.qdrant.esgateway.application.service.PointInTimeService;
import io.qdrant.esgateway.application.service.ScrollService;
import io.qdrant.esgateway.application.service.SearchService;
import io.qdrant.esgateway.domain.document.Versioning;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.CreateIndexRequest;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Property: for random corpora (ties, missing values, two indices), queries, sorts and page sizes, a scroll and a
 * point in time paged with {@code search_after} each return exactly the documents of one unpaged search, in its
 * order, each once — on the embedded store (which reads a held snapshot) and on Qdrant (the spec-checked fake, read
 * live in a stable order). Soak: scrolls and points in time opened concurrently and abandoned are all freed once
 * their keep-alive has passed, on both backends.
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

    private static final AtomicInteger BACKENDS = new AtomicInteger();

    private record Backend(SearchService search, ScrollService scroll, PointInTimeService pits,
                           DocumentService documents, IndexAdministrationService admin) {
    }

    private static Backend backend(DocumentStore store, Optional<ReadSnapshots> snapshots) {
        return backend(store, snapshots, InstantSource.fixed(Instant.parse("2024-06-01T00:00:00Z")));
    }

    private static Backend backend(DocumentStore store, Optional<ReadSnapshots> snapshots, InstantSource clock) {
        AtomicInteger ids = new AtomicInteger();
        InMemoryCatalog catalog = new InMemoryCatalog();
        // the stores are shared by every backend built here: uuids unique across them
        String uuids = "uuid" + BACKENDS.incrementAndGet() + "-";
        IndexAdministrationService admin = new IndexAdministrationService(catalog, store,
                () -> uuids + ids.incrementAndGet(), clock);
        DocumentService documents = new DocumentService(catalog, store, admin, () -> "gen" + ids.incrementAndGet(),
                clock);
        return new Backend(new SearchService(catalog, store), new ScrollService(catalog, store, snapshots,
                store.capabilities(), clock, () -> "s" + ids.incrementAndGet(), 500),
                new PointInTimeService(catalog, store, snapshots, store.capabilities(), clock,
                        () -> "p" + ids.incrementAndGet(), 500), documents, admin);
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
    /** Every page of a point-in-time search with {@code sort}, each continuing after the last hit's sort values. */
    private static List<Hit> pitPages(Backend b, String pit, String query, String sort, int size) {
        List<Hit> seen = new ArrayList<>();
        Optional<List<JsonValue>> after = Optional.empty();
        for (int pages = 0; pages < 200; pages++) {
            String body = "{" + query + sort + "\"size\":" + size + after.map(a -> ",\"search_after\":"
                    + a.stream().map(Json::write).collect(Collectors.joining(",", "[", "]"))).orElse("") + "}";
            SearchResult page = b.pits().search(pit, Optional.of(Duration.ofMinutes(1)),
                    SearchRequestParser.parse(Optional.of(Json.parse(body)), Map.of()));
            if (page.hits().isEmpty()) {
                return seen;
            }
            assertThat(page.hits().size()).isLessThanOrEqualTo(size);
            seen.addAll(page.hits());
            after = Optional.of(page.hits().get(page.hits().size() - 1).sort());
        }
        throw new AssertionError("more than 200 pages");
    }

    @TestFactory
    Stream<DynamicTest> pointInTimePagesWithSearchAfterAreTheUnpagedSearch() {
        Backend lucene = backend(luceneStore, Optional.of(luceneStore));
        Backend qdrant = backend(qdrantStore, Optional.empty());
        return IntStream.rangeClosed(1, 12).boxed().flatMap(seed -> {
            Random random = new Random(1000 + seed);
            int size = 5 + random.nextInt(60);
            int second = random.nextBoolean() ? random.nextInt(20) : -1;
            String query = QUERIES[random.nextInt(QUERIES.length)];
            // search_after needs sort values: by score is the sort [_score]
            String drawn = SORTS[random.nextInt(SORTS.length)];
            String sort = drawn.isEmpty() ? "\"sort\":[\"_score\"]," : drawn;
            int page = 1 + random.nextInt(9);
            long corpusSeed = random.nextLong();
            return Stream.of(lucene, qdrant).map(b -> DynamicTest.dynamicTest("seed " + seed + " on "
                    + (b == lucene ? "lucene" : "qdrant") + ": " + size + (second >= 0 ? "+" + second : "")
                    + " documents, " + query + sort + " pages of " + page, () -> {
                        String target = "t" + seed + "a";
                        corpus(b, target, new Random(corpusSeed), size);
                        if (second >= 0) {
                            corpus(b, "t" + seed + "b", new Random(corpusSeed + 1), second);
                            target = "t" + seed + "*";
                        }
                        SearchResult expected = b.search().search(target, SearchRequestParser.parse(Optional.of(
                                Json.parse("{" + query + sort + "\"size\":1000}")), Map.of()),
                                CatalogView.Options.STRICT_EXPAND_OPEN);
                        String pit = b.pits().open(target, Duration.ofMinutes(1),
                                CatalogView.Options.STRICT_EXPAND_OPEN);
                        List<Hit> got = pitPages(b, pit, query, sort, page);
                        assertThat(keys(got)).isEqualTo(keys(expected.hits()));
                        assertThat(new HashSet<>(keys(got))).hasSameSizeAs(got);
                        if (!drawn.contains("_doc")) {
                            // the sort's own values, before the tiebreaker the point in time adds
                            assertThat(got.stream().map(h -> h.sort().subList(0, h.sort().size() - 1)).toList())
                                    .isEqualTo(expected.hits().stream().map(Hit::sort).toList());
                        }
                        assertThat(b.pits().close(pit)).isEqualTo(second >= 0 ? 2 : 1);
                    }));
        });
    }

    /**
     * On Qdrant a scroll in index order ({@code _doc}, or by a constant score then {@code _doc}) continues each page
     * from the last point it returned: one Qdrant scroll call per page of 100, not a scan of every match per page.
     */
    @TestFactory
    Stream<DynamicTest> qdrantScrollInIndexOrderContinuesFromTheLastPoint() {
        Backend b = backend(qdrantStore, Optional.empty());
        corpus(b, "walk", new Random(11), 1000);
        return Stream.of("\"sort\":[\"_doc\"],", "\"query\":{\"range\":{\"n\":{\"gte\":0}}},", "")
                .map(body -> DynamicTest.dynamicTest(body.isEmpty() ? "match_all by score" : body, () -> {
                    SearchResult expected = b.search().search("walk", SearchRequestParser.parse(Optional.of(
                            Json.parse("{" + body + "\"size\":1000}")), Map.of()),
                            CatalogView.Options.STRICT_EXPAND_OPEN);
                    int before = fake.requests("POST", "/points/scroll").size();
                    Page p = b.scroll().open("walk", SearchRequestParser.parse(Optional.of(Json.parse(
                            "{" + body + "\"size\":100}")), Map.of()), Duration.ofMinutes(1),
                            CatalogView.Options.STRICT_EXPAND_OPEN);
                    List<Hit> got = new ArrayList<>(p.result().hits());
                    int pages = 1;
                    while (!p.result().hits().isEmpty()) {
                        p = b.scroll().next(p.scrollId().orElseThrow(), Optional.of(Duration.ofMinutes(1)));
                        got.addAll(p.result().hits());
                        assertThat(++pages).isLessThan(50);
                    }
                    assertThat(keys(got)).isEqualTo(keys(expected.hits()));
                    assertThat(expected.hits()).hasSizeGreaterThan(500);
                    int calls = fake.requests("POST", "/points/scroll").size() - before;
                    // each page reads its own hits (a scan of every match per page would be 4 calls a page)
                    assertThat(calls).as("Qdrant scroll calls for %d pages", pages).isLessThanOrEqualTo(2 * pages);
                    b.scroll().clearAll();
                }));
    }

    @TestFactory
    Stream<DynamicTest> twentyConcurrentAbandonedContextsAreFreedAfterTheirKeepAlive() {
        return Stream.of("lucene", "qdrant").map(name -> DynamicTest.dynamicTest(name, () -> {
            Instant[] now = {Instant.parse("2024-06-01T00:00:00Z")};
            Backend b = name.equals("lucene") ? backend(luceneStore, Optional.of(luceneStore), () -> now[0])
                    : backend(qdrantStore, Optional.empty(), () -> now[0]);
            corpus(b, "soak", new Random(7), 40);
            ExecutorService pool = Executors.newFixedThreadPool(20);
            try {
                List<CompletableFuture<Void>> opened = IntStream.range(0, 20).mapToObj(i -> CompletableFuture
                        .runAsync(() -> {
                            SearchRequest request = SearchRequestParser.parse(Optional.of(Json.parse(
                                    "{\"size\":3,\"sort\":[{\"n\":\"asc\"}]}")), Map.of());
                            Page p = b.scroll().open("soak", request, Duration.ofSeconds(30 + i),
                                    CatalogView.Options.STRICT_EXPAND_OPEN);
                            b.scroll().next(p.scrollId().orElseThrow(), Optional.of(Duration.ofSeconds(30 + i)));
                            String pit = b.pits().open("soak", Duration.ofSeconds(30 + i),
                                    CatalogView.Options.STRICT_EXPAND_OPEN);
                            b.pits().search(pit, Optional.of(Duration.ofSeconds(30 + i)), request);
                        }, pool)).toList();
                CompletableFuture.allOf(opened.toArray(CompletableFuture[]::new)).join();
            } finally {
                pool.shutdown();
            }
            assertThat(b.scroll().openContexts()).isEqualTo(20);
            assertThat(b.pits().openContexts()).isEqualTo(20);
            now[0] = now[0].plusSeconds(40);
            assertThat(b.scroll().openContexts()).as("those kept alive past 40 s").isEqualTo(9);
            assertThat(b.pits().openContexts()).isEqualTo(9);
            now[0] = now[0].plusSeconds(10);
            assertThat(b.scroll().openContexts()).isZero();
            assertThat(b.pits().openContexts()).isZero();
        }));
    }
}
