package io.qdrant.esgateway.adapter.in.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.json.CompactMembers;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A stored source carried as its compact text ({@link Json#compactObject}) renders byte for byte as its parsed tree
 * does: compact (the text written as it is, never parsed) and pretty (the tree).
 */
class CompactSourceRenderingTest {
    private static final String[] STRINGS = {"", "a", "Dune", "é", "😀", "中文", "a\"b", "back\\slash", "line\nbreak",
        "tab\t", "\u0001", "\u001f", "\u007f", "\b\f", "a/b", "\u2028", "<script>", "\ud83d\ude00ok", "ß"};
    private final JsonCodec codec = new JsonCodec();

    @Test
    void aCompactSourceRendersAsItsTree() {
        Random random = new Random(11);
        int carried = 0;
        for (int i = 0; i < 3000; i++) {
            String text = Json.write(object(random, 0));
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
            }
            assertThat(codec.write(answer, true)).as(text).isEqualTo(codec.write(expected, true));
        }
        assertThat(carried).isBetween(300, 2900);
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

    private static JsonObject object(Random r, int depth) {
        Map<String, JsonValue> m = new LinkedHashMap<>();
        int n = r.nextInt(depth == 0 ? 8 : 4);
        for (int i = 0; i < n; i++) {
            m.put(r.nextInt(10) == 0 ? STRINGS[r.nextInt(STRINGS.length)] : "k" + r.nextInt(20), value(r, depth + 1));
        }
        return new JsonObject(m);
    }

    private static JsonValue value(Random r, int depth) {
        return switch (r.nextInt(depth > 3 ? 8 : 10)) {
            case 0 -> JsonValue.string(STRINGS[r.nextInt(STRINGS.length)]);
            case 1 -> JsonValue.string("w" + r.nextInt(1000));
            case 2 -> JsonValue.number(r.nextInt(2000) - 1000);
            case 3 -> JsonValue.number(r.nextLong());
            case 4 -> new JsonValue.JsonNumber(switch (r.nextInt(6)) {
                case 0 -> r.nextDouble() * 1000;
                case 1 -> (double) r.nextInt(100);
                case 2 -> 1e21 * r.nextDouble();
                case 3 -> -0.0;
                case 4 -> r.nextFloat();
                default -> 1e-7;
            });
            case 5 -> new JsonValue.JsonNumber(switch (r.nextInt(3)) {
                case 0 -> new BigInteger("123456789012345678901234567890").negate();
                case 1 -> new BigDecimal("1.50");
                default -> new BigDecimal("1E+400");
            });
            case 6 -> JsonValue.bool(r.nextBoolean());
            case 7 -> JsonValue.JsonNull.INSTANCE;
            case 8 -> object(r, depth);
            default -> {
                List<JsonValue> a = new ArrayList<>();
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    a.add(value(r, depth + 1));
                }
                yield new JsonValue.JsonArray(a);
            }
        };
    }
}
