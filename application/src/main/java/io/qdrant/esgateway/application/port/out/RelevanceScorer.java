package io.qdrant.esgateway.application.port.out;

import io.qdrant.esgateway.domain.document.IndexedValue;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.query.Query;
import io.qdrant.esgateway.domain.search.SearchRequest;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * Elasticsearch's matching and relevance scores computed by the gateway, for a backend that stores documents but cannot
 * score them as Elasticsearch does (Qdrant). The backend selects candidates (a superset of the matches), supplies the
 * whole index's term statistics, and this port decides which candidates really match and scores them exactly as the
 * embedded Lucene store would score them in an index holding every document: same analysis, same field encoding,
 * same similarity (BM25 on Elasticsearch's scale), same query translation.
 *
 * <p>A score depends on the document itself (term frequencies, field length) and on whole-index statistics: per field
 * the number of documents with at least one term ({@code docCount}) and the total number of terms
 * ({@code sumTotalTermFreq}), per term the number of documents containing it ({@code docFreq}). {@link #terms} gives a
 * backend what it must keep per document to answer those exactly.
 */
public interface RelevanceScorer {

    /**
     * What one document contributes to the statistics, per field path that holds indexed terms ({@code text},
     * {@code keyword}, {@code boolean}): its distinct terms (for {@code text} the analysed tokens, for {@code keyword}
     * the values, for {@code boolean} {@code true}/{@code false}) and its length (for {@code text} the number of
     * tokens over all values; for {@code keyword} and {@code boolean}, which index no frequencies, the number of
     * distinct terms). A field without any term (e.g. a text value of only punctuation) is absent. Text is analysed
     * with each field's index analyzer in {@code index}.
     */
    Map<String, FieldTerms> terms(IndexMetadata index, List<IndexedValue> values);

    /**
     * The distinct analysed tokens of {@code text} as a match query on the text field {@code field} searches them
     * (the field's search analyzer).
     */
    List<String> analyze(IndexMetadata index, String field, String text);

    /**
     * The tokens a full-text query on the text field {@code field} searches, grouped by position (tokens sharing a
     * position, e.g. synonyms, form one group), analysed as the query is: with {@code analyzer} if it names one, else
     * the field's search analyzer ({@code quote}: its search-quote analyzer, for phrases). A document can only match
     * if it holds a token of the groups (every group for an {@code and} or a phrase). Empty when the tokens form a
     * graph (a token spanning positions) whose matches such groups cannot bound.
     */
    default java.util.Optional<List<List<String>>> tokenGroups(IndexMetadata index, String field, String text,
                                                           java.util.Optional<String> analyzer, boolean quote) {
        return java.util.Optional.of(analyze(index, field, text).stream().map(List::of).toList());
    }

    /**
     * Checks that {@code query} can be matched and scored exactly from candidates (throws the 400 Elasticsearch or
     * this port gives otherwise, e.g. a bad value or a query whose expansion needs the whole term dictionary).
     */
    void validate(IndexMetadata index, Query query);

    /**
     * The statistics scoring {@code query} will ask for (fields and terms of its scored term and phrase queries), so
     * that a backend can fetch them together beforehand; {@link #score} may still ask for others (it asks lazily).
     */
    Needed statisticsOf(IndexMetadata index, Query query);

    /**
     * Scores the candidates: the ones matching {@code query} and every one of {@code filters}, each with its
     * Elasticsearch score for {@code query} (when {@code scores}; otherwise NaN), in candidate order. Candidates that
     * do not match are left out. {@code now} fixes date math.
     */
    List<Scored> score(IndexMetadata index, Query query, List<Query> filters, List<Candidate> candidates,
                       Statistics statistics, boolean scores, long now);

    /**
     * The highlighting of a search (its {@code highlight} section, for its query), as the embedded store highlights:
     * for one hit's id and {@code _source}, the fragments per field, computed on first use; no highlighting (empty
     * maps) when the request has no {@code highlight}. The id is part of the document the query is matched against
     * (an {@code ids} clause decides, as in Elasticsearch, whether the terms beside it are highlighted).
     */
    BiFunction<String, JsonObject, Map<String, List<String>>> highlighter(IndexMetadata index, SearchRequest request);

    /** Fields and terms (per field) whose statistics a query's scores depend on. */
    record Needed(Set<String> fields, Map<String, Set<String>> terms) {
        public Needed {
            fields = Set.copyOf(fields);
            terms = Map.copyOf(terms);
        }
    }

    /** One field's contribution to the statistics (see {@link #terms}). */
    record FieldTerms(Set<String> terms, int length) {
        public FieldTerms {
            terms = Set.copyOf(terms);
        }
    }

    /** A document the backend selected: its id and its indexed values (of at least the fields the queries read). */
    record Candidate(String id, List<IndexedValue> values) {
        public Candidate {
            values = List.copyOf(values);
        }
    }

    /** A candidate that matches, with its score (NaN when not asked). */
    record Scored(String id, float score) {
    }

    /** Whole-index statistics of one field; {@code docCount} is 0 when no document has a term in it. */
    record FieldStatistics(long docCount, long sumTotalTermFreq) {
    }

    /**
     * The whole index's statistics, as {@link #terms} defines them, asked for lazily (only what the query scores
     * needs); terms of {@code boolean} fields are {@code true}/{@code false}.
     */
    interface Statistics {
        FieldStatistics field(String field);

        long docFreq(String field, String term);

        /**
         * The whole index's term dictionary of a {@code text} or {@code keyword} field: every distinct term with its
         * {@code docFreq}, for the queries that expand terms from it ({@code fuzzy}, {@code fuzziness},
         * {@code match_phrase_prefix}), so that they expand as over the whole index; asked for only by such queries.
         */
        default Map<String, Long> dictionary(String field) {
            throw new UnsupportedOperationException("no term dictionary for [" + field + "]");
        }
    }
}
