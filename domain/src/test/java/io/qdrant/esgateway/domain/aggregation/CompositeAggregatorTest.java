package io.qdrant.esgateway.domain.aggregation;

import static io.qdrant.esgateway.domain.aggregation.RangeAggregatorTest.render;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class CompositeAggregatorTest {
    private static final List<MemoryDoc> DOCS = List.of(
            new MemoryDoc("1").keyword("brand", "b", "a").longs("n", 1, 6),
            new MemoryDoc("2").keyword("brand", "a").longs("n", 2),
            new MemoryDoc("3").longs("n", 3));

    @Test
    void everyCombinationOnceWithPaging() {
        String sources = "\"sources\":[{\"b\":{\"terms\":{\"field\":\"brand\"}}},"
                + "{\"h\":{\"histogram\":{\"field\":\"n\",\"interval\":5}}}]";
        assertThat(render("{\"c\":{\"composite\":{\"size\":2," + sources + "}}}", DOCS))
                .isEqualTo("{\"c\":{\"after_key\":{\"b\":\"a\",\"h\":5.0},\"buckets\":["
                        + "{\"key\":{\"b\":\"a\",\"h\":0.0},\"doc_count\":2},"
                        + "{\"key\":{\"b\":\"a\",\"h\":5.0},\"doc_count\":1}]}}");
        assertThat(render("{\"c\":{\"composite\":{\"size\":2,\"after\":{\"b\":\"a\",\"h\":5.0}," + sources
                + "}}}", DOCS))
                .isEqualTo("{\"c\":{\"after_key\":{\"b\":\"b\",\"h\":5.0},\"buckets\":["
                        + "{\"key\":{\"b\":\"b\",\"h\":0.0},\"doc_count\":1},"
                        + "{\"key\":{\"b\":\"b\",\"h\":5.0},\"doc_count\":1}]}}");
        assertThat(render("{\"c\":{\"composite\":{\"after\":{\"b\":\"b\",\"h\":5.0}," + sources + "}}}", DOCS))
                .isEqualTo("{\"c\":{\"buckets\":[]}}");
    }

    @Test
    void missingBucketsSortLastDescending() {
        assertThat(render("{\"c\":{\"composite\":{\"sources\":[{\"b\":{\"terms\":{\"field\":\"brand\","
                + "\"order\":\"desc\",\"missing_bucket\":true}}}]},\"aggs\":{\"s\":{\"sum\":{\"field\":\"n\"}}}}}",
                DOCS))
                .isEqualTo("{\"c\":{\"after_key\":{\"b\":null},\"buckets\":["
                        + "{\"key\":{\"b\":\"b\"},\"doc_count\":1,\"s\":{\"value\":7.0}},"
                        + "{\"key\":{\"b\":\"a\"},\"doc_count\":2,\"s\":{\"value\":9.0}},"
                        + "{\"key\":{\"b\":null},\"doc_count\":1,\"s\":{\"value\":3.0}}]}}");
    }

    @Test
    void missingOrderPlacesTheMissingBucketWhateverTheDirection() {
        assertThat(render("{\"c\":{\"composite\":{\"sources\":[{\"b\":{\"terms\":{\"field\":\"brand\","
                + "\"missing_bucket\":true,\"missing_order\":\"last\"}}}]}}}", DOCS))
                .isEqualTo("{\"c\":{\"after_key\":{\"b\":null},\"buckets\":["
                        + "{\"key\":{\"b\":\"a\"},\"doc_count\":2},{\"key\":{\"b\":\"b\"},\"doc_count\":1},"
                        + "{\"key\":{\"b\":null},\"doc_count\":1}]}}");
        assertThatThrownBy(() -> render("{\"c\":{\"composite\":{\"sources\":[{\"b\":{\"terms\":{"
                + "\"field\":\"brand\",\"missing_order\":\"last\"}}}]}}}", DOCS))
                .hasMessage("missingOrder can only be set if missingBucket is true");
    }

    @Test
    void afterMustNameEverySource() {
        assertThatThrownBy(() -> render("{\"c\":{\"composite\":{\"after\":{\"x\":1},"
                + "\"sources\":[{\"b\":{\"terms\":{\"field\":\"brand\"}}}]}}}", DOCS))
                .hasMessage("Missing value for [after.b]");
    }
}
