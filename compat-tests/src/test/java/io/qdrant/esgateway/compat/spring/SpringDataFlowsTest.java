package io.qdrant.esgateway.compat.spring;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch._types.aggregations.Aggregate;
import co.elastic.clients.elasticsearch._types.aggregations.Aggregation;
import co.elastic.clients.elasticsearch._types.aggregations.CalendarInterval;
import io.qdrant.esgateway.adapter.out.qdrant.FakeQdrant;
import io.qdrant.esgateway.bootstrap.GatewayForCompat;
import io.qdrant.esgateway.compat.harness.Engine;
import io.qdrant.esgateway.compat.harness.Oracles;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.data.elasticsearch.client.ClientConfiguration;
import org.springframework.data.elasticsearch.client.elc.ElasticsearchAggregations;
import org.springframework.data.elasticsearch.client.elc.ElasticsearchConfiguration;
import org.springframework.data.elasticsearch.client.elc.NativeQuery;
import org.springframework.data.elasticsearch.BulkFailureException;
import org.springframework.data.elasticsearch.core.ElasticsearchOperations;
import org.springframework.data.elasticsearch.core.IndexOperations;
import org.springframework.data.elasticsearch.core.SearchHit;
import org.springframework.data.elasticsearch.core.SearchHits;
import org.springframework.data.elasticsearch.core.SearchHitsIterator;
import org.springframework.data.elasticsearch.core.mapping.IndexCoordinates;
import org.springframework.data.elasticsearch.core.query.ByQueryResponse;
import org.springframework.data.elasticsearch.core.query.Criteria;
import org.springframework.data.elasticsearch.core.query.CriteriaQuery;
import org.springframework.data.elasticsearch.core.query.Query;
import org.springframework.data.elasticsearch.core.query.ScriptType;
import org.springframework.data.elasticsearch.core.query.UpdateQuery;
import org.springframework.data.elasticsearch.core.reindex.ReindexRequest;
import org.springframework.data.elasticsearch.core.reindex.ReindexResponse;
import org.springframework.data.elasticsearch.repository.config.EnableElasticsearchRepositories;

