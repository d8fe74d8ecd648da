package io.qdrant.esgateway.adapter.out.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite;
import io.qdrant.esgateway.domain.aggregation.AggregationPlan;
import io.qdrant.esgateway.domain.aggregation.NamedPartials;
import io.qdrant.esgateway.domain.document.DocumentParser;
import io.qdrant.esgateway.domain.document.DocumentVersion;
import io.qdrant.esgateway.domain.document.IndexableDocument;
import io.qdrant.esgateway.domain.document.ParsedDocument;
import io.qdrant.esgateway.domain.index.IndexMetadata;
import io.qdrant.esgateway.domain.index.IndexSettings;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.search.SearchRequest;
import io.qdrant.esgateway.domain.search.SearchRequestParser;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.qdrant.esgateway.adapter.out.lucene.aggregation.LuceneCountedAggregations;

/**
 * The counted aggregations ({@link LuceneCountedAggregations}) answer exactly what the domain's collectors answer
 * for the same documents: each aggregation is computed once alone (counted) and once next to a {@code max}
 * aggregation (which sends the whole plan to the collectors), and the two answers must be equal — over several
 * segments, deleted documents, multi-valued and missing fields, and queries with and without scores.
 */
class LuceneCountedAggregationsTest {
    private static final List<String> QUERIES = List.of(
            "",
            "\"query\":{\"range\":{\"n\":{\"gte\":2,\"lte\":7}}},",
            "\"query\":{\"term\":{\"b\":true}},",
            "\"query\":{\"bool\":{\"filter\":[{\"term\":{\"k\":\"a\"}}],\"must_not\":[{\"range\":{\"n\":{\"lt\":3}}}]}},",
            "\"query\":{\"match\":{\"t\":\"fox\"}},\"min_score\":0.3,",
            "\"query\":{\"term\":{\"k\":\"nothing\"}},");

    @TempDir
    Path temp;

    private LuceneStores.Handle store;
    private IndexMetadata index;
    private long seq;

    @BeforeEach
    void open() {
        store = LuceneStores.open(temp.resolve("data"));
        index = new IndexMetadata("idx", "u" + System.nanoTime(), Instant.EPOCH, IndexSettings.DEFAULTS,
                Mappings.parse(Json.parse("{\"properties\":{\"n\":{\"type\":\"long\"},\"t\":{\"type\":\"text\"},"
                        + "\"k\":{\"type\":\"keyword\"},\"b\":{\"type\":\"boolean\"},\"d\":{\"type\":\"date\"}}}")));
        store.createIndex(index);
        Random random = new Random(3);
        String[] keywords = {"a", "b", "c", "é", "a"};
        for (int i = 0; i < 60; i++) {
            StringBuilder doc = new StringBuilder("{\"t\":\"").append(i % 3 == 0 ? "fox fox" : i % 3 == 1 ? "fox dog"
                    : "dog").append('"');
            switch (i % 4) {
                case 0 -> doc.append(",\"k\":\"").append(keywords[random.nextInt(keywords.length)]).append('"');
                case 1 -> doc.append(",\"k\":[\"").append(keywords[random.nextInt(keywords.length)]).append("\",\"")
                        .append(keywords[random.nextInt(keywords.length)]).append("\"]");
                case 2 -> doc.append(",\"k\":null");
                default -> { }
            }
            if (i % 5 != 0) {
                int n = random.nextInt(10);
                doc.append(i % 2 == 0 ? ",\"n\":" + n : ",\"n\":[" + n + "," + n + "," + random.nextInt(10) + "]");
            }
            if (i % 7 != 0) {
                doc.append(",\"b\":").append(random.nextBoolean());
            }
            if (i % 3 != 2) {
                doc.append(",\"d\":\"2024-01-0").append(1 + random.nextInt(3)).append('"');
            }
            write("d" + (i % 50), doc.append('}').toString()); // the last ten replace (delete) earlier documents
            if (i % 13 == 12) {
                aggregate("{\"size\":0}"); // a refresh: several segments
            }
        }
    }

    @AfterEach
    void close() {
        store.close();
    }

    private void write(String id, String json) {
        ParsedDocument parsed = DocumentParser.parse(index.mappings(), Json.parse(json), id);
        store.write(index, List.of(new DocumentWrite.Upsert(new IndexableDocument(id,
                new DocumentVersion(1, seq++, 1), parsed.source(), parsed.values()))), seq - 1);
    }

    private NamedPartials aggregate(String body) {
        SearchRequest request = SearchRequestParser.parse(Optional.of(Json.parse(body)), Map.of());
        AggregationPlan plan = AggregationPlan.of(index.name(), request.aggregations(), index.mappings(), System::currentTimeMillis);
        return store.aggregate(index, request, plan);
    }

    private boolean counted(String body) {
        SearchRequest request = SearchRequestParser.parse(Optional.of(Json.parse(body)), Map.of());
        return LuceneCountedAggregations.covers(index,
                AggregationPlan.of(index.name(), request.aggregations(), index.mappings(), System::currentTimeMillis));
    }

