package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.parse.AggregationParser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.Json;
import org.junit.jupiter.api.Test;

/** Order paths are checked when the plan is made, with ES's reduce-phase error (texts read from ES 8.15). */
class TermsOrderPathsTest {

    private static AggregationPlan plan(String order, String subs) {
        return AggregationPlan.of("idx", AggregationParser.parse(Json.parse("{\"t\":{\"terms\":{\"field\":\"brand\","
                + "\"order\":" + order + "},\"aggs\":" + subs + "}}")), PartitionedReduceTest.MAPPINGS, System::currentTimeMillis);
    }

    private static void invalid(String order, String subs, String why) {
        assertThatThrownBy(() -> plan(order, subs)).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.kind()).isEqualTo(ErrorKind.SEARCH_PHASE_EXECUTION);
            assertThat(e.shardFailures()).isEmpty();
            String path = order.substring(2, order.indexOf('"', 2));
            assertThat(e.gatewayCause().reason()).isEqualTo("Invalid aggregation order path [" + path + "]. " + why);
            assertThat(e.gatewayCause().gatewayCause().reason()).isEqualTo(why);
        });
    }

    @Test
    void validPaths() {
        assertThatCode(() -> plan("{\"m\":\"asc\"}", "{\"m\":{\"avg\":{\"field\":\"n\"}}}")).doesNotThrowAnyException();
        assertThatCode(() -> plan("{\"m.value\":\"asc\"}", "{\"m\":{\"avg\":{\"field\":\"n\"}}}"))
                .doesNotThrowAnyException();
        assertThatCode(() -> plan("[{\"f>m\":\"asc\"},{\"f.doc_count\":\"desc\"}]",
                "{\"f\":{\"missing\":{\"field\":\"n\"},\"aggs\":{\"m\":{\"max\":{\"field\":\"n\"}}}}}"))
                .doesNotThrowAnyException();
    }

    @Test
    void badPaths() {
        invalid("{\"z\":\"asc\"}", "{\"m\":{\"avg\":{\"field\":\"n\"}}}", "Cannot find aggregation named [z]");
        invalid("{\"m.max\":\"asc\"}", "{\"m\":{\"avg\":{\"field\":\"n\"}}}", "Unknown value key [max] for"
                + " single-value metric aggregation [m]. Either use [value] as key or drop the key all together");
        invalid("{\"m>x\":\"asc\"}", "{\"m\":{\"avg\":{\"field\":\"n\"}}}",
                "Metrics aggregations cannot have sub-aggregations (at [>x]");
        invalid("{\"u\":\"asc\"}", "{\"u\":{\"terms\":{\"field\":\"n\"}}}", "Can't sort a [lterms] aggregation [u]");
        invalid("{\"u\":\"asc\"}", "{\"u\":{\"terms\":{\"field\":\"brand\"}}}",
                "Can't sort a [sterms] aggregation [u]");
        invalid("{\"u\":\"asc\"}", "{\"u\":{\"filters\":{\"filters\":[{\"match_all\":{}}]}}}",
                "Can't sort a [filters] aggregation [u]");
        invalid("{\"u.zz\":\"asc\"}", "{\"u\":{\"global\":{}}}", "Unknown value key [zz] for single-bucket"
                + " aggregation [u]. Either use [doc_count] as key or drop the key all together.");
    }
}
