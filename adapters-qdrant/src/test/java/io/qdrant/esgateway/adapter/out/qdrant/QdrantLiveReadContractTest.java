package io.qdrant.esgateway.adapter.out.qdrant;

import io.qdrant.esgateway.adapter.out.lucene.LuceneStores;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.DocumentStoreReadContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;

/**
 * The read-side document store contract against a real Qdrant (JUnit tag {@code live}; run on demand as
 * {@link QdrantLiveContractTest} says). Its collections are under a random prefix and deleted afterwards.
 */
@Tag("live")
class QdrantLiveReadContractTest extends DocumentStoreReadContract {
    private QdrantClient http;
    private String prefix;

    @Override
    protected DocumentStore newStore() {
        QdrantStores.Settings settings = LiveQdrant.settings();
        prefix = settings.collectionPrefix();
        http = new QdrantClient(settings);
        return new QdrantDocumentStore(new QdrantClient(settings), LuceneStores.relevanceScorer());
    }

    @AfterAll
    void dropCollections() {
        LiveQdrant.dropCollections(http, prefix);
    }

    @Override
    protected java.util.Set<String> refusedQueries() {
        return QdrantReadContractTest.REFUSED;
    }

    /**
     * Besides the complete scan's, this backend reads keyword sort values and {@code terms} with sub-aggregations,
     * and checks full-text matches, from {@code _source} with the current mapping (docs/compatibility.md).
     */
    @Override
    protected java.util.Set<String> knownDifferences() {
        return QdrantReadContractTest.KNOWN;
    }
}
