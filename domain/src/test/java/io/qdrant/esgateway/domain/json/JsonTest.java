package io.qdrant.esgateway.domain.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import io.qdrant.esgateway.domain.json.JsonValue.JsonBool;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNull;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonTest {

    private static JsonString string(String value) {
        return new JsonString(value);
    }

    private static JsonNumber number(Number value) {
        return new JsonNumber(value);
    }

    private static JsonArray array(JsonValue... elements) {
        return new JsonArray(List.of(elements));
    }

    /** A document with every kind of value, nested, in a key order that is not alphabetical. */
    private static JsonObject everyKind() {
        return JsonObjectBuilder.object()
                .put("zeta", "last letter first")
                .put("count", 42)
                .put("ratio", 0.25)
                .put("on", true)
                .put("nothing", (JsonValue) null)
                .put("list", array(number(1L), string("two"), JsonNull.INSTANCE, array()))
                .put("inner", JsonObjectBuilder.object().put("b", 1).put("a", JsonValue.JsonObject.of()))
                .build();
    }

    @Nested
    class Write {
        @Test
        void writes_compact_text_in_the_objects_key_order() {
            assertThat(Json.write(everyKind())).isEqualTo(
                    "{\"zeta\":\"last letter first\",\"count\":42,\"ratio\":0.25,\"on\":true,\"nothing\":null,"
                            + "\"list\":[1,\"two\",null,[]],\"inner\":{\"b\":1,\"a\":{}}}");
        }

        @Test
        void escapes_quotes_backslashes_and_control_characters() {
            assertThat(Json.write(string("a\"b\\c\nd\re\tf\u0001g\bh\fi")))
                    .isEqualTo("\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g\\u0008h\\u000ci\"");
        }

        @Test
        void keeps_non_ascii_characters_unescaped() {
            assertThat(Json.write(string("é ü 日本 😀"))).isEqualTo("\"é ü 日本 😀\"");
        }

        @Test
        void writes_numbers_as_written() {
            assertThat(Json.write(number(-7L))).isEqualTo("-7");
            assertThat(Json.write(number(new BigInteger("123456789012345678901234567890"))))
                    .isEqualTo("123456789012345678901234567890");
            assertThat(Json.write(number(1.5))).isEqualTo("1.5");
            assertThat(Json.write(number(new BigDecimal("1E+3")))).isEqualTo("1000");
        }

        @Test
        void writes_the_scalar_literals() {
            assertThat(Json.write(new JsonBool(false))).isEqualTo("false");
            assertThat(Json.write(JsonNull.INSTANCE)).isEqualTo("null");
            assertThat(Json.write(JsonObject.of())).isEqualTo("{}");
        }
    }

    @Nested
    class Parse {
        @Test
        void reads_back_what_write_produced() {
            JsonObject original = everyKind();

            JsonValue parsed = Json.parse(Json.write(original));

            assertThat(parsed).isEqualTo(original);
            assertThat(((JsonObject) parsed).members().keySet())
                    .containsExactly("zeta", "count", "ratio", "on", "nothing", "list", "inner");
            assertThat(((JsonObject) ((JsonObject) parsed).get("inner")).members().keySet()).containsExactly("b", "a");
        }

        @Test
        void round_trips_escapes_and_unicode() {
            String tricky = "quote \" backslash \\ slash / nl \n cr \r tab \t bell \u0007 é 日本 😀";

            assertThat(Json.parse(Json.write(string(tricky)))).isEqualTo(string(tricky));
        }

        @Test
        void decodes_every_escape_sequence() {
            assertThat(Json.parse("\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\ud83d\\ude00\""))
                    .isEqualTo(string("\" \\ / \b \f \n \r \t é 😀"));
        }

        @Test
        void reads_integers_as_long_and_beyond_as_big_integer() {
            assertThat(Json.parse("9223372036854775807")).isEqualTo(number(Long.MAX_VALUE));
            assertThat(Json.parse("-9223372036854775808")).isEqualTo(number(Long.MIN_VALUE));
            assertThat(Json.parse("9223372036854775808"))
                    .isEqualTo(number(new BigInteger("9223372036854775808")));
            assertThat(Json.parse("-123456789012345678901234567890"))
                    .isEqualTo(number(new BigInteger("-123456789012345678901234567890")));
        }

        @Test
        void reads_fractions_and_exponents_as_double() {
            assertThat(Json.parse("1.5")).isEqualTo(number(1.5));
            assertThat(Json.parse("-2.5e3")).isEqualTo(number(-2500.0));
            assertThat(Json.parse("1E2")).isEqualTo(number(100.0));
        }

        @Test
        void keeps_a_double_out_of_range_as_big_decimal() {
            assertThat(Json.parse("1e400")).isEqualTo(number(new BigDecimal("1e400")));
        }

        @Test
        void round_trips_big_integers_and_doubles() {
            JsonArray numbers = array(number(new BigInteger("98765432109876543210")), number(0.1), number(-1.0E-7),
                    number(0L));

            assertThat(Json.parse(Json.write(numbers))).isEqualTo(numbers);
        }

        @Test
        void skips_whitespace_around_tokens() {
            assertThat(Json.parse(" \n\t{ \"a\" : [ 1 , true ] , \"b\" : null }\r\n "))
                    .isEqualTo(new JsonObject(Map.of("a", array(number(1L), new JsonBool(true)),
                            "b", JsonNull.INSTANCE)));
        }

        @Test
        void keeps_the_last_value_of_a_repeated_key() {
            assertThat(Json.parse("{\"a\":1,\"a\":2}")).isEqualTo(new JsonObject(Map.of("a", number(2L))));
        }
    }

    @Nested
    class ParseErrors {
        @ParameterizedTest
        @ValueSource(strings = {"", "   "})
        void empty_input(String text) {
            assertThatThrownBy(() -> Json.parse(text)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("invalid JSON at offset " + text.length() + ": unexpected end of input");
        }

        @Test
        void trailing_characters() {
            assertThatThrownBy(() -> Json.parse("{} x")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("invalid JSON at offset 3: trailing characters");
        }

        @Test
        void unterminated_object() {
            assertThatThrownBy(() -> Json.parse("{\"a\":1")).hasMessage("invalid JSON at offset 6: unexpected end of input");
        }

        @Test
        void missing_separator_in_object() {
            assertThatThrownBy(() -> Json.parse("{\"a\":1 \"b\":2}"))
                    .hasMessage("invalid JSON at offset 8: expected ',' or '}'");
        }

        @Test
        void missing_separator_in_array() {
            assertThatThrownBy(() -> Json.parse("[1 2]")).hasMessage("invalid JSON at offset 4: expected ',' or ']'");
        }

        @Test
        void missing_colon() {
            assertThatThrownBy(() -> Json.parse("{\"a\" 1}")).hasMessage("invalid JSON at offset 6: expected ':'");
        }

        @Test
        void unquoted_key() {
            assertThatThrownBy(() -> Json.parse("{a:1}")).hasMessage("invalid JSON at offset 2: expected '\"'");
        }

        @Test
        void trailing_comma_in_array() {
            assertThatThrownBy(() -> Json.parse("[1,]")).hasMessage("invalid JSON at offset 3: unexpected character");
        }

        @Test
        void misspelt_literal() {
            assertThatThrownBy(() -> Json.parse("tru")).hasMessage("invalid JSON at offset 0: unexpected character");
        }

        @Test
        void unterminated_string() {
            assertThatThrownBy(() -> Json.parse("\"abc")).hasMessage("invalid JSON at offset 4: unexpected end of input");
        }

        @Test
        void unknown_escape() {
            assertThatThrownBy(() -> Json.parse("\"\\x\"")).hasMessage("invalid JSON at offset 3: bad escape");
        }

        @Test
        void truncated_unicode_escape() {
            assertThatThrownBy(() -> Json.parse("\"\\u00\"")).hasMessage("invalid JSON at offset 3: bad unicode escape");
        }

        @Test
        void malformed_number() {
            assertThatThrownBy(() -> Json.parse("1.2.3")).hasMessage("invalid JSON at offset 5: bad number [1.2.3]");
            assertThatThrownBy(() -> Json.parse("-")).hasMessage("invalid JSON at offset 1: bad number [-]");
        }
    }
}
