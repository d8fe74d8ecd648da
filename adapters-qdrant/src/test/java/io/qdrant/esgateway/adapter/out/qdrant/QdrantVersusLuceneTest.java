package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.qdrant.esgateway.adapter.out.lucene.LuceneStores;
import io.qdrant.esgateway.application.port.in.SearchOperations.SearchResult;
import io.qdrant.esgateway.application.port.in.DocumentOperations.WriteCommand;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.InMemoryCatalog;
import io.qdrant.esgateway.application.service.DocumentService;
import io.qdrant.esgateway.application.service.IndexAdministrationService;
import io.qdrant.esgateway.application.service.SearchService;
import io.qdrant.esgateway.domain.document.Versioning;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.CreateIndexRequest;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.search.Hit;
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
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;

/**
 * Differential: the same index and documents through the gateway's services on the Lucene store (the reference,
 * itself compared with Elasticsearch by the compatibility suite) and on the Qdrant adapter (against the spec-checked
 * {@link FakeQdrant}); every search below must give the same total, hits (ids, order, scores, sort values, sources,
 * versions) and aggregations. The documents have missing fields, nulls, arrays, objects and odd values, so that
 * ES's multi-valued and missing-field semantics are exercised through the Qdrant filters.
 */
class QdrantVersusLuceneTest {
    @TempDir
    static Path temp;
    private static FakeQdrant fake;
    private static Backend lucene;
    private static Backend qdrant;
    /** Candidates scored 7 at a time: many batches, so batch boundaries cannot change an answer. */
    private static Backend qdrantSmallBatches;

    /** {@code scan}: the same store and catalog with native ordering and aggregation switched off. */
    record Backend(DocumentStore store, SearchService search, DocumentService documents, SearchService scan) {
    }

