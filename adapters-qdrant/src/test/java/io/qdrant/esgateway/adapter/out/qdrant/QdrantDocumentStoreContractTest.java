package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.DocumentStoreContract;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The document store contract on the Qdrant adapter, against the stateful test-scope {@link FakeQdrant} (which
 * checks every request and response body against {@code openapi.json} and whose filter semantics are checked against
 * the shared example cases). A real Qdrant cannot run here.
 */
class QdrantDocumentStoreContractTest extends DocumentStoreContract {
    private FakeQdrant fake;

    @BeforeEach
    void noViolationsYet() {
        assertThat(fake.violations).isEmpty();
    }

    @AfterEach
    void everyBodyMatchedTheSpec() {
        try {
            assertThat(fake.violations).isEmpty();
        } finally {
            fake.close();
        }
    }

    @Override
    protected DocumentStore newStore() {
        fake = new FakeQdrant();
        return QdrantStores.open(new QdrantStores.Settings(fake.uri(), Optional.empty(), Duration.ofSeconds(2),
                Duration.ofSeconds(10)));
    }
}
