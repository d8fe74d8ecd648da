package io.qdrant.esgateway.application.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qdrant.esgateway.application.port.out.SharedResponseCache.Ticket;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The generations a replica's lookups read (early tickets) and the keys it looked up lately. */
class KnownGenerationsTest {

    @Test
    void aTicketNeedsAGenerationOfEveryIndexReadInOneEpoch() {
        KnownGenerations known = new KnownGenerations();
        assertThat(known.ticket("k", List.of("a"))).as("nothing read yet").isNull();

        known.remember(new Ticket("x", List.of("a", "b"), List.of(3L, 5L), "e1"));
        assertThat(known.ticket("k", List.of("b", "a"))).isEqualTo(new Ticket("k", List.of("b", "a"), List.of(5L, 3L),
                "e1"));
        assertThat(known.ticket("k", List.of("a", "c"))).as("an index never read").isNull();
        assertThat(known.ticket("k", List.of())).as("no index: nothing to check").isNull();

        known.remember(new Ticket("y", List.of("b"), List.of(1L), "e2")); // the server ran anew
        assertThat(known.ticket("k", List.of("a", "b"))).as("generations of two epochs").isNull();
        assertThat(known.ticket("k", List.of("b"))).isEqualTo(new Ticket("k", List.of("b"), List.of(1L), "e2"));
    }

    @Test
    void recentKeysRememberWhatWasAddedAndForgetWhatANewerKeyDisplaced() {
        RecentKeys keys = new RecentKeys(4);
        long first = 1;
        long sameSlot = 5; // the same low bits: the same slot of 4
        assertThat(keys.contains(first)).isFalse();
        keys.add(first);
        assertThat(keys.contains(first)).isTrue();
        assertThat(keys.contains(sameSlot)).isFalse();
        keys.add(sameSlot);
        assertThat(keys.contains(sameSlot)).isTrue();
        assertThat(keys.contains(first)).as("displaced").isFalse();
        assertThat(keys.contains(0)).as("zero bits are not an empty slot").isFalse();
        keys.add(0);
        assertThat(keys.contains(0)).isTrue();
        assertThatThrownBy(() -> new RecentKeys(3)).isInstanceOf(IllegalArgumentException.class);
    }
}
