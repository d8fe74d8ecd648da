package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.adapter.out.qdrant.transport.HttpTransportTest.Scripted;
import io.qdrant.esgateway.application.port.in.SearchOperations.SearchResult;
import io.qdrant.esgateway.application.port.out.BackendObserver;
import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite;
import io.qdrant.esgateway.application.port.out.DocumentStore.Read;
import io.qdrant.esgateway.application.port.out.DocumentStore.ReadValue;
import io.qdrant.esgateway.application.port.out.InMemoryCatalog;
import io.qdrant.esgateway.application.service.SearchService;
import io.qdrant.esgateway.domain.aggregation.AggregationPlan;
import io.qdrant.esgateway.domain.aggregation.NamedPartials;
import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.search.IndexHits;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;
import io.qdrant.esgateway.adapter.out.qdrant.transport.HttpTransportTest;
import io.qdrant.esgateway.adapter.out.qdrant.filter.QdrantFilterTranslatorTest;

/**
 * {@code readTogether} of a count-only search and a {@code terms} aggregation ({@link io.qdrant.esgateway.adapter.out.qdrant.read.BesideReads}): the count goes
 * beside the facet call, both on the caller's thread; the values are those of the two reads one by one, and the
 * failure is the first read's in order (the search's) — as when the aggregation ran on a thread of its own.
 */
@Timeout(60)
class QdrantBesideReadsTest {
    private static final String TERMS = "{\"size\": 0, \"track_total_hits\": true, \"query\": {\"range\": {\"count\":"
            + " {\"gte\": 10, \"lte\": 40}}}, \"aggs\": {\"tags\": {\"terms\": {\"field\": \"tag\", \"size\": 5}}}}";
    private static final String FACET = "/facet";
    private static final String COUNT = "/points/count";

    private final IndexMetadata index = QdrantFilterTranslatorTest.INDEX;
    private final List<Thread> callers = new CopyOnWriteArrayList<>();
    private final List<BackendObserver.Call> calls = new CopyOnWriteArrayList<>();
    private final List<Long> sleeps = new ArrayList<>();
    private final CountDownLatch teardown = new CountDownLatch(1);
    private FakeQdrant fake;
    private QdrantDocumentStore store;
    private Scripted server;

