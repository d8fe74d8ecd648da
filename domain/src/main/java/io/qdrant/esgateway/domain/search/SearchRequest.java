package io.qdrant.esgateway.domain.search;

import io.qdrant.esgateway.domain.aggregation.Aggregation;
import io.qdrant.esgateway.domain.document.SourceFilter;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.query.Query;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A parsed {@code _search} body (with URL parameters applied as ES applies them). {@code query} is absent for
 * "match everything"; {@code knn} holds the top-level kNN sections, combined with the query as ES does (scores
 * summed, each section contributing its top k); {@code highlight} is the parsed highlight section; {@code fields} and
 * {@code docvalue_fields} name the values each hit also returns under {@code fields}; {@code aggregations} are the
 * parsed {@code aggs} (computed over the query's matches, before {@code post_filter}).
 */
public record SearchRequest(Optional<Query> query, List<Query.Knn> knn, int from, int size, List<SortSpec> sort,
                            Optional<List<JsonValue>> searchAfter, SourceFilter source, TrackTotalHits trackTotalHits,
                            boolean trackScores, Optional<Float> minScore, Optional<Query> postFilter,
                            Optional<HighlightSpec> highlight, List<FieldValues.Request> fields,
                            List<FieldValues.Request> docvalueFields, Optional<List<String>> storedFields,
                            Map<String, Aggregation> aggregations) {
    public static final int DEFAULT_SIZE = 10;

    public SearchRequest {
        knn = List.copyOf(knn);
        sort = List.copyOf(sort);
        searchAfter = searchAfter.map(List::copyOf);
        fields = List.copyOf(fields);
        docvalueFields = List.copyOf(docvalueFields);
        storedFields = storedFields.map(List::copyOf);
        aggregations = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(aggregations));
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
                postFilter, highlight, fields, docvalueFields, storedFields, aggregations);
    }

    /** This request without {@code post_filter} (what aggregations see). */
    public SearchRequest withoutPostFilter() {
        return new SearchRequest(query, knn, from, size, sort, searchAfter, source, trackTotalHits, trackScores,
                minScore, Optional.empty(), highlight, fields, docvalueFields, storedFields, aggregations);
    }
}
