package io.qdrant.esgateway.adapter.out.lucene.cache;

import java.io.IOException;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import io.qdrant.esgateway.adapter.out.lucene.aggregation.TermValueCounts;
import io.qdrant.esgateway.adapter.out.lucene.aggregation.RangeTermsCounts;

/**
 * The {@link TermValueCounts} of (segment, keyword field, numeric field): one lookup per segment and keyword field
 * of a {@code terms} aggregation over a range, where {@link SortedTermValuesCache} takes one per keyword value.
 *
 * <p>Keyed by the segment's core cache key (a segment is immutable; entries are used only for readers without
 * deletions) and released by a core-closed listener when the segment is merged away. An entry is built on the first
 * request that asks for it: a build reads both fields' doc values over the whole segment once (10–20 ms of CPU for a
 * segment of 500,000 documents), no more than what the per-value path it replaces builds on its own first use (one
 * {@link io.qdrant.esgateway.adapter.out.lucene.aggregation.SortedTermValues} per keyword value: the value's postings and numbers, sorted). When the entry is unusable
 * the segment is answered as before. At most {@link #maxBytes()} for all entries together, least recently used
 * evicted first; an entry with more than {@link #MAX_CELLS} cells (keyword values times distinct numeric values) in a
 * segment is not held (a marker: the build stops as soon as it sees too many distinct values).
 */
public final class TermValueCountsCache {
    /** Keyword values times distinct numeric values per entry above which it is not kept (1 MiB of counts). */
    static final int MAX_CELLS = 1 << 18;

    /** The gateway's cache: min(8 MiB, max heap / 64). */
    public static final TermValueCountsCache SHARED = new TermValueCountsCache(
            Math.min(8L << 20, Runtime.getRuntime().maxMemory() / 64));

    private record Key(IndexReader.CacheKey core, String termField, String valueField) {
    }

    private final SegmentCacheEntries<Key, TermValueCounts> entries;
    private long builds;

    public TermValueCountsCache(long maxBytes) {
        this.entries = new SegmentCacheEntries<>(maxBytes, Key::core, TermValueCounts::bytes);
    }

    public long maxBytes() {
        return entries.maxBytes();
    }

    /**
     * The entry of {@code termField} over {@code valueField} in {@code reader}'s segment (usable or not), built now if
     * not held; null when the segment has no core cache key or the entry does not fit the budget.
     */
    public TermValueCounts get(LeafReader reader, String termField, String valueField) throws IOException {
        IndexReader.CacheHelper helper = reader.getCoreCacheHelper();
        if (helper == null) {
            return null;
        }
        Key key = new Key(helper.getKey(), termField, valueField);
        synchronized (this) {
            TermValueCounts held = entries.get(key);
            if (held != null) {
                return held;
            }
        }
        // built outside the lock: two requests may build the same entry at once, the second one is dropped
        TermValueCounts built = TermValueCounts.build(reader, termField, valueField, RangeTermsCounts.MAX_TERMS,
                MAX_CELLS);
        boolean listen;
        synchronized (this) {
            builds++;
            TermValueCounts held = entries.admit(key, built);
            if (held != built) {
                return held; // another request's, or null: over the budget
            }
            listen = entries.firstOf(key.core());
        }
        if (listen) {
            helper.addClosedListener(this::release);
        }
        return built;
    }

    /** Drops every entry of a closed segment core. */
    private synchronized void release(IndexReader.CacheKey core) {
        entries.release(core);
    }

    /** Entries held now. */
    public synchronized int size() {
        return entries.size();
    }

    /** Bytes held now. */
    public synchronized long bytes() {
        return entries.bytes();
    }

    /** Entries built so far (held or not). */
    public synchronized long builds() {
        return builds;
    }
}
