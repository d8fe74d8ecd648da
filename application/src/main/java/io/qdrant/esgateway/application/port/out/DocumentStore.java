package io.qdrant.esgateway.application.port.out;

import io.qdrant.esgateway.domain.aggregation.AggregationPlan;
import io.qdrant.esgateway.domain.aggregation.NamedPartials;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.plan.BackendCapabilities;
import io.qdrant.esgateway.domain.search.Hit;
import java.util.Set;
import java.util.function.Consumer;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.search.IndexHits;
import io.qdrant.esgateway.domain.search.SearchRequest;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The backend that holds the documents of every index (embedded Lucene, or Qdrant). One storage unit
 * (a Lucene directory, a Qdrant collection) per concrete index, keyed by the index's name and uuid, so a deleted and
 * re-created index never sees the old one's documents.
 *
 * <p>Document writes are planned by the application (versions, sequence numbers, conditions) and executed here in
 * order; scroll, count, facet and ranked queries join the port with the search capabilities. Every adapter passes
 * {@code DocumentStoreContract}.
 */
public interface DocumentStore {

    /** Creates empty storage for a new index. On failure nothing is left behind. */
    void createIndex(IndexMetadata index);

    /** Deletes the index's storage and everything in it; a missing storage is not an error. */
    void dropIndex(IndexMetadata index);

    /** Makes the storage ready for fields added to the mapping (e.g. payload indexes); no-op where not needed. */
    void updateMappings(IndexMetadata index);

    /**
     * Applies the writes in order as one durable unit: when this returns, every write survives a crash of the process
     * and is visible to the next {@link #get}. {@code maxSeqNo} (the highest sequence number among these writes) is
     * recorded with them. A failure means none of them may be assumed written.
     */
    void write(IndexMetadata index, List<DocumentWrite> writes, long maxSeqNo);

    /**
     * {@link #write} in two steps, so that a caller can release its own locks before the wait for durability and
     * concurrent writers can share it (group commit): when this returns, the writes are applied in order — visible
     * to {@link #get} and counted in {@link #maxSeqNo}, so the next batch can be planned on them — and when
     * {@link Durability#await()} of the result returns, they are durable as {@code write} promises. A failure of
     * either step means none of them may be assumed written (after a failed {@code await} they may still be there,
     * whole). A later batch's {@code await} covers every batch applied before it. The default writes durably at once.
     */
    default Durability apply(IndexMetadata index, List<DocumentWrite> writes, long maxSeqNo) {
        write(index, writes, maxSeqNo);
        return Durability.DONE;
    }

    /** The second step of {@link #apply}: waits until the applied writes are durable. */
    @FunctionalInterface
    interface Durability {
        Durability DONE = () -> {
        };

        /** Returns once durable; throws the store's {@code GatewayException} if they could not be made so. */
        void await();
    }

    /** The current documents with these ids (absent ids are missing from the map); sees every acknowledged write. */
    Map<String, StoredDocument> get(IndexMetadata index, Collection<String> ids);

    /** The highest sequence number ever recorded by {@link #write} for this index, or -1 before the first write. */
    long maxSeqNo(IndexMetadata index);

    /**
     * Searches one index: the best {@code topN} hits (the caller asks for {@code from + size}) in the request's
     * order (its sort, else by score, ties by index order), with Elasticsearch's sort values, and the total as the
     * request's {@code track_total_hits} asks. {@code from} and {@code _source} filtering are applied by the caller.
     * A field that is not mapped matches nothing; sorting on it without {@code unmapped_type} is a 400.
     */
    IndexHits search(IndexMetadata index, SearchRequest request, int topN);

    /**
     * The partial aggregations of one index (see {@link AggregationPlan}): over the documents the request's query
     * matches (with its kNN sections and {@code min_score}; {@code post_filter} applies to hits only), computed
     * with the plan's collectors so that the application can merge indices with the domain's reducers.
     */
    NamedPartials aggregate(IndexMetadata index, SearchRequest request, AggregationPlan plan);

