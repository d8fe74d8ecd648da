package io.qdrant.esgateway.domain.json;

import static io.qdrant.esgateway.domain.error.Failures.failure;
import static io.qdrant.esgateway.domain.json.JsonFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.json.JsonValue.JsonBool;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNull;
import io.qdrant.esgateway.domain.json.JsonValue.JsonNumber;
import io.qdrant.esgateway.domain.json.JsonValue.JsonObject;
import io.qdrant.esgateway.domain.json.JsonValue.JsonString;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class JsonReadsTest {

    private static JsonString string(String value) {
        return new JsonString(value);
    }

    private static JsonNumber number(Number value) {
        return new JsonNumber(value);
    }

    @Nested
    class ObjectRead {
        @Test
        void returns_an_object_as_is() {
            JsonObject body = JsonFixtures.object("{'a':1}");

            assertThat(JsonReads.object(body, JsonReads::parseError, "[body]")).isSameAs(body);
        }

        @Test
        void names_what_it_read_and_the_token_it_got() {
            GatewayException e = failure(() -> JsonReads.object(json("[1]"), JsonReads::parseError, "[settings]"));

            assertThat(e.kind()).isEqualTo(ErrorKind.PARSE);
            assertThat(e.reason()).isEqualTo("[settings] must be an object, got [START_ARRAY]");
        }

        @Test
        void uses_the_given_error_factory() {
            GatewayException e = failure(() -> JsonReads.object(string("x"), GatewayException::mapperParsing, "[m]"));

            assertThat(e.kind()).isEqualTo(ErrorKind.MAPPER_PARSING);
            assertThat(e.reason()).isEqualTo("[m] must be an object, got [VALUE_STRING]");
        }
    }

    @Nested
    class TextRead {
        @Test
        void reads_strings_numbers_and_booleans_as_text() {
            assertThat(JsonReads.text(string("abc"))).contains("abc");
            assertThat(JsonReads.text(number(12L))).contains("12");
            assertThat(JsonReads.text(number(1.5))).contains("1.5");
            assertThat(JsonReads.text(new JsonBool(true))).contains("true");
        }

        @Test
        void has_no_text_for_null_objects_and_arrays() {
            assertThat(JsonReads.text(JsonNull.INSTANCE)).isEmpty();
            assertThat(JsonReads.text(json("{}"))).isEmpty();
            assertThat(JsonReads.text(json("[]"))).isEmpty();
        }
    }

    @Nested
    class IntegerRead {
        @Test
        void reads_integral_numbers() {
            assertThat(JsonReads.integer(number(7L))).contains(7L);
            assertThat(JsonReads.integer(number(-3))).contains(-3L);
            assertThat(JsonReads.integer(number(new BigInteger("9223372036854775807")))).contains(Long.MAX_VALUE);
        }

        @Test
        void reads_a_whole_fractional_number() {
            assertThat(JsonReads.integer(number(2.0))).contains(2L);
            assertThat(JsonReads.integer(number(new BigDecimal("30.000")))).contains(30L);
        }

        @Test
        void refuses_a_fraction() {
            assertThat(JsonReads.integer(number(2.5))).isEmpty();
        }

        @Test
        void refuses_an_integer_beyond_long_rather_than_wrapping_it() {
            assertThat(JsonReads.integer(number(new BigInteger("18446744073709551617")))).isEmpty();
            assertThat(JsonReads.integer(number(1e20))).isEmpty();
        }

        @Test
        void reads_the_string_form_as_elasticsearch_does() {
            assertThat(JsonReads.integer(string("42"))).contains(42L);
            assertThat(JsonReads.integer(string(" -5 "))).contains(-5L);
        }

        @Test
        void refuses_other_strings_and_types() {
            assertThat(JsonReads.integer(string("four"))).isEmpty();
            assertThat(JsonReads.integer(string("1.5"))).isEmpty();
            assertThat(JsonReads.integer(new JsonBool(true))).isEmpty();
            assertThat(JsonReads.integer(JsonNull.INSTANCE)).isEmpty();
        }
    }

    @Nested
    class BoolRead {
        @Test
        void reads_booleans_and_their_exact_string_forms() {
            assertThat(JsonReads.bool(new JsonBool(true))).contains(true);
            assertThat(JsonReads.bool(new JsonBool(false))).contains(false);
            assertThat(JsonReads.bool(string("true"))).contains(true);
            assertThat(JsonReads.bool(string("false"))).contains(false);
        }

        @Test
        void refuses_anything_else_as_elasticsearch_does() {
            assertThat(JsonReads.bool(string("TRUE"))).isEmpty();
            assertThat(JsonReads.bool(string("yes"))).isEmpty();
            assertThat(JsonReads.bool(number(1L))).isEmpty();
            assertThat(JsonReads.bool(JsonNull.INSTANCE)).isEmpty();
        }
    }

    @Test
    void parse_error_is_a_parse_kind_with_the_reason() {
        GatewayException e = JsonReads.parseError("bad body");

        assertThat(e.kind()).isEqualTo(ErrorKind.PARSE);
        assertThat(e.reason()).isEqualTo("bad body");
    }
}