    static Backend backend(DocumentStore store) {
        StoreServices services = StoreServices.over(store);
        InMemoryCatalog catalog = services.catalog();
        IndexAdministrationService admin = services.admin();
        DocumentService documents = services.documents();
        admin.create(CreateIndexRequest.parse("products", Json.parse("""
                {"mappings": {"properties": {
                  "tag": {"type": "keyword"}, "title": {"type": "text", "fields": {"raw": {"type": "keyword"}}},
                  "count": {"type": "long"}, "price": {"type": "double"}, "ratio": {"type": "float"},
                  "active": {"type": "boolean"}, "published": {"type": "date"},
                  "author": {"properties": {"name": {"type": "keyword"}, "age": {"type": "integer"}}}
                }}}""")));
        List<WriteCommand> bulk = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            bulk.add(new WriteCommand.Index("products", Optional.of("d" + i), source(i), false,
                    Versioning.Condition.NONE, false));
        }
        documents.bulk(bulk);
        documents.bulk(List.of(new WriteCommand.Delete("products", "d7", Versioning.Condition.NONE, false)));
        // full text and BM25: no deletes or updates here, whose statistics Lucene keeps until segments merge
        admin.create(CreateIndexRequest.parse("texts", Json.parse("""
                {"mappings": {"properties": {
                  "title": {"type": "text", "fields": {"raw": {"type": "keyword"}}}, "body": {"type": "text"},
                  "tags": {"type": "keyword"}, "flag": {"type": "boolean"}, "n": {"type": "integer"}
                }}}""")));
        List<WriteCommand> texts = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            texts.add(new WriteCommand.Index("texts", Optional.of("t" + i), text(i), false,
                    Versioning.Condition.NONE, false));
        }
        documents.bulk(texts);
        return new Backend(store, new SearchService(catalog, store), documents, new SearchService(catalog, store,
                store.capabilities().without(java.util.Set.of("order", "facet")),
                io.qdrant.esgateway.application.port.out.PlanObserver.NONE, 4));
    }

    /** Deterministic documents with gaps: missing fields, nulls, arrays, and values of every kind. */
    static JsonObject source(int i) {
        StringBuilder b = new StringBuilder("{");
        String[] tags = {"red", "green", "blue", "Red", "x y"};
        if (i % 5 != 0) {
            b.append("\"tag\": ").append(i % 3 == 0 ? "[\"" + tags[i % 5] + "\", \"" + tags[(i + 2) % 5] + "\"]"
                    : "\"" + tags[i % 5] + "\"").append(", ");
        } else if (i % 10 == 0) {
            b.append("\"tag\": null, ");
        }
        if (i % 4 != 1) {
            b.append("\"count\": ").append(i % 7 == 0 ? "[" + i + ", " + (i + 100) + "]" : Integer.toString(i * 3 % 17))
                    .append(", ");
        }
        if (i % 6 != 2) {
            b.append("\"price\": ").append(i % 9 / 2.0 + 0.1).append(", ");
        }
        b.append("\"ratio\": ").append(i % 11 / 10.0).append(", ");
        if (i % 3 != 1) {
            b.append("\"active\": ").append(i % 2 == 0).append(", ");
        }
        if (i % 8 != 3) {
            b.append("\"published\": \"2024-01-").append(String.format("%02d", i % 28 + 1)).append("T0")
                    .append(i % 10).append(":00:00Z\", ");
        }
        if (i % 2 == 0) {
            b.append("\"author\": {\"name\": \"a").append(i % 4).append("\", \"age\": ").append(20 + i % 30)
                    .append("}, ");
        } else if (i % 5 == 1) {
            b.append("\"author\": [{\"name\": \"b\"}, {\"name\": \"c\", \"age\": 3}], ");
        }
        b.append("\"title\": \"doc number ").append(i).append("\"}");
        return (JsonObject) Json.parse(b.toString());
    }

    private static final String[] WORDS = {"quick", "brown", "fox", "jumps", "over", "lazy", "dog", "river",
        "stone", "Blue", "green", "red", "apple", "banana", "the", "of"};

    /** Deterministic text documents: varied lengths, repeated words, arrays, empty and missing values. */
    static JsonObject text(int i) {
        java.util.Random random = new java.util.Random(i * 31L + 7);
        StringBuilder b = new StringBuilder("{");
        if (i % 9 != 4) {
            b.append("\"title\": ").append(i % 7 == 0 ? "[\"" + words(random, 2) + "\", \"" + words(random, 3)
                    + "\"]" : i % 13 == 0 ? "\"\"" : "\"" + words(random, 1 + random.nextInt(5)) + "\"").append(", ");
        }
        if (i % 5 != 3) {
            b.append("\"body\": \"").append(words(random, 4 + random.nextInt(30))).append("\", ");
        }
        if (i % 3 != 2) {
            b.append("\"tags\": [\"").append(WORDS[random.nextInt(6)]).append("\", \"").append(WORDS[random.nextInt(6)])
                    .append("\"], ");
        }
        if (i % 4 != 1) {
            b.append("\"flag\": ").append(i % 11 == 0 ? "[true, false]" : Boolean.toString(i % 3 == 0)).append(", ");
        }
        b.append("\"n\": ").append(i % 10).append("}");
        return (JsonObject) Json.parse(b.toString());
    }

    private static String words(java.util.Random random, int n) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < n; k++) {
            b.append(k == 0 ? "" : random.nextInt(6) == 0 ? ", " : " ").append(WORDS[random.nextInt(WORDS.length)]);
        }
        return b.toString();
    }

    @BeforeAll
    static void setUp() {
        fake = new FakeQdrant();
        lucene = backend(LuceneStores.open(temp.resolve("lucene")));
        qdrant = backend(QdrantStores.open(new QdrantStores.Settings(fake.uri(), Optional.empty(),
                Duration.ofSeconds(2), Duration.ofSeconds(10)), LuceneStores.relevanceScorer()));
        qdrantSmallBatches = backend(new QdrantDocumentStore(new QdrantClient(new QdrantStores.Settings(fake.uri(),
                Optional.empty(), Duration.ofSeconds(2), Duration.ofSeconds(10), "small-")),
                LuceneStores.relevanceScorer(), 7));
    }

    @AfterAll
    static void tearDown() throws Exception {
        ((AutoCloseable) lucene.store()).close();
        ((AutoCloseable) qdrant.store()).close();
        ((AutoCloseable) qdrantSmallBatches.store()).close();
        fake.close();
    }

    static final List<String> SEARCHES = List.of(
            "{\"size\": 100}",
            "{\"size\": 0}",
            "{\"query\": {\"term\": {\"tag\": \"red\"}}, \"sort\": [{\"title.raw\": \"desc\"}], \"size\": 100}",
            "{\"query\": {\"constant_score\": {\"filter\": {\"term\": {\"tag\": \"red\"}}, \"boost\": 3}}, \"size\": 100}",
            "{\"query\": {\"bool\": {\"filter\": [{\"terms\": {\"tag\": [\"red\", \"blue\"]}}]}}, \"size\": 100}",
            "{\"query\": {\"bool\": {\"must_not\": [{\"terms\": {\"tag\": [\"red\", \"blue\"]}}],"
                    + " \"filter\": [{\"match_all\": {}}]}}, \"size\": 100}",
            "{\"query\": {\"bool\": {\"filter\": [{\"exists\": {\"field\": \"tag\"}}]}}, \"size\": 100}",
            "{\"query\": {\"bool\": {\"filter\": [{\"exists\": {\"field\": \"author\"}}]}}, \"size\": 100}",
            "{\"query\": {\"bool\": {\"must_not\": [{\"exists\": {\"field\": \"count\"}}], \"filter\": {\"match_all\": {}}}},"
                    + " \"size\": 100}",
            "{\"query\": {\"range\": {\"count\": {\"gt\": 5, \"lte\": 12}}}, \"size\": 100}",
            "{\"query\": {\"range\": {\"count\": {\"gte\": 100}}}, \"size\": 100}",
            "{\"query\": {\"range\": {\"price\": {\"gte\": 1.1, \"lt\": 3.6}}}, \"size\": 100}",
            "{\"query\": {\"range\": {\"ratio\": {\"gt\": 0.3, \"lte\": 0.7}}}, \"size\": 100}",
            "{\"query\": {\"constant_score\": {\"filter\": {\"term\": {\"ratio\": 0.3}}}}, \"size\": 100}",
            "{\"query\": {\"constant_score\": {\"filter\": {\"term\": {\"price\": 2.1}}}}, \"size\": 100}",
            "{\"query\": {\"constant_score\": {\"filter\": {\"term\": {\"count\": 7}}}}, \"size\": 100}",
            "{\"query\": {\"constant_score\": {\"filter\": {\"term\": {\"active\": false}}}}, \"size\": 100}",
            "{\"query\": {\"constant_score\": {\"filter\": {\"terms\": {\"active\": [true, false]}}}}, \"size\": 100}",
            "{\"query\": {\"range\": {\"published\": {\"gte\": \"2024-01-05\", \"lt\": \"2024-01-10||/d\"}}}, \"size\": 100}",
            "{\"query\": {\"constant_score\": {\"filter\": {\"term\": {\"published\": \"2024-01-03\"}}}}, \"size\": 100}",
            "{\"query\": {\"constant_score\": {\"filter\": {\"bool\": {\"should\": [{\"term\": {\"tag\": \"red\"}},"
                    + " {\"range\": {\"count\": {\"lt\": 3}}}, {\"term\": {\"author.name\": \"a0\"}}],"
                    + " \"minimum_should_match\": 2}}}}, \"size\": 100}",
            "{\"query\": {\"bool\": {\"filter\": [{\"bool\": {\"should\": [{\"term\": {\"tag\": \"green\"}},"
                    + " {\"term\": {\"author.name\": \"b\"}}]}}]}}, \"size\": 100}",
            "{\"query\": {\"ids\": {\"values\": [\"d1\", \"d7\", \"d30\", \"nope\"]}}, \"size\": 100}",
            "{\"query\": {\"prefix\": {\"tag\": \"r\"}}, \"size\": 100}",
            "{\"query\": {\"constant_score\": {\"filter\": {\"term\": {\"_id\": \"d12\"}}}}}",
            "{\"query\": {\"terms\": {\"_id\": [\"d12\", \"d13\", \"d7\"]}}}",
            "{\"query\": {\"prefix\": {\"_id\": \"d1\"}}, \"size\": 100}",
            "{\"query\": {\"bool\": {\"filter\": [{\"exists\": {\"field\": \"title.raw\"}},"
                    + " {\"exists\": {\"field\": \"title\"}}]}}, \"size\": 100}",
            "{\"query\": {\"bool\": {\"must\": [{\"constant_score\": {\"filter\": {\"term\": {\"tag\": \"red\"}},"
                    + " \"boost\": 2}}, {\"range\": {\"count\": {\"gte\": 3}}}], \"boost\": 1.5}}, \"size\": 100}",
            "{\"query\": {\"range\": {\"published\": {\"gte\": \"05/01/2024\", \"format\": \"dd/MM/yyyy\","
                    + " \"time_zone\": \"+02:00\"}}}, \"size\": 100}",
            "{\"query\": {\"bool\": {\"must_not\": [{\"range\": {\"price\": {\"gt\": 2}}}],"
                    + " \"filter\": [{\"exists\": {\"field\": \"tag\"}}]}}, \"size\": 100}",
            "{\"query\": {\"match_none\": {}}}",
            "{\"query\": {\"constant_score\": {\"filter\": {\"exists\": {\"field\": \"price\"}}, \"boost\": 1.7}},"
                    + " \"sort\": [\"_score\"], \"size\": 100, \"track_total_hits\": 5}",
            "{\"query\": {\"range\": {\"count\": {\"gte\": 2}}}, \"sort\": [{\"_score\": \"asc\"},"
                    + " {\"title.raw\": \"asc\"}], \"from\": 4, \"size\": 7}",
            "{\"query\": {\"constant_score\": {\"filter\": {\"term\": {\"author.age\": 3}}}}}",
            "{\"query\": {\"constant_score\": {\"filter\": {\"term\": {\"title.raw\": \"doc number 4\"}}}}}",
            "{\"query\": {\"constant_score\": {\"filter\": {\"term\": {\"nope\": \"x\"}}}}}",
            "{\"query\": {\"bool\": {\"filter\": [{\"range\": {\"author.age\": {\"gte\": 30}}}]}}, \"size\": 100}",
            "{\"sort\": [{\"count\": \"desc\"}, {\"title.raw\": \"asc\"}], \"size\": 25}",
            "{\"sort\": [{\"price\": {\"order\": \"asc\", \"missing\": \"_first\"}}, {\"title.raw\": \"desc\"}],"
                    + " \"from\": 5, \"size\": 10}",
            "{\"sort\": [{\"tag\": \"asc\"}, {\"published\": \"desc\"}, {\"title.raw\": \"asc\"}], \"size\": 30,"
                    + " \"track_total_hits\": 10}",
            "{\"sort\": [{\"count\": {\"order\": \"asc\", \"mode\": \"max\"}}, {\"title.raw\": \"asc\"}],"
                    + " \"size\": 10, \"search_after\": [9, \"doc number 5\"], \"track_total_hits\": false}",
            "{\"size\": 0, \"aggs\": {\"tags\": {\"terms\": {\"field\": \"tag\"}}, \"avg_price\": {\"avg\": {\"field\": \"price\"}},"
                    + " \"max_pub\": {\"max\": {\"field\": \"published\"}}}}",
            "{\"query\": {\"range\": {\"count\": {\"lt\": 10}}}, \"size\": 100, \"aggs\": {\"by_author\": {\"terms\":"
                    + " {\"field\": \"author.name\"}, \"aggs\": {\"s\": {\"sum\": {\"field\": \"count\"}}}}},"
                    + " \"post_filter\": {\"term\": {\"tag\": \"blue\"}}}",
            "{\"query\": {\"match_all\": {\"boost\": 2}}, \"track_scores\": true, \"sort\": [{\"ratio\": \"desc\"},"
                    + " {\"title.raw\": \"asc\"}], \"size\": 5}");

    /** Full-text queries and per-document scores, on the index "texts": scores must be the identical floats. */
    static final List<String> SCORED = List.of(
            "{\"query\": {\"match\": {\"title\": \"quick fox\"}}, \"size\": 100}",
            "{\"query\": {\"match\": {\"body\": {\"query\": \"lazy dog river\", \"operator\": \"and\"}}}, \"size\": 100}",
            "{\"query\": {\"match\": {\"body\": {\"query\": \"lazy dog river apple\","
                    + " \"minimum_should_match\": \"75%\"}}}, \"size\": 100}",
            "{\"query\": {\"match\": {\"title\": {\"query\": \"blue\", \"boost\": 2.5}}}}",
            "{\"query\": {\"match\": {\"title.raw\": \"fox\"}}, \"size\": 100}",
            "{\"query\": {\"match\": {\"n\": \"3\"}}, \"size\": 100}",
            "{\"query\": {\"match\": {\"body\": {\"query\": \"the\", \"zero_terms_query\": \"all\"}}}, \"size\": 100}",
            "{\"query\": {\"match\": {\"body\": {\"query\": \", ;\", \"zero_terms_query\": \"all\"}}}, \"size\": 100}",
            "{\"query\": {\"match_phrase\": {\"body\": \"brown fox\"}}, \"size\": 100}",
            "{\"query\": {\"match_phrase\": {\"body\": {\"query\": \"quick fox\", \"slop\": 2}}}, \"size\": 100}",
            "{\"query\": {\"multi_match\": {\"query\": \"red apple\", \"fields\": [\"title^3\", \"body\"]}}, \"size\": 100}",
            "{\"query\": {\"multi_match\": {\"query\": \"red apple\", \"fields\": [\"title\", \"body\"],"
                    + " \"type\": \"most_fields\"}}, \"size\": 100}",
            "{\"query\": {\"multi_match\": {\"query\": \"green river\", \"fields\": [\"title\", \"body\"],"
                    + " \"type\": \"phrase\"}}, \"size\": 100}",
            "{\"query\": {\"multi_match\": {\"query\": \"stone banana\", \"fields\": [\"t*\"]}}, \"size\": 100}",
            "{\"query\": {\"term\": {\"tags\": \"fox\"}}, \"size\": 100}",
            "{\"query\": {\"term\": {\"title\": \"fox\"}}, \"size\": 100}",
            "{\"query\": {\"terms\": {\"body\": [\"fox\", \"dog\"]}}, \"size\": 100}",
            "{\"query\": {\"term\": {\"flag\": true}}, \"size\": 100}",
            "{\"query\": {\"bool\": {\"must\": {\"match\": {\"body\": \"dog\"}}, \"should\": [{\"term\": {\"tags\":"
                    + " \"quick\"}}, {\"match\": {\"title\": \"apple\"}}], \"filter\": {\"range\": {\"n\": {\"gte\": 3}}}}},"
                    + " \"size\": 100}",
            "{\"query\": {\"bool\": {\"should\": [{\"match\": {\"title\": \"apple\"}}, {\"match\": {\"body\": \"banana\"}},"
                    + " {\"term\": {\"flag\": false}}], \"minimum_should_match\": 2}}, \"size\": 100}",
            "{\"query\": {\"bool\": {\"should\": [{\"match\": {\"title\": \"apple\"}}], \"must_not\": {\"match\":"
                    + " {\"body\": \"fox\"}}}}, \"size\": 100}",
            "{\"query\": {\"bool\": {\"should\": [{\"term\": {\"tags\": \"red\"}}, {\"term\": {\"tags\": \"fox\"}}]}},"
                    + " \"size\": 100}",
            "{\"query\": {\"dis_max\": {\"queries\": [{\"match\": {\"title\": \"stone\"}}, {\"match\": {\"body\":"
                    + " \"stone\"}}], \"tie_breaker\": 0.7}}, \"size\": 100}",
            "{\"query\": {\"boosting\": {\"positive\": {\"match\": {\"body\": \"river\"}}, \"negative\": {\"term\":"
                    + " {\"tags\": \"fox\"}}, \"negative_boost\": 0.2}}, \"size\": 100}",
            "{\"query\": {\"query_string\": {\"query\": \"title:(quick OR lazy) AND body:dog\"}}, \"size\": 100}",
            "{\"query\": {\"query_string\": {\"query\": \"\\\"brown fox\\\" river\", \"default_field\": \"body\"}},"
                    + " \"size\": 100}",
            "{\"query\": {\"simple_query_string\": {\"query\": \"apple +banana -stone\", \"fields\": [\"title\","
                    + " \"body\"]}}, \"size\": 100}",
            "{\"query\": {\"query_string\": {\"query\": \"fox dog\"}}, \"size\": 100}",
            "{\"query\": {\"constant_score\": {\"filter\": {\"match\": {\"body\": \"fox\"}}, \"boost\": 1.5}},"
                    + " \"size\": 100}",
            "{\"query\": {\"match\": {\"body\": \"fox dog\"}}, \"from\": 3, \"size\": 5, \"track_total_hits\": 4}",
            "{\"query\": {\"match\": {\"body\": \"fox dog\"}}, \"sort\": [{\"n\": \"desc\"}, {\"_score\": \"desc\"}],"
                    + " \"size\": 100, \"track_scores\": true}",
            "{\"query\": {\"match\": {\"body\": \"fox dog\"}}, \"sort\": [\"_score\", {\"n\": \"asc\"}],"
                    + " \"search_after\": [1.0, 4], \"size\": 10}",
            "{\"query\": {\"match\": {\"body\": \"apple river\"}}, \"post_filter\": {\"term\": {\"flag\": true}},"
                    + " \"size\": 100, \"aggs\": {\"tags\": {\"terms\": {\"field\": \"tags\"}}}}",
            "{\"query\": {\"match\": {\"body\": \"apple river\"}}, \"min_score\": 1.2, \"size\": 100}",
            "{\"query\": {\"bool\": {\"filter\": {\"match\": {\"title\": \"red\"}}}}, \"size\": 0,"
                    + " \"aggs\": {\"n\": {\"avg\": {\"field\": \"n\"}}, \"t\": {\"terms\": {\"field\": \"title.raw\"}}}}",
            "{\"query\": {\"bool\": {\"should\": [{\"prefix\": {\"body\": \"ban\"}}, {\"wildcard\": {\"title\":"
                    + " \"r*er\"}}, {\"regexp\": {\"body\": \"sto.e\"}}, {\"match\": {\"title\": \"lazy\"}}]}},"
                    + " \"size\": 100}",
            "{\"query\": {\"query_string\": {\"query\": \"body:BAN* OR title:Gre?n\"}}, \"size\": 100}",
            "{\"query\": {\"match\": {\"nope\": \"fox\"}}}");

    @TestFactory
    Stream<DynamicTest> everyScoredSearchAnswersAsOnLucene() {
        return SCORED.stream().map(body -> DynamicTest.dynamicTest(body, () -> {
            SearchResult expected = search(lucene, "texts", body);
            SearchResult actual = search(qdrant, "texts", body);
            if (!body.contains("nope")) {
                assertThat(expected.hits().size() + expected.total().map(t -> t.value()).orElse(0L))
                        .as("a case that matches nothing proves little").isPositive();
            }
            assertThat(actual.total()).as("total").isEqualTo(expected.total());
            assertThat(render(actual.hits())).as("hits").isEqualTo(render(expected.hits()));
            assertThat(Float.isNaN(actual.maxScore()) ? "NaN" : Float.toString(actual.maxScore())).as("max_score")
                    .isEqualTo(Float.isNaN(expected.maxScore()) ? "NaN" : Float.toString(expected.maxScore()));
            assertThat(aggregations(actual)).as("aggregations").isEqualTo(aggregations(expected));
            SearchResult batched = search(qdrantSmallBatches, "texts", body);
            assertThat(render(batched.hits())).as("hits, small batches").isEqualTo(render(expected.hits()));
            assertThat(batched.total()).as("total, small batches").isEqualTo(expected.total());
            assertThat(aggregations(batched)).as("aggregations, small batches").isEqualTo(aggregations(expected));
            assertThat(fake.violations).isEmpty();
        }));
    }

    @Test
    void fullTextCountsAgree() {
        for (String body : SCORED) {
            Optional<io.qdrant.esgateway.domain.query.Query> query = SearchRequestParser.parse(
                    Optional.of(Json.parse(body)), Map.of()).query();
            assertThat(qdrant.search().count("texts", query, CatalogView.Options.STRICT_EXPAND_OPEN).count())
                    .as(body).isEqualTo(lucene.search().count("texts", query,
                            CatalogView.Options.STRICT_EXPAND_OPEN).count());
        }
    }

    @Test
    void onlyTheCandidatesMove() {
        fake.requests.clear();
        SearchResult r = search(qdrant, "texts", "{\"query\": {\"match\": {\"body\": \"banana\"}}, \"size\": 3}");
        long matches = r.total().orElseThrow().value();
        assertThat(matches).isBetween(1L, 79L);
        int scrolled = 0;
        for (FakeQdrant.Request req : fake.requests("POST", "/points/scroll")) {
            assertThat(req.body().toString()).contains("_t.body").contains("banana");
            assertThat(req.body().path("with_payload").toString()).doesNotContain("_src").contains("_source.body");
        }
        // the candidates of a one-token match are exactly its matches
        assertThat(fake.requests("POST", "/points/scroll")).hasSize(1);
        // statistics: one facet for the field, one count for the token (and none for a page of three)
        assertThat(fake.requests("POST", "/facet")).hasSize(1);
        assertThat(fake.requests("POST", "/points/count")).hasSize(1);
        assertThat(fake.requests("POST", "/points")).hasSize(1);

        // several terms and fields: each statistic read once (fetched together before scoring)
        fake.requests.clear();
        search(qdrant, "texts", "{\"query\": {\"multi_match\": {\"query\": \"banana apple river\", \"fields\":"
                + " [\"title\", \"body\"]}}}");
        assertThat(fake.requests("POST", "/facet")).hasSize(2);
        assertThat(fake.requests("POST", "/points/count")).hasSize(6);
        assertThat(fake.requests("POST", "/points/count").stream().map(req -> req.body().toString()).distinct())
                .hasSize(6);
    }

    @TestFactory
    Stream<DynamicTest> everySearchAnswersAsOnLucene() {
        return SEARCHES.stream().map(body -> DynamicTest.dynamicTest(body, () -> {
            SearchResult expected = search(lucene, body);
            SearchResult actual = search(qdrant, body);
            assertThat(actual.total()).as("total").isEqualTo(expected.total());
            assertThat(render(actual.hits())).as("hits").isEqualTo(render(expected.hits()));
            assertThat(Float.isNaN(actual.maxScore()) ? "NaN" : Float.toString(actual.maxScore())).as("max_score")
                    .isEqualTo(Float.isNaN(expected.maxScore()) ? "NaN" : Float.toString(expected.maxScore()));
            assertThat(aggregations(actual)).as("aggregations").isEqualTo(aggregations(expected));
            assertThat(fake.violations).isEmpty();
        }));
    }

    @Test
    void sortsOnUnmappedAndUnsortableFieldsAnswerOrFailAsOnLucene() {
        assertThat(render(search(qdrant, "{\"sort\": [{\"nope\": {\"unmapped_type\": \"long\"}}], \"size\": 100}")
                .hits())).isEqualTo(render(search(lucene,
                "{\"sort\": [{\"nope\": {\"unmapped_type\": \"long\"}}], \"size\": 100}").hits()));
        for (String body : List.of("{\"sort\": [{\"nope\": \"asc\"}]}", "{\"sort\": [{\"title\": \"asc\"}]}")) {
            Throwable expected = catchThrowable(() -> search(lucene, body));
            Throwable actual = catchThrowable(() -> search(qdrant, body));
            assertThat(expected).as(body).isInstanceOf(GatewayException.class);
            assertThat(actual).as(body).isInstanceOf(GatewayException.class);
            assertThat(unwrap(actual).kind()).isEqualTo(unwrap(expected).kind());
            assertThat(unwrap(actual).getMessage()).isEqualTo(unwrap(expected).getMessage());
        }
    }

    @Test
    void countsAgree() {
        for (String body : SEARCHES) {
            Optional<io.qdrant.esgateway.domain.query.Query> query = SearchRequestParser.parse(
                    Optional.of(Json.parse(body)), Map.of()).query();
            assertThat(qdrant.search().count("products", query, CatalogView.Options.STRICT_EXPAND_OPEN).count())
                    .as(body).isEqualTo(lucene.search().count("products", query,
                            CatalogView.Options.STRICT_EXPAND_OPEN).count());
        }
    }

    @Test
    void highlightsAreTheLuceneBackends() {
        for (String[] c : List.of(
                new String[] {"texts", "{\"query\": {\"match\": {\"body\": \"fox dog\"}}, \"highlight\": {\"fields\":"
                        + " {\"body\": {}}}, \"size\": 100}"},
                new String[] {"texts", "{\"query\": {\"match_phrase\": {\"body\": \"brown fox\"}}, \"highlight\":"
                        + " {\"fields\": {\"*\": {}}, \"pre_tags\": [\"<b>\"], \"post_tags\": [\"</b>\"]}, \"size\": 100}"},
                new String[] {"texts", "{\"query\": {\"match\": {\"title\": \"apple\"}}, \"sort\": [{\"n\": \"asc\"}],"
                        + " \"highlight\": {\"fields\": {\"title\": {}, \"title.raw\": {}}}, \"size\": 100}"},
                new String[] {"products", "{\"query\": {\"constant_score\": {\"filter\": {\"term\": {\"tag\":"
                        + " \"red\"}}}}, \"highlight\": {\"fields\": {\"tag\": {}}}, \"size\": 100}"})) {
            Map<String, Map<String, List<String>>> expected = highlights(search(lucene, c[0], c[1]));
            Map<String, Map<String, List<String>>> actual = highlights(search(qdrant, c[0], c[1]));
            assertThat(expected.values().stream().filter(h -> !h.isEmpty())).as(c[1]).isNotEmpty();
            assertThat(actual).as(c[1]).isEqualTo(expected);
        }
    }

    private static Map<String, Map<String, List<String>>> highlights(SearchResult r) {
        Map<String, Map<String, List<String>>> out = new java.util.TreeMap<>();
        r.hits().forEach(h -> out.put(h.id(), Map.copyOf(h.highlight())));
        return out;
    }

    @Test
    void badFullTextQueriesFailAsOnLucene() {
        String body = "{\"query\": {\"match\": {\"n\": \"abc\"}}}";
        Throwable expected = catchThrowable(() -> search(lucene, "texts", body));
        Throwable actual = catchThrowable(() -> search(qdrant, "texts", body));
        assertThat(expected).isInstanceOf(GatewayException.class);
        assertThat(unwrap(actual).getMessage()).isEqualTo(unwrap(expected).getMessage());
    }

    static GatewayException unwrap(Throwable e) {
        GatewayException g = (GatewayException) e;
        return g.shardFailures().isEmpty() ? g : g.shardFailures().get(0).reason();
    }

    private static SearchResult search(Backend backend, String body) {
        return search(backend, "products", body);
    }

    static SearchResult search(Backend backend, String index, String body) {
        return backend.search().search(index, SearchRequestParser.parse(Optional.of(Json.parse(body)), Map.of()),
                CatalogView.Options.STRICT_EXPAND_OPEN);
    }

    /**
     * The hits as text, with runs of hits that tie (same score and sort values) ordered by id: the order among ties
     * is each backend's index order (Lucene's segments, Qdrant's _seq_no), which Elasticsearch does
     * not define either. The searches above keep ties inside the window or break them by a unique field.
     */
    static List<String> render(List<Hit> hits) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < hits.size()) {
            String key = key(hits.get(i));
            int j = i;
            List<String> run = new ArrayList<>();
            while (j < hits.size() && key(hits.get(j)).equals(key)) {
                Hit h = hits.get(j);
                run.add(key + " " + h.id() + " v=" + h.version() + " " + Json.write(h.source()));
                j++;
            }
            run.sort(null);
            out.addAll(run);
            i = j;
        }
        return out;
    }

    private static String key(Hit h) {
        return "score=" + h.score() + " sort=" + h.sort().stream().map(Json::write).toList();
    }

    static String aggregations(SearchResult r) {
        if (r.aggregations().isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        r.aggregations().get().byName().forEach((name, p) -> out.append(name).append('=')
                .append(Json.write((JsonValue) p.render())).append('\n'));
        return out.toString();
    }
}
