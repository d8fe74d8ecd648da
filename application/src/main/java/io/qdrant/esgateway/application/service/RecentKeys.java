package io.qdrant.esgateway.application.service;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Which response-cache keys this replica looked up lately: a fixed table of 64 bits of each key (its request's
 * hint and catalog state, {@code SharedAnswers.Key#bits}), one slot per key by those bits, so a newer key may take an
 * older one's slot; two keys may share bits. A hint, never an answer: a key reported absent that
 * was looked up costs an overlapped computation, one reported present that was not costs a lookup before computing.
 */
final class RecentKeys {
    private final AtomicLongArray slots;
    private final int mask;

    /** @param size a power of two */
    RecentKeys(int size) {
        this.slots = new AtomicLongArray(powerOfTwo(size));
        this.mask = size - 1;
    }

    /** {@code size}, when it is a power of two (a table's size); else an {@link IllegalArgumentException}. */
    static int powerOfTwo(int size) {
        if (Integer.bitCount(size) != 1) {
            throw new IllegalArgumentException("size must be a power of two: " + size);
        }
        return size;
    }

    /** {@code bits}, never 0 (an empty slot). */
    private static long nonZero(long bits) {
        return bits == 0 ? 1 : bits;
    }

    void add(long key) {
        long bits = nonZero(key);
        slots.setRelease((int) (bits & mask), bits);
    }

    boolean contains(long key) {
        long bits = nonZero(key);
        return slots.getAcquire((int) (bits & mask)) == bits;
    }
}
