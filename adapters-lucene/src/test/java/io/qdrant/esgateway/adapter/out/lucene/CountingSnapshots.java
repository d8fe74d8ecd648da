package io.qdrant.esgateway.adapter.out.lucene;

import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.application.port.out.ReadSnapshots;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import java.util.concurrent.atomic.AtomicInteger;

/** A store's read snapshots, counted as they are opened and closed (to check that contexts release their readers). */
final class CountingSnapshots implements ReadSnapshots {
    private final ReadSnapshots store;
    private final AtomicInteger opened = new AtomicInteger();
    private final AtomicInteger closed = new AtomicInteger();

    CountingSnapshots(ReadSnapshots store) {
        this.store = store;
    }

    @Override
    public Snapshot open(IndexMetadata index) {
        Snapshot held = store.open(index);
        opened.incrementAndGet();
        return new Snapshot() {
            @Override
            public DocumentStore reads() {
                return held.reads();
            }

            @Override
            public void close() {
                closed.incrementAndGet();
                held.close();
            }
        };
    }

    /** How many snapshots were opened. */
    int opened() {
        return opened.get();
    }

    /** How many snapshots were closed. */
    int closed() {
        return closed.get();
    }
}
