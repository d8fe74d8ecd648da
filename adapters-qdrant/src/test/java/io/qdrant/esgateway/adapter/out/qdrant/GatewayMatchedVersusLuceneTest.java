package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.adapter.out.lucene.LuceneStores;
import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand;
import io.qdrant.esgateway.application.port.in.SearchOperations.SearchResult;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.service.SearchService;
import io.qdrant.esgateway.domain.document.Versioning;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.CreateIndexRequest;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The queries Qdrant cannot evaluate itself — {@code wildcard}, {@code regexp}, {@code fuzzy}, case-insensitive
 * {@code term}/{@code prefix}, {@code range} on strings and booleans, field patterns, {@code fuzziness},
 * {@code match_phrase_prefix} — answered by the gateway on the Qdrant backend (on {@link FakeQdrant}) exactly as on
 * the Lucene store: in every {@code bool} position, as {@code post_filter}, under aggregations and in {@code _count};
 * hits, order, scores (identical floats) and totals. The fuzzy cases expand over more than 50 terms, so the choice
 * of expansions and their blended frequencies come from the whole index's term dictionary, not the candidates'.
 */
class GatewayMatchedVersusLuceneTest {
    @TempDir
    static Path temp;
    private static FakeQdrant fake;
    private static QdrantVersusLuceneTest.Backend lucene;
    private static QdrantVersusLuceneTest.Backend qdrant;

    private static final String INDEX = """
            {"settings": {"analysis": {"analyzer": {"stems": {"tokenizer": "standard",
                "filter": ["lowercase", "porter_stem"]}}}},
             "mappings": {"properties": {
               "code": {"type": "keyword"}, "name": {"type": "text", "analyzer": "stems",
                 "fields": {"raw": {"type": "keyword"}}},
               "body": {"type": "text", "analyzer": "english"}, "flag": {"type": "boolean"}, "n": {"type": "integer"}
             }}}""";

    private static final String[] WORDS = {"running", "runner", "ruins", "rains", "brown", "browse", "brownie", "fox",
        "foxes", "box", "boxing", "quick", "quack", "quickly", "stone", "stones", "Stoner", "apple", "apply"};

    static QdrantVersusLuceneTest.Backend backend(DocumentStore store) {
        StoreServices services = StoreServices.over(store, LuceneStores.textAnalysis());
        services.admin().create(CreateIndexRequest.parse("items", Json.parse(INDEX)));
        List<WriteCommand> bulk = new ArrayList<>();
        for (int i = 0; i < 160; i++) {
            bulk.add(new WriteCommand.Index("items", Optional.of("i" + i), source(i), false,
                    Versioning.Condition.NONE, false));
        }
        services.documents().bulk(bulk);
        SearchService search = new SearchService(services.catalog(), store);
        return new QdrantVersusLuceneTest.Backend(store, search, services.documents(), search);
    }

    /** Codes k000..k159 (many within two edits of each other), words in names and bodies, gaps. */
    static JsonObject source(int i) {
        java.util.Random random = new java.util.Random(i * 17L + 3);
        StringBuilder b = new StringBuilder("{");
        if (i % 11 != 5) {
            b.append("\"code\": \"").append(i % 7 == 0 ? "K" : "k").append(String.format("%03d", i)).append("\", ");
        }
        if (i % 9 != 4) {
            b.append("\"name\": \"").append(words(random, 1 + random.nextInt(3))).append("\", ");
        }
        if (i % 5 != 3) {
            b.append("\"body\": \"").append(words(random, 3 + random.nextInt(12))).append("\", ");
        }
        if (i % 4 != 1) {
            b.append("\"flag\": ").append(i % 3 == 0).append(", ");
        }
        b.append("\"n\": ").append(i % 10).append("}");
        return (JsonObject) Json.parse(b.toString());
    }

