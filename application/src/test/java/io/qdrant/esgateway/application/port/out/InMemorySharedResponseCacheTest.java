package io.qdrant.esgateway.application.port.out;

/** Runs the shared response cache contract against the in-memory implementation. */
class InMemorySharedResponseCacheTest extends SharedResponseCacheContract {

    @Override
    protected SharedResponseCache newCache(int maxEntryBytes) {
        return new InMemorySharedResponseCache(maxEntryBytes);
    }
}
