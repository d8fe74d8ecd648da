package io.qdrant.esgateway.application.service;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How many times this replica computed the answer to a response-cache key lately, up to {@link #MAX}: a fixed table of
 * slots, one per key by 64 bits of it (as {@link RecentKeys} holds them), each holding those bits with the low three replaced by the count, so a newer
 * key may take an older one's slot (its count starts again). A hint for admission, never an answer: a count lost to
 * a newer key delays a publication, one shared by two keys whose bits agree but for the low three hastens it.
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
        int slot = (int) ((fingerprint >>> 3) & mask);
        while (true) {
            long held = slots.get(slot);
            long count = (held & ~COUNT) == fingerprint ? held & COUNT : 0; // an empty slot holds count 0
            long next = fingerprint | Math.min(count + 1, MAX);
            if (next == held || slots.compareAndSet(slot, held, next)) {
                return (int) (next & COUNT);
            }
        }
    }
}
