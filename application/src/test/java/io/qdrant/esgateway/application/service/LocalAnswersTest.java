package io.qdrant.esgateway.application.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.qdrant.esgateway.application.port.out.SharedResponseCache;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The answers a replica holds: bounded by count and by encoded size, the oldest held going first. */
class LocalAnswersTest {
    private static LocalAnswers.Held held(String key, long generation, int bytes) {
        return new LocalAnswers.Held(bits(key), new SharedResponseCache.Ticket(key, List.of("u"),
                List.of(generation)), key + "@" + generation, null, bytes);
    }

    private static long bits(String key) {
        return key.hashCode();
    }

    @Test
    void theOldestGoFirstPastTheCountOrTheBytes() {
        LocalAnswers answers = new LocalAnswers(3, 100);
        answers.put(held("a", 1, 10));
        answers.put(held("b", 1, 10));
        answers.put(held("c", 1, 10));
        answers.put(held("d", 1, 10));
        assertThat(answers.get(bits("a"))).as("past the count").isNull();
        assertThat(answers.size()).isEqualTo(3);
        answers.put(held("e", 1, 75));
        assertThat(answers.get(bits("b"))).as("past the bytes").isNull();
        assertThat(answers.get(bits("c"))).as("95 bytes held: within the bound").isNotNull();
        assertThat(answers.get(bits("e")).answer()).isEqualTo("e@1");
        answers.put(held("f", 1, 101));
        assertThat(answers.get(bits("f"))).as("larger than all of it: not held").isNull();
    }

    @Test
    void anAnswerHeldAgainUnderItsKeyReplacesTheOldOneAndRemovingAStaleOneKeepsTheNew() {
        LocalAnswers answers = new LocalAnswers(4, 1000);
        LocalAnswers.Held old = held("a", 1, 10);
        answers.put(old);
        for (long g = 2; g < 100; g++) {
            answers.put(held("a", g, 10));
            answers.put(held("b", g, 10));
        }
        assertThat(answers.size()).isEqualTo(2);
        answers.remove(old);
        assertThat(answers.get(bits("a")).answer()).isEqualTo("a@99");
        answers.put(held("c", 1, 10));
        answers.put(held("d", 1, 10));
        assertThat(answers.get(bits("a"))).as("still held: the queue's stale entries are skipped").isNotNull();
    }
}