    private static String words(java.util.Random random, int n) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < n; k++) {
            b.append(k == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
        }
        return b.toString();
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

    static final List<String> QUERIES = List.of(
            "{\"match\": {\"body\": \"brown stone apple\"}}",
            "{\"wildcard\": {\"code\": \"k1?2\"}}",
            "{\"wildcard\": {\"code\": {\"value\": \"K0*\", \"case_insensitive\": true}}}",
            "{\"wildcard\": {\"name.raw\": \"*own*\"}}",
            "{\"wildcard\": {\"_id\": \"i1*5\"}}",
            "{\"regexp\": {\"code\": \"k0[2-4][0-9]\"}}",
            "{\"regexp\": {\"code\": {\"value\": \"k1.(1|3)\", \"case_insensitive\": true}}}",
            "{\"regexp\": {\"_id\": \"i[0-9]\"}}",
            "{\"fuzzy\": {\"code\": \"k100\"}}",
            "{\"fuzzy\": {\"code\": {\"value\": \"k100\", \"fuzziness\": 2}}}",
            "{\"fuzzy\": {\"code\": {\"value\": \"k100\", \"fuzziness\": 2, \"prefix_length\": 2,"
                    + " \"max_expansions\": 7}}}",
            "{\"fuzzy\": {\"body\": {\"value\": \"brwn\", \"fuzziness\": \"AUTO\"}}}",
            "{\"fuzzy\": {\"name\": {\"value\": \"box\", \"fuzziness\": 1, \"transpositions\": false}}}",
            "{\"term\": {\"code\": {\"value\": \"K014\", \"case_insensitive\": true}}}",
            "{\"term\": {\"_id\": {\"value\": \"i12\", \"case_insensitive\": true}}}",
            "{\"prefix\": {\"code\": {\"value\": \"k01\", \"case_insensitive\": true}}}",
            "{\"prefix\": {\"name.raw\": {\"value\": \"BRO\", \"case_insensitive\": true}}}",
            "{\"range\": {\"code\": {\"gte\": \"k050\", \"lt\": \"k070\"}}}",
            "{\"range\": {\"code\": {\"gt\": \"K\"}}}",
            "{\"range\": {\"name\": {\"gte\": \"b\", \"lte\": \"c\"}}}",
            "{\"range\": {\"flag\": {\"gte\": true}}}",
            "{\"range\": {\"_id\": {\"gte\": \"i150\"}}}",
            "{\"exists\": {\"field\": \"na*\"}}",
            "{\"term\": {\"cod*\": \"k003\"}}",
            "{\"match\": {\"body\": {\"query\": \"brwn foxs\", \"fuzziness\": \"AUTO\"}}}",
            "{\"match\": {\"body\": {\"query\": \"quick stoner\", \"fuzziness\": 2, \"max_expansions\": 3}}}",
            "{\"match\": {\"name\": {\"query\": \"runing\", \"fuzziness\": 1, \"prefix_length\": 2,"
                    + " \"operator\": \"and\"}}}",
            "{\"match\": {\"code\": {\"query\": \"k123\", \"fuzziness\": 1}}}",
            "{\"match_phrase_prefix\": {\"body\": \"brown fo\"}}",
            "{\"match_phrase_prefix\": {\"body\": {\"query\": \"quick b\", \"slop\": 2, \"max_expansions\": 2}}}",
            "{\"match_phrase_prefix\": {\"name\": \"sto\"}}",
            "{\"match_phrase_prefix\": {\"code\": \"k15\"}}",
            "{\"multi_match\": {\"query\": \"apple b\", \"fields\": [\"name\", \"body\"], \"type\": \"phrase_prefix\"}}",
            "{\"multi_match\": {\"query\": \"browne\", \"fields\": [\"name^2\", \"body\"], \"fuzziness\": 1}}",
            "{\"query_string\": {\"query\": \"body:brwn~1 OR code:k0?1\"}}",
            "{\"bool\": {\"must\": [{\"match\": {\"body\": \"fox\"}}], \"filter\": [{\"wildcard\": {\"code\": \"k*\"}}],"
                    + " \"should\": [{\"fuzzy\": {\"name\": \"quikc\"}}], \"must_not\": [{\"regexp\": {\"code\":"
                    + " \"k.[05].\"}}]}}",
            "{\"bool\": {\"should\": [{\"range\": {\"code\": {\"lt\": \"k020\"}}}, {\"match_phrase_prefix\":"
                    + " {\"name\": \"bro\"}}], \"minimum_should_match\": 1}}",
            "{\"bool\": {\"must_not\": [{\"prefix\": {\"code\": {\"value\": \"K\", \"case_insensitive\": true}}}]}}",
            "{\"constant_score\": {\"filter\": {\"fuzzy\": {\"body\": \"stone\"}}, \"boost\": 2}}",
            "{\"dis_max\": {\"queries\": [{\"fuzzy\": {\"body\": \"apple\"}}, {\"wildcard\": {\"name\": \"ap*\"}}]}}");

    @TestFactory
    Stream<DynamicTest> everyQueryAnswersAsOnLucene() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String q : QUERIES) {
            tests.add(DynamicTest.dynamicTest(q, () -> same("{\"query\": " + q + ", \"size\": 200}", true)));
            // one scored term: the embedded store sums a query's clauses in an order its post_filter may change
            tests.add(DynamicTest.dynamicTest("post_filter " + q, () -> same("{\"query\": {\"match\": {\"body\":"
                    + " \"stone\"}}, \"post_filter\": " + q + ", \"size\": 200, \"aggs\": {\"f\":"
                    + " {\"terms\": {\"field\": \"flag\"}}}}", false)));
            tests.add(DynamicTest.dynamicTest("aggregations " + q, () -> same("{\"query\": " + q + ", \"size\": 0,"
                    + " \"aggs\": {\"n\": {\"terms\": {\"field\": \"n\"}}, \"c\": {\"filter\": " + q + "}}}", false)));
            tests.add(DynamicTest.dynamicTest("_count " + q, () -> {
                Optional<io.qdrant.esgateway.domain.query.Query> query = SearchRequestParser.parse(
                        Optional.of(Json.parse("{\"query\": " + q + "}")), Map.of()).query();
                assertThat(qdrant.search().count("items", query, CatalogView.Options.STRICT_EXPAND_OPEN).count())
                        .isEqualTo(lucene.search().count("items", query, CatalogView.Options.STRICT_EXPAND_OPEN)
                                .count());
            }));
        }
        return tests.stream();
    }

    private static void same(String body, boolean nonEmpty) {
        SearchResult expected = QdrantVersusLuceneTest.search(lucene, "items", body);
        SearchResult actual = QdrantVersusLuceneTest.search(qdrant, "items", body);
        if (nonEmpty) {
            assertThat(expected.total().orElseThrow().value()).as("a case that matches nothing proves little")
                    .isPositive();
        }
        assertThat(actual.total()).as("total").isEqualTo(expected.total());
        assertThat(QdrantVersusLuceneTest.render(actual.hits())).as("hits")
                .isEqualTo(QdrantVersusLuceneTest.render(expected.hits()));
        assertThat(QdrantVersusLuceneTest.aggregations(actual)).as("aggregations")
                .isEqualTo(QdrantVersusLuceneTest.aggregations(expected));
        assertThat(fake.violations).isEmpty();
    }

    @Test
    void highlightingAnExpansionIsRefusedWithA400() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> QdrantVersusLuceneTest.search(qdrant, "items",
                "{\"query\": {\"fuzzy\": {\"body\": \"stone\"}}, \"highlight\": {\"fields\": {\"body\": {}}}}"))
                .satisfies(e -> assertThat(QdrantVersusLuceneTest.unwrap(e).kind())
                        .isEqualTo(io.qdrant.esgateway.domain.error.ErrorKind.UNSUPPORTED))
                .satisfies(e -> assertThat(QdrantVersusLuceneTest.unwrap(e).getMessage()).contains("[highlight]"));
    }

    @Test
    void aFuzzyQueryReadsTheFieldsTermDictionaryOnceAndNoMore() {
        fake.requests.clear();
        SearchResult r = QdrantVersusLuceneTest.search(qdrant, "items",
                "{\"query\": {\"fuzzy\": {\"code\": {\"value\": \"k100\", \"fuzziness\": 2}}}}");
        // max_expansions: 50 of the terms within two edits (there are more), one document each
        assertThat(r.total().orElseThrow().value()).isEqualTo(50);
        assertThat(fake.requests("POST", "/facet").stream().filter(req -> req.body().path("key").asText()
                .equals("_f.code"))).hasSize(1);
        // the expansions' frequencies come with the dictionary: no count per term
        assertThat(fake.requests("POST", "/points/count")).isEmpty();
    }
}
