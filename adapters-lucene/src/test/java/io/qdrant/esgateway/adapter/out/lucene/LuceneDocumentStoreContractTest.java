package io.qdrant.esgateway.adapter.out.lucene;

import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.DurableDocumentStoreContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The document store contract on a Lucene store in a temporary data directory, restarts included. */
class LuceneDocumentStoreContractTest extends DurableDocumentStoreContract {

    @TempDir
    Path temp;

    @Override
    protected DocumentStore newStore() {
        return LuceneStores.open(temp.resolve("data"));
    }

    @Override
    protected DocumentStore reopen(DocumentStore store) {
        ((LuceneStores.Handle) store).close();
        return LuceneStores.open(temp.resolve("data"));
    }
}
