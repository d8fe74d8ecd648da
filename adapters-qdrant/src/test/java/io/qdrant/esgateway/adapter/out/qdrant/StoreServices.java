package io.qdrant.esgateway.adapter.out.qdrant;

import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.InMemoryCatalog;
import io.qdrant.esgateway.application.service.DocumentService;
import io.qdrant.esgateway.application.service.IndexAdministrationService;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The index and document services over one store, with an in-memory catalog, a fixed clock and counted ids: what a
 * test that writes through the services to compare stores needs.
 */
record StoreServices(InMemoryCatalog catalog, IndexAdministrationService admin, DocumentService documents) {
    static StoreServices over(DocumentStore store) {
        return over(store, io.qdrant.esgateway.application.port.out.TextAnalysis.NONE);
    }

    /** With text analysis (analysis settings are built and checked at index creation). */
    static StoreServices over(DocumentStore store, io.qdrant.esgateway.application.port.out.TextAnalysis analysis) {
        AtomicInteger ids = new AtomicInteger();
        InMemoryCatalog catalog = new InMemoryCatalog();
        InstantSource clock = InstantSource.fixed(Instant.parse("2024-06-01T00:00:00Z"));
        IndexAdministrationService admin = new IndexAdministrationService(catalog, store,
                () -> "uuid" + ids.incrementAndGet(), clock, analysis);
        DocumentService documents = new DocumentService(catalog, store, admin, () -> "gen" + ids.incrementAndGet(),
                clock);
        return new StoreServices(catalog, admin, documents);
    }
}
