package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.parse.AggregationParser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Counts-only {@code terms}: the partial built from value counts renders as the collectors' partial does. */
class TermsCountsTest {
    private static final Mappings MAPPINGS = Mappings.parse(Json.parse("{\"properties\": {\"tag\": {\"type\":"
            + " \"keyword\"}}}"));

    private static final List<MemoryDoc> DOCS = List.of(new MemoryDoc("1").keyword("tag", "a", "b", "a"),
            new MemoryDoc("2").keyword("tag", "b"), new MemoryDoc("3"), new MemoryDoc("4").keyword("tag", "c"),
            new MemoryDoc("5").keyword("tag", "b", "c"), new MemoryDoc("6"), new MemoryDoc("7").keyword("tag", "zz"));

    private static Aggregation.Terms terms(String body) {
        return (Aggregation.Terms) AggregationParser.parse(Json.parse("{\"t\": {\"terms\": " + body + "}}")).get("t");
    }

    /** What the collectors answer, and what the counts a facet would give answer. */
    private static void sameAnswer(String body) {
        Aggregation.Terms t = terms(body);
        AggregationPlan plan = AggregationPlan.of("idx", Map.of("t", t), MAPPINGS, System::currentTimeMillis);
        NamedCollectors collectors = plan.newCollectors();
        DOCS.forEach(collectors::collect);
        Map<Object, Long> counts = new HashMap<>();
        long without = 0;
        for (MemoryDoc d : DOCS) {
            String[] values = d.keywords("tag");
            for (String v : values) {
                counts.merge(v, 1L, Long::sum);
            }
            without += values.length == 0 ? 1 : 0;
        }
        Partial fromCounts = TermsCounts.partial("idx", "t", t, MAPPINGS, counts, without, System::currentTimeMillis);
        assertThat(Json.write(fromCounts.render())).as(body)
                .isEqualTo(Json.write(collectors.partial().byName().get("t").render()));
    }

    @Test
    void countsGiveTheCollectorsAnswer() {
        sameAnswer("{\"field\": \"tag\"}");
        sameAnswer("{\"field\": \"tag\", \"size\": 1}");
        sameAnswer("{\"field\": \"tag\", \"order\": {\"_key\": \"desc\"}, \"size\": 2}");
        sameAnswer("{\"field\": \"tag\", \"order\": [{\"_count\": \"asc\"}, {\"_key\": \"desc\"}]}");
        sameAnswer("{\"field\": \"tag\", \"min_doc_count\": 2}");
        sameAnswer("{\"field\": \"tag\", \"missing\": \"none\"}");
        sameAnswer("{\"field\": \"tag\", \"missing\": \"b\", \"size\": 2}");
        sameAnswer("{\"field\": \"tag\", \"include\": \"[a-c]\", \"exclude\": [\"c\"], \"missing\": \"zz\"}");
        sameAnswer("{\"field\": \"tag\", \"include\": {\"partition\": 0, \"num_partitions\": 2}}");
        sameAnswer("{\"field\": \"tag\", \"show_term_doc_count_error\": true, \"size\": 1}");
    }

    @Test
    void onlyCountShapesAreCountable() {
        assertThat(TermsCounts.countable(terms("{\"field\": \"tag\"}"))).isTrue();
        assertThat(TermsCounts.countable(terms("{\"field\": \"tag\", \"order\": {\"_key\": \"asc\"}}"))).isTrue();
        assertThat(TermsCounts.countable(terms("{\"field\": \"tag\", \"min_doc_count\": 0}"))).isFalse();
        assertThat(TermsCounts.countable((Aggregation.Terms) AggregationParser.parse(Json.parse(
                "{\"t\": {\"terms\": {\"field\": \"tag\", \"order\": {\"m\": \"desc\"}}, \"aggs\": {\"m\":"
                        + " {\"max\": {\"field\": \"n\"}}}}}")).get("t"))).isFalse();
        assertThat(TermsCounts.countable((Aggregation.Terms) AggregationParser.parse(Json.parse(
                "{\"t\": {\"terms\": {\"field\": \"tag\"}, \"aggs\": {\"c\": {\"value_count\": {\"field\":"
                        + " \"tag\"}}}}}")).get("t"))).isFalse();
        assertThatThrownBy(() -> TermsCounts.partial("idx", "t", terms("{\"field\": \"tag\", \"min_doc_count\": 0}"),
                MAPPINGS, Map.of(), 0, System::currentTimeMillis)).isInstanceOf(IllegalArgumentException.class);
    }
}
