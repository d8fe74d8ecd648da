package io.qdrant.esgateway.application.service;

import io.qdrant.esgateway.application.port.in.SearchOperations;
import io.qdrant.esgateway.application.port.out.Catalog;
import io.qdrant.esgateway.application.port.out.DocumentStore;
import io.qdrant.esgateway.domain.aggregation.AggregationPlan;
import io.qdrant.esgateway.domain.aggregation.NamedPartials;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.CatalogView;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.HitOrder;
import io.qdrant.esgateway.domain.search.IndexHits;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.TrackTotalHits;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Searches every index a target names and merges their answers: each index returns its best {@code from + size}
 * hits; the merge orders them with the request's order (ties: index name, then each index's own order), applies
 * {@code from}, sums the totals and keeps the best score. Elasticsearch's {@code index.max_result_window} bounds
 * {@code from + size}.
 */
public final class SearchService implements SearchOperations {
    private final Catalog catalog;
    private final DocumentStore store;

    public SearchService(Catalog catalog, DocumentStore store) {
        this.catalog = catalog;
        this.store = store;
    }

    @Override
    public SearchResult search(String target, SearchRequest request, CatalogView.Options options) {
        List<IndexMetadata> indices = catalog.view().resolve(target, options);
        int window = request.from() + request.size();
        List<GatewayException.ShardFailure> failures = new ArrayList<>();
        for (IndexMetadata index : indices) {
            if (request.searchAfterProblem().isPresent()) {
                failures.add(new GatewayException.ShardFailure(index.name(),
                        GatewayException.illegalArgument(request.searchAfterProblem().get())));
                continue;
            }
            int max = index.settings().maxResultWindow();
            if (window > max) {
                failures.add(new GatewayException.ShardFailure(index.name(), GatewayException.illegalArgument(
                        "Result window is too large, from + size must be less than or equal to: [" + max
                                + "] but was [" + window + "]. See the scroll api for a more efficient way to request"
                                + " large data sets. This limit can be set by changing the [index.max_result_window]"
                                + " index level setting.")));
            }
        }
        if (!failures.isEmpty()) {
            throw GatewayException.allShardsFailed(failures);
        }
        List<Hit> all = new ArrayList<>();
        long total = 0;
        boolean exact = true;
        boolean counted = !(request.trackTotalHits() instanceof TrackTotalHits.Disabled);
        float maxScore = Float.NaN;
        List<IndexHits> answers = new ArrayList<>();
        List<NamedPartials> aggregations = new ArrayList<>();
        for (IndexMetadata index : indices) {
            try {
                if (!request.aggregations().isEmpty()) {
                    AggregationPlan plan = AggregationPlan.of(index.name(), request.aggregations(), index.mappings());
                    aggregations.add(AggregationRunner.aggregate(store, index, request, plan));
                }
                answers.add(store.search(index, request, window));
            } catch (GatewayException e) {
                if (e.kind() != ErrorKind.ILLEGAL_ARGUMENT) {
                    throw e;
                }
                // a query that cannot run on an index (sorting on text, a bad value for the field's type) fails that
                // index, as a shard failure in Elasticsearch
                failures.add(new GatewayException.ShardFailure(index.name(), e));
            }
        }
        if (!failures.isEmpty()) {
            throw GatewayException.allShardsFailed(failures);
        }
        for (IndexHits hits : answers) {
            all.addAll(hits.hits());
            if (hits.total().isPresent()) {
                total += hits.total().get().value();
                exact &= hits.total().get().exact();
            }
            if (!Float.isNaN(hits.maxScore()) && (Float.isNaN(maxScore) || hits.maxScore() > maxScore)) {
                maxScore = hits.maxScore();
            }
        }
        if (indices.size() > 1) {
            Comparator<Hit> order = HitOrder.of(request);
            // a stable sort keeps each index's own order for ties, and indices come sorted by name
            all.sort(order);
        }
        Optional<IndexHits.Total> merged = Optional.empty();
        if (counted) {
            if (request.trackTotalHits() instanceof TrackTotalHits.UpTo upTo && total > upTo.threshold()) {
                merged = Optional.of(new IndexHits.Total(upTo.threshold(), false));
            } else {
                merged = Optional.of(new IndexHits.Total(total, exact));
            }
        }
        List<Hit> page = request.from() >= all.size() ? List.of()
                : all.subList(request.from(), Math.min(all.size(), window));
        java.util.Map<String, io.qdrant.esgateway.domain.index.Mappings> mappings = new java.util.HashMap<>();
        indices.forEach(i -> mappings.put(i.name(), i.mappings()));
        Optional<NamedPartials> aggs = request.aggregations().isEmpty() || indices.isEmpty() ? Optional.empty()
                : Optional.of(NamedPartials.mergeAll(aggregations));
        return new SearchResult(merged, maxScore, page, indices.size(), mappings, aggs);
    }

    @Override
    public CountResult count(String target, Optional<Query> query, CatalogView.Options options) {
        List<IndexMetadata> indices = catalog.view().resolve(target, options);
        long count = 0;
        for (IndexMetadata index : indices) {
            count += store.count(index, query);
        }
        return new CountResult(count, indices.size());
    }
}
