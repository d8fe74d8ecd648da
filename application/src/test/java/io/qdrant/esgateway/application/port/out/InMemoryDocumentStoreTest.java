package io.qdrant.esgateway.application.port.out;

/** Runs the document store contract against the in-memory fake, which shows the contract is consistent in itself. */
class InMemoryDocumentStoreTest extends DocumentStoreContract {

    @Override
    protected DocumentStore newStore() {
        return new InMemoryDocumentStore();
    }
}
