package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.parse.AggregationParser;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The reducer property for every aggregation: random documents (multi-valued, missing values, duplicates, extreme
 * magnitudes) split into random partitions and merged in random order must equal one pass over all of them.
 */
class PartitionedReduceTest {
    static final Mappings MAPPINGS = Mappings.parse(Json.parse("""
            {"properties":{"brand":{"type":"keyword"},"n":{"type":"long"},"price":{"type":"double"},
             "d":{"type":"date"},"flag":{"type":"boolean"}}}"""));
    private static final String[] BRANDS = {"acme", "zeta", "Émile", "b", "\uD83D\uDE00", "ab"};

    static List<MemoryDoc> documents(Random random, int count) {
        List<MemoryDoc> docs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            MemoryDoc doc = new MemoryDoc("d" + i);
            if (random.nextInt(5) > 0) {
                String[] b = new String[random.nextInt(3) + 1];
                for (int j = 0; j < b.length; j++) {
                    b[j] = BRANDS[random.nextInt(BRANDS.length)];
                }
                doc.keyword("brand", b);
            }
            if (random.nextInt(4) > 0) {
                long[] n = new long[random.nextInt(3) + 1];
                for (int j = 0; j < n.length; j++) {
                    n[j] = random.nextInt(7) - 2;
                }
                doc.longs("n", n);
            }
            if (random.nextInt(4) > 0) {
                double scale = random.nextBoolean() ? 1e-3 : 1e12;
                doc.doubles("price", random.nextDouble() * scale, random.nextGaussian() * scale);
            }
            if (random.nextBoolean()) {
                doc.longs("d", 1_577_836_800_000L + random.nextInt(400) * 86_400_000L);
            }
            if (random.nextBoolean()) {
                doc.longs("flag", random.nextInt(2));
            }
            docs.add(doc);
        }
        return docs;
    }

    static void check(String aggs, long seed) {
        Random random = new Random(seed);
        AggregationPlan plan = AggregationPlan.of("idx", AggregationParser.parse(Json.parse(aggs)), MAPPINGS, System::currentTimeMillis);
        for (int round = 0; round < 20; round++) {
            List<MemoryDoc> docs = documents(random, random.nextInt(60));
            JsonValue expected = Reduction.onePass(plan, docs);
            Reduction.assertSame(expected, Reduction.partitioned(plan, docs, random));
        }
    }

    @Test
    void metricsMergeLikeOnePass() {
        check("""
                {"mn":{"min":{"field":"price"}},"mx":{"max":{"field":"d"}},"a":{"avg":{"field":"price"}},
                 "s":{"sum":{"field":"n"}},"c":{"value_count":{"field":"brand"}},"m":{"avg":{"field":"n","missing":3}}}
                """, 1);
    }

    @Test
    void termsWithSubAggregationsMergeLikeOnePass() {
        check("""
                {"b":{"terms":{"field":"brand","size":3,"missing":"none"},
                      "aggs":{"n":{"terms":{"field":"n","order":{"p":"desc"}},"aggs":{"p":{"sum":{"field":"price"}}}}}},
                 "f":{"terms":{"field":"flag"}},"p":{"terms":{"field":"price","size":2,"order":{"_key":"asc"}}}}
                """, 2);
    }

    @Test
    void statsCardinalityPercentilesMergeLikeOnePass() {
        check("""
                {"s":{"stats":{"field":"n"}},"sd":{"stats":{"field":"d","missing":"2020-06-01"}},
                 "e":{"extended_stats":{"field":"price","sigma":3}},"en":{"extended_stats":{"field":"n","missing":1}},
                 "c":{"cardinality":{"field":"brand"}},"cn":{"cardinality":{"field":"n","missing":42}},
                 "cp":{"cardinality":{"field":"price"}},"cd":{"cardinality":{"field":"d"}},
                 "p":{"percentiles":{"field":"price"}},"pn":{"percentiles":{"field":"n","keyed":false,
                 "percents":[0,33.3,50,100]}},"pd":{"percentiles":{"field":"d","missing":0}}}
                """, 3);
    }

    @Test
    void topHitsMergeLikeOnePass() {
        check("""
                {"t":{"top_hits":{}},"tn":{"top_hits":{"size":4,"from":1,"sort":[{"n":"desc"},{"price":"asc"}]}},
                 "tb":{"top_hits":{"size":2,"sort":[{"brand":{"order":"asc","missing":"_first"}},"_doc"],
                       "_source":["brand"]}},
                 "tm":{"top_hits":{"size":3,"sort":[{"price":{"order":"desc","missing":0.5}},
                       {"d":{"order":"asc","format":"yyyy-MM-dd"}}]}}}
                """, 4);
    }

    @Test
    void newMetricsUnderTermsMergeLikeOnePass() {
        check("""
                {"b":{"terms":{"field":"brand","order":{"s.max":"desc"}},
                      "aggs":{"s":{"extended_stats":{"field":"n"}},"c":{"cardinality":{"field":"price"}},
                              "p":{"percentiles":{"field":"price","percents":[50]}},
                              "t":{"top_hits":{"size":1,"sort":[{"d":"desc"}],"_source":false}}}},
                 "f":{"terms":{"field":"flag","order":{"p.50":"asc"}},
                      "aggs":{"p":{"percentiles":{"field":"n"}},"t":{"top_hits":{"size":2,"sort":["_doc"]}}}}}
                """, 5);
    }

    @Test
    void theComparisonCanFail() {
        AggregationPlan plan = AggregationPlan.of("idx", AggregationParser.parse(Json.parse(
                "{\"s\":{\"sum\":{\"field\":\"n\"}}}")), MAPPINGS, System::currentTimeMillis);
        List<MemoryDoc> docs = List.of(new MemoryDoc("1").longs("n", 1), new MemoryDoc("2").longs("n", 2));
        JsonValue all = Reduction.onePass(plan, docs);
        JsonValue half = Reduction.onePass(plan, docs.subList(0, 1));
        assertThat(Reduction.equal(all, half, "")).isEqualTo("/s/value");
    }
}
