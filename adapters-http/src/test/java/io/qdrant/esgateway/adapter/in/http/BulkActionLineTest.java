package io.qdrant.esgateway.adapter.in.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link BulkActionLine} answers only lines of its shape, and for those exactly what {@link JsonCodec#parse} gives:
 * checked on the common lines and on random mutations of them (spaces, escapes, other keys, duplicates, non-ASCII,
 * truncation), each inside a larger body at an offset.
 */
class BulkActionLineTest {
    private final JsonCodec codec = new JsonCodec();

    @Test
    void theCommonLinesAreReadAsTheParserReadsThem() {
        for (String line : List.of("{\"index\":{\"_index\":\"bench\",\"_id\":\"d1\"}}",
                "{\"create\":{\"_id\":\"x y\",\"_index\":\"i\"}}", "{\"delete\":{\"_index\":\"a\"}}",
                "{\"update\":{\"_id\":\"\"}}", "{\"index\":{}}")) {
            JsonObject simple = read(line);
            assertThat(simple).as(line).isNotNull();
            assertThat(simple).as(line).isEqualTo(codec.parse(line.getBytes(StandardCharsets.UTF_8)));
            assertThat(List.copyOf(((JsonObject) simple.members().values().iterator().next()).members().keySet()))
                    .as(line).isEqualTo(List.copyOf(((JsonObject) ((JsonObject) codec.parse(
                            line.getBytes(StandardCharsets.UTF_8))).members().values().iterator().next())
                            .members().keySet()));
        }
    }

    @Test
    void otherShapesAreLeftToTheParser() {
        for (String line : List.of("{ \"index\":{}}", "{\"index\":{\"_id\":\"a\\\"b\"}}", "{\"index\":{\"_id\":1}}",
                "{\"index\":{\"routing\":\"r\"}}", "{\"index\":{\"_id\":\"a\",\"_id\":\"b\"}}", "{\"upsert\":{}}",
                "{\"index\":{\"_id\":\"é\"}}", "{\"index\":{}} ", "{\"index\":{},\"delete\":{}}", "{\"index\":{}",
                "{\"index\":{\"_index\":\"a\",}}", "{\"index\":null}", "")) {
            assertThat(read(line)).as(line).isNull();
        }
    }

    @Test
    void randomMutationsAreEitherLeftToTheParserOrReadAsItReadsThem() {
        Random random = new Random(11);
        String[] seeds = {"{\"index\":{\"_index\":\"bench\",\"_id\":\"d1\"}}", "{\"delete\":{\"_id\":\"q\"}}",
                "{\"create\":{\"_index\":\"a-b.c\"}}", "{\"update\":{\"_id\":\"7\",\"_index\":\"x\"}}"};
        String alphabet = "{}\":,_ \\aéxdi\t1n";
        int simple = 0;
        for (int round = 0; round < 20_000; round++) {
            StringBuilder line = new StringBuilder(seeds[random.nextInt(seeds.length)]);
            for (int m = random.nextInt(3); m > 0 && !line.isEmpty(); m--) {
                int at = random.nextInt(line.length());
                switch (random.nextInt(3)) {
                    case 0 -> line.deleteCharAt(at);
                    case 1 -> line.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
                    default -> line.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
                }
            }
            JsonObject fast = read(line.toString());
            if (fast == null) {
                continue;
            }
            simple++;
            JsonValue parsed;
            try {
                parsed = codec.parse(line.toString().getBytes(StandardCharsets.UTF_8));
            } catch (GatewayException e) {
                throw new AssertionError("read [" + line + "], which the parser refuses: " + e.getMessage());
            }
            assertThat(fast).as(line.toString()).isEqualTo(parsed);
        }
        assertThat(simple).isGreaterThan(2_000);
    }

    /** The line inside a body, between other bytes, as BulkEndpoints hands it over. */
    private static JsonObject read(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        List<Byte> body = new ArrayList<>();
        for (byte b : "{\"x\":1}\n".getBytes(StandardCharsets.UTF_8)) {
            body.add(b);
        }
        int start = body.size();
        for (byte b : bytes) {
            body.add(b);
        }
        body.add((byte) '\n');
        byte[] all = new byte[body.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = body.get(i);
        }
        return BulkActionLine.simple(all, start, bytes.length);
    }
}
