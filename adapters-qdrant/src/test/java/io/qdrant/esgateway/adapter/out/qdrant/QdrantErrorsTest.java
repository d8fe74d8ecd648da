package io.qdrant.esgateway.adapter.out.qdrant;

import static io.qdrant.esgateway.domain.error.Failures.failure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;
import io.qdrant.esgateway.adapter.out.qdrant.filter.QdrantFilterTranslatorTest;

/** Transport failures and Qdrant's error answers, as the gateway reports them; retries only for idempotent reads. */
class QdrantErrorsTest {
    private static final String KEY = "s3cret-key";
    private final IndexMetadata index = QdrantFilterTranslatorTest.INDEX;
    private FakeQdrant fake;
    private QdrantClient http;
    private QdrantDocumentStore store;
    private final List<Long> sleeps = new ArrayList<>();

    @BeforeEach
    void setUp() {
        fake = new FakeQdrant();
        http = new QdrantClient(settings(fake.uri(), Duration.ofSeconds(10)));
        http.sleeper = sleeps::add;
        store = new QdrantDocumentStore(http);
        store.createIndex(index);
        fake.requests.clear();
    }

    @AfterEach
    void tearDown() {
        store.close();
        fake.close();
    }

    private static QdrantStores.Settings settings(URI uri, Duration requestTimeout) {
        return new QdrantStores.Settings(uri, Optional.of(KEY), Duration.ofMillis(500), requestTimeout);
    }

    @Test
    void connectionRefusedIsA502NamingQdrantWithoutCredentials() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        QdrantDocumentStore down = new QdrantDocumentStore(new QdrantClient(settings(
                URI.create("http://127.0.0.1:" + port), Duration.ofSeconds(2))));
        GatewayException e = failure(() -> down.count(index, Optional.empty()));
        assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_FAILURE);
        assertThat(e.getMessage()).contains("cannot connect to Qdrant at http://127.0.0.1:" + port)
                .doesNotContain(KEY);
        GatewayException ping = failure(down::ping);
        assertThat(ping.kind()).isEqualTo(ErrorKind.BACKEND_UNAVAILABLE);
        assertThat(ping.getMessage()).doesNotContain(KEY);
    }

    @Test
    void noAnswerInTimeIsA504() throws Exception {
        try (ServerSocket silent = new ServerSocket(0)) {
            Thread accept = Thread.ofVirtual().start(() -> {
                try (Socket ignored = silent.accept()) {
                    Thread.sleep(5000);
                } catch (IOException | InterruptedException done) {
                    // test over
                }
            });
            QdrantDocumentStore slow = new QdrantDocumentStore(new QdrantClient(settings(
                    URI.create("http://127.0.0.1:" + silent.getLocalPort()), Duration.ofMillis(300))));
            GatewayException e = failure(() -> slow.count(index, Optional.empty()));
            assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_TIMEOUT);
            assertThat(e.getMessage()).contains("did not answer within 300ms");
            accept.interrupt();
        }
    }

    @Test
    void rateLimitsAndUnavailableShardsAreRetriedForReads() {
        fake.inject("POST", "/points/count", 429, "{\"status\": {\"error\": \"Rate limiting exceeded: slow down\"},"
                + " \"time\": 0}");
        fake.inject("POST", "/points/count", 503, "{\"status\": {\"error\": \"Shard temporarily unavailable\"},"
                + " \"time\": 0}");
        assertThat(store.count(index, Optional.empty())).isZero();
        assertThat(fake.requests("POST", "/points/count")).hasSize(3);
        assertThat(sleeps).containsExactly(100L, 200L);
    }

    @Test
    void readsGiveUpAfterThreeAttempts() {
        for (int i = 0; i < 3; i++) {
            fake.inject("POST", "/points/count", 503, "{\"status\": {\"error\": \"Shard temporarily unavailable\"},"
                    + " \"time\": 0}");
        }
        GatewayException e = failure(() -> store.count(index, Optional.empty()));
        assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_UNAVAILABLE);
        assertThat(fake.requests("POST", "/points/count")).hasSize(3);
    }

    @Test
    void aWriteIsNeverRetried() {
        store.maxSeqNo(index);
        fake.requests.clear();
        fake.inject("POST", "/points/batch", 503, "{\"status\": {\"error\": \"Shard temporarily unavailable\"},"
                + " \"time\": 0}");
        GatewayException e = failure(() -> store.write(index, List.of(new DocumentWrite.Upsert(
                new IndexableDocument("1", new DocumentVersion(1, 0, 1), JsonObject.of(), List.of()))), 0));
        assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_UNAVAILABLE);
        assertThat(fake.requests("POST", "/points/batch")).hasSize(1);
        assertThat(sleeps).isEmpty();
    }

    @Test
    void whatQdrantRejectsIsSaid() {
        fake.inject("POST", "/points/scroll", 400, "{\"status\": {\"error\": \"Bad request: Index required but not"
                + " found for \\\"_f.tag\\\"\"}, \"time\": 0}");
        GatewayException e = failure(() -> store.scan(index, new io.qdrant.esgateway.application.port.out
                .DocumentStore.ScanRequest(io.qdrant.esgateway.domain.search.SearchRequestParser.parse(
                Optional.empty(), java.util.Map.of()), false, Optional.empty(), java.util.Set.of(), false), d -> { }));
        assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
        assertThat(e.getMessage()).contains("Qdrant rejected the request to scroll the documents of index [products]")
                .contains("Index required but not found");
    }

    @Test
    void refusedCredentialsArePlainTextAndNeverEchoed() {
        fake.inject("POST", "/points/count", 401, "Must provide an API key or an Authorization bearer token");
        GatewayException e = failure(() -> store.count(index, Optional.empty()));
        assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_FAILURE);
        assertThat(e.getMessage()).contains("refused the credentials (401)").doesNotContain(KEY);
    }

    @Test
    void aMissingCollectionIsABackendFaultNamingIt() {
        store.dropIndex(index);
        GatewayException e = failure(() -> store.get(index, List.of("1")));
        assertThat(e.kind()).isEqualTo(ErrorKind.BACKEND_FAILURE);
        assertThat(e.getMessage()).contains(QdrantLayout.collection(index)).contains("does not exist");
    }

    @Test
    void settingsRefuseCredentialsInTheUrlAndNeverPrintTheKey() {
        assertThatThrownBy(() -> settings(URI.create("http://u:p@127.0.0.1:6333"), Duration.ofSeconds(1)))
                .hasMessageContaining("must not carry credentials");
        assertThat(settings(fake.uri(), Duration.ofSeconds(1)).toString()).doesNotContain(KEY);
    }
}
