package io.qdrant.esgateway.domain.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.Json;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SearchTimeoutTest {
    private static void fails(String text, ErrorKind kind, String message) {
        assertThatThrownBy(() -> SearchTimeout.parse(text))
                .satisfies(e -> assertThat(((GatewayException) e).kind()).isEqualTo(kind))
                .hasMessage(message);
    }

    @Test
    void timeValuesAsElasticsearchReadsThem() {
        assertThat(SearchTimeout.parse("10ms")).contains(Duration.ofMillis(10));
        assertThat(SearchTimeout.parse("2s")).contains(Duration.ofSeconds(2));
        assertThat(SearchTimeout.parse("1m")).contains(Duration.ofMinutes(1));
        assertThat(SearchTimeout.parse("500micros")).contains(Duration.ofNanos(500_000));
        assertThat(SearchTimeout.parse("7nanos")).contains(Duration.ofNanos(7));
        assertThat(SearchTimeout.parse("-1")).isEmpty();
        assertThat(SearchTimeout.parse("-1s")).isEmpty();
        assertThat(SearchTimeout.parse("0")).contains(Duration.ZERO);
        assertThat(SearchTimeout.parse(Json.parse("\"3h\""))).contains(Duration.ofHours(3));
        assertThat(SearchTimeout.parse(Json.parse("null"))).isEqualTo(Optional.empty());
    }

    @Test
    void badValuesFailWithElasticsearchsErrors() {
        fails("abc", ErrorKind.ILLEGAL_ARGUMENT, "failed to parse setting [timeout] with value [abc] as a time value: unit is"
                + " missing or unrecognized");
        fails("10", ErrorKind.ILLEGAL_ARGUMENT, "failed to parse setting [timeout] with value [10] as a time value: unit is"
                + " missing or unrecognized");
        fails("1.5s", ErrorKind.ILLEGAL_ARGUMENT, "failed to parse [1.5s], fractional time values are not supported");
        fails("xs", ErrorKind.ILLEGAL_ARGUMENT, "failed to parse [xs]");
        fails("-5s", ErrorKind.ILLEGAL_ARGUMENT, "failed to parse setting [timeout] with value [-5s] as a time"
                + " value: negative durations are not supported");
        assertThatThrownBy(() -> SearchTimeout.parse("1.5s")).satisfies(e -> assertThat(((GatewayException) e)
                .gatewayCause().javaType()).isEqualTo("number_format_exception"));
        assertThatThrownBy(() -> SearchTimeout.parse(Json.parse("10")))
                .hasMessageContaining("unit is missing or unrecognized");
        assertThatThrownBy(() -> SearchTimeout.parse(Json.parse("{}")))
                .satisfies(e -> assertThat(((GatewayException) e).kind()).isEqualTo(ErrorKind.PARSING));
    }

    @Test
    void theSearchParserChecksTheBodyAndTheUrl() {
        assertThat(SearchRequestParser.parse(Optional.of(Json.parse("{\"timeout\":\"1s\"}")), Map.of()).size())
                .isEqualTo(10);
        assertThatThrownBy(() -> SearchRequestParser.parse(Optional.of(Json.parse("{\"timeout\":\"x\"}")), Map.of()))
                .hasMessageContaining("[timeout] with value [x]");
        assertThatThrownBy(() -> SearchRequestParser.parse(Optional.empty(), Map.of("timeout", "5")))
                .hasMessageContaining("[timeout] with value [5]");
    }
}
