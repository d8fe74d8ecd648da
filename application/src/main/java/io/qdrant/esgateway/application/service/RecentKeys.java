package io.qdrant.esgateway.application.service;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Which response-cache keys this replica looked up lately: a fixed table of the keys' first 64 bits, one slot per key
 * by those bits, so a newer key may take an older one's slot. A hint, never an answer: a key reported absent that
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

    /** The key's first 64 bits; never 0 (an empty slot). Keys are hex digests; any other text is hashed. */
    static long bits(String key) {
        long bits = key.hashCode() * 0x9E3779B97F4A7C15L;
        if (key.length() >= 16) {
            try {
                bits = Long.parseUnsignedLong(key, 0, 16, 16);
            } catch (NumberFormatException e) {
                // not hex: the hash
            }
        }
        return bits == 0 ? 1 : bits;
    }

    void add(String key) {
        long bits = bits(key);
        slots.setRelease((int) (bits & mask), bits);
    }

    boolean contains(String key) {
        long bits = bits(key);
        return slots.getAcquire((int) (bits & mask)) == bits;
    }
}
