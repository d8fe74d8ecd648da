package io.qdrant.esgateway.adapter.out.lucene.cache;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.apache.lucene.index.IndexReader;

/**
 * The entries a per-segment cache holds: least recently used out first past a byte budget, and every entry of a segment
 * core dropped when the core closes. Not thread-safe: the cache synchronises every call.
 */
final class SegmentCacheEntries<K, V> {
    private final long maxBytes;
    private final Function<K, IndexReader.CacheKey> coreOf;
    private final ToLongFunction<V> bytesOf;
    private final LinkedHashMap<K, V> entries = new LinkedHashMap<>(64, 0.75f, true);
    private final Set<IndexReader.CacheKey> listening = Collections.newSetFromMap(new IdentityHashMap<>());
    private long bytes;

    public SegmentCacheEntries(long maxBytes, Function<K, IndexReader.CacheKey> coreOf, ToLongFunction<V> bytesOf) {
        this.maxBytes = maxBytes;
        this.coreOf = coreOf;
        this.bytesOf = bytesOf;
    }

    /** The entry held under {@code key} (now the most recently used), or null. */
    V get(K key) {
        return entries.get(key);
    }

    /**
     * Holds {@code built} under {@code key} and returns it, evicting the least recently used entries past the budget;
     * returns instead the entry another request already holds under {@code key}, or null (holding nothing) when
     * {@code built} alone is over the budget.
     */
    V admit(K key, V built) {
        V raced = entries.get(key);
        if (raced != null) {
            return raced;
        }
        long size = bytesOf.applyAsLong(built);
        if (size > maxBytes) {
            return null;
        }
        entries.put(key, built);
        bytes += size;
        Iterator<V> eldest = entries.values().iterator();
        while (bytes > maxBytes && eldest.hasNext()) {
            bytes -= bytesOf.applyAsLong(eldest.next());
            eldest.remove();
        }
        return built;
    }

    /**
     * True the first time an entry of {@code core} is held since the core was last released: the caller then registers
     * the core's closed listener, which calls {@link #release}.
     */
    boolean firstOf(IndexReader.CacheKey core) {
        return listening.add(core);
    }

    /** Drops every entry of a closed segment core. */
    void release(IndexReader.CacheKey core) {
        listening.remove(core);
        bytes -= SegmentCoreEviction.remove(entries, core, coreOf, bytesOf);
    }

    /** The budget: the most bytes held at once. */
    long maxBytes() {
        return maxBytes;
    }

    /** Entries held now. */
    int size() {
        return entries.size();
    }

    /** Bytes held now. */
    long bytes() {
        return bytes;
    }
}
