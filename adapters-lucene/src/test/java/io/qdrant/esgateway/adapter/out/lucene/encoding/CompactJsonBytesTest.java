package io.qdrant.esgateway.adapter.out.lucene.encoding;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonBool;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNull;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
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
 * The stored source bytes are exactly what the store wrote before they were written in one pass: {@link Json#write}
 * as UTF-8 with lone surrogates escaped (indices written earlier hold these bytes, and GET returns them).
 */
class CompactJsonBytesTest {

    /** The earlier definition of the stored bytes, kept here as the reference. */
    private static byte[] reference(JsonValue value) {
        String json = Json.write(value);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < json.length() && Character.isLowSurrogate(json.charAt(i + 1))) {
                out.append(c).append(json.charAt(++i));
            } else if (Character.isSurrogate(c)) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void everyKindOfValueAndEscapeIsWrittenAsBefore() {
        Map<String, JsonValue> members = new LinkedHashMap<>();
        members.put("plain", new JsonString("Dune"));
        members.put("escapes", new JsonString("q\"b\\n\nr\rt\tc\u0001\u001f end"));
        members.put("two-byte é ß", new JsonString("ÿ\u0080\u07ff"));
        members.put("three", new JsonString("\u0800 € \uffff 中文"));
        members.put("pair", new JsonString("emoji \uD83D\uDE00 end"));
        members.put("lone", new JsonString("high \uD800 low \uDC00 reversed \uDE00\uD83D at end \uD801"));
        members.put("long", new JsonNumber(-9_223_372_036_854_775_808L));
        members.put("int", new JsonNumber(7));
        members.put("double", new JsonNumber(1.0E-10));
        members.put("big", new JsonNumber(new BigInteger("123456789012345678901234567890")));
        members.put("decimal", new JsonNumber(new BigDecimal("1E+3")));
        members.put("bools", new JsonArray(List.of(new JsonBool(true), new JsonBool(false), JsonNull.INSTANCE)));
        members.put("nested", new JsonObject(Map.of("a", new JsonArray(List.of()), "b", JsonObject.of())));
        JsonObject source = new JsonObject(members);

        byte[] written = CompactJsonBytes.of(source);

        assertThat(written).isEqualTo(reference(source));
        assertThat(new String(written, StandardCharsets.UTF_8)).contains("\\ud800", "\\udc00", "\\ud801", "1000");
        assertThat(Json.parse(new String(written, StandardCharsets.UTF_8))).isEqualTo(Json.parse(Json.write(source)));
    }

    @Test
    void randomDocumentsMatchTheReferenceByteForByte() {
        Random random = new Random(7);
        for (int n = 0; n < 2_000; n++) {
            JsonValue value = randomObject(random, 0);
            assertThat(CompactJsonBytes.of(value)).as("document %d: %s", n, value).isEqualTo(reference(value));
        }
    }

    /** One writer for a whole batch, as a write batch uses it: long and short documents in turn, no stale bytes. */
    @Test
    void aReusedWriterWritesEachDocumentAsItsOwnWriterWould() {
        Random random = new Random(11);
        CompactJsonBytes writer = CompactJsonBytes.reusable();
        for (int n = 0; n < 2_000; n++) {
            JsonValue value = n % 7 == 0
                    ? new JsonObject(Map.of("long", new JsonString("é".repeat(random.nextInt(2_000)))))
                    : randomObject(random, 0);
            assertThat(writer.write(value)).as("document %d", n).isEqualTo(reference(value));
        }
    }

    @Test
    void aLongStringOfWideCharactersGrowsTheBuffer() {
        String wide = "\u0001\uD800".repeat(5_000) + "中".repeat(5_000);
        JsonObject source = new JsonObject(Map.of(wide, new JsonString(wide)));
        assertThat(CompactJsonBytes.of(source)).isEqualTo(reference(source));
    }

    private static JsonObject randomObject(Random random, int depth) {
        Map<String, JsonValue> members = new LinkedHashMap<>();
        int size = random.nextInt(6);
        for (int i = 0; i < size; i++) {
            members.put(randomString(random), randomValue(random, depth + 1));
        }
        return new JsonObject(members);
    }

    private static JsonValue randomValue(Random random, int depth) {
        int kind = random.nextInt(depth > 3 ? 6 : 8);
        return switch (kind) {
            case 0 -> new JsonString(randomString(random));
            case 1 -> new JsonNumber(random.nextLong());
            case 2 -> new JsonNumber(random.nextDouble() * Math.pow(10, random.nextInt(40) - 20));
            case 3 -> new JsonNumber(new BigDecimal(BigInteger.valueOf(random.nextLong()), random.nextInt(20) - 10));
            case 4 -> new JsonBool(random.nextBoolean());
            case 5 -> JsonNull.INSTANCE;
            case 6 -> {
                List<JsonValue> elements = new ArrayList<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    elements.add(randomValue(random, depth + 1));
                }
                yield new JsonArray(elements);
            }
            default -> randomObject(random, depth);
        };
    }

    /** Strings mixing ASCII, escapes, control characters, 2- and 3-byte characters, pairs and lone surrogates. */
    private static String randomString(Random random) {
        StringBuilder sb = new StringBuilder();
        for (int i = random.nextInt(12); i > 0; i--) {
            switch (random.nextInt(8)) {
                case 0 -> sb.append((char) random.nextInt(0x20));
                case 1 -> sb.append("\"\\/".charAt(random.nextInt(3)));
                case 2 -> sb.append((char) (0x80 + random.nextInt(0x780)));
                case 3 -> sb.append((char) (0x800 + random.nextInt(0xd000)));
                case 4 -> sb.append(Character.toChars(0x10000 + random.nextInt(0x100000 - 0x10000)));
                case 5 -> sb.append((char) (0xd800 + random.nextInt(0x800)));
                default -> sb.append((char) (0x20 + random.nextInt(0x5f)));
            }
        }
        return sb.toString();
    }
}
