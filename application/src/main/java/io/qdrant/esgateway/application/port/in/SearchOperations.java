package io.qdrant.esgateway.application.port.in;

import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.IndexHits;
import io.qdrant.esgateway.domain.search.SearchRequest;
import java.util.List;
import java.util.Optional;

/** {@code _search} and {@code _count} over the indices an expression names (results merged across indices). */
public interface SearchOperations {

    SearchResult search(String target, SearchRequest request, CatalogView.Options options);

    CountResult count(String target, Optional<Query> query, CatalogView.Options options);

    /**
     * The page of hits ({@code from} already applied), the merged total and best score, how many indices answered,
     * the mappings of those indices (to render {@code fields} per hit), and the aggregations merged over all indices
     * (absent when the request has none), and the indices that failed while others answered (Elasticsearch's
     * partial results: rendered under {@code _shards.failures}).
     */
    record SearchResult(Optional<IndexHits.Total> total, float maxScore, List<Hit> hits, int indices,
                        java.util.Map<String, io.qdrant.esgateway.domain.index.Mappings> mappings,
                        Optional<io.qdrant.esgateway.domain.aggregation.NamedPartials> aggregations,
                        List<io.qdrant.esgateway.domain.error.GatewayException.ShardFailure> failures) {
        public SearchResult {
            failures = List.copyOf(failures);
            hits = List.copyOf(hits);
            mappings = java.util.Map.copyOf(mappings);
        }
    }

    record CountResult(long count, int indices) {
    }
}
