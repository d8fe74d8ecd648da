package io.qdrant.esgateway.domain.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.ErrorKind;
import io.qdrant.esgateway.domain.error.GatewayException;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class LuceneRegexTest {
    private static boolean matches(String regex, String term) {
        Predicate<String> p = LuceneRegex.compile(regex);
        return p.test(term);
    }

    @Test
    void javaMetacharactersThatLuceneTakesLiterally() {
        assertThat(matches("a$b^", "a$b^")).isTrue();
        assertThat(matches("a\\.b", "a.b")).isTrue();
        assertThat(matches("a\\.b", "axb")).isFalse();
    }

    @Test
    void operatorsAndClasses() {
        assertThat(matches("[a-c]+x?", "abca")).isTrue();
        assertThat(matches("[^a-c].*", "abc")).isFalse();
        assertThat(matches("[^a-c].*", "zabc")).isTrue();
        assertThat(matches("(ab){2}", "abab")).isTrue();
        assertThat(matches("re|bl.*", "blue")).isTrue();
        assertThat(matches("\"a.b\"c", "a.bc")).isTrue();
        assertThat(matches("\"a.b\"c", "axbc")).isFalse();
        assertThat(matches("x@", "xanything")).isTrue();
        assertThat(matches("#", "")).isFalse();
        assertThat(matches(".", "\uD83D\uDE00")).isTrue(); // one code point
    }

    @Test
    void topLevelComplementAndIntersection() {
        assertThat(matches("~(red|blue)", "green")).isTrue();
        assertThat(matches("~(red|blue)", "red")).isFalse();
        assertThat(matches(".*e.*&~(.*u.*)", "red")).isTrue();
        assertThat(matches(".*e.*&~(.*u.*)", "blue")).isFalse();
    }

    @Test
    void nestedComplementAndIntervalsAreNamedAsUnsupported() {
        assertThatThrownBy(() -> LuceneRegex.compile("a~b")).isInstanceOfSatisfying(GatewayException.class,
                e -> assertThat(e.kind()).isEqualTo(ErrorKind.UNSUPPORTED));
        assertThatThrownBy(() -> LuceneRegex.compile("<1-50000>")).isInstanceOfSatisfying(GatewayException.class,
                e -> assertThat(e.kind()).isEqualTo(ErrorKind.UNSUPPORTED));
    }

    @Test
    void numericIntervalsAsLucene() {
        assertThat(matches("a<1-15>", "a7")).isTrue();
        assertThat(matches("a<1-15>", "a007")).isTrue(); // bounds of different widths: leading zeros accepted
        assertThat(matches("a<1-15>", "a16")).isFalse();
        assertThat(matches("<05-10>", "07")).isTrue(); // same width: zero-padded to it
        assertThat(matches("<05-10>", "7")).isFalse();
        assertThat(matches("<10-5>", "8")).isTrue();
    }

    @Test
    void malformedExpressionsAreBadRequests() {
        assertThatThrownBy(() -> LuceneRegex.compile("[ab")).isInstanceOfSatisfying(GatewayException.class,
                e -> assertThat(e.reason()).isEqualTo("expected ']' at position 3"));
        assertThatThrownBy(() -> LuceneRegex.compile("(ab")).isInstanceOfSatisfying(GatewayException.class,
                e -> assertThat(e.kind()).isEqualTo(ErrorKind.ILLEGAL_ARGUMENT));
    }
}
