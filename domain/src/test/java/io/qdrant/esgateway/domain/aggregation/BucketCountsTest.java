package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.parse.AggregationParser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Counts-only {@code filter}/{@code filters}: the partial built from counts renders as the collectors' partial. */
class BucketCountsTest {
    private static final Mappings MAPPINGS = Mappings.parse(Json.parse("{\"properties\": {\"tag\": {\"type\":"
            + " \"keyword\"}}}"));

    private static final List<MemoryDoc> DOCS = List.of(new MemoryDoc("1").filters(true, false),
            new MemoryDoc("2").filters(true, true), new MemoryDoc("3").filters(false, false),
            new MemoryDoc("4").filters(false, true), new MemoryDoc("5").filters(false, false));

    private static Aggregation parse(String body) {
        return AggregationParser.parse(Json.parse("{\"a\": " + body + "}")).get("a");
    }

    private static String collected(Aggregation agg) {
        NamedCollectors collectors = AggregationPlan.of("idx", Map.of("a", agg), MAPPINGS, System::currentTimeMillis).newCollectors();
        DOCS.forEach(collectors::collect);
        return Json.write(collectors.partial().byName().get("a").render());
    }

    @Test
    void countsGiveTheCollectorsAnswer() {
        Aggregation.Filters keyed = (Aggregation.Filters) parse("{\"filters\": {\"filters\": {\"x\": {\"term\":"
                + " {\"tag\": \"a\"}}, \"y\": {\"term\": {\"tag\": \"b\"}}}, \"other_bucket_key\": \"rest\"}}");
        assertThat(Json.write(BucketCounts.filters(keyed, new long[] {2, 2, 2}).render()))
                .isEqualTo(collected(keyed));
        Aggregation.Filters anonymous = (Aggregation.Filters) parse("{\"filters\": {\"filters\": [{\"term\":"
                + " {\"tag\": \"a\"}}, {\"term\": {\"tag\": \"b\"}}]}}");
        assertThat(Json.write(BucketCounts.filters(anonymous, new long[] {2, 2}).render()))
                .isEqualTo(collected(anonymous));
        Aggregation.Filter filter = (Aggregation.Filter) parse("{\"filter\": {\"term\": {\"tag\": \"a\"}}}");
        assertThat(Json.write(BucketCounts.filter(filter, 2).render())).isEqualTo(collected(filter));
    }

    @Test
    void onlyAggregationsWithoutSubsAreCountable() {
        Aggregation withSubs = parse("{\"filters\": {\"filters\": [{\"term\": {\"tag\": \"a\"}}]}, \"aggs\":"
                + " {\"t\": {\"terms\": {\"field\": \"tag\"}}}}");
        assertThat(BucketCounts.countable(withSubs)).isFalse();
        assertThat(BucketCounts.countable(parse("{\"terms\": {\"field\": \"tag\"}}"))).isFalse();
        assertThatThrownBy(() -> BucketCounts.filters((Aggregation.Filters) withSubs, new long[] {1}))
                .isInstanceOf(IllegalArgumentException.class);
        Aggregation.Filters plain = (Aggregation.Filters) parse("{\"filters\": {\"filters\": [{\"term\":"
                + " {\"tag\": \"a\"}}]}}");
        assertThatThrownBy(() -> BucketCounts.filters(plain, new long[] {1, 2}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 buckets, got 2 counts");
    }
}
