package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.adapter.out.lucene.LuceneStores;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.DocumentStoreReadContract;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;

/**
 * The read-side document store contract on the Qdrant adapter (with the gateway's scorer, as the gateway runs it)
 * against the spec-checked {@link FakeQdrant}.
 */
class QdrantReadContractTest extends DocumentStoreReadContract {
    static final java.util.Set<String> REFUSED = java.util.Set.of("{\"wildcard\": {\"tag.keyword\": \"gr*\"}}",
            "{\"range\": {\"name.keyword\": {\"gte\": \"b\", \"lt\": \"r\"}}}");
    private FakeQdrant fake;

    @Override
    protected DocumentStore newStore() {
        fake = new FakeQdrant();
        return QdrantStores.open(new QdrantStores.Settings(fake.uri(), Optional.empty(), Duration.ofSeconds(2),
                Duration.ofSeconds(10)), LuceneStores.relevanceScorer());
    }

    @AfterEach
    void everyBodyMatchedTheSpec() {
        assertThat(fake.violations).isEmpty();
    }

    @AfterAll
    void stopFake() {
        fake.close();
    }

    /** {@code wildcard} and {@code range} on {@code keyword} fields are refused on this backend (docs/compatibility.md). */
    @Override
    protected java.util.Set<String> refusedQueries() {
        return QdrantReadContractTest.REFUSED;
    }
}