    @BeforeEach
    void setUp() {
        fake = new FakeQdrant();
        store = store(fake.uri(), QdrantStores.Settings.DEFAULT_POOL_SIZE, Duration.ofSeconds(10));
        store.createIndex(index);
        List<DocumentWrite> writes = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            writes.add(new DocumentWrite.Upsert(doc("d" + i, "{\"tag\": \"t" + (i % 3 == 0 ? 0 : i % 7) + "\","
                    + " \"count\": " + i + "}", i)));
        }
        store.write(index, writes, 59);
        fake.requests.clear();
        calls.clear();
        callers.clear();
    }

    @AfterEach
    void tearDown() throws IOException {
        teardown.countDown();
        try {
            assertThat(fake.violations).isEmpty();
        } finally {
            store.close();
            fake.close();
            if (server != null) {
                server.close();
            }
        }
    }

    private QdrantDocumentStore store(java.net.URI uri, int poolSize, Duration requestTimeout) {
        QdrantClient http = new QdrantClient(new QdrantStores.Settings(uri, Optional.empty(), Duration.ofSeconds(2),
                requestTimeout, QdrantStores.Settings.DEFAULT_PREFIX, poolSize), call -> {
                    calls.add(call);
                    callers.add(Thread.currentThread());
                });
        http.sleeper = sleeps::add;
        return new QdrantDocumentStore(http);
    }

    private IndexableDocument doc(String id, String json, long seqNo) {
        JsonObject source = (JsonObject) Json.parse(json);
        return new IndexableDocument(id, new DocumentVersion(1, seqNo, 1), source,
                DocumentParser.parse(index.mappings(), source, id).values());
    }

    private static SearchRequest request(String json) {
        return SearchRequestParser.parse(Optional.of(Json.parse(json)), Map.of());
    }

    private List<Read> reads(String json) {
        SearchRequest request = request(json);
        return List.of(new Read.Search(index, request, 0), new Read.Aggregate(index, request,
                AggregationPlan.of(index.name(), request.aggregations(), index.mappings(), System::currentTimeMillis)));
    }

    private GatewayException failure(QdrantDocumentStore on, String json) {
        List<Read> reads = reads(json);
        try {
            on.readTogether(reads);
        } catch (GatewayException e) {
            return e;
        }
        throw new AssertionError("no failure");
    }

    /** The two reads' values, checked against the same reads made one by one. */
    private void assertTheAnswersAreThoseOfTheReadsOneByOne(String json) {
        List<Read> reads = reads(json);
        List<ReadValue> together = store.readTogether(reads);
        Read.Search search = (Read.Search) reads.get(0);
        Read.Aggregate aggregate = (Read.Aggregate) reads.get(1);
        IndexHits hits = store.search(index, search.request(), 0);
        NamedPartials partials = store.aggregate(index, aggregate.request(), aggregate.plan());
        assertThat(together).hasSize(2);
        assertThat(((ReadValue.Hits) together.get(0)).hits().total()).isEqualTo(hits.total());
        assertThat(((ReadValue.Hits) together.get(0)).hits().hits()).isEmpty();
        assertThat(((ReadValue.Partials) together.get(1)).partials().render()).isEqualTo(partials.render());
    }

    @Test
    void theCountGoesBesideTheFacetOnTheCallersThread() {
        List<ReadValue> values = store.readTogether(reads(TERMS));
        assertThat(((ReadValue.Hits) values.get(0)).hits().total()).hasValueSatisfying(t -> {
            assertThat(t.value()).isEqualTo(31);
            assertThat(t.exact()).isTrue();
        });
        assertThat(Json.write(((ReadValue.Partials) values.get(1)).partials().render()))
                .contains("\"key\":\"t0\",\"doc_count\":13");
        assertThat(fake.requests).hasSize(2);
        assertThat(fake.requests("POST", COUNT)).singleElement()
                .satisfies(r -> assertThat(r.body().get("exact").asBoolean()).isTrue());
        assertThat(fake.requests("POST", FACET)).hasSize(1);
        // the facet's call carries the count: reported first, the count once its answer is read right after it
        assertThat(calls).extracting(BackendObserver.Call::operation).containsExactly(
                "POST /collections/{name}/facet", "POST /collections/{name}/points/count");
        assertThat(callers).hasSize(2).allSatisfy(t -> assertThat(t).isSameAs(Thread.currentThread()));

        assertTheAnswersAreThoseOfTheReadsOneByOne(TERMS);
        assertTheAnswersAreThoseOfTheReadsOneByOne(TERMS.replace("\"gte\": 10", "\"gte\": 100"));
        assertTheAnswersAreThoseOfTheReadsOneByOne(TERMS.replace("\"track_total_hits\": true",
                "\"track_total_hits\": 5"));
    }

    @Test
    void aTermsSearchThroughTheServiceMakesBothCallsOnTheRequestsThreadAndAnswersAsTheLuceneWayWould() {
        InMemoryCatalog catalog = new InMemoryCatalog();
        catalog.createIndex(index, List.of());
        SearchResult result = new SearchService(catalog, store).search(index.name(), request(TERMS),
                CatalogView.Options.STRICT_EXPAND_OPEN);
        assertThat(result.total()).hasValueSatisfying(t -> assertThat(t.value()).isEqualTo(31));
        assertThat(callers).hasSize(2).allSatisfy(t -> assertThat(t).isSameAs(Thread.currentThread()));
        assertThat(calls).extracting(BackendObserver.Call::operation).containsExactly(
                "POST /collections/{name}/facet", "POST /collections/{name}/points/count");
        // the same answer as the reads one by one (the service's other way: the aggregation on a thread of its own)
        SearchResult apart = new SearchService(catalog, store, store.capabilities(),
                io.qdrant.esgateway.application.port.out.PlanObserver.NONE, 1).search(index.name(), request(TERMS),
                CatalogView.Options.STRICT_EXPAND_OPEN);
        assertThat(apart.total()).isEqualTo(result.total());
        assertThat(apart.aggregations().orElseThrow().render()).isEqualTo(result.aggregations().orElseThrow()
                .render());
    }

    @Test
    void withoutATotalOrWithAFilterThatMatchesNothingTheFacetIsTheOnlyCall() {
        List<ReadValue> values = store.readTogether(reads(TERMS.replace("\"track_total_hits\": true",
                "\"track_total_hits\": false")));
        assertThat(((ReadValue.Hits) values.get(0)).hits().total()).isEmpty();
        assertThat(fake.requests).singleElement().satisfies(r -> assertThat(r.path()).endsWith(FACET));
        fake.requests.clear();
        values = store.readTogether(reads("{\"size\": 0, \"query\": {\"match_none\": {}},"
                + " \"aggs\": {\"tags\": {\"terms\": {\"field\": \"tag\"}}}}"));
        assertThat(((ReadValue.Hits) values.get(0)).hits().total()).hasValueSatisfying(t -> assertThat(t.value()).isZero());
        assertThat(fake.requests.stream().filter(r -> r.path().endsWith(COUNT))).isEmpty();
    }

    @Test
    void aFailedCountFailsAsItsOwnCallWouldAndTheNextReadsWork() {
        fake.inject("POST", COUNT, 500, "{\"status\": {\"error\": \"count broke\"}, \"time\": 0.0}");
        GatewayException e = failure(store, TERMS);
        assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_FAILURE);
        assertThat(e.getMessage()).contains("cannot count the documents of index [" + index.name() + "]")
                .contains("count broke");
        assertTheAnswersAreThoseOfTheReadsOneByOne(TERMS);
    }

    @Test
    void aFailedFacetWithAFineCountIsTheFacetsFailure() {
        fake.inject("POST", FACET, 500, "{\"status\": {\"error\": \"facet broke\"}, \"time\": 0.0}");
        GatewayException e = failure(store, TERMS);
        assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_FAILURE);
        assertThat(e.getMessage()).contains("cannot count the values of [tag]").contains("facet broke");
        assertThat(fake.requests("POST", COUNT)).hasSize(1);
        assertTheAnswersAreThoseOfTheReadsOneByOne(TERMS);
    }

    @Test
    void whenTheCountAndTheFacetFailTheCountsFailureWinsAsTheFirstRead() {
        fake.inject("POST", COUNT, 500, "{\"status\": {\"error\": \"count broke\"}, \"time\": 0.0}");
        fake.inject("POST", FACET, 400, "{\"status\": {\"error\": \"bad facet\"}, \"time\": 0.0}");
        GatewayException e = failure(store, TERMS);
        assertThat(e.getMessage()).contains("count broke").doesNotContain("bad facet");
        assertTheAnswersAreThoseOfTheReadsOneByOne(TERMS);
    }

    @Test
    void aSearchRefusedByItsChecksIsTheFailureEvenWhenTheFacetFailsToo() {
        String unsupported = "{\"size\": 0, \"track_total_hits\": true, \"min_score\": 1, \"aggs\": {\"tags\":"
                + " {\"terms\": {\"field\": \"tag\"}}}}";
        GatewayException refused = assertThrows(() -> store.search(index, request(unsupported), 0));
        fake.inject("POST", FACET, 500, "{\"status\": {\"error\": \"facet broke\"}, \"time\": 0.0}");
        GatewayException e = failure(store, unsupported);
        assertThat(e.kind()).isEqualTo(refused.kind());
        assertThat(e.getMessage()).isEqualTo(refused.getMessage());
    }

    private static GatewayException assertThrows(Runnable read) {
        try {
            read.run();
        } catch (GatewayException e) {
            return e;
        }
        throw new AssertionError("no failure");
    }

    @Test
    void aCountAnswered503IsRetriedAndTheAnswersAreRight() {
        fake.inject("POST", COUNT, 503, "{\"status\": {\"error\": \"busy\"}, \"time\": 0.0}");
        List<ReadValue> values = store.readTogether(reads(TERMS));
        assertThat(((ReadValue.Hits) values.get(0)).hits().total()).hasValueSatisfying(t -> assertThat(t.value()).isEqualTo(31));
        assertThat(sleeps).containsExactly(100L);
        assertThat(fake.requests("POST", COUNT)).hasSize(2);
    }

    @Test
    void aMissingCollectionForTheCountIsTheBackendFaultNamingIt() {
        fake.inject("POST", COUNT, 404, "{\"status\": {\"error\": \"Not found: Collection doesn't exist\"},"
                + " \"time\": 0.0}");
        GatewayException e = failure(store, TERMS);
        assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_FAILURE);
        assertThat(e.getMessage()).contains("count the documents of index").contains("its Qdrant collection ["
                + QdrantLayout.collection(index) + "] does not exist");
    }

    @Test
    void withAPoolOfOneTheCountIsMadeWholeAfterTheFacet() {
        store.close();
        store = store(fake.uri(), 1, Duration.ofSeconds(10));
        store.updateMappings(index); // the collection's layout checked (its first use) before the reads measured
        calls.clear();
        callers.clear();
        assertTheAnswersAreThoseOfTheReadsOneByOne(TERMS);
        assertThat(calls.subList(0, 2)).extracting(BackendObserver.Call::operation).containsExactly(
                "POST /collections/{name}/facet", "POST /collections/{name}/points/count");
        assertThat(callers).allSatisfy(t -> assertThat(t).isSameAs(Thread.currentThread()));
    }

    private static final String FACET_ANSWER = "{\"result\":{\"hits\":[{\"value\":\"a\",\"count\":4},"
            + "{\"value\":\"b\",\"count\":3}]},\"status\":\"ok\",\"time\":0.0}";

    @Test
    void theCountsRequestReachesQdrantBeforeTheFacetsAnswerIsRead() throws Exception {
        // the facet is answered only once the count's request has arrived: one after the other, it would never be
        AtomicBoolean overlapped = new AtomicBoolean();
        CountDownLatch countArrived = new CountDownLatch(1);
        server = new Scripted((n, head, body, out) -> {
            if (head.startsWith("GET ")) {
                return HttpTransportTest.json(out, LayoutSchemas.collectionInfo(index, false));
            }
            if (head.contains("/points/count ")) {
                countArrived.countDown();
                return HttpTransportTest.json(out, "{\"result\":{\"count\":7},\"status\":\"ok\",\"time\":0.0}");
            }
            try {
                overlapped.set(countArrived.await(20, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return HttpTransportTest.json(out, FACET_ANSWER);
        });
        try (QdrantDocumentStore scripted = store(server.uri(), 4, Duration.ofSeconds(30))) {
            scripted.updateMappings(index); // the collection's layout checked (its first use): one GET
            server.heads.clear();
            callers.clear();
            List<ReadValue> values = scripted.readTogether(reads(TERMS));
            assertThat(overlapped).as("the count's request reached Qdrant before the facet was answered").isTrue();
            assertThat(((ReadValue.Hits) values.get(0)).hits().total()).hasValueSatisfying(t -> assertThat(t.value())
                    .isEqualTo(7));
            assertThat(server.heads).hasSize(2);
            assertThat(callers).hasSize(2).allSatisfy(t -> assertThat(t).isSameAs(Thread.currentThread()));
        }
    }

    @Test
    void aCountWithoutAnAnswerInTimeIsABackendTimeoutNamingItAndTheNextReadsWork() throws Exception {
        AtomicBoolean first = new AtomicBoolean(true);
        server = new Scripted((n, head, body, out) -> {
            if (head.startsWith("GET ")) {
                return HttpTransportTest.json(out, LayoutSchemas.collectionInfo(index, false));
            }
            if (head.contains("/points/count ")) {
                if (first.compareAndSet(true, false)) {
                    try {
                        teardown.await(30, TimeUnit.SECONDS); // never answers while the test runs
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return false;
                }
                return HttpTransportTest.json(out, "{\"result\":{\"count\":7},\"status\":\"ok\",\"time\":0.0}");
            }
            return HttpTransportTest.json(out, FACET_ANSWER);
        });
        try (QdrantDocumentStore scripted = store(server.uri(), 4, Duration.ofMillis(300))) {
            scripted.updateMappings(index); // the collection's layout checked (its first use): one GET
            calls.clear();
            callers.clear();
            GatewayException e = failure(scripted, TERMS);
            assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_TIMEOUT);
            assertThat(e.getMessage()).contains("count the documents of index [" + index.name() + "]")
                    .contains("did not answer within 300ms");
            assertThat(calls).extracting(BackendObserver.Call::outcome).containsExactly("200", "timeout");

            List<ReadValue> values = scripted.readTogether(reads(TERMS));
            assertThat(((ReadValue.Hits) values.get(0)).hits().total()).hasValueSatisfying(t -> assertThat(t.value())
                    .isEqualTo(7));
            assertThat(Json.write(((ReadValue.Partials) values.get(1)).partials().render()))
                    .contains("\"key\":\"a\",\"doc_count\":4");
            assertThat(callers).allSatisfy(t -> assertThat(t).isSameAs(Thread.currentThread()));
        }
    }
}
