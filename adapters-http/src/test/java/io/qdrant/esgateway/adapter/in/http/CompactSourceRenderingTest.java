package io.qdrant.esgateway.adapter.in.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.json.CompactMembers;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.RandomJson;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A stored source carried as its compact text ({@link Json#compactObject}) renders byte for byte as its parsed tree
 * does: compact (the text written as it is, never parsed) and pretty (the tree).
 */
class CompactSourceRenderingTest {
    /** This test's strings: those of the sources it renders, without the lone surrogates of ANY_STRINGS. */
    private static final RandomJson DOCUMENTS = new RandomJson(List.of("", "a", "Dune", "é", "😀", "中文", "a\"b",
            "back\\slash", "line\nbreak", "tab\t", "\u0001", "\u001f", "\u007f", "\b\f", "a/b", "\u2028", "<script>",
            "\ud83d\ude00ok", "ß"));
    private final JsonCodec codec = new JsonCodec();

    @Test
    void aCompactSourceRendersAsItsTree() {
        Random random = new Random(11);
        int carried = 0;
        int fromBytes = 0;
        for (int i = 0; i < 3000; i++) {
            String text = Json.write(DOCUMENTS.object(random, 0));
            JsonValue compact = Json.compactObject(text);
            JsonValue tree = Json.parse(text);
            JsonObject answer = JsonObjectBuilder.object().put("_index", "i").put("_source", compact)
                    .put("sort", new JsonValue.JsonArray(List.of(JsonValue.number(i)))).build();
            JsonObject expected = JsonObjectBuilder.object().put("_index", "i").put("_source", tree)
                    .put("sort", new JsonValue.JsonArray(List.of(JsonValue.number(i)))).build();
            String compactBytes = new String(codec.write(answer, false), StandardCharsets.UTF_8);
            assertThat(compactBytes).as(text)
                    .isEqualTo(new String(codec.write(expected, false), StandardCharsets.UTF_8));
            if (((JsonObject) compact).members() instanceof CompactMembers m) {
                carried++;
                assertThat(m.isParsed()).as("rendered without parsing").isFalse();
                assertThat(compactBytes).contains(text);
                if (m.verbatimUtf8() != null) {
                    fromBytes++;
                }
            }
            assertThat(codec.write(answer, true)).as(text).isEqualTo(codec.write(expected, true));
        }
        assertThat(carried).isBetween(300, 2900);
        assertThat(fromBytes).as("carried as UTF-8 bytes").isEqualTo(carried);
    }

    /** A source larger than the generator's buffer is written from its UTF-8 bytes too. */
    @Test
    void aLargeSourceRendersAsItsTree() {
        String text = "{\"t\":\"" + "ü".repeat(20_000) + "\",\"n\":1,\"a\":\"x\"}";
        JsonObject large = JsonObjectBuilder.object().put("a", 1).put("_source", Json.compactObject(text)).build();
        CompactMembers m = (CompactMembers) ((JsonObject) large.get("_source")).members();
        assertThat(m.verbatimUtf8()).isNotNull();
        assertThat(codec.write(large, false)).isEqualTo(codec.write(Json.parse(Json.write(large)), false));
    }

    @Test
    void aTypicalSourceIsCarriedAsItIs() {
        String text = "{\"title\":\"Dune — ein Roman über ß\",\"rank\":12,\"price\":-3,\"ratio\":0.25,\"in_stock\":true,"
                + "\"tags\":[\"a\",\"b\"],\"released\":\"2020-01-02T03:04:05Z\",\"n\":null,\"o\":{}}";
        JsonObject compact = (JsonObject) Json.compactObject(text);
        assertThat(compact.members()).isInstanceOf(CompactMembers.class);
        assertThat(codec.write(compact, false)).isEqualTo(text.getBytes(StandardCharsets.UTF_8))
                .isEqualTo(codec.write(Json.parse(text), false));
        assertThat(((CompactMembers) compact.members()).isParsed()).isFalse();
    }
}
