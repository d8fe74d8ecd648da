package io.qdrant.esgateway.adapter.out.lucene.aggregation;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.qdrant.esgateway.adapter.out.lucene.LuceneStores;
import io.qdrant.esgateway.adapter.out.lucene.cache.SortedTermValuesCache;

/**
 * Keyword {@code terms} over a range counted from the sorted entries ({@link RangeTermsCounts}) equal the collectors'
 * answer on the same documents: segments that answer from their entries (single-valued keyword and number) beside
 * segments that cannot (a multi-valued number, a multi-valued keyword, deletions), missing values on both sides,
 * ties, long and double ranges in the forms the translator produces.
 */
class RangeTermsCountsTest {
    @TempDir
    Path temp;

    private LuceneStores.Handle store;
    private IndexMetadata index;
    private long seq;

    @BeforeEach
    void open() {
        store = LuceneStores.open(temp.resolve("data"));
        index = new IndexMetadata("idx", "u" + System.nanoTime(), Instant.EPOCH, IndexSettings.DEFAULTS,
                Mappings.parse(Json.parse("{\"properties\":{\"n\":{\"type\":\"long\"},\"x\":{\"type\":\"double\"},"
                        + "\"k\":{\"type\":\"keyword\"},\"j\":{\"type\":\"keyword\"}}}")));
        store.createIndex(index);
    }

    @AfterEach
    void close() {
        store.close();
    }

