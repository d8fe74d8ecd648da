package io.qdrant.esgateway.domain.aggregation;

import io.qdrant.esgateway.domain.aggregation.parse.AggregationParser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.sort.SortSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetricsParserTest {
    private static Aggregation parse(String aggs) {
        return AggregationParser.parse(Json.parse(aggs)).values().iterator().next();
    }

    private static GatewayException error(String aggs) {
        try {
            parse(aggs);
        } catch (GatewayException e) {
            return e;
        }
        throw new AssertionError("no error for " + aggs);
    }

    @Test
    void defaults() {
        assertThat(parse("{\"a\":{\"extended_stats\":{\"field\":\"n\"}}}"))
                .isEqualTo(new Aggregation.Stats("n", true, 2, java.util.Optional.empty()));
        Aggregation.Percentiles p = (Aggregation.Percentiles) parse("{\"a\":{\"percentiles\":{\"field\":\"n\"}}}");
        assertThat(p.percents()).containsExactly(1.0, 5.0, 25.0, 50.0, 75.0, 95.0, 99.0);
        assertThat(p.keyed()).isTrue();
        Aggregation.TopHits t = (Aggregation.TopHits) parse("{\"a\":{\"top_hits\":{\"sort\":[\"_score\"]}}}");
        assertThat(t.size()).isEqualTo(3);
        assertThat(t.from()).isZero();
        assertThat(t.sort()).as("a sort of just _score descending is no sort").isEmpty();
        Aggregation.TopHits sorted = (Aggregation.TopHits) parse("{\"a\":{\"top_hits\":{\"sort\":[\"_score\","
                + "{\"n\":\"asc\"}]}}}");
        assertThat(sorted.sort()).hasSize(2).first().isInstanceOf(SortSpec.Score.class);
    }

    @Test
    void percentsAreSortedAndValidatedWithTheCauseInCausedBy() {
        Aggregation.Percentiles p = (Aggregation.Percentiles) parse("{\"a\":{\"percentiles\":{\"field\":\"n\","
                + "\"percents\":[99.9,0,50]}}}");
        assertThat(p.percents()).isEqualTo(List.of(0.0, 50.0, 99.9));
        GatewayException e = error("{\"p\":{\"percentiles\":{\"field\":\"n\",\"percents\":[5,101]}}}");
        assertThat(e.kind()).isEqualTo(ErrorKind.X_CONTENT_PARSE);
        assertThat(e).hasMessage("Failed to build [percentiles] after last required field arrived");
        assertThat(e.gatewayCause()).hasMessage("percent must be in [0,100], got [101.0]: [p]");
        assertThat(error("{\"p\":{\"percentiles\":{\"field\":\"n\",\"percents\":[5,5]}}}").gatewayCause())
                .hasMessage("percent [5.0] has been specified twice: [p]");
        assertThat(error("{\"p\":{\"percentiles\":{\"field\":\"n\",\"percents\":[]}}}").gatewayCause())
                .hasMessage("[percents] must not be empty: [p]");
    }

    @Test
    void badOptionsAreElasticsearchsErrors() {
        GatewayException unknown = error("{\"s\":{\"stats\":{\"field\":\"n\",\"sigma\":1}}}");
        assertThat(unknown.kind()).isEqualTo(ErrorKind.X_CONTENT_PARSE);
        assertThat(unknown).hasMessage("[stats] unknown field [sigma]");
        GatewayException sigma = error("{\"s\":{\"extended_stats\":{\"field\":\"n\",\"sigma\":-1}}}");
        assertThat(sigma).hasMessage("[extended_stats] failed to parse field [sigma]");
        assertThat(sigma.gatewayCause()).hasMessage("[sigma] must be greater than or equal to 0. Found [-1.0] in [s]");
        assertThat(error("{\"c\":{\"cardinality\":{\"field\":\"n\",\"precision_threshold\":-1}}}").gatewayCause())
                .hasMessage("[precisionThreshold] must be greater than or equal to 0. Found [-1] in [c]");
        assertThat(error("{\"t\":{\"top_hits\":{\"size\":-1}}}"))
                .hasMessage("[size] must be greater than or equal to 0. Found [-1] in [t]");
        GatewayException key = error("{\"t\":{\"top_hits\":{\"bogus\":true}}}");
        assertThat(key.kind()).isEqualTo(ErrorKind.PARSING);
        assertThat(key).hasMessage("Unknown key for a VALUE_BOOLEAN in [bogus].");
        assertThat(error("{\"t\":{\"top_hits\":{}, \"aggs\":{\"m\":{\"min\":{\"field\":\"n\"}}}}}"))
                .hasMessage("Aggregator [t] of type [top_hits] cannot accept sub-aggregations");
        assertThat(error("{\"s\":{\"stats\":{}}}").kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
    }

    @Test
    void unsupportedOptionsAreNamed() {
        assertThatThrownBy(() -> parse("{\"p\":{\"percentiles\":{\"field\":\"n\",\"hdr\":{}}}}"))
                .hasMessageContaining("[hdr]");
        assertThatThrownBy(() -> parse("{\"t\":{\"top_hits\":{\"highlight\":{}}}}"))
                .hasMessageContaining("[highlight]");
        assertThatThrownBy(() -> parse("{\"t\":{\"top_hits\":{\"sort\":[{\"n\":{\"mode\":\"avg\"}}]}}}"))
                .hasMessageContaining("[mode] avg");
        assertThatThrownBy(() -> parse("{\"s\":{\"stats\":{\"field\":\"n\",\"format\":\"0.0\"}}}"))
                .hasMessageContaining("[format]");
    }
}
