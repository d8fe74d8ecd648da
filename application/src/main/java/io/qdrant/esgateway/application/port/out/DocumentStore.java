package io.qdrant.esgateway.application.port.out;

import io.qdrant.esgateway.domain.aggregation.AggregationPlan;
import io.qdrant.esgateway.domain.aggregation.NamedPartials;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.search.IndexHits;
import io.qdrant.esgateway.domain.search.SearchRequest;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The backend that holds the documents of every index (embedded Lucene, or Qdrant): every capability port together —
 * {@link IndexStorage}, {@link DocumentWrites}, {@link PointReads}, {@link Searches}, {@link Scans} — plus the
 * backend's name and health. A service that needs one capability takes that port; a test fake implements only what it
 * needs. Every adapter passes {@code DocumentStoreContract}.
 *
 * <p>The value types the capability ports exchange are declared here, so that every caller names them
 * {@code DocumentStore.X} whichever port it holds.
 */
public interface DocumentStore extends IndexStorage, DocumentWrites, PointReads, Searches, Scans {

    /** Throws {@code BACKEND_UNAVAILABLE} unless the backend can serve requests now. */
    void ping();

    /** A short name for health output and metrics ({@code lucene}, {@code qdrant}). */
    String name();

    /** One write of a batch ({@link DocumentWrites}). */
    sealed interface DocumentWrite {
        String id();

        /**
         * Stores the document, replacing any document with the same id. {@code absent} is the writer's knowledge,
         * never a guess, that no document with this id exists at this point of the batch (none stored, none left
         * by an earlier write of the batch): the store may then add the document without looking for one to
         * replace (Elasticsearch's engine does the same for an id its version map does not hold).
         */
        record Upsert(IndexableDocument document, boolean absent) implements DocumentWrite {
            /** An upsert that may replace a document. */
            public Upsert(IndexableDocument document) {
                this(document, false);
            }

            @Override
            public String id() {
                return document.id();
            }
        }

        /** Removes the document with this id; a missing document is not an error. */
        record Delete(String id) implements DocumentWrite {
        }
    }

    /** One read of {@link Searches#readTogether}: the arguments of {@link #search} or {@link #aggregate}. */
    sealed interface Read {
        /** {@link #search}; its value is a {@link ReadValue.Hits}. */
        record Search(IndexMetadata index, SearchRequest request, int topN) implements Read {
        }

        /** {@link #aggregate}; its value is a {@link ReadValue.Partials}. */
        record Aggregate(IndexMetadata index, SearchRequest request, AggregationPlan plan) implements Read {
        }
    }

    /** The value of one {@link Read}. */
    sealed interface ReadValue {
        /** What {@link #search} returns for a {@link Read.Search}. */
        record Hits(IndexHits hits) implements ReadValue {
        }

        /** What {@link #aggregate} returns for a {@link Read.Aggregate}. */
        record Partials(NamedPartials partials) implements ReadValue {
        }
    }

    /** What {@link Scans#scan} reads. */
    record ScanRequest(SearchRequest search, boolean postFilter, Optional<Query> filter, Set<String> fields,
                       boolean scores) {
        public ScanRequest {
            fields = Set.copyOf(fields);
        }
    }

    /** One document of a scan; {@code position} orders documents as the index does. */
    record ScannedDocument(String id, long position, float score, JsonObject source) {
    }

    /** A hit the gateway chose, to be fetched ({@link Scans#fetch}). */
    record FetchRef(String id, float score, List<JsonValue> sort) {
        public FetchRef {
            sort = List.copyOf(sort);
        }
    }

    /** Document count and size on disk ({@link IndexStorage#stats}). */
    record StoreStats(long docCount, long deletedDocs, long sizeInBytes) {
        public static final StoreStats EMPTY = new StoreStats(0, 0, 0);
    }
}
