package io.qdrant.esgateway.domain.query;

import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.List;
import java.util.Optional;

/**
 * The backend-neutral query tree, one record per Elasticsearch query type the gateway supports. Values are kept as
 * the neutral JSON scalars the request gave ({@link JsonValue}); they are interpreted against the mapping when the
 * query is normalised or translated, as Elasticsearch interprets them per field type.
 *
 * <p>Every translation (to a Lucene query, to a Qdrant filter, to the coverage rules) switches over this sealed set
 * without a {@code default}: adding a record here fails compilation in each of them until it is handled.
 */
public sealed interface Query {

    /** ES's {@code boost}; 1 when not given. */
    float boost();

    record MatchAll(float boost) implements Query {
    }

    record MatchNone(float boost) implements Query {
    }

    /** Exact value on a field; {@code caseInsensitive} for keyword fields (ES 7.10+). */
    record Term(String field, JsonValue value, boolean caseInsensitive, float boost) implements Query {
    }

    record Terms(String field, List<JsonValue> values, float boost) implements Query {
    }

    /** A bound: inclusive or not, with the value as given (dates may be date math). */
    record Bound(JsonValue value, boolean inclusive) {
    }

    record Range(String field, Optional<Bound> lower, Optional<Bound> upper, Optional<String> format,
                 Optional<String> timeZone, float boost) implements Query {
    }

    record Exists(String field, float boost) implements Query {
    }

    record Ids(List<String> ids, float boost) implements Query {
    }

    record Prefix(String field, String prefix, boolean caseInsensitive, float boost) implements Query {
    }

    record Wildcard(String field, String pattern, boolean caseInsensitive, float boost) implements Query {
    }

    record Regexp(String field, String pattern, boolean caseInsensitive, int maxDeterminizedStates, float boost)
            implements Query {
    }

    /** {@code fuzziness} as ES gives it: {@code AUTO}, {@code AUTO:3,6}, or an edit count. */
    record Fuzzy(String field, JsonValue value, Fuzziness fuzziness, int prefixLength, int maxExpansions,
                 boolean transpositions, float boost) implements Query {
    }

    record Bool(List<Query> must, List<Query> filter, List<Query> should, List<Query> mustNot,
                MinimumShouldMatch minimumShouldMatch, float boost) implements Query {
        public Bool {
            must = List.copyOf(must);
            filter = List.copyOf(filter);
            should = List.copyOf(should);
            mustNot = List.copyOf(mustNot);
        }

        /**
         * How many {@code should} clauses a document must match, as Elasticsearch decides: the number
         * {@code minimum_should_match} gives (0 when absent), but at least one when there is no {@code must} or
         * {@code filter} clause (a Lucene boolean query without required clauses needs one to match); 0 when there
         * are only {@code must_not} clauses (everything else matches, whatever {@code minimum_should_match} says).
         * More than there are {@code should} clauses means that nothing matches.
         */
        public int requiredShoulds() {
            boolean required = !must.isEmpty() || !filter.isEmpty();
            if (!required && should.isEmpty()) {
                return 0;
            }
            int n = minimumShouldMatch.required(should.size());
            return n == 0 && !required ? 1 : n;
        }
    }

    /**
     * {@code script_score}: the matches of {@code query}, each scored by a Painless score script ({@code source},
     * with {@code script}'s params), times {@code boost}; {@code minScore} drops documents scored lower.
     */
    record ScriptScore(Query query, io.qdrant.esgateway.domain.script.Script script, String source,
                       java.util.Optional<Float> minScore, float boost) implements Query {
    }

    /**
     * {@code function_score}: the matches of {@code query}, scored by its {@code functions} (each applied where its
     * filter matches) combined by {@code scoreMode}, capped by {@code maxBoost} and combined with the query's score by
     * {@code boostMode}; {@code minScore} drops documents scored lower; {@code boost} boosts the inner query, as in
     * Elasticsearch.
     */
    record FunctionScore(Query query, java.util.List<ScoreFunction> functions, String scoreMode, String boostMode,
                         float maxBoost, java.util.Optional<Float> minScore, float boost) implements Query {
        /** Whether any function has a filter. */
        public boolean filtered() {
            return functions.stream().anyMatch(f -> f.filter().isPresent());
        }
    }

    /** One function of a {@code function_score}: its optional filter and weight. */
    record ScoreFunction(java.util.Optional<Query> filter, java.util.Optional<Float> weight,
                         io.qdrant.esgateway.domain.script.FunctionScoring.Fn fn) {
    }

    record ConstantScore(Query filter, float boost) implements Query {
    }

    record Boosting(Query positive, Query negative, float negativeBoost, float boost) implements Query {
    }

    record DisMax(List<Query> queries, float tieBreaker, float boost) implements Query {
        public DisMax {
            queries = List.copyOf(queries);
        }
    }

    enum Operator {
        OR, AND
    }

    /**
     * Full-text match: the text is analysed with the field's search analyzer (or the query's {@code analyzer}) and
     * the terms combined by the operator.
     */
    record Match(String field, String text, Operator operator, MinimumShouldMatch minimumShouldMatch,
                 Optional<Fuzziness> fuzziness, int prefixLength, int maxExpansions, boolean lenient,
                 ZeroTermsQuery zeroTermsQuery, float boost, Optional<String> analyzer) implements Query {
        /** With the field's own search analyzer. */
        public Match(String field, String text, Operator operator, MinimumShouldMatch minimumShouldMatch,
                     Optional<Fuzziness> fuzziness, int prefixLength, int maxExpansions, boolean lenient,
                     ZeroTermsQuery zeroTermsQuery, float boost) {
            this(field, text, operator, minimumShouldMatch, fuzziness, prefixLength, maxExpansions, lenient,
                    zeroTermsQuery, boost, Optional.empty());
        }
    }

