package io.qdrant.esgateway.adapter.out.lucene.cache;

import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.util.BytesRef;
import io.qdrant.esgateway.adapter.out.lucene.aggregation.SortedTermValues;

/**
 * The {@link SortedTermValues} of (segment, term, numeric field), built on first use and kept within a byte budget.
 *
 * <p>Keyed by the segment's core cache key: a segment is immutable, so an entry stays right for as long as the segment
 * exists (a refresh that adds segments gives them their own entries; deletions change a reader's live documents, not
 * its core, and the entries are only used for readers without deletions). When a segment's core closes (merged away
 * and no reader left on it) a listener releases its entries.
 *
 * <p>Memory: at most {@link #maxBytes()} for all entries together ({@link SortedTermValues#bytes()}: 12 bytes per
 * document of the term plus a fixed overhead), least recently used entries evicted first. A term with more documents
 * than a quarter of the budget allows is not held: it is remembered as unusable (a fixed-size marker) and its
 * segment answered by the general path. The {@link #SHARED} instance's budget is Lucene's own default for its query
 * cache: 1/20 of the maximum heap, at most 32 MiB.
 *
 * <p>Admission: when the working set is larger than the budget, plain LRU would rebuild an entry on nearly every
 * request (a build costs a few times a general pass over the term). So a new entry that needs room is built only when
 * it has been asked for more often than every entry it would evict (counts of recent requests per key, halved every
 * {@link #FREQUENCY_WINDOW} requests; at most that many keys are counted); otherwise its segment is answered by the
 * general path this time. Entries that fit without evicting are always built.
 */
public final class SortedTermValuesCache {
    /** The gateway's cache: min(32 MiB, max heap / 20). */
    public static final SortedTermValuesCache SHARED = new SortedTermValuesCache(
            Math.min(32L << 20, Runtime.getRuntime().maxMemory() / 20));

    /** The hash is computed once: a lookup hashes its key up to three times (counts, entries, admission). */
    private record Key(IndexReader.CacheKey core, String termField, BytesRef term, String valueField, int hash) {
        static Key of(IndexReader.CacheKey core, String termField, BytesRef term, String valueField) {
            return new Key(core, termField, term, valueField,
                    java.util.Objects.hash(System.identityHashCode(core), termField, term, valueField));
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    private final long maxBytes;
    private final LinkedHashMap<Key, SortedTermValues> entries = new LinkedHashMap<>(64, 0.75f, true);
    private final Set<IndexReader.CacheKey> listening = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<Key, Integer> frequency = new HashMap<>();
    private int requests;
    private long bytes;
    private long builds;
    private long declined;

    /** Requests between two halvings of the frequency counts. */
    static final int FREQUENCY_WINDOW = 4_096;

    public SortedTermValuesCache(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    public long maxBytes() {
        return maxBytes;
    }

    /**
     * The entry of {@code term} and {@code field} in {@code reader}'s segment, built now if not held; null when the
     * segment has no core cache key (not cacheable: answered by the general path).
     */
    public SortedTermValues get(LeafReader reader, Term term, String field) throws IOException {
        IndexReader.CacheHelper helper = reader.getCoreCacheHelper();
        if (helper == null) {
            return null;
        }
        Key key = Key.of(helper.getKey(), term.field(), term.bytes(), field);
        synchronized (this) {
            counted(key);
            SortedTermValues held = entries.get(key);
            if (held != null) {
                return held;
            }
        }
        long maxDocs = maxBytes / 4 / (Long.BYTES + Integer.BYTES);
        long need = SortedTermValues.estimateBytes(reader, term, maxDocs);
        synchronized (this) {
            if (!admits(key, need)) {
                declined++;
                return null;
            }
        }
        // built outside the lock: two requests may build the same entry at once, the second one is dropped
        SortedTermValues built = SortedTermValues.build(reader, term, field, maxDocs);
        Key owned = owned(key);
        boolean listen;
        synchronized (this) {
            builds++;
            SortedTermValues raced = entries.get(owned);
            if (raced != null) {
                return raced;
            }
            entries.put(owned, built);
            bytes += built.bytes();
            evict();
            listen = listening.add(owned.core());
        }
        if (listen) {
            helper.addClosedListener(this::release);
        }
        return built;
    }

    /** Counts a request for {@code key}. */
    private void counted(Key key) {
        if (++requests >= FREQUENCY_WINDOW) {
            requests = 0;
            frequency.replaceAll((k, n) -> n / 2);
            frequency.values().removeIf(n -> n == 0);
        }
        Integer n = frequency.get(key);
        if (n != null) {
            frequency.put(key, n + 1);
        } else if (frequency.size() < FREQUENCY_WINDOW) {
            frequency.put(owned(key), 1);
        }
    }

    private static Key owned(Key key) {
        return new Key(key.core(), key.termField(), BytesRef.deepCopyOf(key.term()), key.valueField(), key.hash());
    }

    /**
     * Whether an entry of {@code need} bytes is built: when it fits, or when every entry it would evict (eldest
     * first) has been asked for less often than it.
     */
    private boolean admits(Key key, long need) {
        long free = maxBytes - bytes;
        if (need <= free) {
            return true;
        }
        int mine = frequency.getOrDefault(key, 0);
        for (Map.Entry<Key, SortedTermValues> victim : entries.entrySet()) {
            if (frequency.getOrDefault(victim.getKey(), 0) >= mine) {
                return false;
            }
            free += victim.getValue().bytes();
            if (need <= free) {
                return true;
            }
        }
        return need <= maxBytes;
    }

    private void evict() {
        Iterator<SortedTermValues> eldest = entries.values().iterator();
        while (bytes > maxBytes && eldest.hasNext()) {
            bytes -= eldest.next().bytes();
            eldest.remove();
        }
    }

    /** Drops every entry of a closed segment core. */
    private synchronized void release(IndexReader.CacheKey core) {
        listening.remove(core);
        frequency.keySet().removeIf(k -> k.core() == core);
        bytes -= SegmentCoreEviction.remove(entries, core, Key::core, SortedTermValues::bytes);
    }

    /** Entries held now. */
    public synchronized int size() {
        return entries.size();
    }

    /** Bytes held now ({@link SortedTermValues#bytes()} summed). */
    public synchronized long bytes() {
        return bytes;
    }

    /** Misses answered by the general path because the entry was not admitted. */
    public synchronized long declined() {
        return declined;
    }

    /** Entries built so far (held or not). */
    public synchronized long builds() {
        return builds;
    }
}
