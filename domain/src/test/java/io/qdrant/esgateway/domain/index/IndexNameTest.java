package io.qdrant.esgateway.domain.index;

import static io.qdrant.esgateway.domain.error.Failures.failure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class IndexNameTest {
    private static final String FORBIDDEN_CHARACTERS =
            "must not contain the following characters ['?','*','<','\"',' ','\\','/',',','|','>']";

    private static String repeat(String s, int times) {
        return s.repeat(times);
    }

    private static GatewayException invalidIndex(String name) {
        GatewayException e = failure(() -> IndexName.validateIndex(name));
        assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INDEX_NAME);
        return e;
    }

    private static GatewayException invalidAlias(String name) {
        GatewayException e = failure(() -> IndexName.validateAlias(name));
        assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_ALIAS_NAME);
        return e;
    }

    @Nested
    class IndexNames {
        @ParameterizedTest
        @ValueSource(strings = {"logs", "logs-2024.01.01", "a", "my_index", "idx+1", "é-index", ".hidden-ish", "a..b",
                "日本"})
        void accepts_a_valid_name(String name) {
            assertThatCode(() -> IndexName.validateIndex(name)).doesNotThrowAnyException();
        }

        @Test
        void requires_lowercase() {
            GatewayException e = invalidIndex("Logs");

            assertThat(e.reason()).isEqualTo("Invalid index name [Logs], must be lowercase");
            assertThat(e.metadata()).isEqualTo(Map.of("index_uuid", "_na_", "index", "Logs"));
        }

        @ParameterizedTest
        @ValueSource(strings = {"a\\b", "a/b", "a*b", "a?b", "a\"b", "a<b", "a>b", "a|b", "a b", "a,b"})
        void refuses_each_forbidden_character(String name) {
            assertThat(invalidIndex(name).reason())
                    .isEqualTo("Invalid index name [" + name + "], " + FORBIDDEN_CHARACTERS);
        }

        @Test
        void refuses_hash() {
            assertThat(invalidIndex("a#b").reason()).isEqualTo("Invalid index name [a#b], must not contain '#'");
        }

        @Test
        void refuses_colon() {
            assertThat(invalidIndex("remote:logs").reason())
                    .isEqualTo("Invalid index name [remote:logs], must not contain ':'");
        }

        @ParameterizedTest
        @ValueSource(strings = {"_logs", "-logs", "+logs"})
        void refuses_a_leading_underscore_minus_or_plus(String name) {
            assertThat(invalidIndex(name).reason())
                    .isEqualTo("Invalid index name [" + name + "], must not start with '_', '-', or '+'");
        }

        @ParameterizedTest
        @ValueSource(strings = {".", ".."})
        void refuses_dot_and_dot_dot(String name) {
            assertThat(invalidIndex(name).reason()).isEqualTo("Invalid index name [" + name + "], must not be '.' or '..'");
        }

        @Test
        void refuses_empty() {
            assertThat(invalidIndex("").reason()).isEqualTo("Invalid index name [], must not be empty");
        }

        @Test
        void accepts_exactly_255_bytes() {
            assertThatCode(() -> IndexName.validateIndex(repeat("a", 255))).doesNotThrowAnyException();
            assertThatCode(() -> IndexName.validateIndex(repeat("é", 127) + "a")).doesNotThrowAnyException();
        }

        @Test
        void counts_the_limit_in_utf8_bytes_not_characters() {
            String name = repeat("é", 128);

            assertThat(name).hasSize(128);
            assertThat(invalidIndex(name).reason())
                    .isEqualTo("Invalid index name [" + name + "], index name is too long, (256 > 255)");
        }

        @Test
        void refuses_256_ascii_bytes() {
            String name = repeat("a", 256);

            assertThat(invalidIndex(name).reason())
                    .isEqualTo("Invalid index name [" + name + "], index name is too long, (256 > 255)");
        }

        @Test
        void checks_the_shared_rules_before_case_as_elasticsearch_does() {
            assertThat(invalidIndex("_Logs").reason())
                    .isEqualTo("Invalid index name [_Logs], must not start with '_', '-', or '+'");
            assertThat(invalidIndex("A b").reason()).isEqualTo("Invalid index name [A b], " + FORBIDDEN_CHARACTERS);
        }
    }

    @Nested
    class AliasNames {
        @ParameterizedTest
        @ValueSource(strings = {"current", "Logs-Current", "a.b"})
        void accepts_a_valid_name_in_any_case(String name) {
            assertThatCode(() -> IndexName.validateAlias(name)).doesNotThrowAnyException();
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "  "})
        void requires_a_name(String name) {
            GatewayException e = failure(() -> IndexName.validateAlias(name));

            assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT);
            assertThat(e.reason()).isEqualTo("alias name is required");
        }

        @Test
        void requires_a_name_when_null() {
            assertThat(failure(() -> IndexName.validateAlias(null)).reason()).isEqualTo("alias name is required");
        }

        @Test
        void words_the_shared_rules_as_an_alias_error() {
            assertThat(invalidAlias("a*").reason()).isEqualTo("Invalid alias name [a*]: " + FORBIDDEN_CHARACTERS);
            assertThat(invalidAlias("a#").reason()).isEqualTo("Invalid alias name [a#]: must not contain '#'");
            assertThat(invalidAlias("a:b").reason()).isEqualTo("Invalid alias name [a:b]: must not contain ':'");
            assertThat(invalidAlias("_a").reason())
                    .isEqualTo("Invalid alias name [_a]: must not start with '_', '-', or '+'");
            assertThat(invalidAlias("..").reason()).isEqualTo("Invalid alias name [..]: must not be '.' or '..'");
            assertThat(invalidAlias(repeat("b", 256)).reason())
                    .isEqualTo("Invalid alias name [" + repeat("b", 256) + "]: index name is too long, (256 > 255)");
        }
    }

    @Nested
    class Wildcards {
        @ParameterizedTest
        @CsvSource({
                "*, logs",
                "*, ''",
                "logs*, logs",
                "logs*, logs-2024",
                "*-2024, logs-2024",
                "l*s-*4, logs-2024",
                "logs, logs",
                "*o*, logs",
                "**, x",
        })
        void matches(String pattern, String name) {
            assertThat(IndexName.matches(pattern, name)).isTrue();
        }

        @ParameterizedTest
        @CsvSource({
                "logs*, log",
                "logs, logs-1",
                "logs, log",
                "*-2024, logs-2023",
                "l?gs, logs",
                "l*s-*5, logs-2024",
                "'', x",
        })
        void does_not_match(String pattern, String name) {
            assertThat(IndexName.matches(pattern, name)).isFalse();
        }

        @Test
        void only_the_star_is_a_wildcard() {
            assertThat(IndexName.isWildcard("logs-*")).isTrue();
            assertThat(IndexName.isWildcard("*")).isTrue();
            assertThat(IndexName.isWildcard("logs?")).isFalse();
            assertThat(IndexName.isWildcard("logs")).isFalse();
        }
    }
}