    enum ZeroTermsQuery {
        NONE, ALL
    }

    /** A phrase: the text is analysed with the field's search-quote analyzer (or the query's {@code analyzer}). */
    record MatchPhrase(String field, String text, int slop, ZeroTermsQuery zeroTermsQuery, float boost,
                       Optional<String> analyzer) implements Query {
        /** With the field's own search-quote analyzer. */
        public MatchPhrase(String field, String text, int slop, ZeroTermsQuery zeroTermsQuery, float boost) {
            this(field, text, slop, zeroTermsQuery, boost, Optional.empty());
        }
    }

    record MatchPhrasePrefix(String field, String text, int slop, int maxExpansions, float boost,
                             Optional<String> analyzer) implements Query {
        /** With the field's own search-quote analyzer. */
        public MatchPhrasePrefix(String field, String text, int slop, int maxExpansions, float boost) {
            this(field, text, slop, maxExpansions, boost, Optional.empty());
        }
    }

    enum MultiMatchType {
        BEST_FIELDS, MOST_FIELDS, PHRASE, PHRASE_PREFIX, CROSS_FIELDS, BOOL_PREFIX
    }

    /** A field with its per-field boost ({@code title^3}). */
    record BoostedField(String field, float boost) {
    }

    /** A match on several fields; the text is analysed per field, or with the query's {@code analyzer}. */
    record MultiMatch(List<BoostedField> fields, String text, MultiMatchType type, Operator operator,
                      MinimumShouldMatch minimumShouldMatch, Optional<Float> tieBreaker, Optional<Fuzziness> fuzziness,
                      int slop, boolean lenient, float boost, Optional<String> analyzer,
                      ZeroTermsQuery zeroTermsQuery) implements Query {
        public MultiMatch {
            fields = List.copyOf(fields);
        }

        /** With {@code zero_terms_query: none}. */
        public MultiMatch(List<BoostedField> fields, String text, MultiMatchType type, Operator operator,
                          MinimumShouldMatch minimumShouldMatch, Optional<Float> tieBreaker,
                          Optional<Fuzziness> fuzziness, int slop, boolean lenient, float boost,
                          Optional<String> analyzer) {
            this(fields, text, type, operator, minimumShouldMatch, tieBreaker, fuzziness, slop, lenient, boost,
                    analyzer, ZeroTermsQuery.NONE);
        }

        /** With each field's own search analyzer. */
        public MultiMatch(List<BoostedField> fields, String text, MultiMatchType type, Operator operator,
                          MinimumShouldMatch minimumShouldMatch, Optional<Float> tieBreaker,
                          Optional<Fuzziness> fuzziness, int slop, boolean lenient, float boost) {
            this(fields, text, type, operator, minimumShouldMatch, tieBreaker, fuzziness, slop, lenient, boost,
                    Optional.empty());
        }
    }

    /**
     * {@code query_string} and {@code simple_query_string}: the text as given, and its query tree, parsed once when
     * the query is built ({@code parsed}; {@code QueryStringParser.parse} gives it with the boost). The query's
     * {@code analyzer} analyses every term in place of the fields' search analyzers, and its {@code quote_analyzer}
     * (else the {@code analyzer}) the quoted phrases in place of their search-quote analyzers.
     */
    record QueryString(String query, List<BoostedField> fields, Operator defaultOperator, boolean simple,
                       boolean lenient, boolean analyzeWildcard, float boost, ParsedQueryString parsed,
                       Optional<String> analyzer, Optional<String> quoteAnalyzer)
            implements Query {
        public QueryString {
            fields = List.copyOf(fields);
            java.util.Objects.requireNonNull(parsed, "parsed");
        }

        public QueryString(String query, List<BoostedField> fields, Operator defaultOperator, boolean simple,
                           boolean lenient, boolean analyzeWildcard, float boost) {
            this(query, fields, defaultOperator, simple, lenient, analyzeWildcard, boost, Optional.empty(),
                    Optional.empty());
        }

        public QueryString(String query, List<BoostedField> fields, Operator defaultOperator, boolean simple,
                           boolean lenient, boolean analyzeWildcard, float boost, Optional<String> analyzer,
                           Optional<String> quoteAnalyzer) {
            this(query, fields, defaultOperator, simple, lenient, analyzeWildcard, boost,
                    QueryStringParser.parseOnce(query, List.copyOf(fields), defaultOperator, simple, analyzer,
                            quoteAnalyzer), analyzer, quoteAnalyzer);
        }
    }

    /** A k-nearest-neighbour search on a {@code dense_vector} field, optionally pre-filtered. */
    record Knn(String field, float[] queryVector, int k, int numCandidates, List<Query> filter,
               Optional<Float> similarity, float boost) implements Query {
        public Knn {
            queryVector = queryVector.clone();
            filter = List.copyOf(filter);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Knn other && other.field.equals(field)
                    && java.util.Arrays.equals(other.queryVector, queryVector) && other.k == k
                    && other.numCandidates == numCandidates && other.filter.equals(filter)
                    && other.similarity.equals(similarity) && other.boost == boost;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(field, java.util.Arrays.hashCode(queryVector), k, numCandidates, filter,
                    similarity, boost);
        }

        @Override
        public String toString() {
            return "Knn[" + field + ", " + java.util.Arrays.toString(queryVector) + ", k=" + k + ", candidates="
                    + numCandidates + ", filter=" + filter + ", similarity=" + similarity + ", boost=" + boost + "]";
        }
    }
}
