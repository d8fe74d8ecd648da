package io.qdrant.esgateway.adapter.out.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite;
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
import io.qdrant.esgateway.adapter.out.lucene.cache.FieldValueCountsCache;

/**
 * Range-only totals through the store ({@code size: 0} with an exact total, and {@code _count}), asked more often than
 * {@link FieldValueCountsCache#USES_BEFORE_BUILD} times so the later answers come from {@link io.qdrant.esgateway.adapter.out.lucene.aggregation.FieldValueCounts}: every
 * answer equals the number of written documents whose value is in the range, over segments with missing values, a
 * multi-valued document and deletions, for long, double and date fields.
 */
class RangeCountsThroughTheStoreTest {
    @TempDir
    Path temp;

    private LuceneStores.Handle store;
    private IndexMetadata index;
    private long seq;
    private final Map<String, Long> longs = new java.util.HashMap<>();
    private final Map<String, List<Double>> doubles = new java.util.HashMap<>();

    @BeforeEach
    void open() {
        store = LuceneStores.open(temp.resolve("data"));
        index = new IndexMetadata("idx", "u" + System.nanoTime(), Instant.EPOCH, IndexSettings.DEFAULTS,
                Mappings.parse(Json.parse("{\"properties\":{\"n\":{\"type\":\"long\"},\"x\":{\"type\":\"double\"}}}")));
        store.createIndex(index);
    }

    @AfterEach
    void close() {
        store.close();
    }

    private void segment(Random random, int count, boolean multiX, boolean deletes, int firstId) {
        List<DocumentWrite> writes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String id = "d" + (firstId + i);
            StringBuilder doc = new StringBuilder("{");
            if (random.nextInt(7) != 0) {
                long n = random.nextInt(50) - 10;
                doc.append("\"n\":").append(n).append(',');
                longs.put(id, n);
            }
            double x = random.nextInt(16) / 2.0 - 3;
            if (multiX && i % 6 == 0) {
                doc.append("\"x\":[").append(x).append(',').append(x + 9).append(']');
                doubles.put(id, List.of(x, x + 9));
            } else {
                doc.append("\"x\":").append(x);
                doubles.put(id, List.of(x));
            }
            ParsedDocument parsed = DocumentParser.parse(index.mappings(), Json.parse(doc.append('}').toString()), id);
            writes.add(new DocumentWrite.Upsert(new IndexableDocument(id, new DocumentVersion(1, seq++, 1),
                    parsed.source(), parsed.values())));
        }
        store.write(index, writes, seq - 1);
        if (deletes) {
            for (String id : List.of("d" + firstId, "d" + (firstId + 2))) {
                store.write(index, List.of(new DocumentWrite.Delete(id)), seq++);
                longs.remove(id);
                doubles.remove(id);
            }
        }
        total("{\"match_all\":{}}"); // a refresh: the next writes go to a new segment
    }

    private long total(String query) {
        SearchRequest request = SearchRequestParser.parse(Optional.of(Json.parse(
                "{\"size\":0,\"track_total_hits\":true,\"query\":" + query + "}")), Map.of());
        return store.search(index, request, 0).total().orElseThrow().value();
    }

    @Test
    void totalsAndCountsOfRangesEqualTheWrittenDocuments() {
        Random random = new Random(21);
        segment(random, 300, false, false, 0);
        segment(random, 200, true, false, 1_000);
        segment(random, 250, false, true, 2_000);
        segment(random, 150, false, false, 3_000);
        long buildsBefore = FieldValueCountsCache.SHARED.builds();
        for (int round = 0; round < FieldValueCountsCache.USES_BEFORE_BUILD + 2; round++) {
            for (long[] r : new long[][] {{-3, 12}, {0, 0}, {-100, 100}, {30, 20}, {39, 39}}) {
                long expected = longs.values().stream().filter(n -> n >= r[0] && n <= r[1]).count();
                String range = "{\"range\":{\"n\":{\"gte\":" + r[0] + ",\"lte\":" + r[1] + "}}}";
                assertThat(total(range)).as("round %d: %s", round, range).isEqualTo(expected);
                assertThat(store.count(index, Optional.of(SearchRequestParser.parse(Optional.of(Json.parse(
                        "{\"query\":" + range + "}")), Map.of()).query().orElseThrow())))
                        .as("_count %s", range).isEqualTo(expected);
            }
            for (double[] r : new double[][] {{-1.5, 2}, {-0.0, 0.0}, {4, 20}}) {
                long expected = doubles.values().stream()
                        .filter(xs -> xs.stream().anyMatch(x -> x >= r[0] && x < r[1])).count();
                String range = "{\"range\":{\"x\":{\"gte\":" + r[0] + ",\"lt\":" + r[1] + "}}}";
                assertThat(total(range)).as("round %d: %s", round, range).isEqualTo(expected);
            }
            String both = "{\"bool\":{\"filter\":[{\"range\":{\"n\":{\"gt\":-5}}},{\"range\":{\"n\":{\"lt\":25}}}]}}";
            assertThat(total(both)).isEqualTo(longs.values().stream().filter(n -> n > -5 && n < 25).count());
        }
        assertThat(FieldValueCountsCache.SHARED.builds()).as("entries built for the plain segments")
                .isGreaterThan(buildsBefore);
    }
}
