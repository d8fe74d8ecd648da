package io.qdrant.esgateway.adapter.out.qdrant.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.qdrant.esgateway.adapter.out.lucene.LuceneStores;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator.Translated;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.query.dsl.QueryDsl;
import org.junit.jupiter.api.Test;
import io.qdrant.esgateway.adapter.out.qdrant.read.CollectionReads;
import io.qdrant.esgateway.adapter.out.qdrant.OpenApiValidator;

/**
 * The candidates' filters of full-text and scored queries, case by case: each is a superset of the query's matches
 * (full-text parts widened to conditions on the analysed tokens in {@code _t}, exact parts exact, negated full text
 * dropped), checked against the spec's {@code Filter} schema and for empty clause arrays. That the candidates then
 * give Elasticsearch's answers is {@code QdrantVersusLuceneTest}'s part.
 */
class SupersetFilterTest {

    private static Translated superset(String esQuery) {
        FilterTranslator exact = new FilterTranslator(QdrantFilterTranslatorTest.INDEX, () -> 0L);
        return new SupersetFilter(QdrantFilterTranslatorTest.INDEX, exact, LuceneStores.relevanceScorer())
                .superset(QueryDsl.parse(Json.parse(esQuery)));
    }

    private static String condition(String esQuery) {
        Translated t = superset(esQuery);
        assertThat(t).as("superset of %s", esQuery).isInstanceOf(FilterTranslator.Condition.class);
        JsonNode filter = CollectionReads.filter(t);
        assertThat(OpenApiValidator.QDRANT.schema("Filter", filter)).as("spec check of %s", filter).isEmpty();
        QdrantFilterTranslatorTest.assertNoEmptyArrays(filter);
        return ((FilterTranslator.Condition) t).node().toString();
    }

    @Test
    void matchIsAnyOfItsAnalysedTokensAndOperatorAndIsAllOfThem() {
        assertThat(condition("{\"match\": {\"title\": \"The Quick, quick FOX\"}}"))
                .isEqualTo("{\"key\":\"_t.title\",\"match\":{\"any\":[\"the\",\"quick\",\"fox\"]}}");
        assertThat(condition("{\"match\": {\"title\": {\"query\": \"quick fox\", \"minimum_should_match\": 2}}}"))
                .isEqualTo("{\"key\":\"_t.title\",\"match\":{\"any\":[\"quick\",\"fox\"]}}");
        assertThat(condition("{\"match\": {\"title\": {\"query\": \"quick fox\", \"operator\": \"and\"}}}"))
                .isEqualTo("{\"must\":[{\"key\":\"_t.title\",\"match\":{\"value\":\"quick\"}},"
                        + "{\"key\":\"_t.title\",\"match\":{\"value\":\"fox\"}}]}");
        assertThat(condition("{\"match_phrase\": {\"title\": \"fox fox\"}}"))
                .isEqualTo("{\"key\":\"_t.title\",\"match\":{\"value\":\"fox\"}}");
    }

    @Test
    void noTokensFollowZeroTermsQuery() {
        assertThat(superset("{\"match\": {\"title\": \"...\"}}")).isInstanceOf(FilterTranslator.Never.class);
        assertThat(superset("{\"match\": {\"title\": {\"query\": \"...\", \"zero_terms_query\": \"all\"}}}"))
                .isInstanceOf(FilterTranslator.Always.class);
    }

    @Test
    void otherFieldTypesAreExactOrUnconstrained() {
        assertThat(condition("{\"match\": {\"tag\": \"Red Fox\"}}"))
                .isEqualTo("{\"key\":\"_f.tag\",\"match\":{\"any\":[\"Red Fox\"]}}");
        assertThat(superset("{\"match\": {\"count\": \"12\"}}")).isInstanceOf(FilterTranslator.Always.class);
        assertThat(superset("{\"match\": {\"nope\": \"x\"}}")).isInstanceOf(FilterTranslator.Never.class);
        assertThat(superset("{\"multi_match\": {\"query\": \"x\", \"fields\": [\"ti*\"]}}"))
                .isInstanceOf(FilterTranslator.Always.class);
        assertThat(superset("{\"query_string\": {\"query\": \"fox\"}}")).isInstanceOf(FilterTranslator.Always.class);
    }

    @Test
    void termLevelQueriesOnTextLookAtTheTokens() {
        assertThat(condition("{\"term\": {\"title\": \"Fox\"}}"))
                .isEqualTo("{\"key\":\"_t.title\",\"match\":{\"any\":[\"Fox\"]}}");
        assertThat(condition("{\"terms\": {\"title\": [\"fox\", \"dog\"]}}"))
                .isEqualTo("{\"key\":\"_t.title\",\"match\":{\"any\":[\"fox\",\"dog\"]}}");
    }

