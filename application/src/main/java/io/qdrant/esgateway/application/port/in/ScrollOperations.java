package io.qdrant.esgateway.application.port.in;

import io.qdrant.esgateway.application.port.in.SearchOperations.SearchResult;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.search.HitMetadata;
import io.qdrant.esgateway.domain.search.SearchRequest;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;

/**
 * Scroll: a search whose hits are read page by page through an id that stays valid for a keep-alive, renewed by each
 * page. Every matching document comes exactly once, in the search's order.
 */
public interface ScrollOperations {

    /**
     * Opens a scroll: the first page (with the total and aggregations) and the id for the next ones; every page's
     * hits carry the version metadata {@code metadata} asks for.
     */
    Page open(String target, SearchRequest request, Duration keepAlive, CatalogView.Options options,
              HitMetadata metadata);

    /** {@link #open(String, SearchRequest, Duration, CatalogView.Options, HitMetadata)} without version metadata. */
    default Page open(String target, SearchRequest request, Duration keepAlive, CatalogView.Options options) {
        return open(target, request, keepAlive, options, HitMetadata.NONE);
    }

    /**
     * The next page of the scroll. {@code keepAlive} renews the context; without it the page is the last one, as in
     * Elasticsearch: the context is closed and the page carries no scroll id.
     */
    Page next(String scrollId, Optional<Duration> keepAlive);

    /** Closes these scrolls; the number that were open (unknown or expired ids count nothing). */
    int clear(Collection<String> scrollIds);

    /**
     * Elasticsearch's answer for a scroll id that names no open context (404 {@code search_context_missing_exception}),
     * to be thrown; an id that cannot be read is a 400 thrown here.
     */
    io.qdrant.esgateway.domain.error.GatewayException missing(String scrollId);

    /** Closes every scroll; the number that were open. */
    int clearAll();

    /** How many scrolls are open now (expired ones are closed first). */
    int openContexts();

    /**
     * One page: the scroll id (none on a last page), the request as the client sent it and the version metadata it
     * asked for (what to render), and the result, whose hits carry the sort values of the request's own sort only.
     */
    record Page(Optional<String> scrollId, SearchRequest request, HitMetadata metadata, SearchResult result) {
    }
}
