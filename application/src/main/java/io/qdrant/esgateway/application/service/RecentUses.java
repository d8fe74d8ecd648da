package io.qdrant.esgateway.application.service;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How many times this replica computed the answer to a response-cache key lately, up to {@link #MAX}: a fixed table of
 * slots holding a key's 64 bits (as {@link RecentKeys} holds them) with the low three replaced by the count. Each key
 * has two slots it may be in, chosen by two other runs of its bits; a key not held takes the one of the two with the
 * lower count (an empty one first), so a newer key displaces an older one only when both of its slots are taken, and
 * then the one used less. A hint for admission, never an answer: a count lost to a newer key delays a publication,
 * one shared by two keys whose bits agree but for the low three hastens it.
 */
final class RecentUses {
    /** The largest count a slot holds. */
    static final int MAX = 7;
    private static final long COUNT = 7;

    private final AtomicLongArray slots;
    private final int mask;

    /** @param size a power of two */
    RecentUses(int size) {
        this.slots = new AtomicLongArray(RecentKeys.powerOfTwo(size));
        this.mask = size - 1;
    }

    /** The key's bits without the low three. */
    private static long fingerprint(long key) {
        return key & ~COUNT;
    }

    /** Counts one more use of {@code key}; returns its count with it (1 for a key not held), at most {@link #MAX}. */
    int use(long key) {
        long fingerprint = fingerprint(key);
        int first = (int) ((fingerprint >>> 3) & mask);
        int second = (int) ((fingerprint >>> 35) & mask);
        while (true) {
            long inFirst = slots.get(first);
            long inSecond = slots.get(second);
            int slot;
            long held;
            if ((inFirst & ~COUNT) == fingerprint || (inSecond & ~COUNT) != fingerprint
                    && (inFirst & COUNT) <= (inSecond & COUNT)) {
                slot = first; // held there, or not held and the first is used no more than the second
                held = inFirst;
            } else {
                slot = second;
                held = inSecond;
            }
            long count = (held & ~COUNT) == fingerprint ? held & COUNT : 0; // an empty slot holds count 0
            long next = fingerprint | Math.min(count + 1, MAX);
            if (next == held || slots.compareAndSet(slot, held, next)) {
                return (int) (next & COUNT);
            }
        }
    }
}
