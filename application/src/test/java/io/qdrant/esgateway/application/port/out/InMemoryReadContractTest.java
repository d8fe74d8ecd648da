package io.qdrant.esgateway.application.port.out;

/** The read-side contract on the in-memory fake, whose plain read half the service tests rely on. */
class InMemoryReadContractTest extends DocumentStoreReadContract {
    @Override
    protected DocumentStore newStore() {
        return new InMemoryDocumentStore();
    }
}
