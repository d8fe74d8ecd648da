package io.qdrant.esgateway.adapter.in.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonValue;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CodecAndErrorsTest {
    private final JsonCodec codec = new JsonCodec();

    private String roundTrip(String json) {
        return new String(codec.write(codec.parse(json.getBytes(StandardCharsets.UTF_8)), false),
                StandardCharsets.UTF_8);
    }

    @Test
    void jsonRoundTripsKeepingOrderAndNumberKinds() {
        assertThat(roundTrip("{\"z\":1,\"a\":[true,null,2.5,\"s\\u00e9\"],\"big\":123456789012345678901234567890}"))
                .isEqualTo("{\"z\":1,\"a\":[true,null,2.5,\"sé\"],\"big\":123456789012345678901234567890}");
        assertThat(codec.parse("9007199254740993".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(new JsonValue.JsonNumber(9007199254740993L));
    }

    @Test
    void malformedJsonNamesThePosition() {
        assertThatThrownBy(() -> codec.parse("{\"a\":}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ErrorKind.NOT_JSON);
                    assertThat(e.reason()).startsWith("[1:6] Unexpected character");
                });
        assertThatThrownBy(() -> codec.parse("{\"a\":1,\"a\":2}".getBytes(StandardCharsets.UTF_8)))
                .hasMessageContaining("Duplicate field 'a'");
        assertThatThrownBy(() -> codec.parse("[".repeat(1200).getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(GatewayException.class);
    }

    private void refusedQuickly(String body, String reason) {
        long start = System.nanoTime();
        assertThatThrownBy(() -> codec.parse(body.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ErrorKind.NOT_JSON);
                    assertThat(e.reason()).contains(reason);
                });
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms to refuse").isLessThan(5_000);
    }

    @Test
    void bodiesThatWouldParseIntoFarMoreThanTheirSizeAreRefused() {
        refusedQuickly("{\"a\":" + "[".repeat(5000) + "]".repeat(5000) + "}", "nesting depth");
        // a million and one values in one body: a 2 MB body that would be tens of MB of tree
        refusedQuickly("[" + "0,".repeat(JsonCodec.MAX_VALUES) + "0]", "more than 1000000 values");
        refusedQuickly("{\"n\":" + "9".repeat(1001) + "}", "Number value length");
        refusedQuickly("{\"n\":0." + "9".repeat(1001) + "}", "Number value length");
        refusedQuickly("\"" + "x".repeat(JsonCodec.MAX_STRING_LENGTH + 1) + "\"", "String value length");
        // at the limits: accepted
        assertThat(codec.parse(("[" + "0,".repeat(JsonCodec.MAX_VALUES - 2) + "0]").getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(JsonValue.JsonArray.class);
        assertThat(codec.parse(("{\"n\":" + "9".repeat(1000) + "}").getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(JsonValue.JsonObject.class);
    }

    @Test
    void parsedValuesKnowWhereTheyStartAsJacksonCountsIt() {
        byte[] body = "{\"a\" : { \"bb\":  [1, true]},\n  \"c\": \"x\", \"é\": 2.5}".getBytes(StandardCharsets.UTF_8);
        JsonValue.JsonObject root = (JsonValue.JsonObject) codec.parse(body);
        JsonValue.JsonObject a = (JsonValue.JsonObject) root.get("a");
        JsonValue.JsonArray bb = (JsonValue.JsonArray) a.get("bb");
        assertThat(JsonValue.Position.prefix(root)).isEqualTo("[1:1] ");
        assertThat(JsonValue.Position.prefix(root.keyAt("a"))).isEqualTo("[1:2] ");
        assertThat(JsonValue.Position.prefix(a)).isEqualTo("[1:8] ");
        assertThat(JsonValue.Position.prefix(a.keyAt("bb"))).isEqualTo("[1:10] ");
        assertThat(JsonValue.Position.prefix(bb)).isEqualTo("[1:17] ");
        assertThat(JsonValue.Position.prefix(bb.elements().get(1))).isEqualTo("[1:21] ");
        assertThat(JsonValue.Position.prefix(bb.end())).isEqualTo("[1:25] ");
        assertThat(JsonValue.Position.prefix(a.end())).isEqualTo("[1:26] ");
        assertThat(JsonValue.Position.prefix(root.keyAt("c"))).isEqualTo("[2:3] ");
        assertThat(JsonValue.Position.prefix(root.get("c"))).isEqualTo("[2:8] ");
        // columns count bytes: "é" is two
        assertThat(JsonValue.Position.prefix(root.get("é"))).isEqualTo("[2:19] ");
        assertThat(JsonValue.Position.prefix(root.end())).isEqualTo("[2:22] ");
        // positions take no part in equality
        assertThat(root).isEqualTo(codec.parse("{\"a\":{\"bb\":[1,true]},\"c\":\"x\",\"é\":2.5}"
                .getBytes(StandardCharsets.UTF_8)));
        assertThat(root.hashCode()).isEqualTo(codec.parse("{\"a\":{\"bb\":[1,true]},\"c\":\"x\",\"é\":2.5}"
                .getBytes(StandardCharsets.UTF_8)).hashCode());
    }

    @Test
    void aParsingExceptionShowsItsLineAndColumnAsNumbersAndJavaExceptionsTheirType() {
        GatewayException e = new GatewayException(ErrorKind.DOCUMENT_PARSING, "[1:9] failed to parse: x",
                java.util.Map.of(), GatewayException.parsingAt("x", JsonValue.Position.of(1, 9)));
        assertThat(new String(codec.write(ErrorBodies.of(e).json(), false), StandardCharsets.UTF_8)).isEqualTo(
                "{\"error\":{\"root_cause\":[{\"type\":\"parsing_exception\",\"reason\":\"x\",\"line\":1,\"col\":9}],"
                + "\"type\":\"document_parsing_exception\",\"reason\":\"[1:9] failed to parse: x\",\"caused_by\":{"
                + "\"type\":\"parsing_exception\",\"reason\":\"x\",\"line\":1,\"col\":9}},\"status\":400}");
        GatewayException f = new GatewayException(ErrorKind.DOCUMENT_PARSING, "failed", java.util.Map.of(),
                GatewayException.javaException("number_format_exception", "For input string: \"a\""));
        assertThat(new String(codec.write(ErrorBodies.of(f).json(), false), StandardCharsets.UTF_8)).isEqualTo(
                "{\"error\":{\"root_cause\":[{\"type\":\"document_parsing_exception\",\"reason\":\"failed\"}],"
                + "\"type\":\"document_parsing_exception\",\"reason\":\"failed\",\"caused_by\":{"
                + "\"type\":\"number_format_exception\",\"reason\":\"For input string: \\\"a\\\"\"}},\"status\":400}");
    }

    @Test
    void everyErrorKindHasAStatusAndAType() {
        for (ErrorKind kind : ErrorKind.values()) {
            assertThat(ErrorBodies.status(kind)).as(kind.name()).isBetween(400, 599);
            assertThat(ErrorBodies.type(kind)).as(kind.name()).matches("[a-z_]+");
        }
    }

    @Test
    void causesRenderAsRootCauseAndCausedBy() {
        EsResponse r = ErrorBodies.of(GatewayException.mappingFailed("No handler for type [x] declared on field [f]"));
        String body = new String(codec.write(r.json(), false), StandardCharsets.UTF_8);
        assertThat(r.status()).isEqualTo(400);
        assertThat(body).isEqualTo("{\"error\":{\"root_cause\":[{\"type\":\"mapper_parsing_exception\","
                + "\"reason\":\"No handler for type [x] declared on field [f]\"}],\"type\":\"mapper_parsing_exception\","
                + "\"reason\":\"Failed to parse mapping: No handler for type [x] declared on field [f]\","
                + "\"caused_by\":{\"type\":\"mapper_parsing_exception\","
                + "\"reason\":\"No handler for type [x] declared on field [f]\"}},\"status\":400}");
    }

    @Test
    void aReduceFailureHasNoFailedShardAndTheCauseAsCausedBy() {
        GatewayException cause = new GatewayException(ErrorKind.ILLEGAL_ARGUMENT, "Invalid aggregation order path"
                + " [z]. Cannot find aggregation named [z]", java.util.Map.of(),
                GatewayException.illegalArgument("Cannot find aggregation named [z]"));
        EsResponse r = ErrorBodies.of(GatewayException.reduceFailed(cause));
        assertThat(r.status()).isEqualTo(400);
        assertThat(new String(codec.write(r.json(), false), StandardCharsets.UTF_8)).isEqualTo("{\"error\":{"
                + "\"root_cause\":[],\"type\":\"search_phase_execution_exception\",\"reason\":\"\","
                + "\"phase\":\"rank-feature\",\"grouped\":true,\"failed_shards\":[],\"caused_by\":{"
                + "\"type\":\"illegal_argument_exception\",\"reason\":\"Invalid aggregation order path [z]. Cannot"
                + " find aggregation named [z]\",\"caused_by\":{\"type\":\"illegal_argument_exception\","
                + "\"reason\":\"Cannot find aggregation named [z]\"}}},\"status\":400}");
    }

    @Test
    void bugsAre500sWithAnEsStyleTypeName() {
        EsResponse r = ErrorBodies.ofBug(new NullPointerException("boom"));
        assertThat(r.status()).isEqualTo(500);
        assertThat(new String(codec.write(r.json(), false), StandardCharsets.UTF_8))
                .contains("\"type\":\"null_pointer_exception\"", "\"reason\":\"boom\"");
    }

    @Test
    void humanSizesAreElasticsearchs() {
        assertThat(CatEndpoints.human(225)).isEqualTo("225b");
        assertThat(CatEndpoints.human(1024)).isEqualTo("1kb");
        assertThat(CatEndpoints.human(4608)).isEqualTo("4.5kb");
        assertThat(CatEndpoints.human(5L * 1024 * 1024 + 100)).isEqualTo("5mb");
    }
}
