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
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;

/**
 * Paging through hits of equal score (and sorts with equal keys) with {@code from}/{@code size} on both backends:
 * the pages together hold every match exactly once, in the order of one large page. Ties come in index order on the
 * Lucene store (here: the order the documents were written) and in {@code _seq_no} order on the Qdrant store
 * (docs/compatibility.md).
 */
class EqualScorePagesTest {
    private static final int DOCUMENTS = 37;
    private static final int PAGE = 5;
    private static final String MAPPING = """
            {"mappings": {"properties": {
              "k": {"type": "keyword"}, "t": {"type": "text"}, "n": {"type": "integer"}, "b": {"type": "boolean"}
            }}}""";

    @TempDir
    static Path temp;
    private static FakeQdrant fake;
    private static Backend lucene;
    private static Backend qdrant;
    private static final List<String> WRITTEN = new ArrayList<>();

    record Backend(String name, DocumentStore store, InMemoryCatalog catalog, SearchService search) {
        SearchResult search(String body) {
            return search.search("ties", SearchRequestParser.parse(Optional.of(Json.parse(body)), Map.of()),
                    CatalogView.Options.STRICT_EXPAND_OPEN);
        }

        IndexMetadata index() {
            return catalog.view().resolve("ties", CatalogView.Options.STRICT_EXPAND_OPEN).get(0);
        }
    }

    static Backend backend(String name, DocumentStore store) {
        StoreServices services = StoreServices.over(store);
        InMemoryCatalog catalog = services.catalog();
        IndexAdministrationService admin = services.admin();
        DocumentService documents = services.documents();
        admin.create(CreateIndexRequest.parse("ties", Json.parse(MAPPING)));
        List<WriteCommand> bulk = new ArrayList<>();
        for (String id : WRITTEN) {
            int i = Integer.parseInt(id.substring(1));
            JsonObject source = (JsonObject) Json.parse("{\"k\": \"same\", \"t\": \"same words\", \"n\": " + i % 3
                    + ", \"b\": " + (i % 2 == 0) + "}");
            bulk.add(new WriteCommand.Index("ties", Optional.of(id), source, false, Versioning.Condition.NONE, false));
        }
        documents.bulk(bulk);
        return new Backend(name, store, catalog, new SearchService(catalog, store));
    }

    @BeforeAll
    static void setUp() {
        // written in an order that is neither the ids' nor their point ids'
        IntStream.range(0, DOCUMENTS).map(i -> (i * 17) % DOCUMENTS).forEach(i -> WRITTEN.add("x" + i));
        fake = new FakeQdrant();
        lucene = backend("lucene", LuceneStores.open(temp.resolve("lucene")));
        qdrant = backend("qdrant", QdrantStores.open(new QdrantStores.Settings(fake.uri(), Optional.empty(),
                Duration.ofSeconds(2), Duration.ofSeconds(10), "ties-"), LuceneStores.relevanceScorer()));
    }

    @AfterAll
    static void tearDown() throws Exception {
        ((AutoCloseable) qdrant.store()).close();
        ((AutoCloseable) lucene.store()).close();
        fake.close();
    }

    private static final List<String> QUERIES = List.of(
            "\"query\": {\"match_all\": {}}",
            "\"query\": {\"term\": {\"k\": \"same\"}}",
            "\"query\": {\"match\": {\"t\": \"same\"}}",
            "\"query\": {\"constant_score\": {\"filter\": {\"term\": {\"k\": \"same\"}}}}",
            "\"query\": {\"bool\": {\"should\": [{\"term\": {\"k\": \"same\"}}, {\"match\": {\"t\": \"words\"}}]}}",
            "\"query\": {\"bool\": {\"filter\": [{\"range\": {\"n\": {\"gte\": 0}}}]}}",
            "\"query\": {\"term\": {\"b\": true}}",
            "\"sort\": [{\"n\": \"asc\"}]",
            "\"sort\": [{\"b\": \"desc\"}], \"query\": {\"match\": {\"t\": \"same\"}}",
            "\"sort\": [\"_score\"], \"query\": {\"match\": {\"t\": \"same\"}}");

    @TestFactory
    Stream<DynamicTest> pagesOfTiesNeitherRepeatNorSkip() {
        return Stream.of(lucene, qdrant).flatMap(backend -> QUERIES.stream().map(q -> DynamicTest.dynamicTest(
                backend.name() + ": " + q, () -> {
                    List<String> whole = ids(backend.search("{" + q + ", \"size\": 100}"));
                    assertThat(whole).isNotEmpty().doesNotHaveDuplicates();
                    List<String> paged = new ArrayList<>();
                    for (int from = 0; from < whole.size() + PAGE; from += PAGE) {
                        paged.addAll(ids(backend.search("{" + q + ", \"from\": " + from + ", \"size\": " + PAGE
                                + "}")));
                    }
                    assertThat(paged).as("the pages, one after the other").isEqualTo(whole);
                })));
    }

    @TestFactory
    Stream<DynamicTest> tiesComeInTheWrittenOrderOnBothBackends() {
        Comparator<String> byPointId = Comparator.comparingLong(id -> java.util.UUID.fromString(QdrantLayout.pointId(
                qdrant.index(), id)).getMostSignificantBits() >>> 1);
        List<String> pointIdOrder = WRITTEN.stream().sorted(byPointId).toList();
        return Stream.of("\"query\": {\"match_all\": {}}", "\"query\": {\"match\": {\"t\": \"same\"}}")
                .map(q -> DynamicTest.dynamicTest(q, () -> {
                    assertThat(ids(lucene.search("{" + q + ", \"size\": 100}"))).as("Lucene: the written order")
                            .isEqualTo(WRITTEN);
                    assertThat(ids(qdrant.search("{" + q + ", \"size\": 100}"))).as("Qdrant: the written order")
                            .isEqualTo(WRITTEN);
                    // the corpus tells index order from point-id order
                    assertThat(pointIdOrder).isNotEqualTo(WRITTEN);
                }));
    }

    private static List<String> ids(SearchResult result) {
        return result.hits().stream().map(Hit::id).toList();
    }
}
