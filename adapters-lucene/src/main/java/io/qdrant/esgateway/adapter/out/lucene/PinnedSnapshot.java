package io.qdrant.esgateway.adapter.out.lucene;

import static io.qdrant.esgateway.adapter.out.lucene.engine.IndexSlot.*;
import static io.qdrant.esgateway.adapter.out.lucene.engine.StoreFiles.*;

import io.qdrant.esgateway.adapter.out.lucene.engine.IndexSlot.Acquired;
import io.qdrant.esgateway.application.port.out.ReadSnapshots.Snapshot;
import io.qdrant.esgateway.adapter.out.lucene.engine.IndexSlot.IndexAction;

import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import java.io.IOException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.AlreadyClosedException;
import io.qdrant.esgateway.adapter.out.lucene.aggregation.LuceneAggregations;
import io.qdrant.esgateway.adapter.out.lucene.search.LuceneSearch;

/** A snapshot of the Lucene store: a held searcher, read as a store; writes are not for it. */
final class PinnedSnapshot implements Snapshot, io.qdrant.esgateway.application.port.out.DocumentStore {
    private final LuceneDocumentStore store;
    private final IndexMetadata pinned;
    private final Acquired acquired;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    PinnedSnapshot(LuceneDocumentStore store, IndexMetadata pinned, Acquired acquired) {
        this.store = store;
        this.pinned = pinned;
        this.acquired = acquired;
    }

    @Override
    public io.qdrant.esgateway.application.port.out.DocumentStore reads() {
        return this;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                acquired.close();
            } catch (IOException | AlreadyClosedException e) {
                // the index was closed meanwhile: nothing left to release
            }
        }
    }

    private <T> T read(IndexAction<T> action) {
        if (closed.get()) {
            throw new GatewayException(ErrorKind.BACKEND_FAILURE, "the snapshot of [" + pinned.name()
                    + "] is closed", metadata(pinned), null);
        }
        try {
            return action.apply(null, null);
        } catch (IOException | AlreadyClosedException e) {
            throw new GatewayException(ErrorKind.BACKEND_FAILURE, "cannot read the snapshot of ["
                    + pinned.name() + "/" + pinned.uuid() + "]: " + e.getMessage(), metadata(pinned), e);
        } catch (org.apache.lucene.search.IndexSearcher.TooManyClauses e) {
            throw new GatewayException(ErrorKind.ILLEGAL_ARGUMENT,
                    "Query contains too many nested clauses; maxClauseCount is set to "
                            + org.apache.lucene.search.IndexSearcher.getMaxClauseCount());
        }
    }

    @Override
    public io.qdrant.esgateway.domain.search.IndexHits search(IndexMetadata index,
            io.qdrant.esgateway.domain.search.SearchRequest request, int topN) {
        return read((d, s) -> LuceneSearch.search(acquired.reader(), index, request, topN));
    }

    @Override
    public io.qdrant.esgateway.domain.aggregation.NamedPartials aggregate(IndexMetadata index,
            io.qdrant.esgateway.domain.search.SearchRequest request,
            io.qdrant.esgateway.domain.aggregation.AggregationPlan plan) {
        return read((d, s) -> LuceneAggregations.aggregate(acquired.reader(), index, request, plan));
    }

    @Override
    public void scan(IndexMetadata index, ScanRequest scan, java.util.function.Consumer<ScannedDocument> sink) {
        read((d, s) -> {
            LuceneSearch.scan(acquired.reader(), index, scan, sink);
            return null;
        });
    }

    @Override
    public List<io.qdrant.esgateway.domain.search.Hit> fetch(IndexMetadata index,
            io.qdrant.esgateway.domain.search.SearchRequest request, List<FetchRef> refs) {
        return read((d, s) -> {
            Set<String> ids = new LinkedHashSet<>();
            refs.forEach(r -> ids.add(r.id()));
            return LuceneSearch.fetch(acquired.reader(), index, request, refs, lookup(acquired.reader(), ids));
        });
    }

    @Override
    public long count(IndexMetadata index, java.util.Optional<io.qdrant.esgateway.domain.query.Query> query) {
        return read((d, s) -> LuceneSearch.count(acquired.reader(), index, query));
    }

    @Override
    public Map<String, StoredDocument> get(IndexMetadata index, Collection<String> ids) {
        return read((d, s) -> lookup(acquired.reader(), new LinkedHashSet<>(ids)));
    }

    @Override
    public io.qdrant.esgateway.domain.plan.BackendCapabilities capabilities() {
        return LuceneSearch.CAPABILITIES;
    }

    @Override
    public long maxSeqNo(IndexMetadata index) {
        return store.maxSeqNo(index);
    }

    @Override
    public StoreStats stats(IndexMetadata index) {
        return store.stats(index);
    }

    @Override
    public void ping() {
        store.ping();
    }

    @Override
    public String name() {
        return store.name();
    }

    @Override
    public void createIndex(IndexMetadata index) {
        throw new UnsupportedOperationException("a snapshot does not write");
    }

    @Override
    public void dropIndex(IndexMetadata index) {
        throw new UnsupportedOperationException("a snapshot does not write");
    }

    @Override
    public void updateMappings(IndexMetadata index) {
        throw new UnsupportedOperationException("a snapshot does not write");
    }

    @Override
    public void write(IndexMetadata index, List<DocumentWrite> writes, long maxSeqNo) {
        throw new UnsupportedOperationException("a snapshot does not write");
    }
}
