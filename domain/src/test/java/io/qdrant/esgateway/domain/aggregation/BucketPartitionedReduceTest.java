package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.parse.AggregationParser;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The reducer property ({@link PartitionedReduceTest#check}) for range, date_range, histogram, date_histogram and
 * composite, each with sub-aggregations (bucket and metric) to some depth.
 */
class BucketPartitionedReduceTest {

    @Test
    void rangesMergeLikeOnePass() {
        PartitionedReduceTest.check("""
                {"r":{"range":{"field":"n","ranges":[{"to":0},{"from":0,"to":3},{"from":1,"key":"one+"}]},
                      "aggs":{"t":{"terms":{"field":"brand"},"aggs":{"s":{"sum":{"field":"price"}}}}}},
                 "k":{"range":{"field":"price","keyed":true,"missing":0,"ranges":[{"to":0.5},{"from":0.5}]}},
                 "dr":{"date_range":{"field":"d","time_zone":"Europe/Berlin","ranges":[{"to":"2020-06-01"},
                       {"from":"2020-06-01||+1M/M"}]},"aggs":{"h":{"histogram":{"field":"n","interval":2}}}}}
                """, 11);
    }

    @Test
    void histogramsMergeLikeOnePass() {
        PartitionedReduceTest.check("""
                {"h":{"histogram":{"field":"n","interval":2,"offset":1},
                      "aggs":{"b":{"terms":{"field":"brand"}},"m":{"max":{"field":"price"}},
                              "hh":{"histogram":{"field":"n","interval":1,"extended_bounds":{"min":-5,"max":6}}}}},
                 "c":{"histogram":{"field":"n","interval":3,"min_doc_count":1,"order":{"_count":"desc"}}},
                 "p":{"histogram":{"field":"price","interval":0.25,"hard_bounds":{"min":0,"max":1}}},
                 "x":{"histogram":{"field":"n","interval":5,"missing":-9,"keyed":true,
                      "extended_bounds":{"min":-20,"max":20}}}}
                """, 12);
    }

    @Test
    void dateHistogramsMergeLikeOnePass() {
        PartitionedReduceTest.check("""
                {"m":{"date_histogram":{"field":"d","calendar_interval":"month","time_zone":"Europe/Berlin"},
                      "aggs":{"w":{"date_histogram":{"field":"d","calendar_interval":"week"}},
                              "a":{"avg":{"field":"n"}}}},
                 "f":{"date_histogram":{"field":"d","fixed_interval":"3d","offset":"+6h","min_doc_count":1,
                      "order":{"_count":"desc"}}},
                 "q":{"date_histogram":{"field":"d","calendar_interval":"quarter","missing":"2019-01",
                      "extended_bounds":{"min":"2019-06","max":"2021-12"},"keyed":true,"format":"yyyy-MM"}}}
                """, 13);
    }

    @Test
    void compositesMergeLikeOnePass() {
        PartitionedReduceTest.check("""
                {"c":{"composite":{"size":4,"sources":[{"b":{"terms":{"field":"brand","missing_bucket":true}}},
                      {"h":{"histogram":{"field":"n","interval":2,"order":"desc"}}}]},
                      "aggs":{"s":{"sum":{"field":"price"}},"r":{"range":{"field":"n","ranges":[{"to":1}]}}}},
                 "a":{"composite":{"size":3,"after":{"b":"acme","d":1580515200000},
                      "sources":[{"b":{"terms":{"field":"brand"}}},
                                 {"d":{"date_histogram":{"field":"d","calendar_interval":"month"}}}]}},
                 "f":{"composite":{"sources":[{"f":{"terms":{"field":"flag"}}},{"p":{"terms":{"field":"price"}}}]}}}
                """, 14);
    }

    @Test
    void orderedAndFormattedBucketsMergeLikeOnePass() {
        PartitionedReduceTest.check("""
                {"h":{"histogram":{"field":"price","interval":0.5,"format":"0.0","order":{"m":"desc"},
                      "hard_bounds":{"min":-1,"max":1}},"aggs":{"m":{"max":{"field":"n"}}}},
                 "d":{"date_histogram":{"field":"d","fixed_interval":"7d","time_zone":"America/New_York",
                      "hard_bounds":{"min":"2020-02-01","max":"2020-12-01"},"order":{"_key":"desc"}},
                      "aggs":{"c":{"composite":{"size":2,"sources":[{"f":{"terms":{"field":"flag",
                              "missing_bucket":true,"missing_order":"last","order":"desc"}}}]}}}},
                 "r":{"range":{"field":"n","format":"0.0","ranges":[{"from":-1.5,"to":2.25}]}}}
                """, 15);
    }

    @Test
    void partialsOfIndicesWithAndWithoutTheFieldMergeInAnyOrder() {
        String aggs = """
                {"h":{"histogram":{"field":"n","interval":2},"aggs":{"r":{"date_range":{"field":"d",
                      "ranges":[{"to":"2020-06-01"}]}}}},
                 "c":{"composite":{"after":{"d":1580515200000},"sources":[{"d":{"date_histogram":{"field":"d",
                      "calendar_interval":"month"}}}]}},
                 "dh":{"date_histogram":{"field":"d","calendar_interval":"quarter"}}}""";
        io.qdrant.esgateway.domain.index.Mappings without = io.qdrant.esgateway.domain.index.Mappings.parse(
                Json.parse("{\"properties\":{\"brand\":{\"type\":\"keyword\"}}}"));
        java.util.Random random = new java.util.Random(16);
        for (int round = 0; round < 10; round++) {
            List<MemoryDoc> docs = PartitionedReduceTest.documents(random, random.nextInt(40));
            AggregationPlan mapped = AggregationPlan.of("a", AggregationParser.parse(Json.parse(aggs)),
                    PartitionedReduceTest.MAPPINGS, System::currentTimeMillis);
            AggregationPlan unmapped = AggregationPlan.of("b", AggregationParser.parse(Json.parse(aggs)), without, System::currentTimeMillis);
            NamedCollectors a = mapped.newCollectors();
            NamedCollectors b = unmapped.newCollectors();
            for (int i = 0; i < docs.size(); i++) {
                (i % 2 == 0 ? a : b).collect(docs.get(i));
            }
            NamedPartials pa = a.partial();
            NamedPartials pb = b.partial();
            Reduction.assertSame(pa.merge(pb).render(), pb.merge(pa).render());
            Reduction.assertSame(pa.render(), pb.merge(pa).render());
        }
    }

    @Test
    void emptyFilledBucketsRenderTheirSubAggregations() {
        AggregationPlan plan = AggregationPlan.of("idx", AggregationParser.parse(Json.parse("""
                {"h":{"histogram":{"field":"n","interval":1},"aggs":{"m":{"max":{"field":"price"}},
                      "t":{"terms":{"field":"brand"}}}}}""")), PartitionedReduceTest.MAPPINGS, System::currentTimeMillis);
        List<MemoryDoc> docs = List.of(new MemoryDoc("1").longs("n", 0).doubles("price", 1.5),
                new MemoryDoc("2").longs("n", 2));
        JsonValue out = Reduction.onePass(plan, docs);
        assertThat(Json.write(out)).isEqualTo("{\"h\":{\"buckets\":["
                + "{\"key\":0.0,\"doc_count\":1,\"m\":{\"value\":1.5},\"t\":{\"doc_count_error_upper_bound\":0,"
                + "\"sum_other_doc_count\":0,\"buckets\":[]}},"
                + "{\"key\":1.0,\"doc_count\":0,\"m\":{\"value\":null},\"t\":{\"doc_count_error_upper_bound\":0,"
                + "\"sum_other_doc_count\":0,\"buckets\":[]}},"
                + "{\"key\":2.0,\"doc_count\":1,\"m\":{\"value\":null},\"t\":{\"doc_count_error_upper_bound\":0,"
                + "\"sum_other_doc_count\":0,\"buckets\":[]}}]}}");
    }
}
