package io.qdrant.esgateway.domain.script;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The update context: ctx, op, read-only metadata, the source as JSON in and out, and the request's script. */
class UpdateScriptsTest {
    private static final JsonObject SOURCE = (JsonObject) Json.parse(
            "{\"views\":5,\"big\":3000000000,\"ratio\":0.5,\"tags\":[\"a\"],\"obj\":{\"z\":1,\"a\":2}}");

    private static UpdateScripts.Outcome update(String script, Map<String, Object> params) {
        return UpdateScripts.update(PainlessScript.compile(ScriptContext.UPDATE, script), params, SOURCE, "idx", "7",
                3, 1000);
    }

    @Test
    void theSourceComesBackWithItsKeyOrderAndNumberTypes() {
        UpdateScripts.Outcome out = update("ctx._source.views += 1; ctx._source.f = 0.1f + 0.2f; ctx._source.obj.b = 3;"
                + " ctx._source.kinds = [ctx._source.views instanceof Integer, ctx._source.big instanceof Long,"
                + " ctx._source.ratio instanceof Double]", Map.of());
        assertThat(out.op()).isEqualTo(UpdateScripts.Op.INDEX);
        assertThat(Json.write(out.source())).isEqualTo("{\"views\":6,\"big\":3000000000,\"ratio\":0.5,\"tags\":[\"a\"],"
                + "\"obj\":{\"z\":1,\"a\":2,\"b\":3},\"f\":0.3,\"kinds\":[true,true,true]}");
    }

    @Test
    void opDecidesAndMetadataIsReadable() {
        assertThat(update("ctx.op = 'noop'", Map.of()).op()).isEqualTo(UpdateScripts.Op.NOOP);
        assertThat(update("ctx.op = 'none'", Map.of()).op()).isEqualTo(UpdateScripts.Op.NOOP);
        assertThat(update("ctx.op = 'delete'", Map.of()).op()).isEqualTo(UpdateScripts.Op.DELETE);
        assertThat(Json.write(update("ctx._source.m = ctx._index + ctx._id + ctx._version + ctx._now + ctx.op",
                Map.of()).source())).contains("\"m\":\"idx731000index\"");
    }

    @Test
    void metadataIsReadOnlyAndOpIsChecked() {
        GatewayException id = catchScript("ctx._id = 'other'");
        assertThat(id.gatewayCause().javaType()).isEqualTo("illegal_argument_exception");
        assertThat(id.gatewayCause().reason()).isEqualTo("_id cannot be updated");
        GatewayException op = catchScript("ctx.op = 'create'");
        assertThat(op.gatewayCause().reason()).isEqualTo("[op] must be one of [noop, index, delete, none], not [create]");
        UpdateScripts.Outcome upsert = UpdateScripts.upsert(PainlessScript.compile(ScriptContext.UPDATE,
                "ctx._source.op = ctx.op"), Map.of(), SOURCE, "idx", "7", 1000);
        assertThat(Json.write(upsert.source())).endsWith("\"op\":\"create\"}");
    }

    @Test
    void aSourceThatIsNoMapOrNoJsonFails() {
        assertThatThrownBy(() -> update("ctx._source = 5", Map.of())).isInstanceOf(GatewayException.class)
                .hasMessageContaining("[_source] must be a map");
        assertThatThrownBy(() -> update("ctx._source.c = 'abc'.charAt(0)", Map.of()))
                .hasMessage("cannot write xcontent for unknown value of type class java.lang.Character");
    }

    @Test
    void scriptsParseAsElasticsearchReadsThem() {
        Script inline = Script.parse(Json.parse("\"ctx._source.n++\""));
        assertThat(inline.source()).contains("ctx._source.n++");
        Script full = Script.parse(Json.parse("{\"source\":\"x\",\"lang\":\"painless\",\"params\":{\"n\":1,\"l\":[1]}}"));
        assertThat(full.paramsForRun()).isEqualTo(Map.of("n", 1, "l", java.util.List.of(1)));
        assertThat(Script.parse(Json.parse("{\"id\":\"s1\"}")).id()).contains("s1");
        assertThat(failure("{\"source\":\"x\",\"id\":\"y\"}").reason())
                .isEqualTo("must specify either [source] for an inline script or [id] for a stored script");
        assertThat(failure("{\"source\":\"x\",\"lang\":\"mustache\"}").kind()).isEqualTo(ErrorKind.UNSUPPORTED);
        assertThat(failure("{\"source\":\"x\",\"colour\":1}").kind()).isEqualTo(ErrorKind.X_CONTENT_PARSE);
        assertThat(failure("5").kind()).isEqualTo(ErrorKind.X_CONTENT_PARSE);
    }

    private static GatewayException failure(String json) {
        try {
            Script.parse(Json.parse(json));
        } catch (GatewayException e) {
            return e;
        }
        throw new AssertionError("parsed: " + json);
    }

    private static GatewayException catchScript(String script) {
        try {
            update(script, Map.of());
        } catch (GatewayException e) {
            assertThat(e.kind()).isEqualTo(ErrorKind.SCRIPT);
            return e;
        }
        throw new AssertionError("no failure: " + script);
    }
}
