package io.qdrant.esgateway.application.port.out;

import java.util.Set;

/** The read-side contract on the in-memory fake, whose plain read half the service tests rely on. */
class InMemoryReadContractTest extends DocumentStoreReadContract {
    @Override
    protected DocumentStore newStore() {
        return new InMemoryDocumentStore();
    }

    /** The fake does not evaluate {@code query_string} (its field patterns resolve against the mapping). */
    @Override
    protected Set<String> refusedQueries() {
        return Set.of("{\"query_string\": {\"query\": \"blue\"}}",
                "{\"query_string\": {\"query\": \"name:acme AND qty:[3 TO 12]\"}}");
    }
}
