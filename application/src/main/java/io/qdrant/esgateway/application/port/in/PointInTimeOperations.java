package io.qdrant.esgateway.application.port.in;

import io.qdrant.esgateway.application.port.in.SearchOperations.SearchResult;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.sort.SortSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Point in time: a view of the indices of a target, opened once and searched many times by its id (with
 * {@code search_after} to page), valid for a keep-alive that each search may renew.
 */
public interface PointInTimeOperations {

    /** Opens a point in time over the indices {@code target} resolves to; its id. */
    String open(String target, Duration keepAlive, CatalogView.Options options);

    /**
     * One search of the point in time {@code id} ({@code keepAlive} renews it). The hits' sort values are the
     * request's sort followed by {@code _shard_doc} when Elasticsearch adds it: a sort is given, it does not name
     * {@code _shard_doc}, and {@code search_after} is absent or longer than the sort.
     */
    SearchResult search(String id, Optional<Duration> keepAlive, SearchRequest request);

    /** Closes the point in time; the number of contexts freed (one per index, as Elasticsearch counts shards). */
    int close(String id);

    /**
     * Elasticsearch's answer for a search on a point-in-time id that names no open context (404
     * {@code search_context_missing_exception}), to be thrown; an id that cannot be read is a 400 thrown here.
     */
    io.qdrant.esgateway.domain.error.GatewayException missing(String id);

    /** How many points in time are open now (expired ones are closed first). */
    int openContexts();

    /** The sort field of a point in time's tiebreaker: the index and the document's position in it. */
    String SHARD_DOC = "_shard_doc";

    /**
     * The request as a point in time runs it: with {@code _shard_doc} added as the last sort key where
     * Elasticsearch adds it (see {@link #search}).
     */
    static SearchRequest withTiebreaker(SearchRequest request) {
        List<SortSpec> sort = request.sort();
        boolean named = sort.stream().anyMatch(s -> s instanceof SortSpec.Field f && f.field().equals(SHARD_DOC));
        if (named || sort.isEmpty()
                || (request.searchAfter().isPresent() && request.searchAfter().get().size() == sort.size())) {
            return request;
        }
        List<SortSpec> withShardDoc = new ArrayList<>(sort);
        withShardDoc.add(new SortSpec.Field(SHARD_DOC, SortSpec.Order.ASC, new SortSpec.Missing.Last(),
                Optional.empty(), Optional.empty(), Optional.empty()));
        return new SearchRequest(request.query(), request.knn(), request.from(), request.size(), withShardDoc,
                request.searchAfter(), request.source(), request.trackTotalHits(), request.trackScores(),
                request.minScore(), request.postFilter(), request.highlight(), request.fields(),
                request.docvalueFields(), request.storedFields(), request.aggregations(), request.rrf());
    }
}
