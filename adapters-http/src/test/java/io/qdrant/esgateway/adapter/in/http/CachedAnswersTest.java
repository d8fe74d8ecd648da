package io.qdrant.esgateway.adapter.in.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.domain.json.JsonObjectBuilder;
import io.qdrant.esgateway.domain.json.JsonValue;
import io.qdrant.esgateway.domain.json.JsonValue.JsonArray;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How the shared response cache keeps a rendered answer: only when it comes back byte for byte. */
class CachedAnswersTest {
    private final JsonCodec codec = new JsonCodec();
    private final SearchEndpoints.CachedAnswers answers = new SearchEndpoints.CachedAnswers(codec);

    private static JsonObjectBuilder answer(JsonValue value, int failed) {
        return JsonObjectBuilder.object().put("took", 3)
                .put("_shards", JsonObjectBuilder.object().put("total", 1).put("failed", failed))
                .put("hits", JsonObjectBuilder.object().put("hits", new JsonArray(List.of(value))));
    }

    @Test
    void anAnswerComesBackAsTheSameBytes() {
        JsonValue value = JsonObjectBuilder.object().put("score", (double) 0.2876821f).put("n", Long.MAX_VALUE)
                .put("s", "déjà \"vu\"").put("x", 1.1).put("big", new JsonValue.JsonNumber(new java.math.BigInteger(
                        "123456789012345678901234567890"))).build();
        JsonValue original = answer(value, 0).build();
        Optional<byte[]> kept = answers.encode(original);
        assertThat(kept).isPresent();
        assertThat(codec.write(answers.decode(kept.get()), false)).isEqualTo(codec.write(original, false));
    }

    @Test
    void anAnswerThatWouldNotComeBackTheSameIsNotKept() {
        // beyond the double range: read back it would change
        JsonValue huge = new JsonValue.JsonNumber(new BigDecimal("1E+400"));
        assertThat(answers.encode(answer(huge, 0).build())).isEmpty();
    }

    @Test
    void anAnswerWithShardFailuresIsNotKept() {
        assertThat(answers.encode(answer(JsonValue.string("a"), 1).build())).isEmpty();
        assertThat(answers.encode(answer(JsonValue.string("a"), 0).build())).isPresent();
    }
}
