package io.qdrant.esgateway.adapter.out.qdrant;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The request bodies' own writer gives databind's bytes ({@code writeValueAsBytes}) for every tree. */
class RequestBodiesTest {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final String[] STRINGS = {"", "a", "key", "price", "é", "😀", "中文", "a\"b", "back\\slash",
        "tab\there", "nl\n", "\u0000\u001f", "\u007f", "</script>", "\ud800", "x\udc00y", "\u2028"};

    @Test
    void randomTreesAreWrittenAsDatabindWritesThem() throws IOException {
        Random r = new Random(42);
        for (int i = 0; i < 5000; i++) {
            JsonNode body = i % 10 == 0 ? array(r, 4) : object(r, 4);
            assertSameBytes(body);
        }
    }

    @Test
    void theAdaptersBodyShapes() throws IOException {
        ObjectNode body = F.objectNode();
        ObjectNode orderBy = body.putObject("query").putObject("order_by");
        orderBy.put("key", "_source.price");
        orderBy.put("direction", "desc");
        orderBy.set("start_from", F.numberNode(12.5));
        body.putObject("filter").putArray("must").addObject().put("key", "_f.category").putObject("match")
                .put("value", "books");
        body.put("limit", 21);
        body.putArray("with_payload").add("_id").add("_source.price");
        body.put("with_vector", false);
        assertSameBytes(body);
    }

    @Test
    void deepOrUnusualTreesGoThroughDatabind() throws IOException {
        ObjectNode deep = F.objectNode();
        ObjectNode at = deep;
        for (int i = 0; i < 300; i++) {
            at = at.putObject("d");
        }
        assertSameBytes(deep);
        ObjectNode odd = F.objectNode();
        odd.set("bin", F.binaryNode(new byte[] {1, 2, 3}));
        odd.set("pojo", F.pojoNode(java.util.List.of(1, "x")));
        assertSameBytes(odd);
    }

    private static void assertSameBytes(JsonNode body) throws IOException {
        byte[] expected = QdrantHttp.MAPPER.writeValueAsBytes(body);
        assertThat(new String(RequestBodies.write(body), java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo(new String(expected, java.nio.charset.StandardCharsets.UTF_8));
        assertThat(RequestBodies.write(body)).isEqualTo(expected);
    }

    private static ObjectNode object(Random r, int depth) {
        ObjectNode o = F.objectNode();
        int n = r.nextInt(6);
        for (int i = 0; i < n; i++) {
            o.set(STRINGS[r.nextInt(STRINGS.length)] + (r.nextBoolean() ? "" : i), value(r, depth - 1));
        }
        return o;
    }

    private static ArrayNode array(Random r, int depth) {
        ArrayNode a = F.arrayNode();
        int n = r.nextInt(5);
        for (int i = 0; i < n; i++) {
            a.add(value(r, depth - 1));
        }
        return a;
    }

    private static JsonNode value(Random r, int depth) {
        int kinds = depth > 0 ? 16 : 14;
        return switch (r.nextInt(kinds)) {
            case 0 -> F.textNode(STRINGS[r.nextInt(STRINGS.length)]);
            case 1 -> F.numberNode(r.nextInt());
            case 2 -> F.numberNode(r.nextLong());
            case 3 -> F.numberNode(r.nextDouble() * Math.pow(10, r.nextInt(40) - 20));
            case 4 -> F.numberNode(new double[] {Double.NaN, Double.POSITIVE_INFINITY, -0.0, 1e300, 4.9e-324}
                    [r.nextInt(5)]);
            case 5 -> F.numberNode(r.nextFloat());
            case 6 -> F.numberNode(new BigInteger(100, r).negate());
            case 7 -> F.numberNode(new BigDecimal(BigInteger.valueOf(r.nextLong()), r.nextInt(40) - 20));
            case 8 -> F.numberNode((short) r.nextInt());
            case 9 -> F.booleanNode(r.nextBoolean());
            case 10 -> F.nullNode();
            case 11 -> F.numberNode(new BigDecimal("1E+400"));
            case 12 -> F.textNode(Long.toString(r.nextLong()));
            case 13 -> F.numberNode(r.nextInt(100));
            case 14 -> object(r, depth);
            default -> array(r, depth);
        };
    }
}
