package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.qdrant.esgateway.adapter.out.lucene.LuceneStores;
import io.qdrant.esgateway.application.port.in.SearchOperations.SearchResult;
import io.qdrant.esgateway.application.service.SearchService;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The native fast paths on Qdrant ({@code order_by} pages, {@code facet} counts) against two references: the Lucene
 * backend (ties by index order differ between the backends, so runs of tied hits are compared as sets — see
 * {@link QdrantVersusLuceneTest#render}) and the Qdrant store's own complete-scan answer (the same index order:
 * compared exactly, hit by hit). Each search is also checked to have taken the native path (an {@code order_by}
 * query or a facet call reached the fake).
 */
class QdrantNativePathsTest {
    @TempDir
    static Path temp;
    private static FakeQdrant fake;
    private static QdrantVersusLuceneTest.Backend lucene;
    private static QdrantVersusLuceneTest.Backend qdrant;

    @BeforeAll
    static void setUp() {
        fake = new FakeQdrant();
        lucene = QdrantVersusLuceneTest.backend(LuceneStores.open(temp.resolve("lucene")));
        qdrant = QdrantVersusLuceneTest.backend(QdrantStores.open(new QdrantStores.Settings(fake.uri(),
                Optional.empty(), Duration.ofSeconds(2), Duration.ofSeconds(10))));
    }

    @AfterAll
    static void tearDown() throws Exception {
        ((AutoCloseable) lucene.store()).close();
        ((AutoCloseable) qdrant.store()).close();
        fake.close();
    }

    /** Sorted pages: multi-valued {@code count}, missing values in every field, ties, secondary keys, windows. */
    static final List<String> SORTED = List.of(
            "{\"sort\": [{\"count\": \"asc\"}], \"size\": 100}",
            "{\"sort\": [{\"count\": \"desc\"}], \"size\": 100}",
            "{\"sort\": [{\"count\": \"asc\"}], \"size\": 5}",
            "{\"sort\": [{\"count\": \"desc\"}], \"from\": 3, \"size\": 9}",
            "{\"sort\": [{\"count\": {\"order\": \"asc\", \"missing\": \"_first\"}}], \"size\": 20}",
            "{\"sort\": [{\"count\": {\"order\": \"desc\", \"missing\": \"_first\"}}, {\"title.raw\": \"desc\"}],"
                    + " \"size\": 20}",
            "{\"sort\": [{\"count\": {\"order\": \"asc\", \"missing\": 5}}, {\"title.raw\": \"asc\"}], \"size\": 30}",
            "{\"sort\": [{\"count\": {\"order\": \"desc\", \"missing\": 5}}], \"size\": 30}",
            "{\"sort\": [{\"count\": {\"order\": \"asc\", \"mode\": \"min\"}}, {\"price\": \"desc\"},"
                    + " {\"title.raw\": \"asc\"}], \"size\": 25}",
            "{\"sort\": [{\"count\": \"desc\"}, {\"title.raw\": \"asc\"}], \"size\": 25}",
            "{\"sort\": [{\"price\": \"desc\"}, {\"count\": \"asc\"}], \"size\": 12}",
            "{\"sort\": [{\"price\": {\"order\": \"asc\", \"missing\": \"_first\"}}, {\"title.raw\": \"desc\"}],"
                    + " \"from\": 5, \"size\": 10}",
            "{\"sort\": [{\"price\": {\"order\": \"asc\", \"missing\": 2.1}}, {\"title.raw\": \"desc\"}], \"size\": 40}",
            "{\"sort\": [{\"ratio\": \"desc\"}, {\"title.raw\": \"asc\"}], \"size\": 15}",
            "{\"query\": {\"match_all\": {\"boost\": 2}}, \"track_scores\": true, \"sort\": [{\"ratio\": \"desc\"},"
                    + " {\"title.raw\": \"asc\"}], \"size\": 5}",
            "{\"sort\": [{\"published\": {\"order\": \"asc\", \"format\": \"yyyy-MM-dd\"}}, {\"title.raw\": \"asc\"}],"
                    + " \"size\": 20}",
            "{\"sort\": [{\"published\": \"desc\"}], \"size\": 60, \"track_total_hits\": false}",
            "{\"sort\": [{\"author.age\": \"asc\"}, {\"title.raw\": \"asc\"}], \"size\": 10}",
            "{\"query\": {\"bool\": {\"filter\": [{\"terms\": {\"tag\": [\"red\", \"blue\"]}}]}},"
                    + " \"sort\": [{\"count\": \"desc\"}, {\"title.raw\": \"asc\"}], \"size\": 8, \"track_total_hits\": 3}",
            "{\"query\": {\"range\": {\"count\": {\"gte\": 100}}}, \"sort\": [{\"count\": \"asc\"}], \"size\": 3}",
            "{\"query\": {\"range\": {\"count\": {\"gte\": 3}}}, \"sort\": [{\"count\": \"asc\"},"
                    + " {\"title.raw\": \"asc\"}], \"size\": 10, \"search_after\": [9, \"doc number 5\"]}",
            "{\"sort\": [{\"count\": {\"order\": \"asc\"}}, {\"title.raw\": \"asc\"}], \"size\": 10,"
                    + " \"search_after\": [9223372036854775807, \"doc number 41\"]}",
            "{\"sort\": [{\"price\": \"desc\"}, {\"title.raw\": \"asc\"}], \"size\": 10,"
                    + " \"search_after\": [\"-Infinity\", \"doc number 2\"]}",
            "{\"sort\": [{\"count\": \"asc\"}], \"size\": 10, \"search_after\": [12]}",
            "{\"sort\": [{\"price\": \"asc\"}, {\"title.raw\": \"asc\"}], \"size\": 10,"
                    + " \"search_after\": [\"Infinity\", \"doc number 3\"]}",
            "{\"sort\": [{\"ratio\": \"desc\"}, {\"title.raw\": \"asc\"}], \"size\": 10,"
                    + " \"search_after\": [\"Infinity\", \"doc number 3\"]}");

    /**
     * Terms on the facet path: keyword (sizes, orders, missing, include/exclude, multi-valued tags, queries), long
     * (multi-valued), integer in objects, boolean and date fields.
     */
    static final List<String> TERMS = List.of(
            "{\"size\": 0, \"aggs\": {\"t\": {\"terms\": {\"field\": \"tag\"}}}}",
            "{\"size\": 0, \"aggs\": {\"t\": {\"terms\": {\"field\": \"tag\", \"size\": 2}}}}",
            "{\"size\": 0, \"aggs\": {\"t\": {\"terms\": {\"field\": \"tag\", \"order\": {\"_key\": \"desc\"},"
                    + " \"size\": 3}}}}",
            "{\"size\": 0, \"aggs\": {\"t\": {\"terms\": {\"field\": \"tag\", \"order\": {\"_count\": \"asc\"},"
                    + " \"min_doc_count\": 4, \"show_term_doc_count_error\": true}}}}",
            "{\"size\": 0, \"aggs\": {\"t\": {\"terms\": {\"field\": \"tag\", \"missing\": \"none\", \"size\": 3}}}}",
            "{\"size\": 0, \"aggs\": {\"t\": {\"terms\": {\"field\": \"tag\", \"missing\": \"red\"}}}}",
            "{\"size\": 0, \"aggs\": {\"t\": {\"terms\": {\"field\": \"tag\", \"include\": \"[a-z].*\","
                    + " \"exclude\": [\"blue\"]}}}}",
            "{\"query\": {\"range\": {\"count\": {\"lt\": 10}}}, \"size\": 0, \"aggs\": {\"a\": {\"terms\":"
                    + " {\"field\": \"author.name\"}}, \"t\": {\"terms\": {\"field\": \"tag\", \"size\": 1}}}}",
            "{\"query\": {\"constant_score\": {\"filter\": {\"term\": {\"tag\": \"nothing\"}}}}, \"size\": 0,"
                    + " \"aggs\": {\"t\": {\"terms\": {\"field\": \"tag\", \"missing\": \"m\"}}}}",
            "{\"size\": 0, \"aggs\": {\"c\": {\"terms\": {\"field\": \"count\", \"size\": 4}},"
                    + " \"a\": {\"terms\": {\"field\": \"author.age\", \"missing\": 0, \"order\": {\"_key\": \"asc\"}}}}}",
            "{\"size\": 0, \"aggs\": {\"b\": {\"terms\": {\"field\": \"active\", \"missing\": true}},"
                    + " \"p\": {\"terms\": {\"field\": \"published\", \"size\": 3, \"format\": \"yyyy-MM-dd\"}}}}",
            "{\"query\": {\"range\": {\"price\": {\"gt\": 1}}}, \"size\": 0, \"aggs\": {\"c\": {\"terms\":"
                    + " {\"field\": \"count\", \"include\": [3, 5, 100, 105], \"missing\": 3,"
                    + " \"show_term_doc_count_error\": true}}}}",
            "{\"query\": {\"bool\": {\"must_not\": {\"exists\": {\"field\": \"count\"}}}}, \"size\": 3,"
                    + " \"sort\": [{\"price\": \"asc\"}], \"aggs\": {\"t\": {\"terms\": {\"field\": \"title.raw\","
                    + " \"size\": 4, \"order\": [{\"_count\": \"desc\"}, {\"_key\": \"desc\"}]}}},"
                    + " \"post_filter\": {\"term\": {\"tag\": \"green\"}}}");

    @TestFactory
    Stream<DynamicTest> sortedPagesEqualLuceneAndTheScan() {
        return SORTED.stream().map(body -> DynamicTest.dynamicTest(body, () -> {
            int queries = fake.requests("POST", "/points/query").size();
            int scans = fullScrolls();
            SearchResult nativeAnswer = search(qdrant.search(), body);
            assertThat(fullScrolls()).as("no complete scan").isEqualTo(scans);
            if (!body.contains("Infinity")) { // nothing can follow -Infinity descending: no order_by query at all
                assertThat(fake.requests("POST", "/points/query").size()).as("an order_by query").isGreaterThan(queries);
            }
            same(body, nativeAnswer, search(qdrant.scan(), body), search(lucene.search(), body));
        }));
    }

    @TestFactory
    Stream<DynamicTest> termsBucketsEqualLuceneAndTheScan() {
        return TERMS.stream().map(body -> DynamicTest.dynamicTest(body, () -> {
            int before = fake.requests("POST", "/facet").size();
            int scans = fullScrolls();
            SearchResult nativeAnswer = search(qdrant.search(), body);
            assertThat(fullScrolls()).as("no complete scan").isEqualTo(scans);
            assertThat(fake.requests("POST", "/facet").size()).as("a facet call was made").isGreaterThan(before);
            same(body, nativeAnswer, search(qdrant.scan(), body), search(lucene.search(), body));
        }));
    }

    /** Pages chained with search_after (a unique tiebreaker, as ES advises) over every sort of the list. */
    @TestFactory
    Stream<DynamicTest> searchAfterChainsEqualLuceneAndTheScan() {
        return Stream.of("{\"count\": \"asc\"}", "{\"count\": \"desc\"}", "{\"count\": {\"order\": \"asc\","
                        + " \"missing\": \"_first\"}}", "{\"price\": \"desc\"}", "{\"price\": {\"order\": \"desc\","
                        + " \"missing\": \"_first\"}}", "{\"ratio\": \"asc\"}", "{\"published\": \"desc\"}",
                "{\"count\": {\"order\": \"desc\", \"missing\": 7}}")
                .map(primary -> DynamicTest.dynamicTest(primary, () -> {
                    String sort = "\"sort\": [" + primary + ", {\"title.raw\": \"asc\"}]";
                    List<String> nativeChain = chain(qdrant.search(), sort);
                    assertThat(nativeChain).hasSize(59);
                    assertThat(nativeChain).isEqualTo(chain(qdrant.scan(), sort));
                    assertThat(nativeChain).isEqualTo(chain(lucene.search(), sort));
                    assertThat(fake.violations).isEmpty();
                }));
    }

    /** Modes the order_by trick cannot honour go to the scan, with the same answers. */
    @TestFactory
    Stream<DynamicTest> otherModesScanAndAgree() {
        return Stream.of("{\"sort\": [{\"count\": {\"order\": \"asc\", \"mode\": \"max\"}}, {\"title.raw\": \"asc\"}],"
                        + " \"size\": 20}",
                "{\"sort\": [{\"count\": {\"order\": \"desc\", \"mode\": \"min\"}}, {\"title.raw\": \"asc\"}], \"size\": 20}",
                "{\"sort\": [{\"count\": {\"order\": \"desc\", \"mode\": \"avg\"}}, {\"title.raw\": \"asc\"}], \"size\": 20}")
                .map(body -> DynamicTest.dynamicTest(body, () -> {
                    int before = fake.requests("POST", "/points/query").size();
                    SearchResult answer = search(qdrant.search(), body);
                    assertThat(fake.requests("POST", "/points/query").size()).isEqualTo(before);
                    same(body, answer, search(qdrant.scan(), body), search(lucene.search(), body));
                }));
    }

    /** The scrolls of all matches (the complete scan's reads; the order_by path scrolls only [is_empty] groups). */
    private static int fullScrolls() {
        return (int) fake.requests("POST", "/points/scroll").stream()
                .filter(r -> !r.body().get("filter").toString().contains("is_empty")).count();
    }

    private static List<String> chain(SearchService service, String sort) {
        List<String> out = new ArrayList<>();
        String after = null;
        for (int page = 0; page < 30; page++) {
            String body = "{" + sort + ", \"size\": 7" + (after == null ? "" : ", \"search_after\": " + after) + "}";
            List<Hit> hits = search(service, body).hits();
            if (hits.isEmpty()) {
                break;
            }
            hits.forEach(h -> out.add(h.id() + " " + h.sort().stream().map(Json::write).toList()));
            after = hits.get(hits.size() - 1).sort().stream().map(Json::write)
                    .collect(Collectors.joining(", ", "[", "]"));
        }
        return out;
    }

    private static void same(String body, SearchResult nativeAnswer, SearchResult scan, SearchResult reference) {
        assertThat(nativeAnswer.total()).as("total vs scan").isEqualTo(scan.total());
        assertThat(nativeAnswer.total()).as("total vs lucene").isEqualTo(reference.total());
        assertThat(exact(nativeAnswer.hits())).as("hits vs scan").isEqualTo(exact(scan.hits()));
        assertThat(nativeAnswer.hits()).as("hits vs lucene").hasSameSizeAs(reference.hits());
        assertThat(QdrantVersusLuceneTest.render(inner(nativeAnswer.hits()))).as("hits vs lucene")
                .isEqualTo(QdrantVersusLuceneTest.render(inner(reference.hits())));
        assertThat(QdrantVersusLuceneTest.aggregations(nativeAnswer)).as("aggregations vs scan")
                .isEqualTo(QdrantVersusLuceneTest.aggregations(scan));
        assertThat(QdrantVersusLuceneTest.aggregations(nativeAnswer)).as("aggregations vs lucene")
                .isEqualTo(QdrantVersusLuceneTest.aggregations(reference));
        assertThat(fake.violations).isEmpty();
    }

    /**
     * The hits without the runs tied with the first or the last hit: which members of a tie group cut by the window
     * make it in is each backend's index order (Lucene: insertion; Qdrant: point id), which ES leaves undefined too.
     */
    private static List<Hit> inner(List<Hit> hits) {
        if (hits.isEmpty()) {
            return hits;
        }
        List<io.qdrant.esgateway.domain.json.JsonValue> first = hits.get(0).sort();
        List<io.qdrant.esgateway.domain.json.JsonValue> last = hits.get(hits.size() - 1).sort();
        return hits.stream().filter(h -> !h.sort().equals(first) && !h.sort().equals(last)).toList();
    }

    private static List<String> exact(List<Hit> hits) {
        return hits.stream().map(h -> h.id() + " score=" + h.score() + " sort=" + h.sort().stream().map(Json::write)
                .toList() + " " + Json.write(h.source())).toList();
    }

    private static SearchResult search(SearchService service, String body) {
        return service.search("products", SearchRequestParser.parse(Optional.of(Json.parse(body)), Map.of()),
                CatalogView.Options.STRICT_EXPAND_OPEN);
    }
}
