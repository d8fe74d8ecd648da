package io.qdrant.esgateway.adapter.out.lucene;

import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.DocumentStoreReadContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The read-side document store contract on a Lucene store in a temporary data directory. */
class LuceneReadContractTest extends DocumentStoreReadContract {

    @TempDir
    static Path temp;

    @Override
    protected DocumentStore newStore() {
        return LuceneStores.open(temp.resolve("data"));
    }
}