    /**
     * Writes one segment of {@code count} documents (a refresh after it); {@code kind} says what is irregular, or that
     * every document has a {@code k} ({@code full-k}: the buckets hold every match).
     */
    private void segment(Random random, int count, String kind, int firstId) {
        String[] keywords = {"a", "b", "c", "é", "zz"};
        List<DocumentWrite> writes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            StringBuilder doc = new StringBuilder("{");
            if (kind.equals("full-k") || random.nextInt(8) != 0) {
                doc.append("\"k\":").append(kind.equals("multi-k") && i % 5 == 0
                        ? "[\"a\",\"" + keywords[random.nextInt(keywords.length)] + "\"]"
                        : "\"" + keywords[random.nextInt(keywords.length)] + "\"").append(',');
            }
            doc.append("\"j\":\"").append(keywords[random.nextInt(2)]).append("\",");
            if (random.nextInt(6) != 0) {
                int n = random.nextInt(20);
                doc.append("\"n\":").append(kind.equals("multi-n") && i % 4 == 0 ? "[" + n + "," + (n + 7) + "]" : n)
                        .append(',');
            }
            doc.append("\"x\":").append(random.nextInt(40) / 4.0 - 3);
            String id = "d" + (firstId + i);
            ParsedDocument parsed = DocumentParser.parse(index.mappings(), Json.parse(doc.append('}').toString()), id);
            writes.add(new DocumentWrite.Upsert(new IndexableDocument(id, new DocumentVersion(1, seq++, 1),
                    parsed.source(), parsed.values())));
        }
        store.write(index, writes, seq - 1);
        if (kind.equals("deletes")) {
            store.write(index, List.of(new DocumentWrite.Delete("d" + firstId), new DocumentWrite.Delete("d"
                    + (firstId + 3))), seq++);
        }
        aggregate("{\"size\":0}"); // a refresh: the next writes go to a new segment
    }

    private NamedPartials aggregate(String body) {
        SearchRequest request = SearchRequestParser.parse(Optional.of(Json.parse(body)), Map.of());
        AggregationPlan plan = AggregationPlan.of(index.name(), request.aggregations(), index.mappings(), System::currentTimeMillis);
        return store.aggregate(index, request, plan);
    }

    private void assertSameAsCollected(String query, String aggs) {
        String alone = "{\"size\":0,\"query\":" + query + ",\"aggs\":{" + aggs + "}}";
        String collected = "{\"size\":0,\"query\":" + query + ",\"aggs\":{" + aggs
                + ",\"force\":{\"max\":{\"field\":\"n\"}}}}";
        NamedPartials counted = aggregate(alone);
        NamedPartials reference = aggregate(collected);
        for (String name : counted.byName().keySet()) {
            assertThat(Json.write(counted.byName().get(name).render())).as("%s: %s", name, alone)
                    .isEqualTo(Json.write(reference.byName().get(name).render()));
        }
    }

    private static final List<String> QUERIES = List.of(
            "{\"range\":{\"n\":{\"gte\":3,\"lte\":11}}}",
            "{\"range\":{\"n\":{\"gt\":3,\"lt\":11}}}",
            "{\"range\":{\"n\":{\"gte\":25}}}",
            "{\"range\":{\"n\":{\"lte\":0}}}",
            "{\"bool\":{\"filter\":[{\"range\":{\"n\":{\"gte\":2}}},{\"range\":{\"n\":{\"lte\":15}}}]}}",
            "{\"bool\":{\"must\":[{\"match_all\":{}},{\"range\":{\"n\":{\"gte\":5,\"lte\":5}}}]}}",
            "{\"range\":{\"x\":{\"gte\":-1.5,\"lt\":4.25}}}",
            "{\"constant_score\":{\"filter\":{\"range\":{\"x\":{\"gt\":0}}}}}");

    private static final List<String> AGGS = List.of(
            "\"a\":{\"terms\":{\"field\":\"k\"}}",
            "\"a\":{\"terms\":{\"field\":\"k\",\"size\":2,\"missing\":\"none\"}}",
            "\"a\":{\"terms\":{\"field\":\"k\",\"order\":{\"_key\":\"desc\"},\"min_doc_count\":2}}",
            "\"a\":{\"terms\":{\"field\":\"k\"}},\"b\":{\"terms\":{\"field\":\"j\",\"missing\":\"?\"}}");

    @Test
    void segmentsAnsweredFromEntriesBesideCollectedOnesGiveTheCollectorsAnswer() {
        Random random = new Random(42);
        segment(random, 300, "plain", 0);
        segment(random, 200, "multi-n", 1_000);
        segment(random, 250, "full-k", 2_000);
        segment(random, 150, "multi-k", 3_000);
        segment(random, 200, "deletes", 4_000);
        long buildsBefore = SortedTermValuesCache.SHARED.builds();
        for (String query : QUERIES) {
            for (String aggs : AGGS) {
                assertSameAsCollected(query, aggs);
            }
        }
        assertThat(SortedTermValuesCache.SHARED.builds()).as("entries built for the plain segments")
                .isGreaterThan(buildsBefore);
    }

    /** A filter bucket that makes "term AND range" with the query counts from the entries where it can. */
    @Test
    void termAndRangeBucketsGiveTheCollectorsAnswer() {
        Random random = new Random(5);
        segment(random, 300, "plain", 0);
        segment(random, 200, "multi-n", 1_000);
        segment(random, 200, "deletes", 2_000);
        segment(random, 250, "plain", 3_000);
        long buildsBefore = SortedTermValuesCache.SHARED.builds();
        for (String query : List.of("{\"term\":{\"j\":\"a\"}}", "{\"bool\":{\"filter\":{\"term\":{\"k\":\"é\"}}}}",
                "{\"range\":{\"n\":{\"gte\":4}}}")) {
            assertSameAsCollected(query, "\"a\":{\"filters\":{\"filters\":{\"low\":{\"range\":{\"n\":{\"lt\":7}}},"
                    + "\"mid\":{\"range\":{\"x\":{\"gte\":-1,\"lte\":2.5}}},\"kb\":{\"term\":{\"k\":\"b\"}}},"
                    + "\"other_bucket\":true}},\"f\":{\"filter\":{\"range\":{\"n\":{\"gt\":2,\"lt\":15}}}}");
        }
        assertThat(SortedTermValuesCache.SHARED.builds()).as("entries built for the plain segments")
                .isGreaterThan(buildsBefore);
    }

    @Test
    void onlyPlainSegmentsAnswerFromEntries() {
        Random random = new Random(7);
        segment(random, 120, "plain", 0);
        segment(random, 120, "multi-n", 1_000);
        segment(random, 120, "multi-k", 2_000);
        segment(random, 120, "deletes", 3_000);
        store.close(); // commits: the segments as they are, readable from the index's directory
        try (var directory = org.apache.lucene.store.FSDirectory.open(temp.resolve("data/indices/" + index.uuid()));
             var reader = org.apache.lucene.index.DirectoryReader.open(directory)) {
            assertThat(reader.leaves()).hasSize(4);
            var answered = RangeTermsCounts.count(new org.apache.lucene.search.IndexSearcher(reader),
                    org.apache.lucene.document.LongPoint.newRangeQuery("n", 2, 9), List.of("k"),
                    new SortedTermValuesCache(1 << 20));
            assertThat(answered).as("segments answered from entries").hasSize(1);
            assertThat(answered.keySet().iterator().next().ord).isZero();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
