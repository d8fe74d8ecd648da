package io.qdrant.esgateway.application.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RecentUsesTest {
    private static final String A = "00000000000000a0" + "ff".repeat(24);
    /** The same slot in a table of 4 as {@link #A} (bits 3 and 4 of the first 64), another fingerprint. */
    private static final String B = "10000000000000a0" + "ff".repeat(24);
    /** Another slot. */
    private static final String C = "00000000000000a8" + "ff".repeat(24);

    @Test
    void countsEachKeysUsesUpToSeven() {
        RecentUses uses = new RecentUses(4);
        assertThat(uses.use(A)).isEqualTo(1);
        assertThat(uses.use(C)).isEqualTo(1);
        assertThat(uses.use(A)).isEqualTo(2);
        for (int i = 3; i <= 9; i++) {
            assertThat(uses.use(A)).isEqualTo(Math.min(i, RecentUses.MAX));
        }
        assertThat(uses.use(C)).isEqualTo(2);
    }

    @Test
    void aNewerKeyInTheSameSlotStartsAgainAndTheOlderOneWithIt() {
        RecentUses uses = new RecentUses(4);
        uses.use(A);
        uses.use(A);
        assertThat(uses.use(B)).isEqualTo(1);
        assertThat(uses.use(A)).as("A's count was lost to B").isEqualTo(1);
    }

    @Test
    void keysThatAreNotHexDigestsAreHashed() {
        RecentUses uses = new RecentUses(16);
        assertThat(uses.use("count")).isEqualTo(1);
        assertThat(uses.use("count")).isEqualTo(2);
    }

    @Test
    void theSizeIsAPowerOfTwo() {
        assertThatThrownBy(() -> new RecentUses(6)).isInstanceOf(IllegalArgumentException.class);
    }
}
