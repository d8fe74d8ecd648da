package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.adapter.out.lucene.LuceneStores;
import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand;
import io.qdrant.esgateway.application.port.in.SearchOperations.SearchResult;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.service.SearchService;
import io.qdrant.esgateway.domain.document.Versioning;
import io.qdrant.esgateway.domain.index.CreateIndexRequest;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.search.Hit;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Text analysis on both backends: an index with an english analyzer, synonyms, an autocomplete field (edge n-grams
 * at index time, a plain tokenizer at search time) and a french custom analyzer, written through the services to
 * the Lucene store and to the Qdrant adapter (on {@link FakeQdrant}); each search must find the documents analysis
 * makes it find (stemming, synonyms, prefixes, folding) and both backends must answer identically (hits, order,
 * scores as identical floats).
 */
class AnalysisVersusLuceneTest {
    @TempDir
    static Path temp;
    private static FakeQdrant fake;
    private static Backend lucene;
    private static Backend qdrant;

    record Backend(DocumentStore store, SearchService search) {
    }

    private static final String INDEX = """
            {"settings": {"analysis": {
               "filter": {"syn": {"type": "synonym", "synonyms": ["tv, television", "laptop, notebook"]},
                          "fr_stem": {"type": "stemmer", "language": "light_french"}},
               "tokenizer": {"edge": {"type": "edge_ngram", "min_gram": 2, "max_gram": 10, "token_chars": ["letter"]}},
               "analyzer": {
                 "catalogue": {"tokenizer": "standard", "filter": ["lowercase", "asciifolding", "syn", "porter_stem"]},
                 "autocomplete": {"tokenizer": "edge", "filter": ["lowercase"]},
                 "autocomplete_search": {"tokenizer": "lowercase"},
                 "fr": {"tokenizer": "standard", "filter": ["elision", "lowercase", "asciifolding", "fr_stem"]}
               }}},
             "mappings": {"properties": {
               "title": {"type": "text", "analyzer": "catalogue"},
               "body": {"type": "text", "analyzer": "english"},
               "suggest": {"type": "text", "analyzer": "autocomplete", "search_analyzer": "autocomplete_search"},
               "texte": {"type": "text", "analyzer": "fr"},
               "plain": {"type": "text"}
             }}}""";

    private static final String[][] DOCS = {
        {"Running shoes for trail runners", "The runners were running quickly", "Running Shoes", "L'été des chaussures", "running"},
        {"Television stand", "A stand for the television set", "Television Stand", "Les télévisions", "stand"},
        {"TV remote", "Remotes for every TV", "TV Remote", "la télécommande", "remote"},
        {"Gaming laptop", "Laptops run games", "Gaming Laptop", "un ordinateur portable", "laptop"},
        {"Notebook sleeve", "Sleeves protect notebooks", "Notebook Sleeve", "une housse élégante", "sleeve"},
        {"Café crème cups", "Cups of coffee with cream", "Cafe Creme", "Les cafés crèmes", "cups"},
        {"Runner's guide", "A guide for a runner", "Runners Guide", "le guide du coureur", "guide"},
    };

    static Backend backend(DocumentStore store) {
        StoreServices services = StoreServices.over(store, LuceneStores.textAnalysis());
        services.admin().create(CreateIndexRequest.parse("shop", Json.parse(INDEX)));
        List<WriteCommand> bulk = new ArrayList<>();
        for (int i = 0; i < DOCS.length; i++) {
            String[] d = DOCS[i];
            bulk.add(new WriteCommand.Index("shop", Optional.of("p" + i), (io.qdrant.esgateway.domain.json.JsonValue
                    .JsonObject) Json.parse("{\"title\": " + quote(d[0]) + ", \"body\": " + quote(d[1]) + ", \"suggest\": " + quote(d[2]) + ", \"texte\": "
                    + quote(d[3]) + ", \"plain\": " + quote(d[4]) + "}"), false, Versioning.Condition.NONE, false));
        }
        services.documents().bulk(bulk);
        return new Backend(store, new SearchService(services.catalog(), store));
    }