    /** One read of {@link #readTogether}: the arguments of {@link #search} or {@link #aggregate}. */
    sealed interface Read {
        /** {@link #search}; its value is the {@link IndexHits}. */
        record Search(IndexMetadata index, SearchRequest request, int topN) implements Read {
        }

        /** {@link #aggregate}; its value is the {@link NamedPartials}. */
        record Aggregate(IndexMetadata index, SearchRequest request, AggregationPlan plan) implements Read {
        }
    }

    /**
     * Whether {@link #readTogether} overlaps the backend work of several reads on the calling thread (their requests
     * sent side by side, no thread per read). When false, a caller that wants several reads to overlap runs them on
     * threads of its own.
     */
    default boolean readsTogetherOnOneThread() {
        return false;
    }

    /**
     * Several reads of one request: their values in order ({@link Read.Search}: what {@link #search} returns,
     * {@link Read.Aggregate}: what {@link #aggregate} returns), and on failure the failure of the first read in order
     * that fails — the same values and the same failure as calling them one by one in order (a later read's failure
     * never hides an earlier one's). A store whose {@link #readsTogetherOnOneThread} holds sends their backend calls
     * side by side from the calling thread; the default runs them in order.
     */
    default List<Object> readTogether(List<Read> reads) {
        List<Object> values = new java.util.ArrayList<>(reads.size());
        for (Read read : reads) {
            values.add(switch (read) {
                case Read.Search s -> search(s.index(), s.request(), s.topN());
                case Read.Aggregate a -> aggregate(a.index(), a.request(), a.plan());
            });
        }
        return values;
    }

    /**
     * What this backend computes natively with Elasticsearch's exact semantics; the coverage rules send everything
     * else down the complete-scan path ({@link #scan}).
     */
    BackendCapabilities capabilities();

    /**
     * The complete scan: every document the request's query matches (with its kNN sections and {@code min_score};
     * {@code post_filter} only when {@link ScanRequest#postFilter}; and {@link ScanRequest#filter} when present), in
     * index order, each with its position in that order, its score (NaN unless {@link ScanRequest#scores}) and its
     * source reduced to {@link ScanRequest#fields} (source-filter paths; none when empty) — never the whole source
     * when fewer fields suffice.
     */
    void scan(IndexMetadata index, ScanRequest scan, Consumer<ScannedDocument> sink);

    /**
     * The fetch phase for hits chosen by the gateway: the documents with these ids, as hits (source, version and, when
     * the request asks, highlighting of the request's query) carrying the given score and sort values; documents that
     * vanished meanwhile are left out.
     */
    List<Hit> fetch(IndexMetadata index, SearchRequest request, List<FetchRef> refs);

    /** What {@link #scan} reads. */
    record ScanRequest(SearchRequest search, boolean postFilter, Optional<Query> filter, Set<String> fields,
                       boolean scores) {
        public ScanRequest {
            fields = Set.copyOf(fields);
        }
    }

    /** One document of a scan; {@code position} orders documents as the index does. */
    record ScannedDocument(String id, long position, float score, JsonObject source) {
    }

    /** A hit the gateway chose, to be fetched. */
    record FetchRef(String id, float score, List<JsonValue> sort) {
        public FetchRef {
            sort = List.copyOf(sort);
        }
    }

    /** The exact number of documents matching {@code query} (all documents when empty). */
    long count(IndexMetadata index, Optional<Query> query);

    /** One write of a batch. */
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

    /** Document count and size on disk, for {@code _cat/indices}. */
    StoreStats stats(IndexMetadata index);

    /** Throws {@code BACKEND_UNAVAILABLE} unless the backend can serve requests now. */
    void ping();

    /** A short name for health output and metrics ({@code lucene}, {@code qdrant}). */
    String name();

    record StoreStats(long docCount, long deletedDocs, long sizeInBytes) {
        public static final StoreStats EMPTY = new StoreStats(0, 0, 0);
    }
}
