package io.qdrant.esgateway.domain.json.compact;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import io.qdrant.esgateway.domain.json.Json;
import io.qdrant.esgateway.domain.json.CompactMembers;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.RandomJson;

/**
 * The verbatim check on UTF-8 bytes decides exactly as the check on the decoded text ({@link CompactText}), and
 * refuses every malformed byte sequence; an object kept as bytes is its text's object and writes as that text.
 */
class CompactUtf8Test {
    /** Well-formed UTF-8 decoded strictly, or {@code null} when the bytes are malformed. */
    private static String strictDecode(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static void assertSameDecision(byte[] bytes) {
        String text = strictDecode(bytes);
        boolean expected = text != null && CompactText.verbatim(text);
        assertThat(CompactUtf8.verbatim(bytes)).as("%s", text == null ? java.util.Arrays.toString(bytes) : text)
                .isEqualTo(expected);
        if (text != null) {
            assertCompactObject(text);
        }
    }

    /** {@link Json#compactObject(String)}: compact exactly when the text is verbatim, and then its text's object. */
    private static void assertCompactObject(String text) {
        boolean verbatim = CompactText.verbatim(text);
        JsonValue compact;
        try {
            compact = Json.compactObject(text);
        } catch (IllegalArgumentException e) {
            assertThat(verbatim).isFalse();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Json.parse(text))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage(e.getMessage());
            return;
        }
        if (compact instanceof JsonObject o && o.members() instanceof CompactMembers members) {
            assertThat(verbatim).as(text).isTrue();
            assertThat(members.isParsed()).isFalse();
            assertThat(members.verbatimText()).isEqualTo(text);
            if (members.verbatimUtf8() != null) {
                assertThat(members.verbatimUtf8()).isEqualTo(text.getBytes(StandardCharsets.UTF_8));
            } else {
                assertThat(text).as("only a text with a '?' is decided on the text").contains("?");
            }
            assertThat(Json.write(compact)).isEqualTo(text);
        } else {
            assertThat(verbatim).as(text).isFalse();
        }
        assertThat(compact).as(text).isEqualTo(Json.parse(text));
    }

    /** Lone surrogates encode as '?': such a text is decided on the text, never on its lossy bytes. */
    @Test
    void loneSurrogatesAndQuestionMarks() {
        for (String text : List.of("{\"a\":\"\ud800\"}", "{\"a\":\"x\udc00y\"}", "{\"\ud800\":1}", "{\"a\":\"why?\"}",
                "{\"?\":\"?\"}", "{\"a\":\"?\ud800\"}", "{\"a\":\"\ud83d\ude00\"}", "{\"a\":1,\"b\":\"é?\"}")) {
            assertCompactObject(text);
        }
        assertThat(((JsonObject) Json.compactObject("{\"a\":\"\ud800\"}")).members())
                .isNotInstanceOf(CompactMembers.class);
        assertThat(((JsonObject) Json.compactObject("{\"a\":\"why?\"}")).members()).isInstanceOf(CompactMembers.class);
        assertThat(((CompactMembers) ((JsonObject) Json.compactObject("{\"a\":\"é\"}")).members()).verbatimUtf8())
                .isEqualTo("{\"a\":\"é\"}".getBytes(StandardCharsets.UTF_8));
    }

    /** Random documents, lone surrogates and '?' included, through {@link Json#compactObject(String)}. */
    @Test
    void randomTextsThroughTheCompactObject() {
        List<String> strings = new java.util.ArrayList<>(RandomJson.ANY_STRINGS);
        strings.addAll(List.of("?", "a?b", "\ud800?", "?\udc00"));
        RandomJson documents = new RandomJson(strings);
        Random random = new Random(29);
        for (int i = 0; i < 5000; i++) {
            assertCompactObject(Json.write(documents.object(random, 0)));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"{}", "{\"a\":1}", "{\"a\":\"é中\"}", "{\"a\":\"😀\"}", "{\"a\":1,\"a\":2}", "{ \"a\":1}",
            "{\"a\":1.5}", "{\"a\":1.50}", "{\"a\":-0}", "{\"a\":01}", "{\"a\":\"x\\\"y\"}", "{\"a\":[true,false,null]}",
            "{\"a\":tru}", "{\"a\":1}x", "[1]", "", "{\"a\":\"\u007f\u2028\"}", "{\"a\":1e5}", "{\"a\":1.0E10}"})
    void examples(String text) {
        assertSameDecision(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void malformedSequencesAreNeverVerbatim() {
        String[] hex = {"C0AF", "C1BF", "E080AF", "EDA080", "EDBFBF", "F0908080", "80", "BF", "C2", "E282", "F4", "FF",
                "FE", "E2FF82", "C27F"};
        for (String h : hex) {
            byte[] inner = java.util.HexFormat.of().parseHex(h);
            byte[] doc = new byte[inner.length + 8];
            byte[] head = "{\"a\":\"".getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(head, 0, doc, 0, head.length);
            System.arraycopy(inner, 0, doc, head.length, inner.length);
            doc[head.length + inner.length] = '"';
            doc[head.length + inner.length + 1] = '}';
            byte[] exact = java.util.Arrays.copyOf(doc, head.length + inner.length + 2);
            assertThat(CompactUtf8.verbatim(exact)).as(h).isFalse();
            assertSameDecision(exact);
        }
    }

    /** Random documents as UTF-8, and the same bytes with one byte changed, removed or inserted. */
    @Test
    void randomDocumentsAndMutationsDecideAsTheirText() {
        Random random = new Random(23);
        RandomJson documents = new RandomJson(RandomJson.ANY_STRINGS);
        int verbatim = 0;
        byte[] noise = {'"', '\\', ',', ':', '{', '}', '[', ']', ' ', '0', '-', '.', 'e', 'a', (byte) 0x80,
                (byte) 0xC3, (byte) 0xA9, (byte) 0xE4, (byte) 0xED, (byte) 0xF0, (byte) 0xFF, 0x01, 0x7F};
        for (int i = 0; i < 5000; i++) {
            String text = Json.write(documents.object(random, 0));
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            assertSameDecision(bytes);
            if (CompactUtf8.verbatim(bytes)) {
                verbatim++;
            }
            if (bytes.length > 2) {
                byte[] mutated = bytes.clone();
                int at = 1 + random.nextInt(bytes.length - 2);
                switch (random.nextInt(3)) {
                    case 0 -> mutated[at] = noise[random.nextInt(noise.length)];
                    case 1 -> {
                        mutated = new byte[bytes.length - 1];
                        System.arraycopy(bytes, 0, mutated, 0, at);
                        System.arraycopy(bytes, at + 1, mutated, at, bytes.length - at - 1);
                    }
                    default -> {
                        mutated = new byte[bytes.length + 1];
                        System.arraycopy(bytes, 0, mutated, 0, at);
                        mutated[at] = noise[random.nextInt(noise.length)];
                        System.arraycopy(bytes, at, mutated, at + 1, bytes.length - at);
                    }
                }
                assertSameDecision(mutated);
            }
        }
        assertThat(verbatim).isBetween(500, 4900);
    }
}
