package io.qdrant.esgateway.application.service;

import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.domain.aggregation.AggregationPlan;
import io.qdrant.esgateway.domain.aggregation.NamedPartials;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.TrackTotalHits;
import java.util.List;
import java.util.Optional;

/**
 * Computes one index's aggregation partials with one way of aggregating a request (natively through
 * {@link DocumentStore#aggregate}, or the complete-scan path): the plan over the query's matches and, when the
 * request needs it ({@code global}, {@code terms} with {@code min_doc_count: 0}), the plan's second part over every
 * document of the index, asked for with a match-all request the same way (so any backend that can aggregate a query
 * can do both); the plan then assembles the index's answer.
 */
final class AggregationRunner {
    private AggregationRunner() {
    }

    /** One way of aggregating a request on an index. */
    @FunctionalInterface
    interface Aggregate {
        NamedPartials run(IndexMetadata index, SearchRequest request, AggregationPlan plan);
    }

    static NamedPartials aggregate(DocumentStore store, IndexMetadata index, SearchRequest request,
                                   AggregationPlan plan) {
        return aggregate(store::aggregate, index, request, plan);
    }

    static NamedPartials aggregate(Aggregate way, IndexMetadata index, SearchRequest request, AggregationPlan plan) {
        Optional<AggregationPlan> all = plan.allDocuments();
        if (all.isEmpty()) {
            return way.run(index, request, plan);
        }
        NamedPartials matched = plan.collectsMatches() ? way.run(index, request, plan) : NamedPartials.EMPTY;
        NamedPartials everything = way.run(index, matchAll(request), all.get());
        return plan.complete(matched, everything);
    }

    /** Every document of the index: no query, kNN, {@code min_score} or {@code post_filter}. */
    static SearchRequest matchAll(SearchRequest request) {
        return new SearchRequest(Optional.empty(), List.of(), 0, 0, List.of(), Optional.empty(), request.source(),
                new TrackTotalHits.Disabled(), false, Optional.empty(), Optional.empty(), Optional.empty(), List.of(),
                List.of(), Optional.empty(), request.aggregations(), Optional.empty());
    }
}
