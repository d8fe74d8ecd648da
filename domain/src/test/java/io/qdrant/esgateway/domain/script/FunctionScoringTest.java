package io.qdrant.esgateway.domain.script;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.domain.error.GatewayException;
import io.qdrant.esgateway.domain.index.Mappings;
import io.qdrant.esgateway.domain.json.Json;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Elasticsearch's function_score arithmetic: score modes, boost modes, max_boost, weights and the failures. */
class FunctionScoringTest {
    private static final Mappings MAPPINGS = Mappings.parse(Json.parse(
            "{\"properties\":{\"n\":{\"type\":\"long\"},\"tag\":{\"type\":\"keyword\"}}}"));

    /** A document whose field n holds {@code values}. */
    private static DocReader doc(long... values) {
        return new DocReader() {
            @Override
            public List<String> keywords(String field) {
                return List.of();
            }

            @Override
            public long[] longs(String field) {
                return values;
            }

            @Override
            public double[] doubles(String field) {
                return Arrays.stream(values).asDoubleStream().toArray();
            }

            @Override
            public float[] vector(String field) {
                return null;
            }

            @Override
            public int docId() {
                return 0;
            }
        };
    }

    private static final FunctionScoring.Fn N = new FunctionScoring.FieldValueFactor("n", 1, "none", Optional.empty());
    private static final FunctionScoring.Fn W = new FunctionScoring.WeightOnly();

    private static float score(String scoreMode, String boostMode, float maxBoost, float sub, boolean[] match,
                               long n) {
        FunctionScoring.Bound b = FunctionScoring.bind(List.of(N, W, W), Arrays.asList(2f, 5f, null), true,
                scoreMode, boostMode, maxBoost, MAPPINGS, "i", () -> 0L);
        return b.score(doc(n), sub, i -> match[i], 0);
    }

    @Test
    void scoreModesCombineTheMatchingFunctions() {
        boolean[] all = {true, true, true};
        // n = 3: functions 2 * 3 = 6, 5, 1
        assertThat(score("sum", "replace", Float.MAX_VALUE, 1, all, 3)).isEqualTo(12f);
        assertThat(score("avg", "replace", Float.MAX_VALUE, 1, all, 3)).isEqualTo(12f / 8);
        assertThat(score("max", "replace", Float.MAX_VALUE, 1, all, 3)).isEqualTo(6f);
        assertThat(score("min", "replace", Float.MAX_VALUE, 1, all, 3)).isEqualTo(1f);
        assertThat(score("multiply", "replace", Float.MAX_VALUE, 1, all, 3)).isEqualTo(30f);
        assertThat(score("first", "replace", Float.MAX_VALUE, 1, new boolean[] {false, true, true}, 3)).isEqualTo(5f);
        // none matching: 1
        assertThat(score("max", "replace", Float.MAX_VALUE, 1, new boolean[3], 3)).isEqualTo(1f);
        assertThat(score("avg", "replace", Float.MAX_VALUE, 1, new boolean[3], 3)).isEqualTo(1f);
    }

    @Test
    void boostModesAndMaxBoost() {
        boolean[] first = {true, false, false};
        assertThat(score("sum", "multiply", Float.MAX_VALUE, 2, first, 3)).isEqualTo(12f);
        assertThat(score("sum", "sum", Float.MAX_VALUE, 2, first, 3)).isEqualTo(8f);
        assertThat(score("sum", "avg", Float.MAX_VALUE, 2, first, 3)).isEqualTo(4f);
        assertThat(score("sum", "max", Float.MAX_VALUE, 2, first, 3)).isEqualTo(6f);
        assertThat(score("sum", "min", Float.MAX_VALUE, 2, first, 3)).isEqualTo(2f);
        assertThat(score("sum", "sum", 4, 2, first, 3)).isEqualTo(6f);
    }

    @Test
    void oneUnfilteredFunctionIsAppliedAsIs() {
        FunctionScoring.Bound b = FunctionScoring.bind(List.of(N), Arrays.asList(4f), false, "avg", "replace",
                Float.MAX_VALUE, MAPPINGS, "i", () -> 0L);
        assertThat(b.score(doc(3), 1, i -> true, 0)).isEqualTo(12f);
    }

    @Test
    void failuresAsElasticsearch() {
        FunctionScoring.Fn log = new FunctionScoring.FieldValueFactor("n", 1, "log", Optional.empty());
        FunctionScoring.Bound b = FunctionScoring.bind(List.of(log), Arrays.asList((Float) null), false, "multiply",
                "replace", Float.MAX_VALUE, MAPPINGS, "i", () -> 0L);
        assertThatThrownBy(() -> b.score(doc(0), 1, i -> true, 0)).isInstanceOf(GatewayException.class)
                .hasMessageContaining("field value function must not produce negative scores");
        assertThatThrownBy(() -> b.score(doc(), 1, i -> true, 0)).hasMessage("Missing value for field [n]");
        assertThatThrownBy(() -> FunctionScoring.check(new FunctionScoring.Decay("gauss", "tag", Optional.of("1"),
                "2", Optional.empty(), 0.5, "min"), MAPPINGS))
                .hasMessage("field [tag] is of type [keyword], but only numeric types are supported.");
    }
}