    /** The aggregation {@code a} counted alone, and collected next to a {@code max}: the same answer. */
    private void assertSameAsCollected(String query, String aggregation) {
        String alone = "{\"size\":0," + query + "\"aggs\":{\"a\":" + aggregation + "}}";
        String collected = "{\"size\":0," + query + "\"aggs\":{\"a\":" + aggregation
                + ",\"force\":{\"max\":{\"field\":\"n\"}}}}";
        assertThat(counted(alone)).as("counted: %s", alone).isTrue();
        assertThat(counted(collected)).isFalse();
        String expected = Json.write(aggregate(collected).byName().get("a").render());
        assertThat(Json.write(aggregate(alone).byName().get("a").render())).as(alone).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"terms\":{\"field\":\"k\"}}",
        "{\"terms\":{\"field\":\"k\",\"size\":2,\"order\":{\"_key\":\"desc\"}}}",
        "{\"terms\":{\"field\":\"k\",\"missing\":\"zz\"}}",
        "{\"terms\":{\"field\":\"k\",\"missing\":\"a\",\"include\":\"[a-c]\"}}",
        "{\"terms\":{\"field\":\"k\",\"exclude\":[\"b\"],\"min_doc_count\":3}}",
        "{\"terms\":{\"field\":\"n\"}}",
        "{\"terms\":{\"field\":\"n\",\"missing\":-1,\"order\":[{\"_count\":\"asc\"},{\"_key\":\"asc\"}]}}",
        "{\"terms\":{\"field\":\"b\"}}",
        "{\"terms\":{\"field\":\"d\",\"format\":\"yyyy/MM/dd\"}}",
        "{\"filter\":{\"range\":{\"n\":{\"gt\":4}}}}",
        "{\"filters\":{\"filters\":{\"low\":{\"range\":{\"n\":{\"lt\":3}}},\"kb\":{\"term\":{\"k\":\"b\"}}}}}",
        "{\"filters\":{\"filters\":[{\"term\":{\"b\":false}},{\"match\":{\"t\":\"dog\"}}],\"other_bucket\":true}}",
        "{\"filters\":{\"filters\":{\"x\":{\"exists\":{\"field\":\"k\"}}},\"other_bucket_key\":\"rest\","
                + "\"keyed\":false}}"})
    void eachCountedAggregationEqualsTheCollectors(String aggregation) {
        for (String query : QUERIES) {
            assertSameAsCollected(query, aggregation);
        }
    }

    @Test
    void aPlanOfSeveralCountedAggregationsIsCountedTogether() {
        String body = "{\"size\":0,\"query\":{\"range\":{\"n\":{\"gte\":1}}},\"aggs\":{"
                + "\"k\":{\"terms\":{\"field\":\"k\"}},\"n\":{\"terms\":{\"field\":\"n\",\"size\":3}},"
                + "\"f\":{\"filters\":{\"filters\":{\"t\":{\"term\":{\"b\":true}}}}}}}";
        assertThat(counted(body)).isTrue();
        NamedPartials alone = aggregate(body);
        NamedPartials collected = aggregate(body.replace("\"aggs\":{", "\"aggs\":{\"force\":{\"max\":{\"field\":\"n\"}},"));
        for (String name : List.of("k", "n", "f")) {
            assertThat(Json.write(alone.byName().get(name).render()))
                    .isEqualTo(Json.write(collected.byName().get(name).render()));
        }
        assertThat(Json.write(alone.render())).startsWith("{\"k\":{").contains("\"doc_count_error_upper_bound\":0");
    }

    @Test
    void shapesThatNeedMoreThanCountsAreCollected() {
        assertThat(counted("{\"aggs\":{\"a\":{\"terms\":{\"field\":\"k\"},\"aggs\":{\"m\":{\"max\":{\"field\":\"n\"}}}}}}"))
                .isFalse();
        assertThat(counted("{\"aggs\":{\"a\":{\"terms\":{\"field\":\"k\",\"min_doc_count\":0}}}}")).isFalse();
        assertThat(counted("{\"aggs\":{\"a\":{\"terms\":{\"field\":\"k\",\"order\":{\"m\":\"desc\"}},"
                + "\"aggs\":{\"m\":{\"max\":{\"field\":\"n\"}}}}}}")).isFalse();
        assertThat(counted("{\"aggs\":{\"a\":{\"filters\":{\"filters\":{\"x\":{\"term\":{\"k\":\"a\"}}}},"
                + "\"aggs\":{\"c\":{\"terms\":{\"field\":\"k\"}}}}}}")).isFalse();
        assertThat(counted("{\"aggs\":{\"a\":{\"terms\":{\"field\":\"unmapped\"}}}}")).isFalse();
        assertThat(counted("{\"aggs\":{\"a\":{\"terms\":{\"field\":\"k\"}},\"g\":{\"global\":{}}}}")).isFalse();
    }
}
