package io.qdrant.esgateway.adapter.out.lucene.cache;

import java.util.Iterator;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.apache.lucene.index.IndexReader;

/** For the per-segment caches: what to drop when a segment core closes. */
final class SegmentCoreEviction {
    private SegmentCoreEviction() {
    }

    /** Removes every entry whose key belongs to {@code core}; returns the bytes they held. */
    static <K, V> long remove(Map<K, V> entries, IndexReader.CacheKey core, Function<K, IndexReader.CacheKey> coreOf,
                              ToLongFunction<V> bytesOf) {
        long released = 0;
        Iterator<Map.Entry<K, V>> it = entries.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<K, V> entry = it.next();
            if (coreOf.apply(entry.getKey()) == core) {
                released += bytesOf.applyAsLong(entry.getValue());
                it.remove();
            }
        }
        return released;
    }
}
