package io.qdrant.esgateway.adapter.out.qdrant.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qdrant.esgateway.adapter.out.qdrant.filter.FilterTranslator.Translated;
import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.query.dsl.QueryDsl;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import io.qdrant.esgateway.adapter.out.qdrant.read.CollectionReads;
import io.qdrant.esgateway.adapter.out.qdrant.collection.QdrantLayout;
import io.qdrant.esgateway.adapter.out.qdrant.scoring.ConstantScores;
import io.qdrant.esgateway.adapter.out.qdrant.OpenApiValidator;

/**
 * The predicate → Qdrant filter translation, case by case against the guide's §9 and §11.8 semantics. Every
 * translated filter is also checked against the spec's {@code Filter} schema and for empty clause arrays.
 */
public class QdrantFilterTranslatorTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    public static final IndexMetadata INDEX = new IndexMetadata("products", "uuid-products", Instant.EPOCH,
            IndexSettings.DEFAULTS, Mappings.parse(Json.parse("""
            {"properties": {
              "tag": {"type": "keyword"}, "title": {"type": "text", "fields": {"raw": {"type": "keyword"}}},
              "count": {"type": "long"}, "small": {"type": "byte"}, "price": {"type": "double"},
              "ratio": {"type": "float"}, "half": {"type": "half_float"}, "active": {"type": "boolean"},
              "published": {"type": "date"}, "@timestamp": {"type": "date"},
              "embedding": {"type": "dense_vector", "dims": 3, "similarity": "cosine"},
              "author": {"properties": {"name": {"type": "keyword"}, "age": {"type": "integer"}}}
            }}""")));
    private static final long NOW = Instant.parse("2024-05-06T07:08:09.123Z").toEpochMilli();

    private static Translated translate(String esQuery) {
        return new FilterTranslator(INDEX, () -> NOW).query(QueryDsl.parse(Json.parse(esQuery)));
    }

    /** The Qdrant condition of a query, checked against the spec and for empty clause arrays. */
    private static JsonNode condition(String esQuery) {
        Translated t = translate(esQuery);
        assertThat(t).as("translation of %s", esQuery).isInstanceOf(FilterTranslator.Condition.class);
        JsonNode filter = CollectionReads.filter(t);
        assertThat(OpenApiValidator.QDRANT.schema("Filter", filter)).as("spec check of %s", filter).isEmpty();
        assertNoEmptyArrays(filter);
        return readTree(((FilterTranslator.Condition) t).node().toString());
    }

    private static JsonNode readTree(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String conditionText(String esQuery) {
        return condition(esQuery).toString();
    }

    static void assertNoEmptyArrays(JsonNode node) {
        if (node.isArray()) {
            assertThat(node.size()).as("an empty clause array").isPositive();
        }
        node.forEach(QdrantFilterTranslatorTest::assertNoEmptyArrays);
    }

    /** Parsed and re-serialised, so that numbers compare by value whatever their Jackson node type. */
    private static String json(String text) {
        try {
            return MAPPER.readTree(text).toString();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void termOnKeywordIsMatchValueOnTheIndexedValues() {
        assertThat(condition("{\"term\": {\"tag\": \"red\"}}").toString())
                .isEqualTo(json("{\"key\": \"_f.tag\", \"match\": {\"value\": \"red\"}}"));
        // a number given for a keyword is its string (strict types in Qdrant)
        assertThat(condition("{\"term\": {\"tag\": 5}}").toString())
                .isEqualTo(json("{\"key\": \"_f.tag\", \"match\": {\"value\": \"5\"}}"));
    }

    @Test
    void multiFieldsAndSpecialCharactersAreQuotedInPaths() {
        assertThat(condition("{\"term\": {\"title.raw\": \"x\"}}").get("key").asText()).isEqualTo("_f.\"title.raw\"");
        assertThat(condition("{\"term\": {\"author.name\": \"x\"}}").get("key").asText())
                .isEqualTo("_f.\"author.name\"");
        assertThat(condition("{\"range\": {\"@timestamp\": {\"gte\": 0}}}").get("key").asText())
                .isEqualTo("_f.\"@timestamp\"");
    }

    @Test
    void integersMatchAsIntegersAndFractionsMatchNothing() {
        assertThat(condition("{\"term\": {\"count\": \"42\"}}").toString())
                .isEqualTo(json("{\"key\": \"_f.count\", \"match\": {\"value\": 42}}"));
        assertThat(translate("{\"term\": {\"count\": 4.5}}")).isInstanceOf(FilterTranslator.Never.class);
        assertThat(condition("{\"terms\": {\"count\": [1, 2.5, \"3\"]}}").toString())
                .isEqualTo(json("{\"key\": \"_f.count\", \"match\": {\"any\": [1, 3]}}"));
        assertThatThrownBy(() -> translate("{\"term\": {\"small\": 300}}")).isInstanceOf(GatewayException.class)
                .hasMessageContaining("out of range for a byte");
    }

    @Test
    void floatEqualityIsARangeWithEqualBoundsAtTheFieldsPrecision() {
        assertThat(condition("{\"term\": {\"price\": 9.99}}").toString())
                .isEqualTo(json("{\"key\": \"_f.price\", \"range\": {\"gte\": 9.99, \"lte\": 9.99}}"));
        JsonNode ratio = condition("{\"term\": {\"ratio\": 0.1}}").get("range");
        assertThat(ratio.get("gte").asDouble()).isEqualTo((double) 0.1f).isEqualTo(ratio.get("lte").asDouble());
        JsonNode half = condition("{\"term\": {\"half\": 0.1}}").get("range");
        assertThat(half.get("gte").asDouble()).isEqualTo((double) Float.float16ToFloat(Float.floatToFloat16(0.1f)));
    }

    @Test
    void rangesFollowElasticsearchsRounding() {
        assertThat(condition("{\"range\": {\"count\": {\"gt\": 5, \"lt\": 10}}}").toString())
                .isEqualTo(json("{\"key\": \"_f.count\", \"range\": {\"gte\": 6, \"lte\": 9}}"));
        assertThat(condition("{\"range\": {\"count\": {\"gte\": 1.5}}}").toString())
                .isEqualTo(json("{\"key\": \"_f.count\", \"range\": {\"gte\": 2}}"));
        assertThat(translate("{\"range\": {\"count\": {\"gt\": 5, \"lt\": 6}}}"))
                .isInstanceOf(FilterTranslator.Never.class);
        JsonNode ratio = condition("{\"range\": {\"ratio\": {\"gt\": 0.5}}}").get("range");
        assertThat(ratio.get("gte").asDouble()).isEqualTo((double) Math.nextUp(0.5f));
        JsonNode price = condition("{\"range\": {\"price\": {\"lt\": 1}}}").get("range");
        assertThat(price.get("lte").asDouble()).isEqualTo(Math.nextDown(1.0));
    }

    @Test
    void datesAreEpochMillisecondRangesWithDateMath() {
        long start = Instant.parse("2024-01-01T00:00:00Z").toEpochMilli();
        long endOfDay = Instant.parse("2024-01-01T23:59:59.999Z").toEpochMilli();
        // as in Elasticsearch, a term on a date is the range of the value parsed rounding down and rounding up
        assertThat(condition("{\"term\": {\"published\": \"2024-01-01\"}}").toString()).isEqualTo(json(
                "{\"key\": \"_f.published\", \"range\": {\"gte\": " + start + ", \"lte\": " + endOfDay + "}}"));
        assertThat(condition("{\"range\": {\"published\": {\"gte\": \"2024-01-01||/d\", \"lte\": \"2024-01-01||/d\"}}}").toString())
                .isEqualTo(json("{\"key\": \"_f.published\", \"range\": {\"gte\": " + start + ", \"lte\": "
                        + endOfDay + "}}"));
        assertThat(condition("{\"range\": {\"published\": {\"gt\": \"2024-01-01||/d\"}}}").at("/range/gte").asLong())
                .isEqualTo(endOfDay + 1);
        assertThat(condition("{\"range\": {\"published\": {\"lt\": \"now\"}}}").at("/range/lte").asLong())
                .isEqualTo(NOW - 1);
    }

    @Test
    void booleansUseMatchValueAndTermsOfBooleansAreAShould() {
        assertThat(condition("{\"term\": {\"active\": \"true\"}}").toString())
                .isEqualTo(json("{\"key\": \"_f.active\", \"match\": {\"value\": true}}"));
        assertThat(condition("{\"terms\": {\"active\": [true, false]}}").toString()).isEqualTo(json("""
                {"should": [{"key": "_f.active", "match": {"value": true}},
                            {"key": "_f.active", "match": {"value": false}}]}"""));
    }

    @Test
    void existsIsMustNotIsEmpty() {
        assertThat(condition("{\"exists\": {\"field\": \"tag\"}}").toString())
                .isEqualTo(json("{\"must_not\": [{\"is_empty\": {\"key\": \"_f.tag\"}}]}"));
        assertThat(condition("{\"exists\": {\"field\": \"embedding\"}}").toString()).isEqualTo(json("{\"has_vector\": \"embedding\"}"));
        assertThat(condition("{\"exists\": {\"field\": \"author\"}}").toString()).isEqualTo(json("""
                {"should": [{"must_not": [{"is_empty": {"key": "_f.\\"author.age\\""}}]},
                            {"must_not": [{"is_empty": {"key": "_f.\\"author.name\\""}}]}]}"""));
        assertThat(translate("{\"exists\": {\"field\": \"nope\"}}")).isInstanceOf(FilterTranslator.Never.class);
    }

    @Test
    void mustNotOfTermsIsMustNotOfMatchAnySoMissingFieldsMatch() {
        assertThat(condition("{\"bool\": {\"must_not\": [{\"terms\": {\"tag\": [\"a\", \"b\"]}}]}}").toString()).isEqualTo(json(
                "{\"must_not\": [{\"key\": \"_f.tag\", \"match\": {\"any\": [\"a\", \"b\"]}}]}"));
    }

    @Test
    void optionalShouldBesideMustIsDroppedAndMinimumShouldMatchIsMinShould() {
        assertThat(conditionText("""
                {"bool": {"filter": [{"term": {"tag": "a"}}], "should": [{"term": {"tag": "b"}}]}}"""))
                .isEqualTo(json("{\"key\": \"_f.tag\", \"match\": {\"value\": \"a\"}}"));
        assertThat(conditionText("""
                {"bool": {"should": [{"term": {"tag": "a"}}, {"term": {"tag": "b"}}]}}""")).isEqualTo(json("""
                {"should": [{"key": "_f.tag", "match": {"value": "a"}}, {"key": "_f.tag", "match": {"value": "b"}}]}"""));
        assertThat(conditionText("""
                {"bool": {"should": [{"term": {"tag": "a"}}, {"term": {"tag": "b"}}, {"term": {"tag": "c"}}],
                          "minimum_should_match": 2}}""")).isEqualTo(json("""
                {"min_should": {"conditions": [{"key": "_f.tag", "match": {"value": "a"}},
                    {"key": "_f.tag", "match": {"value": "b"}}, {"key": "_f.tag", "match": {"value": "c"}}],
                    "min_count": 2}}"""));
    }

    @Test
    void idsAreHasIdOfThePointIds() {
        assertThat(condition("{\"ids\": {\"values\": [\"1\", \"2\"]}}").toString()).isEqualTo(json("{\"has_id\": [\""
                + QdrantLayout.pointId(INDEX, "1") + "\", \"" + QdrantLayout.pointId(INDEX, "2") + "\"]}"));
    }

    @Test
    void unmappedFieldsMatchNothingAndEmptyConjunctionsMatchEverything() {
        assertThat(translate("{\"term\": {\"nope\": \"x\"}}")).isInstanceOf(FilterTranslator.Never.class);
        assertThat(translate("{\"bool\": {\"must_not\": [{\"term\": {\"nope\": \"x\"}}]}}"))
                .isInstanceOf(FilterTranslator.Always.class);
        assertThat(translate("{\"match_all\": {}}")).isInstanceOf(FilterTranslator.Always.class);
        assertThat(CollectionReads.filter(new FilterTranslator.Always()).toString()).isEqualTo(json(
                "{\"must_not\": [{\"has_id\": [\"" + QdrantLayout.META_POINT + "\"]}]}"));
    }

    @Test
    void prefixOnKeywordIsMatchPrefix() {
        assertThat(condition("{\"prefix\": {\"tag\": \"re\"}}").toString())
                .isEqualTo(json("{\"key\": \"_f.tag\", \"match\": {\"prefix\": \"re\"}}"));
    }

    @Test
    void whatQdrantCannotEvaluateExactlyIsA400NamingTheFeature() {
        for (String[] c : new String[][] {
                {"{\"match\": {\"title\": \"quick fox\"}}", "[match]"},
                {"{\"match_phrase\": {\"title\": \"quick fox\"}}", "[match_phrase]"},
                {"{\"wildcard\": {\"tag\": \"r*d\"}}", "[wildcard]"},
                {"{\"regexp\": {\"tag\": \"r.d\"}}", "[regexp]"},
                {"{\"fuzzy\": {\"tag\": \"rad\"}}", "[fuzzy]"},
                {"{\"term\": {\"tag\": {\"value\": \"RED\", \"case_insensitive\": true}}}", "[case_insensitive]"},
                {"{\"range\": {\"tag\": {\"gte\": \"a\"}}}", "[range] queries on [keyword]"},
                {"{\"term\": {\"title\": \"fox\"}}", "[text] fields"}}) {
            assertThatThrownBy(() -> translate(c[0])).as(c[0]).isInstanceOf(GatewayException.class)
                    .satisfies(e -> assertThat(((GatewayException) e).kind()).isEqualTo(ErrorKind.UNSUPPORTED))
                    .hasMessageContaining(c[1]).hasMessageContaining("Qdrant backend");
        }
    }

    @Test
    void constantScoresAreComputedOrRefused() {
        assertThat(ConstantScores.of(java.util.Optional.empty())).isEqualTo(1f);
        assertThat(ConstantScores.of(java.util.Optional.of(QueryDsl.parse(Json.parse(
                "{\"constant_score\": {\"filter\": {\"term\": {\"tag\": \"a\"}}, \"boost\": 2.5}}"))))).isEqualTo(2.5f);
        assertThat(ConstantScores.of(java.util.Optional.of(QueryDsl.parse(Json.parse(
                "{\"bool\": {\"filter\": [{\"term\": {\"tag\": \"a\"}}]}}"))))).isEqualTo(0f);
        assertThatThrownBy(() -> ConstantScores.of(java.util.Optional.of(QueryDsl.parse(Json.parse(
                "{\"term\": {\"tag\": \"a\"}}"))))).hasMessageContaining("relevance scoring of the [term] query");
    }
}
