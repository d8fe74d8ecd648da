package io.qdrant.esgateway.adapter.out.qdrant;

import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.DocumentStoreContract;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;

/**
 * The document store contract against a real Qdrant — left out of the build (JUnit tag {@code live}, excluded by
 * adapters-qdrant's Surefire configuration), run on demand against the server {@code QEG_QDRANT_URL} names (with
 * {@code QEG_QDRANT_API_KEY} when it needs one); without the URL every test fails, it never skips:
 * <pre>QEG_QDRANT_URL=http://127.0.0.1:6333 mvn -B verify -pl adapters-qdrant -am -DskipITs -Dqdrant.live.skip=none \
 *     -Dtest='Qdrant*Live*' -Dsurefire.failIfNoSpecifiedTests=false</pre>
 * Each test uses collections under its own random prefix ({@code qegtest-<random>-}) and deletes them afterwards;
 * other collections on the server are never touched. CI cannot run it (no Qdrant there).
 */
@Tag("live")
class QdrantLiveContractTest extends DocumentStoreContract {
    private QdrantClient http;
    private String prefix;

    @Override
    protected DocumentStore newStore() {
        QdrantStores.Settings settings = LiveQdrant.settings();
        prefix = settings.collectionPrefix();
        http = new QdrantClient(settings);
        return new QdrantDocumentStore(new QdrantClient(settings));
    }

    @AfterEach
    void dropThisTestsCollections() {
        LiveQdrant.dropCollections(http, prefix);
    }
}
