package io.qdrant.esgateway.application.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RecentUsesTest {
    private static final long A = 0x00000000000000a0L;
    /** The same slot in a table of 4 as {@link #A} (bits 3 and 4), another fingerprint. */
    private static final long B = 0x10000000000000a0L;
    /** Another slot. */
    private static final long C = 0x00000000000000a8L;

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
    void aKeyWhoseFirstSlotIsTakenIsCountedInItsSecond() {
        RecentUses uses = new RecentUses(4);
        long d = A | (1L << 35); // A's first slot, another second one
        uses.use(A);
        assertThat(uses.use(d)).isEqualTo(1);
        assertThat(uses.use(A)).as("A kept its count").isEqualTo(2);
        assertThat(uses.use(d)).as("and d its own").isEqualTo(2);
        long e = A | (2L << 35); // the same first slot as both, a third second one
        assertThat(uses.use(e)).as("takes its second slot, which is empty").isEqualTo(1);
        assertThat(uses.use(A)).isEqualTo(3);
        assertThat(uses.use(d)).isEqualTo(3);
        assertThat(uses.use(e)).isEqualTo(2);
    }

    @Test
    void aKeyWhoseTwoSlotsAreTakenDisplacesTheOneUsedLess() {
        RecentUses uses = new RecentUses(4);
        long d = A | (1L << 35); // slots 0 and 1
        long f = 0x0000000000000088L | (1L << 35); // slots 1 and 1: d's second slot
        uses.use(A); // slot 0
        uses.use(A);
        uses.use(d); // slot 1 (slot 0 is used more)
        assertThat(uses.use(f)).as("displaces d, the only key in its slots").isEqualTo(1);
        assertThat(uses.use(A)).as("A is never displaced by a key that does not share its slots").isEqualTo(3);
        assertThat(uses.use(d)).as("d, displaced, starts again").isEqualTo(1);
    }

    @Test
    void keysWhoseBitsAreZeroAreCountedToo() {
        RecentUses uses = new RecentUses(16);
        assertThat(uses.use(0)).isEqualTo(1);
        assertThat(uses.use(0)).isEqualTo(2);
    }

    @Test
    void theSizeIsAPowerOfTwo() {
        assertThatThrownBy(() -> new RecentUses(6)).isInstanceOf(IllegalArgumentException.class);
    }
}
