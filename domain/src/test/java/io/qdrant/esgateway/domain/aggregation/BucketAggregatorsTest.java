package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.parse.AggregationParser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The answers of filter, filters, missing and global, and terms ordering, as Elasticsearch renders them. */
class BucketAggregatorsTest {
    private static final List<MemoryDoc> DOCS = List.of(
            new MemoryDoc("1").keyword("brand", "a").longs("n", 1).filters(true, false),
            new MemoryDoc("2").keyword("brand", "b", "a").filters(false, false),
            new MemoryDoc("3").longs("n", 3, 3).filters(true, true),
            new MemoryDoc("4").keyword("brand", "c").longs("n", 2).filters(false, true));

    private static String run(String aggs) {
        AggregationPlan plan = AggregationPlan.of("idx", AggregationParser.parse(Json.parse(aggs)),
                PartitionedReduceTest.MAPPINGS, System::currentTimeMillis);
        NamedPartials all = plan.allDocuments().map(p -> Reduction.collectOnce(p, DOCS)).orElse(NamedPartials.EMPTY);
        return Json.write(plan.complete(Reduction.collectOnce(plan, DOCS), all).render());
    }

    @Test
    void filterAndMissingCountTheirDocuments() {
        // MemoryDoc answers filter 0 (the term query) from its preset flags: documents 1 and 3 (n = 1, 3, 3)
        assertThat(run("{\"f\":{\"filter\":{\"term\":{\"brand\":\"a\"}},\"aggs\":{\"s\":{\"sum\":{\"field\":\"n\"}}}},"
                + "\"m\":{\"missing\":{\"field\":\"brand\"}},\"u\":{\"missing\":{\"field\":\"nope\"}}}"))
                .isEqualTo("{\"f\":{\"doc_count\":2,\"s\":{\"value\":7.0}},\"m\":{\"doc_count\":1},"
                        + "\"u\":{\"doc_count\":4}}");
    }

    @Test
    void filtersKeyedAnonymousAndOther() {
        assertThat(run("{\"k\":{\"filters\":{\"filters\":{\"y\":{\"match_all\":{}},\"x\":{\"match_all\":{}}},"
                + "\"other_bucket_key\":\"o\"}}}"))
                .isEqualTo("{\"k\":{\"buckets\":{\"x\":{\"doc_count\":2},\"y\":{\"doc_count\":2},"
                        + "\"o\":{\"doc_count\":1}}}}");
        assertThat(run("{\"k\":{\"filters\":{\"filters\":[{\"match_all\":{}},{\"match_all\":{}}],"
                + "\"other_bucket\":true}}}"))
                .isEqualTo("{\"k\":{\"buckets\":[{\"doc_count\":2},{\"doc_count\":2},{\"doc_count\":1}]}}");
        assertThat(run("{\"k\":{\"filters\":{\"filters\":{\"y\":{\"match_all\":{}}},\"keyed\":false,"
                + "\"other_bucket\":true}}}"))
                .isEqualTo("{\"k\":{\"buckets\":[{\"key\":\"y\",\"doc_count\":2},"
                        + "{\"key\":\"_other_\",\"doc_count\":2}]}}");
    }

    @Test
    void globalSeesAllDocumentsAndMustBeTopLevel() {
        assertThat(run("{\"g\":{\"global\":{},\"aggs\":{\"c\":{\"value_count\":{\"field\":\"n\"}}}}}"))
                .isEqualTo("{\"g\":{\"doc_count\":4,\"c\":{\"value\":4}}}");
        assertThatThrownBy(() -> run("{\"f\":{\"filter\":{\"match_all\":{}},\"aggs\":{\"g\":{\"global\":{}}}}}"))
                .isInstanceOf(GatewayException.class).hasMessageContaining("Global aggregations can only be defined"
                        + " as top level aggregations");
    }

    @Test
    void termsOrderBySeveralCriteriaAndThroughASingleBucket() {
        assertThat(run("{\"t\":{\"terms\":{\"field\":\"brand\",\"order\":[{\"_count\":\"asc\"},{\"_key\":\"desc\"}]}}}"))
                .isEqualTo("{\"t\":{\"doc_count_error_upper_bound\":0,\"sum_other_doc_count\":0,\"buckets\":["
                        + "{\"key\":\"c\",\"doc_count\":1},{\"key\":\"b\",\"doc_count\":1},"
                        + "{\"key\":\"a\",\"doc_count\":2}]}}");
        assertThat(run("{\"t\":{\"terms\":{\"field\":\"brand\",\"size\":1,\"order\":{\"f>m\":\"desc\"}},"
                + "\"aggs\":{\"f\":{\"missing\":{\"field\":\"nope\"},\"aggs\":{\"m\":{\"max\":{\"field\":\"n\"}}}}}}}"))
                .isEqualTo("{\"t\":{\"doc_count_error_upper_bound\":0,\"sum_other_doc_count\":3,\"buckets\":["
                        + "{\"key\":\"c\",\"doc_count\":1,\"f\":{\"doc_count\":1,\"m\":{\"value\":2.0}}}]}}");
    }

    private static NamedPartials onIndex(String type, MemoryDoc doc) {
        AggregationPlan plan = AggregationPlan.of("idx", AggregationParser.parse(Json.parse(
                "{\"f\":{\"filter\":{\"match_all\":{}},\"aggs\":{\"t\":{\"terms\":{\"field\":\"x\"}}}}}")),
                io.qdrant.esgateway.domain.index.Mappings.parse(Json.parse(
                        "{\"properties\":{\"x\":{\"type\":\"" + type + "\"}}}")), System::currentTimeMillis);
        return Reduction.collectOnce(plan, List.of(doc));
    }

    @Test
    void fieldsMappedDifferentlyInTwoIndices() {
        NamedPartials longs = onIndex("long", new MemoryDoc("1").longs("x", 1).filters(true));
        NamedPartials doubles = onIndex("double", new MemoryDoc("2").doubles("x", 1.0, 1.5).filters(true));
        assertThat(Json.write(doubles.merge(longs).render())).isEqualTo("{\"f\":{\"doc_count\":2,\"t\":{"
                + "\"doc_count_error_upper_bound\":0,\"sum_other_doc_count\":0,\"buckets\":[{\"key\":1.0,"
                + "\"doc_count\":2},{\"key\":1.5,\"doc_count\":1}]}}}");
        NamedPartials keywords = onIndex("keyword", new MemoryDoc("3").keyword("x", "a").filters(true));
        assertThatThrownBy(() -> keywords.merge(longs)).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.shardFailures()).isEmpty();
            assertThat(e.gatewayCause().reason()).startsWith("Merging/Reducing the aggregations failed when computing"
                    + " the aggregation [t] because");
        });
    }

    @Test
    void termsFormatRendersKeyAsString() {
        assertThat(run("{\"t\":{\"terms\":{\"field\":\"n\",\"format\":\"#,##0.0\",\"size\":1}}}"))
                .isEqualTo("{\"t\":{\"doc_count_error_upper_bound\":0,\"sum_other_doc_count\":2,\"buckets\":["
                        + "{\"key\":1,\"key_as_string\":\"1.0\",\"doc_count\":1}]}}");
        assertThatThrownBy(() -> run("{\"t\":{\"terms\":{\"field\":\"brand\",\"format\":\"0\"}}}"))
                .hasMessage("Field [brand] of type [keyword] does not support custom formats");
    }
}