    private static String quote(String s) {
        return Json.write(io.qdrant.esgateway.domain.json.JsonValue.string(s));
    }

    @BeforeAll
    static void setUp() {
        fake = new FakeQdrant();
        lucene = backend(LuceneStores.open(temp.resolve("lucene")));
        qdrant = backend(QdrantStores.open(new QdrantStores.Settings(fake.uri(), Optional.empty(),
                Duration.ofSeconds(2), Duration.ofSeconds(10)), LuceneStores.relevanceScorer()));
    }

    @AfterAll
    static void tearDown() throws Exception {
        ((AutoCloseable) lucene.store()).close();
        ((AutoCloseable) qdrant.store()).close();
        fake.close();
    }

    /** A search and the ids analysis must make it find (in any order). */
    record Case(String why, String query, List<String> ids) {
    }

    static final List<Case> CASES = List.of(
            new Case("stemming: run finds running", "{\"match\": {\"title\": \"run\"}}", List.of("p0")),
            new Case("the english analyzer stems and drops stop words", "{\"match\": {\"body\": \"the running\"}}",
                    List.of("p0", "p3")),
            new Case("synonyms: tv finds television", "{\"match\": {\"title\": \"tv\"}}", List.of("p1", "p2")),
            new Case("synonyms: notebook finds laptop", "{\"match\": {\"title\": \"notebook\"}}",
                    List.of("p3", "p4")),
            new Case("synonyms with operator and", "{\"match\": {\"title\": {\"query\": \"television stand\","
                    + " \"operator\": \"and\"}}}", List.of("p1")),
            new Case("a phrase through synonyms", "{\"match_phrase\": {\"title\": \"tv stand\"}}", List.of("p1")),
            new Case("folding: cafe finds café", "{\"match\": {\"title\": \"cafe creme\"}}", List.of("p5")),
            new Case("autocomplete: a prefix of a word", "{\"match\": {\"suggest\": \"tel\"}}", List.of("p1")),
            new Case("autocomplete: two prefixes, and", "{\"match\": {\"suggest\": {\"query\": \"run gui\","
                    + " \"operator\": \"and\"}}}", List.of("p6")),
            new Case("autocomplete: the search analyzer does not split the query into n-grams",
                    "{\"match\": {\"suggest\": \"tex\"}}", List.of()),
            new Case("a french analyzer: elision, folding, light stemming",
                    "{\"match\": {\"texte\": \"ete television cafe\"}}", List.of("p0", "p1", "p5")),
            new Case("the standard analyzer still does not stem", "{\"match\": {\"plain\": \"runs\"}}", List.of()),
            new Case("a multi_match over fields with different analyzers",
                    "{\"multi_match\": {\"query\": \"running tv\", \"fields\": [\"title\", \"body\", \"plain\"]}}",
                    List.of("p0", "p1", "p2", "p3")),
            new Case("query_string on an analysed field", "{\"query_string\": {\"query\": \"title:laptops\"}}",
                    List.of("p3", "p4")));

    @TestFactory
    Stream<DynamicTest> analysisFindsWhatItShouldOnBothBackends() {
        return CASES.stream().map(c -> DynamicTest.dynamicTest(c.why(), () -> {
            String body = "{\"query\": " + c.query() + ", \"size\": 20}";
            SearchResult expected = search(lucene, body);
            SearchResult actual = search(qdrant, body);
            assertThat(expected.hits().stream().map(Hit::id).toList()).as("lucene: " + c.why())
                    .containsExactlyInAnyOrderElementsOf(c.ids());
            assertThat(QdrantVersusLuceneTest.render(actual.hits())).as("qdrant: " + c.why())
                    .isEqualTo(QdrantVersusLuceneTest.render(expected.hits()));
            assertThat(actual.total()).isEqualTo(expected.total());
            assertThat(fake.violations).isEmpty();
        }));
    }

    private static SearchResult search(Backend backend, String body) {
        return QdrantVersusLuceneTest.search(new QdrantVersusLuceneTest.Backend(backend.store(), backend.search(),
                null, backend.search()), "shop", body);
    }
}
