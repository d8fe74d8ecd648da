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
    /** None: what Qdrant cannot evaluate (wildcards, ranges on strings, …) the gateway matches. */
    static final java.util.Set<String> REFUSED = java.util.Set.of();
    static final java.util.Set<String> KNOWN = java.util.stream.Stream.concat(SCAN_DIFFERENCES.stream(),
            java.util.stream.Stream.of("grown native sort [{\"name.keyword\"", "grown native sort [{\"tag.keyword\"",
                    "grown native tag_qty", "grown {\"bool\": {\"must\": [{\"match\": {\"name\": \"acme\"}}]",
                    "grown {\"query_string\": {\"query\": \"blue\"}}",
                    "grown {\"range\": {\"name.keyword\""))
            .collect(java.util.stream.Collectors.toUnmodifiableSet());
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
