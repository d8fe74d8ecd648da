package io.qdrant.esgateway.application.port.out;

import io.qdrant.esgateway.application.port.out.DocumentStore.FetchRef;
import io.qdrant.esgateway.application.port.out.DocumentStore.ScanRequest;
import io.qdrant.esgateway.application.port.out.DocumentStore.ScannedDocument;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.SearchRequest;
import java.util.List;
import java.util.function.Consumer;

/**
 * The complete-scan path, for what the backend does not compute natively: every matching document in index order
 * ({@link #scan}), then the fetch of the hits the gateway chose ({@link #fetch}).
 */
public interface Scans {

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
}
