package io.qdrant.esgateway.domain.search;

import io.qdrant.esgateway.domain.aggregation.Aggregation;
import io.qdrant.esgateway.domain.document.SourceFilter;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.sort.SortSpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A parsed {@code _search} body (with URL parameters applied as ES applies them). {@code query} is absent for
 * "match everything"; {@code knn} holds the top-level kNN sections, combined with the query as ES does (scores
 * summed, each section contributing its top k); {@code highlight} is the parsed highlight section; {@code fields} and
 * {@code docvalue_fields} name the values each hit also returns under {@code fields}; {@code aggregations} are the
 * parsed {@code aggs} (computed over the query's matches, before {@code post_filter}); {@code rrf} is a reciprocal
 * rank fusion of several retrievers (then {@code query} and {@code knn} are empty); {@code scriptFields} are the
 * {@code script_fields} each hit also returns under {@code fields}.
 */
public record SearchRequest(Optional<Query> query, List<Query.Knn> knn, int from, int size, List<SortSpec> sort,
                            Optional<List<JsonValue>> searchAfter, SourceFilter source, TrackTotalHits trackTotalHits,
                            boolean trackScores, Optional<Float> minScore, Optional<Query> postFilter,
                            Optional<HighlightSpec> highlight, List<FieldValues.Request> fields,
                            List<FieldValues.Request> docvalueFields, Optional<List<String>> storedFields,
                            Map<String, Aggregation> aggregations, Optional<Rrf> rrf, List<ScriptField> scriptFields) {
    public static final int DEFAULT_SIZE = 10;

    /** A request without {@code script_fields}. */
    public SearchRequest(Optional<Query> query, List<Query.Knn> knn, int from, int size, List<SortSpec> sort,
                         Optional<List<JsonValue>> searchAfter, SourceFilter source, TrackTotalHits trackTotalHits,
                         boolean trackScores, Optional<Float> minScore, Optional<Query> postFilter,
                         Optional<HighlightSpec> highlight, List<FieldValues.Request> fields,
                         List<FieldValues.Request> docvalueFields, Optional<List<String>> storedFields,
                         Map<String, Aggregation> aggregations, Optional<Rrf> rrf) {
        this(query, knn, from, size, sort, searchAfter, source, trackTotalHits, trackScores, minScore, postFilter,
                highlight, fields, docvalueFields, storedFields, aggregations, rrf, List.of());
    }

    public SearchRequest {
        knn = List.copyOf(knn);
        sort = List.copyOf(sort);
        searchAfter = searchAfter.map(List::copyOf);
        fields = List.copyOf(fields);
        docvalueFields = List.copyOf(docvalueFields);
        storedFields = storedFields.map(List::copyOf);
        aggregations = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(aggregations));
        scriptFields = List.copyOf(scriptFields);
    }

    /** This request with another {@code sort} and {@code script_fields} (their stored scripts read). */
    public SearchRequest withScripts(List<SortSpec> newSort, List<ScriptField> newScriptFields) {
        return new SearchRequest(query, knn, from, size, newSort, searchAfter, source, trackTotalHits, trackScores,
                minScore, postFilter, highlight, fields, docvalueFields, storedFields, aggregations, rrf,
                newScriptFields);
    }

    /** {@code stored_fields: _none_}: hits carry neither {@code _id} nor {@code _source}, as in Elasticsearch. */
    public boolean noStoredFields() {
        return storedFields.map(l -> l.contains("_none_")).orElse(false);
    }

    /**
     * The shard-level checks of {@code search_after} (Elasticsearch reports them as a failure of every shard):
     * a sort is required and has as many keys as there are values.
     */
    public java.util.Optional<String> searchAfterProblem() {
        if (searchAfter.isEmpty()) {
            return java.util.Optional.empty();
        }
        if (sort.isEmpty()) {
            return java.util.Optional.of("Sort must contain at least one field.");
        }
        if (searchAfter.get().size() != sort.size()) {
            return java.util.Optional.of("search_after has " + searchAfter.get().size() + " value(s) but sort has "
                    + sort.size() + ".");
        }
        return java.util.Optional.empty();
    }

    /** Whether hits are ordered by relevance (no sort, or a sort that starts with {@code _score}). */
    public boolean sortsByScore() {
        return sort.isEmpty() || sort.get(0) instanceof SortSpec.Score;
    }

    /** Whether scores must be computed: ES computes them when sorting by score or asked with track_scores. */
    public boolean needsScores() {
        return trackScores || sort.isEmpty() || sort.stream().anyMatch(s -> s instanceof SortSpec.Score);
    }

    /** This request with another {@code track_total_hits}. */
    public SearchRequest withTrackTotalHits(TrackTotalHits track) {
        return new SearchRequest(query, knn, from, size, sort, searchAfter, source, track, trackScores, minScore,
                postFilter, highlight, fields, docvalueFields, storedFields, aggregations, rrf, scriptFields);
    }

    /** This request with another {@code query} and {@code post_filter}. */
    public SearchRequest withQueries(Optional<Query> newQuery, Optional<Query> newPostFilter) {
        return new SearchRequest(newQuery, knn, from, size, sort, searchAfter, source, trackTotalHits, trackScores,
                minScore, newPostFilter, highlight, fields, docvalueFields, storedFields, aggregations, rrf,
                scriptFields);
    }

    /** This request with other top-level kNN sections. */
    public SearchRequest withKnn(List<Query.Knn> newKnn) {
        return new SearchRequest(query, newKnn, from, size, sort, searchAfter, source, trackTotalHits, trackScores,
                minScore, postFilter, highlight, fields, docvalueFields, storedFields, aggregations, rrf,
                scriptFields);
    }

    /** This request without {@code post_filter} (what aggregations see). */
    public SearchRequest withoutPostFilter() {
        return new SearchRequest(query, knn, from, size, sort, searchAfter, source, trackTotalHits, trackScores,
                minScore, Optional.empty(), highlight, fields, docvalueFields, storedFields, aggregations, rrf,
                scriptFields);
    }

    /**
     * A plain search for one list of a fusion: its own query or kNN section, {@code window} hits, nothing else — but
     * the request's {@code _source}, {@code fields} and {@code docvalue_fields}, which say what the fused hits carry
     * (a store may fetch no source when none of them needs it).
     */
    public SearchRequest forRetriever(Optional<Query> retrieverQuery, List<Query.Knn> retrieverKnn, int window) {
        return new SearchRequest(retrieverQuery, retrieverKnn, 0, window, List.of(), Optional.empty(), source,
                new TrackTotalHits.Disabled(), false, Optional.empty(), Optional.empty(), Optional.empty(), fields,
                docvalueFields, Optional.empty(), Map.of(), Optional.empty(), scriptFields);
    }

    /**
     * One page of a scroll or point in time: this request with {@code sort} (the request's own with a tiebreaker),
     * continuing after {@code after}, {@code size} hits from the first, an exact total, and its aggregations only
     * when {@code withAggregations}.
     */
    public SearchRequest forPage(List<SortSpec> pageSort, Optional<List<JsonValue>> after, int pageSize,
                                 boolean withAggregations) {
        return new SearchRequest(query, knn, 0, pageSize, pageSort, after, source, new TrackTotalHits.Exact(),
                trackScores, minScore, postFilter, highlight, fields, docvalueFields, storedFields,
                withAggregations ? aggregations : Map.of(), rrf, scriptFields);
    }

    /** The same request with another query and kNN sections and no fusion (totals and aggregations of a fusion). */
    public SearchRequest withMatching(Optional<Query> newQuery, List<Query.Knn> newKnn, int newSize) {
        return new SearchRequest(newQuery, newKnn, 0, newSize, List.of(), Optional.empty(), source, trackTotalHits,
                false, minScore, postFilter, Optional.empty(), List.of(), List.of(), storedFields, aggregations,
                Optional.empty());
    }
}
