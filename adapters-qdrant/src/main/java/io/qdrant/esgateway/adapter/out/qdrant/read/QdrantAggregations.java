package io.qdrant.esgateway.adapter.out.qdrant.read;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator.Translated;
import io.qdrant.esgateway.adapter.out.qdrant.scoring.GatewayScoring;
import io.qdrant.esgateway.adapter.out.qdrant.transport.CollectionCalls;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;
import io.qdrant.esgateway.application.port.out.DocumentStore.ScanRequest;
import io.qdrant.esgateway.application.port.out.Scans;
import io.qdrant.esgateway.domain.aggregation.AggregationPlan;
import io.qdrant.esgateway.domain.aggregation.NamedCollectors;
import io.qdrant.esgateway.domain.aggregation.NamedPartials;
import io.qdrant.esgateway.domain.aggregation.ValuesDoc;
import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.search.SearchRequest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Aggregations: {@code terms} counts by Qdrant's {@code facet} ({@link QdrantFacets}); any other plan (reached only
 * when the capabilities are widened, e.g. in tests) or a facet answer that may be cut: the plan's collectors fed from
 * the store's complete scan, as the gateway's own aggregation does.
 */
public final class QdrantAggregations {
    private final CollectionCalls calls;
    /** Whether the gateway scores full-text queries (then their aggregations are not facets). */
    private final boolean gatewayScoring;
    /** The store's complete scan, whichever path serves it. */
    private final Scans scans;

    public QdrantAggregations(CollectionReads reads, boolean gatewayScoring, Scans scans) {
        this.calls = reads.calls();
        this.gatewayScoring = gatewayScoring;
        this.scans = scans;
    }

    /** The plan's partials, with a read sent beside the facet's first call ({@link QdrantClient.Beside}; null: none). */
    public NamedPartials aggregate(IndexMetadata index, SearchRequest request, AggregationPlan plan,
                                   QdrantClient.Beside<?> beside) {
        // facets count what a Qdrant filter matches: not kNN neighbours, not the gateway's full-text matching
        if (QdrantFacets.covers(index, plan) && !QdrantKnnSearch.applies(request)
                && (!gatewayScoring || !GatewayScoring.needed(index, request, false, Optional.empty(), false))) {
            Translated matches = FilterSearches.matches(index, request, false, Optional.empty(),
                    new FilterTranslator(index, CollectionReads.now()));
            String collection = calls.collection(index);
            Optional<NamedPartials> counted = QdrantFacets.aggregate(index, plan, matches, new QdrantFacets.Reads() {
                private QdrantClient.Beside<?> first = beside; // goes with the first call only

                @Override
                public <T> T post(String rest, ObjectNode body, String what, QdrantClient.ResultDecoder<T> decoder) {
                    QdrantClient.Beside<?> carried = first;
                    first = null;
                    return calls.call(index, "POST", collection, rest, Map.of(), body, true, what, decoder, carried);
                }
            });
            if (counted.isPresent()) {
                return counted.get();
            }
        }
        List<Set<String>> filterMatches = new ArrayList<>();
        for (Query filter : plan.filters()) {
            Set<String> matched = new HashSet<>();
            scans.scan(index, new ScanRequest(request, false, Optional.of(filter), Set.of(), false),
                    d -> matched.add(d.id()));
            filterMatches.add(matched);
        }
        Set<String> fields = new LinkedHashSet<>();
        plan.fields().forEach(f -> fields.add(f.name()));
        Mappings mappings = index.mappings();
        NamedCollectors collectors = plan.newCollectors();
        scans.scan(index, new ScanRequest(request, false, Optional.empty(), mappings.sourcePaths(fields),
                plan.needsScores()), d -> collectors.collect(new ValuesDoc(d.id(), d.score(),
                DocumentParser.parse(mappings, d.source(), d.id()).values(),
                i -> filterMatches.get(i).contains(d.id()))));
        return collectors.partial();
    }
}