    @Test
    void prefixAndWildcardOnTextLookForATokenPrefix() {
        assertThat(condition("{\"prefix\": {\"title\": \"qui\"}}"))
                .isEqualTo("{\"key\":\"_t.title\",\"match\":{\"prefix\":\"qui\"}}");
        assertThat(condition("{\"wildcard\": {\"title\": \"q\\\\*u?ck*\"}}"))
                .isEqualTo("{\"key\":\"_t.title\",\"match\":{\"prefix\":\"q*u\"}}");
        // query_string lowercases patterns on text fields, so must the candidates' prefix
        assertThat(condition("{\"query_string\": {\"query\": \"title:QUI*\"}}"))
                .isEqualTo("{\"key\":\"_t.title\",\"match\":{\"prefix\":\"qui\"}}");
        assertThat(superset("{\"wildcard\": {\"title\": \"*ick\"}}")).isInstanceOf(FilterTranslator.Always.class);
        assertThat(superset("{\"regexp\": {\"title\": \"qu.*\"}}")).isInstanceOf(FilterTranslator.Always.class);
        assertThat(superset("{\"prefix\": {\"title\": {\"value\": \"Qu\", \"case_insensitive\": true}}}"))
                .isInstanceOf(FilterTranslator.Always.class);
    }

    @Test
    void compoundQueriesCombineTheirParts() {
        assertThat(condition("{\"bool\": {\"must\": {\"match\": {\"title\": \"fox\"}}, \"filter\": {\"term\":"
                + " {\"tag\": \"red\"}}, \"should\": {\"match\": {\"title\": \"dog\"}}}}"))
                .isEqualTo("{\"must\":[{\"key\":\"_t.title\",\"match\":{\"any\":[\"fox\"]}},"
                        + "{\"key\":\"_f.tag\",\"match\":{\"value\":\"red\"}}]}");
        // should alone: one of them; minimum_should_match 2 of 3: min_should
        assertThat(condition("{\"bool\": {\"should\": [{\"match\": {\"title\": \"fox\"}}, {\"term\": {\"tag\":"
                + " \"red\"}}]}}")).isEqualTo("{\"should\":[{\"key\":\"_t.title\",\"match\":{\"any\":[\"fox\"]}},"
                        + "{\"key\":\"_f.tag\",\"match\":{\"value\":\"red\"}}]}");
        assertThat(condition("{\"bool\": {\"should\": [{\"match\": {\"title\": \"fox\"}}, {\"term\": {\"tag\":"
                + " \"red\"}}, {\"term\": {\"tag\": \"blue\"}}], \"minimum_should_match\": 2}}"))
                .contains("\"min_should\"").contains("\"min_count\":2");
        // a negated full-text query is dropped (its negation would not be a superset); a negated filter stays
        assertThat(condition("{\"bool\": {\"must\": {\"match\": {\"title\": \"fox\"}}, \"must_not\": [{\"match\":"
                + " {\"title\": \"dog\"}}, {\"term\": {\"tag\": \"red\"}}]}}"))
                .isEqualTo("{\"must\":[{\"key\":\"_t.title\",\"match\":{\"any\":[\"fox\"]}},"
                        + "{\"must_not\":[{\"key\":\"_f.tag\",\"match\":{\"value\":\"red\"}}]}]}");
        assertThat(condition("{\"dis_max\": {\"queries\": [{\"match\": {\"title\": \"fox\"}}, {\"match\": {\"title.raw\":"
                + " \"fox\"}}]}}")).isEqualTo("{\"should\":[{\"key\":\"_t.title\",\"match\":{\"any\":[\"fox\"]}},"
                        + "{\"key\":\"_f.\\\"title.raw\\\"\",\"match\":{\"any\":[\"fox\"]}}]}");
        assertThat(condition("{\"boosting\": {\"positive\": {\"match\": {\"title\": \"fox\"}}, \"negative\": {\"term\":"
                + " {\"tag\": \"red\"}}, \"negative_boost\": 0.5}}"))
                .isEqualTo("{\"key\":\"_t.title\",\"match\":{\"any\":[\"fox\"]}}");
        // a match on a keyword field is one exact term
        assertThat(condition("{\"query_string\": {\"query\": \"title:fox AND tag:red\"}}"))
                .isEqualTo("{\"must\":[{\"key\":\"_t.title\",\"match\":{\"any\":[\"fox\"]}},"
                        + "{\"key\":\"_f.tag\",\"match\":{\"any\":[\"red\"]}}]}");
    }

    @Test
    void expansionsAreRefusedWithA400NamingThem() {
        for (String q : java.util.List.of("{\"match_phrase_prefix\": {\"title\": \"fo\"}}",
                "{\"match\": {\"title\": {\"query\": \"fox\", \"fuzziness\": 1}}}",
                "{\"multi_match\": {\"query\": \"fo\", \"fields\": [\"title\"], \"type\": \"phrase_prefix\"}}")) {
            assertThatThrownBy(() -> superset(q)).as(q).isInstanceOf(GatewayException.class)
                    .satisfies(e -> assertThat(((GatewayException) e).kind()).isEqualTo(ErrorKind.UNSUPPORTED))
                    .hasMessageContaining("Qdrant backend");
        }
    }
}
