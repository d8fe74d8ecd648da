package io.qdrant.esgateway.adapter.out.qdrant;

import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantCollections;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator;
import io.qdrant.esgateway.adapter.out.qdrant.filter.SupersetFilter;
import io.qdrant.esgateway.adapter.out.qdrant.read.BesideReads;
import io.qdrant.esgateway.adapter.out.qdrant.read.CollectionReads;
import io.qdrant.esgateway.adapter.out.qdrant.read.FilterSearches;
import io.qdrant.esgateway.adapter.out.qdrant.read.QdrantAggregations;
import io.qdrant.esgateway.adapter.out.qdrant.read.QdrantFacets;
import io.qdrant.esgateway.adapter.out.qdrant.read.QdrantKnnSearch;
import io.qdrant.esgateway.adapter.out.qdrant.read.QdrantOrderedPages;
import io.qdrant.esgateway.adapter.out.qdrant.scoring.GatewayScoring;
import io.qdrant.esgateway.adapter.out.qdrant.scoring.VectorScriptScores;
import io.qdrant.esgateway.adapter.out.qdrant.transport.CollectionCalls;
import io.qdrant.esgateway.adapter.out.qdrant.transport.QdrantClient;
import io.qdrant.esgateway.adapter.out.qdrant.write.QdrantWrites;
import io.qdrant.esgateway.application.port.out.DocumentStore.Read;
import io.qdrant.esgateway.application.port.out.DocumentStore.ReadValue;
import io.qdrant.esgateway.application.port.out.RelevanceScorer;
import io.qdrant.esgateway.domain.aggregation.AggregationPlan;
import io.qdrant.esgateway.domain.aggregation.FieldRef.ValueKind;
import io.qdrant.esgateway.domain.aggregation.NamedPartials;
import io.qdrant.esgateway.domain.document.StoredDocument;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.plan.BackendCapabilities;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.search.Hit;
import io.qdrant.esgateway.domain.search.IndexHits;
import io.qdrant.esgateway.domain.search.SearchRequest;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The {@link io.qdrant.esgateway.application.port.out.DocumentStore} on Qdrant 1.19's REST API: one collection per
 * concrete index ({@link QdrantLayout} has the naming, the point ids and the payload layout). This class routes each
 * port method to the class of its concern: collections ({@link QdrantCollections}), writes ({@link QdrantWrites}),
 * reads by id and the scroll and count primitives ({@link CollectionReads}), and the three search paths below.
 *
 * <p>What is native: matching (every supported query becomes a Qdrant filter, {@link FilterTranslator}), exact
 * counts ({@code count} with {@code exact:true}), reads in index order (scroll by point id), numeric/date sorts
 * ({@code order_by}, {@link QdrantOrderedPages}) and {@code terms} counts ({@code facet},
 * {@link QdrantFacets}); other sorts and aggregations are declared absent ({@link #CAPABILITIES}), so the gateway
 * computes them over {@link #scan}. The filter path is {@link FilterSearches}.
 * Relevance scoring is native where the score is the same constant for every match (filters,
 * {@code constant_score}, {@code match_all}); full-text queries, per-document scores and {@code min_score} are
 * matched and scored by the gateway over Qdrant's candidates ({@link GatewayScoring}) when the store was opened with
 * a {@link RelevanceScorer}, and refused with a 400 otherwise.
 *
 * <p>Searches with kNN parts (top-level {@code knn}, {@code knn} queries) go to {@link QdrantKnnSearch}: Qdrant's
 * query API finds the neighbours, whose scores are Elasticsearch's.
 */
final class QdrantDocumentStore implements QdrantStores.Handle {
    /**
     * Honest capabilities: exact counts; native ordering by numeric and date fields in their default modes through
     * {@code order_by} ({@link QdrantOrderedPages} compensates its repeats of multi-valued points, its omission of
     * points without the key and its ties by point id, so the page is ES's); counts-only {@code terms} on keyword,
     * integral, date and boolean fields through {@code facet} ({@link QdrantFacets}); every other sort and
     * aggregation over the complete scan.
     */
    static final BackendCapabilities CAPABILITIES = new BackendCapabilities(
            Set.of(ValueKind.LONG, ValueKind.DOUBLE, ValueKind.FLOAT, ValueKind.DATE), Set.of(), false, Set.of(),
            true, false, true, true, QdrantFacets.FACETED, true);

    private final CollectionCalls calls;
    private final QdrantCollections collections;
    private final QdrantWrites writes;
    private final CollectionReads reads;
    private final FilterSearches filtered;
    private final QdrantKnnSearch knn;
    private final QdrantAggregations aggregations;
    /** Full-text matching and per-document scores by the gateway; absent without a scorer (then refused). */
    private final RelevanceScorer scorer;
    private final GatewayScoring scoring;
    /** The exact-kNN fast path of vector {@code script_score}s; absent without a scorer. */
    private final VectorScriptScores vectorScripts;

    QdrantDocumentStore(QdrantClient http) {
        this(http, null);
    }

    QdrantDocumentStore(QdrantClient http, RelevanceScorer scorer) {
        this(http, scorer, GatewayScoring.SCORE_BATCH);
    }

    /** With candidates scored {@code scoreBatch} at a time (tests use small batches to cross batch boundaries). */
    QdrantDocumentStore(QdrantClient http, RelevanceScorer scorer, int scoreBatch) {
        this(http, scorer, scoreBatch, VectorScriptScores.MIN_CANDIDATES);
    }

    /**
     * With the exact-kNN fast path of vector {@code script_score}s ({@link VectorScriptScores}) from
     * {@code vectorFastPathFrom} candidates on ({@link Integer#MAX_VALUE}: off; tests compare the two).
     */
    QdrantDocumentStore(QdrantClient http, RelevanceScorer scorer, int scoreBatch, int vectorFastPathFrom) {
        this.scorer = scorer;
        this.collections = new QdrantCollections(http, scorer != null);
        this.calls = collections.calls();
        this.writes = new QdrantWrites(collections, scorer);
        this.reads = new CollectionReads(calls, scorer);
        this.filtered = new FilterSearches(reads);
        this.knn = new QdrantKnnSearch(reads, collections);
        this.scoring = scorer == null ? null : new GatewayScoring(reads, scorer, scoreBatch);
        this.aggregations = new QdrantAggregations(reads, scoring != null, this);
        this.vectorScripts = scoring == null || vectorFastPathFrom == Integer.MAX_VALUE ? null
                : new VectorScriptScores(reads, collections, scoring, vectorFastPathFrom);
    }

    @Override
    public String name() {
        return "qdrant";
    }

    @Override
    public BackendCapabilities capabilities() {
        return CAPABILITIES;
    }

    // ---------------------------------------------------------------- index storage

    @Override
    public void createIndex(IndexMetadata index) {
        collections.createIndex(index);
    }

    @Override
    public void dropIndex(IndexMetadata index) {
        collections.dropIndex(index);
    }

    /** Creates the payload indexes of fields the collection does not index yet (read from its payload schema). */
    @Override
    public void updateMappings(IndexMetadata index) {
        collections.updateMappings(index);
    }

    /**
     * Refuses a new index analyzer for a text field that documents hold: a point keeps only the distinct tokens of
     * {@code _t} and the length of {@code _n}, and matching and scoring analyse the candidates' source again with the
     * field's current analyzer, so those documents would match and score as if indexed with the new analyzer, where
     * Elasticsearch keeps the tokens they were indexed with. A field no document holds may change.
     */
    @Override
    public void checkAnalysisChange(IndexMetadata before, IndexMetadata after) {
        List<String> held = new java.util.ArrayList<>();
        for (String field : io.qdrant.esgateway.domain.index.AnalysisReferences.indexAnalyzerChanged(
                before.mappings(), before.settings().analysis(), after.settings().analysis())) {
            if (count(before, Optional.of(new Query.Exists(field, 1f))) > 0) {
                held.add(field);
            }
        }
        if (!held.isEmpty()) {
            throw io.qdrant.esgateway.domain.error.GatewayException.illegalArgument("the index analyzer of "
                    + (held.size() == 1 ? "field " : "fields ") + held.toString().replace(" ", "")
                    + " of index [" + before.name() + "] cannot change on the Qdrant backend while documents hold "
                    + (held.size() == 1 ? "it" : "them") + ": they keep no record of the tokens they were indexed"
                    + " with, and would match and score as if indexed with the new analyzer; reindex into a new"
                    + " index with the new analyzer instead");
        }
    }

    @Override
    public StoreStats stats(IndexMetadata index) {
        return new StoreStats(reads.count(index, new FilterTranslator.Always()), 0, 0);
    }

    @Override
    public void ping() {
        calls.ping();
    }

    // ---------------------------------------------------------------- writes

    @Override
    public void write(IndexMetadata index, List<DocumentWrite> writes, long maxSeqNo) {
        this.writes.write(index, writes, maxSeqNo);
    }

    @Override
    public long maxSeqNo(IndexMetadata index) {
        return writes.maxSeqNo(index);
    }

    // ---------------------------------------------------------------- reads

    @Override
    public Map<String, StoredDocument> get(IndexMetadata index, Collection<String> ids) {
        return reads.get(index, ids);
    }

    @Override
    public long count(IndexMetadata index, Optional<Query> query) {
        if (query.isPresent() && QdrantKnnSearch.hasKnn(query.get())) {
            return knn.count(index, query.get());
        }
        if (scoring != null && query.isPresent() && SupersetFilter.textual(index, query.get())) {
            return scoring.count(index, query.get());
        }
        return filtered.count(index, query);
    }

    @Override
    public IndexHits search(IndexMetadata index, SearchRequest request, int topN) {
        if (!onFilterPath(index, request)) {
            if (request.highlight().isPresent() && scorer == null) {
                throw FilterTranslator.unsupported("[highlight]");
            }
            if (QdrantKnnSearch.applies(request)) {
                return knn.search(index, request, topN);
            }
            if (vectorScripts != null) {
                Optional<IndexHits> fast = vectorScripts.search(index, request, topN);
                if (fast.isPresent()) {
                    return fast.get();
                }
            }
            return scoring.search(index, request, topN);
        }
        return filtered.search(index, request, topN);
    }

    /**
     * Whether {@link #search} answers from a translated Qdrant filter: not a kNN search, not one the gateway scores,
     * and not a highlight without a scorer (a 400).
     */
    private boolean onFilterPath(IndexMetadata index, SearchRequest request) {
        return !(request.highlight().isPresent() && scorer == null) && !QdrantKnnSearch.applies(request)
                && !(scoring != null && GatewayScoring.needed(index, request, request.needsScores(), Optional.empty(),
                true));
    }

    @Override
    public List<Hit> fetch(IndexMetadata index, SearchRequest request, List<FetchRef> refs) {
        return reads.fetch(index, request, refs);
    }

    @Override
    public NamedPartials aggregate(IndexMetadata index, SearchRequest request, AggregationPlan plan) {
        return aggregations.aggregate(index, request, plan, null);
    }

    @Override
    public void scan(IndexMetadata index, ScanRequest scan, Consumer<ScannedDocument> sink) {
        if (QdrantKnnSearch.applies(scan.search()) || scan.filter().map(QdrantKnnSearch::hasKnn).orElse(false)) {
            knn.scan(index, scan, sink);
            return;
        }
        if (scoring != null && GatewayScoring.needed(index, scan.search(), scan.scores(), scan.filter(),
                scan.postFilter())) {
            scoring.scan(index, scan, sink);
            return;
        }
        filtered.scan(index, scan, sink);
    }

    @Override
    public boolean readsTogetherOnOneThread() {
        return true;
    }

    /** See {@link BesideReads}: a count-only search goes beside a {@code terms} aggregation's facet call. */
    @Override
    public List<ReadValue> readTogether(List<Read> reads) {
        return BesideReads.run(reads, this::step);
    }

    /**
     * A read of {@link #readTogether}: a search that is only its exact count (no page, a plain filter) is that count
     * prepared to go beside another call ({@link FilterSearches#countOnly}); an aggregation is its own calls, its
     * facet's first call carrying a beside; anything else {@link #search}.
     */
    private BesideReads.Step step(Read read) {
        return switch (read) {
            case Read.Aggregate a -> new BesideReads.Step.Own(carried -> new ReadValue.Partials(
                    aggregations.aggregate(a.index(), a.request(), a.plan(), carried)));
            case Read.Search s when s.topN() > 0 || !onFilterPath(s.index(), s.request()) ->
                    new BesideReads.Step.Own(carried -> new ReadValue.Hits(search(s.index(), s.request(), s.topN())));
            case Read.Search s -> filtered.countOnly(s.index(), s.request());
        };
    }

    @Override
    public void close() {
        calls.close();
    }
}
