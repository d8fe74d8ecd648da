package io.qdrant.esgateway.domain.json.compact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.CompactMembers;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.RandomJson;

class CompactTextTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "{}",
        "{\"a\":1}",
        "{\"title\":\"Dune\",\"rank\":-42,\"price\":0,\"in_stock\":true,\"tags\":[\"a\",\"b\"],\"n\":null}",
        "{\"nested\":{\"x\":[1,[2,{}],[]],\"y\":{\"z\":\"é ü ß 中\"}},\"big\":123456789012345678901234567890}",
        "{\"d\":0.25,\"e\":1.0E10,\"f\":-0.0,\"g\":1.0E-5,\"h\":3.141592653589793}",
        "{\"a\":{\"k\":1},\"b\":{\"k\":2},\"k\":3}",
        "{\"del\":\"\u007f\",\"slash\":\"a/b\"}",
    })
    void verbatimTextsAreWhatWritingTheirParseGives(String text) {
        assertThat(CompactText.verbatim(text)).isTrue();
        assertThat(Json.write(Json.parse(text))).isEqualTo(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "[]", "[1]", "\"a\"", "1", "{", "{\"a\":1", "{\"a\":1}x", "{\"a\":}", "{\"a\" :1}", "{ \"a\":1}",
        "{\"a\":1,}", "{\"a\":[1,]}", "{\"a\":tru}", "{\"a\":nul}",
        "{\"a\":\"x\\ny\"}", "{\"a\":\"\\u00e9\"}", "{\"a\":\"tab\there\"}", "{\"a\":\"\ud800\"}", "{\"a\":\"\udc00x\"}", "{\"a\":\"😀\"}",
        "{\"a\":-0}", "{\"a\":05}", "{\"a\":+5}", "{\"a\":-}", "{\"a\":1.50}", "{\"a\":1e2}", "{\"a\":1E2}",
        "{\"a\":1.0e10}", "{\"a\":1e999}", "{\"a\":1-2}", "{\"a\":.5}",
        "{\"a\":1,\"a\":2}", "{\"o\":{\"k\":1,\"j\":2,\"k\":3}}",
    })
    void otherTextsAreNot(String text) {
        assertThat(CompactText.verbatim(text)).isFalse();
    }

    @Test
    void nestingBeyondTheLimitIsNotVerbatim() {
        String deep = "{\"a\":" + "[".repeat(CompactText.MAX_DEPTH) + "]".repeat(CompactText.MAX_DEPTH) + "}";
        assertThat(CompactText.verbatim(deep)).isFalse();
        String ok = "{\"a\":" + "[".repeat(CompactText.MAX_DEPTH - 2) + "]".repeat(CompactText.MAX_DEPTH - 2) + "}";
        assertThat(CompactText.verbatim(ok)).isTrue();
    }

    @Test
    void manyKeysAreCheckedForRepeatsUpToTheLimit() {
        StringBuilder b = new StringBuilder("{");
        for (int i = 0; i < CompactText.MAX_KEYS; i++) {
            b.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":").append(i);
        }
        assertThat(CompactText.verbatim(b + "}")).isTrue();
        assertThat(CompactText.verbatim(b + ",\"k7\":1}")).isFalse();
        assertThat(CompactText.verbatim(b + ",\"other\":1}")).isFalse(); // one key too many to check
    }

    @Test
    void aCompactObjectParsesOnlyWhenRead() {
        String text = "{\"title\":\"Dune\",\"rank\":7,\"tags\":[\"a\"]}";
        JsonObject lazy = (JsonObject) Json.compactObject(text);
        CompactMembers members = (CompactMembers) lazy.members();
        assertThat(members.verbatimText()).isEqualTo(text);
        assertThat(Json.write(lazy)).isEqualTo(text);
        assertThat(members.isParsed()).isFalse();

        assertThat(lazy.get("rank")).isEqualTo(JsonValue.number(7));
        assertThat(members.isParsed()).isTrue();
        JsonObject eager = (JsonObject) Json.parse(text);
        assertThat(lazy).isEqualTo(eager).hasSameHashCodeAs(eager);
        assertThat(eager).isEqualTo(lazy);
        assertThat(List.copyOf(lazy.members().keySet())).containsExactly("title", "rank", "tags");
        assertThat(lazy.has("title")).isTrue();
        assertThat(lazy.members().size()).isEqualTo(3);
        assertThatThrownBy(() -> lazy.members().put("x", JsonValue.number(1)))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> lazy.members().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThat(((JsonObject) Json.compactObject("{}")).members().isEmpty()).isTrue();
    }

    @Test
    void anotherTextIsParsedAtOnceAsParseDoes() {
        JsonValue escaped = Json.compactObject("{\"a\":\"x\\ny\"}");
        assertThat(((JsonObject) escaped).members()).isNotInstanceOf(CompactMembers.class);
        assertThat(escaped).isEqualTo(Json.parse("{\"a\":\"x\\ny\"}"));
        assertThat(Json.compactObject("[1]")).isEqualTo(Json.parse("[1]"));
        assertThatThrownBy(() -> Json.compactObject("{\"a\":}")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid JSON");
    }

    @Test
    void anObjectBuiltAroundCompactMembersKeepsThem() {
        JsonObject lazy = (JsonObject) Json.compactObject("{\"a\":1}");
        JsonObject wrapped = JsonObjectBuilder.object().put("_source", lazy).build();
        assertThat(((JsonObject) wrapped.get("_source")).members()).isInstanceOf(CompactMembers.class);
        assertThat(Json.write(wrapped)).isEqualTo("{\"_source\":{\"a\":1}}");
    }

    @Test
    void aBuilderKeepsWhatItBuiltWhenItGoesOn() {
        JsonObjectBuilder builder = JsonObjectBuilder.object().put("a", 1);
        JsonObject first = builder.build();
        JsonObject second = builder.put("b", 2).build();
        builder.put("a", 3);
        assertThat(Json.write(first)).isEqualTo("{\"a\":1}");
        assertThat(Json.write(second)).isEqualTo("{\"a\":1,\"b\":2}");
        assertThat(Json.write(builder.build())).isEqualTo("{\"a\":3,\"b\":2}");
        assertThat(first).isEqualTo(Json.parse("{\"a\":1}")).hasSameHashCodeAs(Json.parse("{\"a\":1}"));
        assertThatThrownBy(() -> first.members().put("x", JsonValue.number(1)))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> first.members().entrySet().clear())
                .isInstanceOf(UnsupportedOperationException.class);
    }

    /** Random trees written by Json.write: every verbatim text is its tree, and most of them are verbatim. */
    @Test
    void randomDocumentsRoundTripThroughTheCompactObject() {
        Random random = new Random(7);
        int verbatim = 0;
        for (int i = 0; i < 3000; i++) {
            JsonObject tree = new RandomJson(RandomJson.ANY_STRINGS).object(random, 0);
            String text = Json.write(tree);
            JsonValue compact = Json.compactObject(text);
            JsonValue parsed = Json.parse(text);
            if (((JsonObject) compact).members() instanceof CompactMembers m) {
                verbatim++;
                assertThat(Json.write(compact)).isEqualTo(text);
                assertThat(m.isParsed()).isFalse();
                assertThat(Json.write(parsed)).as(text).isEqualTo(text);
            }
            assertThat(compact).as(text).isEqualTo(parsed);
        }
        assertThat(verbatim).isBetween(300, 2900);
    }
}
