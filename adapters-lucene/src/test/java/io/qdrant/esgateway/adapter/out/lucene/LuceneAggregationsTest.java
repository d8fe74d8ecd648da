package io.qdrant.esgateway.adapter.out.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.application.port.out.DocumentStore.DocumentWrite;
import io.qdrant.esgateway.domain.aggregation.AggregationPlan;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The metric aggregations collected natively: top_hits reads ids and sources back through the segments. */
class LuceneAggregationsTest {
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
                        + "\"k\":{\"type\":\"keyword\"}}}")));
        store.createIndex(index);
        // one write per document: several segments, so positions cross segment bases
        for (int i = 0; i < 6; i++) {
            String id = "d" + i;
            ParsedDocument parsed = DocumentParser.parse(index.mappings(), Json.parse("{\"n\":" + (i * 7 % 6)
                    + ",\"k\":\"k" + (i % 2) + "\",\"t\":\"" + (i % 3 == 0 ? "fox fox" : "fox dog") + "\"}"), id);
            store.write(index, List.of(new DocumentWrite.Upsert(new IndexableDocument(id,
                    new DocumentVersion(1, seq++, 1), parsed.source(), parsed.values()))), seq - 1);
        }
    }

    @AfterEach
    void close() {
        store.close();
    }

    private String aggregate(String body) {
        SearchRequest request = SearchRequestParser.parse(Optional.of(Json.parse(body)), Map.of());
        AggregationPlan plan = AggregationPlan.of(index.name(), request.aggregations(), index.mappings(), System::currentTimeMillis);
        return Json.write(store.aggregate(index, request, plan).render());
    }

    @Test
    void topHitsSortedByAFieldReadIdsAndSources() {
        assertThat(aggregate("{\"aggs\":{\"t\":{\"top_hits\":{\"size\":2,\"sort\":[{\"n\":\"desc\"}],"
                + "\"_source\":[\"n\"]}}}}")).isEqualTo("{\"t\":{\"hits\":{\"total\":{\"value\":6,\"relation\":\"eq\"},"
                + "\"max_score\":null,\"hits\":[{\"_index\":\"idx\",\"_id\":\"d5\",\"_score\":null,\"_source\":{\"n\":5},"
                + "\"sort\":[5]},{\"_index\":\"idx\",\"_id\":\"d4\",\"_score\":null,\"_source\":{\"n\":4},"
                + "\"sort\":[4]}]}}}");
    }

    @Test
    void topHitsByScoreUnderTermsAndDocOrderAcrossSegments() {
        String scored = aggregate("{\"query\":{\"match\":{\"t\":\"fox\"}},\"aggs\":{\"t\":{\"top_hits\":{\"size\":2,"
                + "\"_source\":false}}}}");
        // "fox fox" (d0, d3) scores above "fox dog"; equal scores keep index order
        assertThat(scored).contains("\"_id\":\"d0\"", "\"_id\":\"d3\"").doesNotContain("\"_score\":null");
        assertThat(scored.indexOf("d0")).isLessThan(scored.indexOf("d3"));
        String byDoc = aggregate("{\"aggs\":{\"k\":{\"terms\":{\"field\":\"k\"},\"aggs\":{\"t\":{\"top_hits\":"
                + "{\"size\":1,\"sort\":[{\"_doc\":\"desc\"}],\"_source\":false}}}}}}");
        assertThat(byDoc).contains("\"_id\":\"d4\",\"_score\":null,\"sort\":[4]",
                "\"_id\":\"d5\",\"_score\":null,\"sort\":[5]");
    }

    @Test
    void statsCardinalityAndPercentilesFromDocValues() {
        assertThat(aggregate("{\"aggs\":{\"s\":{\"stats\":{\"field\":\"n\"}},\"c\":{\"cardinality\":{\"field\":\"k\"}},"
                + "\"p\":{\"percentiles\":{\"field\":\"n\",\"percents\":[50]}}}}")).isEqualTo("{\"s\":{\"count\":6,"
                + "\"min\":0.0,\"max\":5.0,\"avg\":2.5,\"sum\":15.0},\"c\":{\"value\":2},\"p\":{\"values\":{\"50.0\":2.5}}}");
    }
}