/**
 * An application's flow through a Spring Data Elasticsearch 5.4 repository (on the Java client 8.15), one Spring
 * context per server: index creation from the entity ({@code @Setting} with analysis, the default mapping with
 * {@code _class}), {@code save}/{@code saveAll} with {@code @Version} (external versions: conflicts, a bulk with one
 * stale item), optimistic locking with {@code SeqNoPrimaryTerm}, {@code findById}/{@code findAllById}, derived
 * queries, paging and sorting, {@code @Query}, {@code SearchHits} with scores, {@code @Highlight}, counts, streams
 * (scroll), aggregations through a {@code NativeQuery}, deletes and the index operations. It runs on Elasticsearch 8.15 and on the gateway on both
 * backends, and each step's result, as Spring Data read it, must be Elasticsearch's. What Elasticsearch from Maven
 * cannot run (the {@code analysis-common} autocomplete analyzer, Painless {@code updateByQuery}, {@code reindex}) runs
 * on both backends with its expected results and must be the same on both.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SpringDataFlowsTest {
    private static final String BOOKS = "spring-books";

    @TempDir
    Path temp;
    private List<String> elasticsearch;
    private final List<FakeQdrant> fakes = new ArrayList<>();

    /** The application's configuration: the client and the repositories, as {@code @Configuration}. */
    @Configuration(proxyBeanMethods = false)
    @EnableElasticsearchRepositories(basePackageClasses = SpringDataFlowsTest.class)
    static class Config extends ElasticsearchConfiguration {
        @Autowired
        Environment environment;

        @Override
        public ClientConfiguration clientConfiguration() {
            return ClientConfiguration.builder().connectedTo(environment.getRequiredProperty("flow.host"))
                    .withSocketTimeout(Duration.ofSeconds(60)).build();
        }
    }

    private interface Flow {
        List<String> run(AnnotationConfigApplicationContext context) throws IOException;
    }

    /**
     * Runs {@code flow} in a Spring context connected to {@code base}, the books index removed first; what it read is
     * also written to {@code target/spring-flows/<name>.txt}, to compare engines by eye.
     */
    private static List<String> inContext(String name, String base, Flow flow) throws IOException {
        List<String> out = inContext(base, flow);
        Path dump = Path.of("target", "spring-flows", name + ".txt");
        Files.createDirectories(dump.getParent());
        Files.write(dump, out);
        return out;
    }

    private static List<String> inContext(String base, Flow flow) throws IOException {
        deleteIndex(base, BOOKS);
        deleteIndex(base, "spring-suggestions");
        deleteIndex(base, "spring-books-copy");
        deleteIndex(base, "spring-shelves");
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("flow",
                Map.of("flow.host", URI.create(base).getAuthority())));
        context.register(Config.class);
        context.refresh();
        try (context) {
            return flow.run(context);
        }
    }

    private static void deleteIndex(String base, String index) throws IOException {
        try (HttpClient http = HttpClient.newHttpClient()) {
            http.send(HttpRequest.newBuilder(URI.create(base + "/" + index)).DELETE().build(),
                    HttpResponse.BodyHandlers.discarding());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private List<String> onLucene(String name, Flow flow) throws IOException {
        try (GatewayForCompat gateway = GatewayForCompat.start(Files.createTempDirectory(temp, "lucene"))) {
            return inContext("lucene-" + name, "http://127.0.0.1:" + gateway.port(), flow);
        }
    }

    private List<String> onQdrant(String name, Flow flow) throws IOException {
        FakeQdrant qdrant = new FakeQdrant();
        fakes.add(qdrant);
        try (GatewayForCompat gateway = GatewayForCompat.start(Files.createTempDirectory(temp, "qdrant"),
                Map.of("QEG_BACKEND", "qdrant", "QEG_QDRANT_URL", qdrant.uri().toString()))) {
            return inContext("qdrant-" + name, "http://127.0.0.1:" + gateway.port(), flow);
        } finally {
            assertThat(qdrant.violations).isEmpty();
        }
    }

    @BeforeAll
    void runOnElasticsearch() throws IOException {
        Assumptions.assumeTrue(Oracles.enabled().contains(Engine.ELASTICSEARCH),
                "-Doracle.engines leaves out elasticsearch");
        elasticsearch = inContext("elasticsearch-books", Oracles.engine(Engine.ELASTICSEARCH).target().base(),
                SpringDataFlowsTest::books);
    }

    @AfterAll
    void stopQdrant() {
        fakes.forEach(FakeQdrant::close);
    }

    @Test
    void theRepositoryFlowOnTheLuceneBackendIsElasticsearchs() throws IOException {
        assertSame(onLucene("books", SpringDataFlowsTest::books));
    }

    @Test
    void theRepositoryFlowOnTheQdrantBackendIsElasticsearchs() throws IOException {
        assertSame(onQdrant("books", SpringDataFlowsTest::books));
    }

    @Test
    void autocompleteUpdateByQueryAndReindexAreTheSameOnBothBackends() throws IOException {
        List<String> lucene = onLucene("beyond", SpringDataFlowsTest::beyondTheOracle);
        assertThat(lucene).contains(
                "complete lap: [s1, s2, s3]",
                // "Laptop stand" has "laptop" and the edge n-gram "st" of "stand" too
                "complete LAPTOP st: [s1, s2]",
                "complete cafe: [s5]",
                "complete sta: [s1, s2, s4]",
                "complete zz: []",
                // b01–b05 all have more than 100 pages
                "update by query: updated 5, total 5, failures 0",
                "pages after update: [b01=221, b02=311, b03=141, b04=481, b05=191]",
                "reindex: created 4, total 4, failures 0",
                "copy count: 4",
                "delete by query: 2",
                "count after delete by query: 3",
                "deleteByAuthor: 2",
                "count after deleteByAuthor: 1",
                "count after deleteAll: 0");
        assertThat(String.join("\n", onQdrant("beyond", SpringDataFlowsTest::beyondTheOracle)))
                .isEqualTo(String.join("\n", lucene));
    }

    /** The gateway's reads must be Elasticsearch's, line by line (ties included: both backends keep index order). */
    private void assertSame(List<String> gateway) {
        // every step reads something: an empty or failed step cannot pass by comparing nothing
        assertThat(elasticsearch).hasSizeGreaterThan(30);
        assertThat(String.join("\n", gateway)).isEqualTo(String.join("\n", elasticsearch));
    }

    static List<Book> library() {
        return List.of(
                new Book("b01", "The Quick Brown Fox", "austen", List.of("classic", "animals"), 220, 9.5,
                        LocalDate.of(1999, 3, 1), true),
                new Book("b02", "A Tale of Two Foxes", "austen", List.of("classic"), 310, 14.0,
                        LocalDate.of(2001, 7, 15), false),
                new Book("b03", "Gardening for the Busy", "baldwin", List.of("garden", "howto"), 140, 22.25,
                        LocalDate.of(2010, 1, 20), true),
                new Book("b04", "The Lazy Dog Sleeps", "baldwin", List.of("animals"), 480, 31.0,
                        LocalDate.of(2015, 5, 5), true),
                new Book("b05", "Foxes and Hounds in the Garden", "carver", List.of("animals", "garden"), 190,
                        18.75, LocalDate.of(2018, 11, 30), false),
                new Book("b06", "Cooking with Brown Butter", "carver", List.of("food"), 260, 27.5,
                        LocalDate.of(2020, 2, 29), true),
                new Book("b07", "The Art of the Quick Meal", "dickens", List.of("food", "howto"), 120, 12.0,
                        LocalDate.of(2021, 8, 8), true),
                new Book("b08", "Brown Bears of the North", "dickens", List.of("animals", "nature"), 350, 40.0,
                        LocalDate.of(2022, 12, 24), true),
                new Book("b09", "Quiet Gardens", "austin", List.of("garden"), 95, 8.0,
                        LocalDate.of(2023, 4, 1), false),
                new Book("b10", "The Complete Fox", "austin", List.of("animals", "classic"), 600, 55.5,
                        LocalDate.of(2024, 6, 6), true));
    }

    private static String ids(Iterable<Book> books) {
        List<String> out = new ArrayList<>();
        books.forEach(b -> out.add(b.getId()));
        return out.toString();
    }

    /** The repository flow; what the application read at each step, in order. */
    static List<String> books(AnnotationConfigApplicationContext context) {
        List<String> out = new ArrayList<>();
        BookRepository repository = context.getBean(BookRepository.class);
        ElasticsearchOperations operations = context.getBean(ElasticsearchOperations.class);
        IndexOperations index = operations.indexOps(Book.class);

        out.add("index exists: " + index.exists());
        out.add("mapping: " + new TreeMap<>(index.getMapping()));
        Map<String, Object> settings = index.getSettings();
        out.add("settings: " + new TreeMap<>(Map.of(
                "analyzer", String.valueOf(settings.get("index.analysis.analyzer.english_stop.type")),
                "stopwords", String.valueOf(settings.get("index.analysis.analyzer.english_stop.stopwords")),
                "replicas", String.valueOf(settings.get("index.number_of_replicas")))));

        List<Book> saved = new ArrayList<>();
        repository.saveAll(library()).forEach(saved::add);
        out.add("saveAll: " + saved);
        // scored before any update: the Qdrant backend's statistics count live documents only, Elasticsearch's also
        // the replaced ones until their segments merge (docs/compatibility.md); "fox" has no equal scores
        SearchHits<Book> hits = repository.findByTitle("fox");
        out.add("SearchHits: " + hits.getTotalHits() + " " + hits.getTotalHitsRelation() + " max "
                + hits.getMaxScore());
        for (SearchHit<Book> hit : hits) {
            out.add("  hit " + hit.getId() + " " + hit.getScore() + " " + hit.getContent().getVersion());
        }
        Book first = repository.findById("b01").orElseThrow();
        out.add("findById: " + first);
        first.setTitle("The Quick Brown Fox Returns");
        first.setVersion(first.getVersion() + 1);
        out.add("save with a new version: " + attempt(() -> repository.save(first)));
        Book stale = repository.findById("b02").orElseThrow();
        out.add("save with the same version: " + attempt(() -> repository.save(stale)));
        Book older = repository.findById("b03").orElseThrow();
        older.setVersion(0L);
        out.add("save with an older version: " + attempt(() -> repository.save(older)));
        out.add("after the saves: " + List.of("b01", "b02", "b03").stream()
                .map(id -> repository.findById(id).orElseThrow()).toList());
        Book next = repository.findById("b04").orElseThrow();
        next.setVersion(next.getVersion() + 1);
        Book behind = repository.findById("b05").orElseThrow();
        out.add("saveAll with one stale version: " + attemptAll(() -> repository.saveAll(List.of(next, behind))));
        // the searches below read the saves: Elasticsearch shows them only after a refresh (the gateway at once)
        operations.indexOps(Book.class).refresh();
        out.add("after saveAll: " + repository.findById("b04").orElseThrow().getVersion() + " "
                + repository.findById("b05").orElseThrow().getVersion());
        out.add("findById missing: " + repository.findById("nope").isPresent());
        out.add("existsById: " + repository.existsById("b03") + " " + repository.existsById("nope"));
        out.add("findAllById (index order): " + ids(repository.findAllById(List.of("b03", "b01", "nope"))));
        out.add("findAllById of more (index order): " + ids(repository.findAllById(
                List.of("b10", "b02", "b07", "b01", "b05", "b08", "b03"))));
        out.add("count: " + repository.count());

        Sort byPublished = Sort.by("published");
        out.add("findByAuthorOrderByPagesAsc: " + repository.findByAuthorOrderByPagesAsc("baldwin"));
        out.add("findByAuthorAndAvailable: " + ids(repository.findByAuthorAndAvailable("austen", true, byPublished)));
        out.add("findByAuthorOrPagesGreaterThan: "
                + ids(repository.findByAuthorOrPagesGreaterThan("carver", 400, Sort.by("pages").descending())));
        out.add("findByPriceBetween: " + ids(repository.findByPriceBetweenOrderByPriceAsc(12.0, 27.5)));
        out.add("findByTagsIn: " + ids(repository.findByTagsIn(List.of("food", "nature"), byPublished)));
        out.add("findByAuthorLike: " + ids(repository.findByAuthorLike("aus", byPublished)));
        out.add("findByAuthorStartingWith: " + ids(repository.findByAuthorStartingWith("di", byPublished)));
        out.add("findByTitleContaining: " + ids(repository.findByTitleContaining("fox", byPublished)));
        out.add("findByPublishedAfter: " + ids(repository.findByPublishedAfterOrderByPublishedDesc(
                LocalDate.of(2020, 1, 1))));

        Page<Book> page = repository.findByAvailableTrue(PageRequest.of(1, 3, Sort.by("pages").descending()));
        out.add("page: " + page.getNumber() + "/" + page.getTotalPages() + " of " + page.getTotalElements() + " "
                + ids(page.getContent()) + " next " + page.hasNext());
        Page<Book> all = repository.findAll(PageRequest.of(2, 4, Sort.by(Sort.Order.asc("author"),
                Sort.Order.desc("price"))));
        out.add("findAll page: " + all.getNumber() + "/" + all.getTotalPages() + " " + ids(all.getContent()));
        out.add("findAll sorted: " + ids(repository.findAll(Sort.by("published").descending())));

        Page<Book> queried = repository.titledWithAtLeast("fox", 200, PageRequest.of(0, 2, byPublished));
        out.add("@Query: " + queried.getTotalElements() + " " + ids(queried.getContent()));

        for (SearchHit<Book> hit : repository.findByTitleOrderByPublishedAsc("fox")) {
            out.add("  highlighted " + hit.getId() + " " + hit.getHighlightField("title"));
        }
        out.add("countByAuthor: " + repository.countByAuthor("austen") + " " + repository.countByAuthor("nobody"));
        out.add("existsByAuthor: " + repository.existsByAuthor("carver") + " "
                + repository.existsByAuthor("nobody"));
        try (Stream<Book> stream = repository.streamByAvailableFalse()) {
            out.add("stream: " + stream.map(Book::getId).sorted().toList());
        }
        Query everything = new CriteriaQuery(new Criteria()).setPageable(PageRequest.of(0, 3))
                .addSort(Sort.by("pages"));
        try (SearchHitsIterator<Book> scroll = operations.searchForStream(everything, Book.class)) {
            List<String> seen = new ArrayList<>();
            scroll.forEachRemaining(h -> seen.add(h.getId()));
            out.add("searchForStream: " + scroll.getTotalHits() + " " + seen);
        }

        aggregations(operations, out);
        shelves(context, out);

        repository.deleteById("b07");
        repository.delete(repository.findById("b09").orElseThrow());
        out.add("count after deletes: " + repository.count());
        // delete by query (repository.deleteAll, operations.delete(query)) needs the reindex module, which
        // Elasticsearch from Maven lacks: beyondTheOracle runs them
        repository.findAll().forEach(b -> repository.deleteById(b.getId()));
        out.add("count after deleteById of every one: " + repository.count());
        out.add("index delete: " + index.delete() + ", exists " + index.exists());
        out.add("createWithMapping: " + index.createWithMapping() + ", exists " + index.exists());
        out.add("mapping again: " + new TreeMap<>(index.getMapping()).keySet());
        out.add("index delete: " + index.delete());
        return out;
    }

    /** Optimistic locking by sequence number: saves with {@code if_seq_no}, reads with {@code seq_no_primary_term}. */
    private static void shelves(AnnotationConfigApplicationContext context, List<String> out) {
        ShelfRepository shelves = context.getBean(ShelfRepository.class);
        out.add("shelves saved: " + shelves.saveAll(List.of(new Shelf("s1", "hall", 10), new Shelf("s2", "hall", 20),
                new Shelf("s3", "attic", 5))));
        Shelf s1 = shelves.findById("s1").orElseThrow();
        Shelf stale = shelves.findById("s1").orElseThrow();
        out.add("shelf found: " + s1);
        s1.setCapacity(12);
        out.add("shelf saved with its seq_no: " + shelves.save(s1));
        stale.setCapacity(13);
        String staleSave;
        try {
            staleSave = String.valueOf(shelves.save(stale));
        } catch (RuntimeException e) {
            staleSave = e.getClass().getSimpleName();
        }
        out.add("shelf saved with a stale seq_no: " + staleSave);
        out.add("shelves by room: " + shelves.findByRoom("hall").stream().map(Shelf::toString).sorted().toList());
        out.add("shelves count: " + shelves.count());
    }

    /** The saved entity, or what Spring Data made of the server's refusal. */
    private static String attempt(java.util.function.Supplier<Book> save) {
        try {
            return String.valueOf(save.get());
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName() + (e instanceof OptimisticLockingFailureException ? " (optimistic)"
                    : "");
        }
    }

    /** What a {@code saveAll} saved, or what Spring Data made of the bulk's failed items. */
    private static String attemptAll(java.util.function.Supplier<Iterable<Book>> save) {
        try {
            List<Long> versions = new ArrayList<>();
            save.get().forEach(b -> versions.add(b.getVersion()));
            return "saved " + versions;
        } catch (BulkFailureException e) {
            return e.getClass().getSimpleName() + " " + new TreeMap<>(e.getFailedDocuments()).keySet() + " "
                    + e.getFailedDocuments().values().stream().map(f -> f.status() + " " + f.errorMessage()).toList();
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName();
        }
    }

    private static void aggregations(ElasticsearchOperations operations, List<String> out) {
        NativeQuery query = NativeQuery.builder()
                .withQuery(q -> q.range(r -> r.number(n -> n.field("pages").gte(100.0))))
                .withAggregation("authors", Aggregation.of(a -> a.terms(t -> t.field("author").size(3))
                        .aggregations("avg_price", x -> x.avg(v -> v.field("price")))))
                .withAggregation("tags", Aggregation.of(a -> a.terms(t -> t.field("tags"))))
                .withAggregation("price_stats", Aggregation.of(a -> a.stats(s -> s.field("price"))))
                .withAggregation("per_year", Aggregation.of(a -> a.dateHistogram(h -> h.field("published")
                        .calendarInterval(CalendarInterval.Year).minDocCount(1))))
                .withAggregation("cheap", Aggregation.of(a -> a.range(r -> r.field("price")
                        .ranges(x -> x.to(15.0)).ranges(x -> x.from(15.0)))))
                .withMaxResults(2)
                .withSort(Sort.by("price"))
                .build();
        SearchHits<Book> hits = operations.search(query, Book.class);
        out.add("aggregation search: " + hits.getTotalHits() + " "
                + hits.getSearchHits().stream().map(SearchHit::getId).toList());
        ElasticsearchAggregations aggregations = (ElasticsearchAggregations) hits.getAggregations();
        Map<String, Aggregate> byName = new TreeMap<>();
        aggregations.aggregationsAsMap().forEach((name, a) -> byName.put(name, a.aggregation().getAggregate()));
        byName.forEach((name, a) -> out.add("agg " + name + " (" + a._kind() + "): " + describe(a)));
    }

    private static String describe(Aggregate a) {
        return switch (a._kind()) {
            case Sterms -> a.sterms().buckets().array().stream().map(b -> b.key().stringValue() + "=" + b.docCount()
                    + (b.aggregations().containsKey("avg_price")
                    ? " avg " + b.aggregations().get("avg_price").avg().value() : "")).toList()
                    + " other " + a.sterms().sumOtherDocCount();
            case Stats -> a.stats().count() + " " + a.stats().min() + " " + a.stats().max() + " " + a.stats().avg()
                    + " " + a.stats().sum();
            case DateHistogram -> a.dateHistogram().buckets().array().stream()
                    .map(b -> b.keyAsString() + "=" + b.docCount()).toList().toString();
            case Range -> a.range().buckets().array().stream().map(b -> b.key() + "=" + b.docCount()).toList()
                    .toString();
            default -> "unexpected kind " + a._kind();
        };
    }

    /** What Elasticsearch from Maven cannot run: autocomplete, a Painless update by query, a reindex. */
    static List<String> beyondTheOracle(AnnotationConfigApplicationContext context) {
        List<String> out = new ArrayList<>();
        ElasticsearchOperations operations = context.getBean(ElasticsearchOperations.class);
        IndexOperations suggestionsIndex = operations.indexOps(Suggestion.class);
        out.add("suggestions created: " + suggestionsIndex.createWithMapping());
        out.add("suggestions analyzer: " + suggestionsIndex.getSettings()
                .get("index.analysis.analyzer.autocomplete.tokenizer"));
        SuggestionRepository suggestions = context.getBean(SuggestionRepository.class);
        suggestions.saveAll(List.of(new Suggestion("s1", "Laptop stand", 5), new Suggestion("s2", "Laptop Stand Pro", 9),
                new Suggestion("s3", "Lapis lazuli", 2), new Suggestion("s4", "Standing desk", 7),
                new Suggestion("s5", "Café crème", 3)));
        Sort byPopularity = Sort.by("popularity");
        for (String typed : List.of("lap", "LAPTOP st", "cafe", "sta", "zz")) {
            out.add("complete " + typed + ": " + suggestions.complete(typed, byPopularity).stream()
                    .map(Suggestion::getId).sorted().toList());
        }

        BookRepository books = context.getBean(BookRepository.class);
        books.saveAll(library().subList(0, 5));
        ByQueryResponse updated = operations.updateByQuery(UpdateQuery.builder(
                        new CriteriaQuery(new Criteria("pages").greaterThan(100)))
                .withScript("ctx._source.pages += params.n").withScriptType(ScriptType.INLINE).withLang("painless")
                .withParams(Map.of("n", 1))
                .withRefreshPolicy(org.springframework.data.elasticsearch.core.RefreshPolicy.IMMEDIATE)
                .build(), IndexCoordinates.of(BOOKS));
        out.add("update by query: updated " + updated.getUpdated() + ", total " + updated.getTotal()
                + ", failures " + updated.getFailures().size());
        List<String> pages = new ArrayList<>();
        books.findAll(Sort.by("published")).forEach(b -> pages.add(b.getId() + "=" + b.getPages()));
        out.add("pages after update: " + pages);
        ReindexResponse copied = operations.reindex(ReindexRequest.builder(IndexCoordinates.of(BOOKS),
                        IndexCoordinates.of("spring-books-copy"))
                .withSourceQuery(new CriteriaQuery(new Criteria("pages").greaterThan(150)))
                .withRefresh(true).build());
        out.add("reindex: created " + copied.getCreated() + ", total " + copied.getTotal() + ", failures "
                + copied.getFailures().size());
        out.add("copy count: " + operations.count(operations.matchAllQuery(), IndexCoordinates.of(
                "spring-books-copy")));
        ByQueryResponse deleted = operations.delete(new CriteriaQuery(new Criteria("available").is(false)),
                Book.class);
        out.add("delete by query: " + deleted.getDeleted());
        operations.indexOps(Book.class).refresh();
        out.add("count after delete by query: " + books.count());
        out.add("deleteByAuthor: " + books.deleteByAuthor("baldwin"));
        out.add("count after deleteByAuthor: " + books.count());
        books.deleteAll();
        out.add("count after deleteAll: " + books.count());
        out.add("suggestions delete: " + suggestionsIndex.delete());
        return out;
    }
}
