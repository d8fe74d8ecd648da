package io.qdrant.esgateway.application.port.out;

/** Runs the catalog contract against the in-memory fake, which shows the contract is consistent in itself. */
class InMemoryCatalogTest extends CatalogContract {

    @Override
    protected Catalog newCatalog() {
        return new InMemoryCatalog();
    }
}
