package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.application.port.out.BackendObserver;
import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite;
import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import io.qdrant.esgateway.domain.search.IndexHits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;
import io.qdrant.esgateway.adapter.out.qdrant.filter.QdrantFilterTranslatorTest;

/**
 * A sorted page's exact count goes beside the page's {@code order_by} query ({@link QdrantClient.Beside}): on the
 * request's thread, the answers and errors as when the count ran on its own (its failure wins over the page's).
 */
class QdrantBesideCountTest {
    private final IndexMetadata index = QdrantFilterTranslatorTest.INDEX;
    private final List<Thread> callers = new CopyOnWriteArrayList<>();
    private final List<BackendObserver.Call> calls = new CopyOnWriteArrayList<>();
    private final List<Long> sleeps = new ArrayList<>();
    private FakeQdrant fake;
    private QdrantDocumentStore store;

    @BeforeEach
    void setUp() {
        fake = new FakeQdrant();
        QdrantClient http = new QdrantClient(new QdrantStores.Settings(fake.uri(), Optional.empty(),
                Duration.ofSeconds(2), Duration.ofSeconds(10)), call -> {
                    calls.add(call);
                    callers.add(Thread.currentThread());
                });
        http.sleeper = sleeps::add;
        store = new QdrantDocumentStore(http);
        store.createIndex(index);
        List<DocumentWrite> writes = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            writes.add(new DocumentWrite.Upsert(doc("d" + i, "{\"tag\": \"t" + (i % 3) + "\", \"count\": " + i + "}",
                    i)));
        }
        store.write(index, writes, 59);
        fake.requests.clear();
        calls.clear();
        callers.clear();
    }

    @AfterEach
    void tearDown() {
        try {
            assertThat(fake.violations).isEmpty();
        } finally {
            store.close();
            fake.close();
        }
    }

    private IndexableDocument doc(String id, String json, long seqNo) {
        JsonObject source = (JsonObject) Json.parse(json);
        return new IndexableDocument(id, new DocumentVersion(1, seqNo, 1), source,
                DocumentParser.parse(index.mappings(), source, id).values());
    }

    private IndexHits sortedPage() {
        SearchRequest request = SearchRequestParser.parse(Optional.of(Json.parse("{\"query\": {\"term\": {\"tag\":"
                + " \"t1\"}}, \"sort\": [{\"count\": \"desc\"}], \"size\": 5}")), Map.of());
        return store.search(index, request, 5);
    }

    private GatewayException failure() {
        try {
            sortedPage();
        } catch (GatewayException e) {
            return e;
        }
        throw new AssertionError("no failure");
    }

    private void assertThePageIsRight() {
        IndexHits hits = sortedPage();
        assertThat(hits.total()).hasValueSatisfying(t -> assertThat(t.value()).isEqualTo(20));
        assertThat(hits.hits()).extracting(h -> h.id()).containsExactly("d58", "d55", "d52", "d49", "d46");
    }

    @Test
    void theCountGoesBesideTheFirstQueryOnTheRequestsThread() {
        assertThePageIsRight();
        assertThat(fake.requests).hasSize(2);
        assertThat(fake.requests("POST", "/points/count")).singleElement()
                .satisfies(r -> assertThat(r.body().get("exact").asBoolean()).isTrue());
        assertThat(fake.requests("POST", "/points/query")).hasSize(1);
        assertThat(calls).extracting(BackendObserver.Call::operation).containsExactly(
                "POST /collections/{name}/points/query", "POST /collections/{name}/points/count");
        // no thread of its own: every call is made (and reported) by the caller
        assertThat(callers).hasSize(2).allSatisfy(t -> assertThat(t).isSameAs(Thread.currentThread()));
    }

    @Test
    void aFailedCountFailsTheSearchAsItsOwnCallWouldAndTheNextSearchWorks() {
        fake.inject("POST", "/points/count", 500, "{\"status\": {\"error\": \"count broke\"}, \"time\": 0.0}");
        GatewayException e = failure();
        assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_FAILURE);
        assertThat(e.getMessage()).contains("cannot count the documents of index [" + index.name() + "]")
                .contains("count broke");
        assertThePageIsRight();
    }

    @Test
    void aCountAnswered503IsRetriedAndThePageIsRight() {
        fake.inject("POST", "/points/count", 503, "{\"status\": {\"error\": \"busy\"}, \"time\": 0.0}");
        assertThePageIsRight();
        assertThat(sleeps).containsExactly(100L);
        assertThat(fake.requests("POST", "/points/count")).hasSize(2);
    }

    @Test
    void aMissingCollectionForTheCountIsTheBackendFaultNamingIt() {
        fake.inject("POST", "/points/count", 404, "{\"status\": {\"error\": \"Not found: Collection doesn't"
                + " exist\"}, \"time\": 0.0}");
        GatewayException e = failure();
        assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_FAILURE);
        assertThat(e.getMessage()).contains("its Qdrant collection [" + QdrantLayout.collection(index)
                + "] does not exist");
    }

    @Test
    void whenThePageAndTheCountFailTheCountsFailureWinsAsIfItHadRunFirst() {
        fake.inject("POST", "/points/count", 500, "{\"status\": {\"error\": \"count broke\"}, \"time\": 0.0}");
        fake.inject("POST", "/points/query", 400, "{\"status\": {\"error\": \"bad page\"}, \"time\": 0.0}");
        GatewayException e = failure();
        assertThat(e.getMessage()).contains("count broke").doesNotContain("bad page");
        assertThePageIsRight();
    }

    @Test
    void aFailedPageWithAFineCountIsThePagesFailure() {
        fake.inject("POST", "/points/query", 400, "{\"status\": {\"error\": \"bad page\"}, \"time\": 0.0}");
        GatewayException e = failure();
        assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
        assertThat(e.getMessage()).contains("Qdrant rejected the request to read the documents of index")
                .contains("bad page");
        assertThat(fake.requests("POST", "/points/count")).hasSize(1);
        assertThePageIsRight();
    }
}
