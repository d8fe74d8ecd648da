package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.parse.AggregationParser;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The reducer property for terms in full and the filter-like bucket aggregations, with sub-aggregations at depth:
 * the query's matches and all documents (for {@code global} and {@code min_doc_count: 0}) each split into random
 * partitions and merged in random order must give what one pass over each gives. Documents carry random answers
 * for the plan's filter queries.
 */
class BucketAggregationsReduceTest {

    /** Runs {@code aggs} on random documents; a document matches the "query" when {@code matched} says so. */
    static void check(String aggs, long seed) {
        Random random = new Random(seed);
        AggregationPlan plan = AggregationPlan.of("idx", AggregationParser.parse(Json.parse(aggs)),
                PartitionedReduceTest.MAPPINGS, System::currentTimeMillis);
        for (int round = 0; round < 20; round++) {
            List<MemoryDoc> all = PartitionedReduceTest.documents(random, random.nextInt(60));
            List<MemoryDoc> matched = new ArrayList<>();
            for (MemoryDoc d : all) {
                boolean[] f = new boolean[8];
                for (int i = 0; i < f.length; i++) {
                    f[i] = random.nextInt(3) == 0;
                }
                d.filters(f);
                if (random.nextInt(3) > 0) {
                    matched.add(d);
                }
            }
            JsonValue expected = answer(plan, Reduction.collectOnce(plan, matched),
                    plan.allDocuments().map(p -> Reduction.collectOnce(p, all)).orElse(NamedPartials.EMPTY));
            JsonValue actual = answer(plan, Reduction.collectPartitioned(plan, matched, random),
                    plan.allDocuments().map(p -> Reduction.collectPartitioned(p, all, random))
                            .orElse(NamedPartials.EMPTY));
            Reduction.assertSame(expected, actual);
        }
    }

    static JsonValue answer(AggregationPlan plan, NamedPartials matched, NamedPartials all) {
        return plan.complete(matched, all).render();
    }

    @Test
    void filterFiltersMissingGlobalNestedMergeLikeOnePass() {
        check("""
                {"f":{"filter":{"term":{"brand":"acme"}},"aggs":{"t":{"terms":{"field":"n"},
                      "aggs":{"m":{"missing":{"field":"price"},"aggs":{"s":{"sum":{"field":"price"}}}}}}}},
                 "fs":{"filters":{"filters":{"x":{"match_all":{}},"a":{"term":{"brand":"b"}}},"other_bucket":true},
                      "aggs":{"b":{"terms":{"field":"brand","size":2}}}},
                 "anon":{"filters":{"filters":[{"term":{"n":1}},{"term":{"n":2}}],"other_bucket_key":"rest"}},
                 "g":{"global":{},"aggs":{"f":{"filter":{"term":{"flag":true}},"aggs":{"x":{"max":{"field":"d"}}}}}},
                 "m":{"missing":{"field":"brand"},"aggs":{"c":{"value_count":{"field":"n"}}}}}
                """, 3);
    }

    @Test
    void termsOptionsMergeLikeOnePass() {
        check("""
                {"b":{"terms":{"field":"brand","size":2,"order":[{"_count":"asc"},{"_key":"desc"}],
                      "include":"a.*|b|zeta","exclude":["ab"]},
                      "aggs":{"n":{"terms":{"field":"n","min_doc_count":0,"include":[-2,0,1,2,3],"missing":9,
                                   "order":{"f>p":"desc"}},
                                   "aggs":{"f":{"filter":{"term":{"flag":true}},"aggs":{"p":{"avg":{"field":"price"}}}}}}}},
                 "z":{"terms":{"field":"brand","min_doc_count":0,"missing":"none","order":{"_key":"asc"}},
                      "aggs":{"zz":{"terms":{"field":"flag","min_doc_count":0}}}},
                 "p":{"terms":{"field":"n","include":{"partition":1,"num_partitions":3}}},
                 "g":{"global":{},"aggs":{"t":{"terms":{"field":"d","min_doc_count":0,"size":3}}}}}
                """, 4);
    }

    @Test
    void zeroCountBucketsComeFromAllDocuments() {
        AggregationPlan plan = AggregationPlan.of("idx", AggregationParser.parse(Json.parse(
                "{\"t\":{\"terms\":{\"field\":\"brand\",\"min_doc_count\":0},\"aggs\":{\"a\":{\"avg\":{\"field\":\"n\"}}}}}")),
                PartitionedReduceTest.MAPPINGS, System::currentTimeMillis);
        MemoryDoc one = new MemoryDoc("1").keyword("brand", "x").longs("n", 4);
        MemoryDoc two = new MemoryDoc("2").keyword("brand", "y", "z");
        JsonValue out = answer(plan, Reduction.collectOnce(plan, List.of(one)),
                Reduction.collectOnce(plan.allDocuments().orElseThrow(), List.of(one, two)));
        assertThat(Json.write(out)).isEqualTo("{\"t\":{\"doc_count_error_upper_bound\":0,\"sum_other_doc_count\":0,"
                + "\"buckets\":[{\"key\":\"x\",\"doc_count\":1,\"a\":{\"value\":4.0}},{\"key\":\"y\",\"doc_count\":0,"
                + "\"a\":{\"value\":null}},{\"key\":\"z\",\"doc_count\":0,\"a\":{\"value\":null}}]}}");
    }

    @Test
    void aKeywordsMissingValueIsAlwaysInItsUniverseANumbersOnlyWhenADocumentLacksOne() {
        AggregationPlan plan = AggregationPlan.of("idx", AggregationParser.parse(Json.parse(
                "{\"k\":{\"terms\":{\"field\":\"brand\",\"min_doc_count\":0,\"missing\":\"zz\"}},"
                        + "\"n\":{\"terms\":{\"field\":\"n\",\"min_doc_count\":0,\"missing\":9}}}")),
                PartitionedReduceTest.MAPPINGS, System::currentTimeMillis);
        MemoryDoc one = new MemoryDoc("1").keyword("brand", "x").longs("n", 4);
        JsonValue out = answer(plan, Reduction.collectOnce(plan, List.of()),
                Reduction.collectOnce(plan.allDocuments().orElseThrow(), List.of(one)));
        assertThat(Json.write(out)).isEqualTo("{\"k\":{\"doc_count_error_upper_bound\":0,\"sum_other_doc_count\":0,"
                + "\"buckets\":[{\"key\":\"x\",\"doc_count\":0},{\"key\":\"zz\",\"doc_count\":0}]},"
                + "\"n\":{\"doc_count_error_upper_bound\":0,\"sum_other_doc_count\":0,"
                + "\"buckets\":[{\"key\":4,\"doc_count\":0}]}}");
    }
}
