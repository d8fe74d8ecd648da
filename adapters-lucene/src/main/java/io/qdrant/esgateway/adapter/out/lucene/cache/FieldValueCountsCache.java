package io.qdrant.esgateway.adapter.out.lucene.cache;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import io.qdrant.esgateway.adapter.out.lucene.aggregation.TermRangePages;
import io.qdrant.esgateway.adapter.out.lucene.aggregation.FieldValueCounts;

/**
 * The {@link FieldValueCounts} of (segment, numeric field), and the count of a range conjunction from them.
 *
 * <p>Keyed by the segment's core cache key (a segment is immutable; entries are used only for readers without
 * deletions) and released by a core-closed listener when the segment is merged away. An entry is built only once its
 * key has been asked for {@link #USES_BEFORE_BUILD} times (a build reads the field's doc values of the whole segment
 * and sorts them — tens of milliseconds for a segment of 500,000 documents — against a few microseconds per count it
 * saves, so a field counted once or twice is left to Lucene's point count); until then, and when the entry is unusable,
 * the segment is counted as before. At most {@link #maxBytes()} for all entries together, least recently used evicted
 * first; an entry of a field with more than {@link #MAX_DISTINCT} distinct values in a segment is not held (a marker).
 */
public final class FieldValueCountsCache {
    /** Distinct values per segment and field above which an entry is not kept (768 KB at most per entry). */
    static final int MAX_DISTINCT = 1 << 16;

    /** Requests for a key before its entry is built. */
    public static final int USES_BEFORE_BUILD = 4;

    /** Keys whose requests are counted; the counts are dropped when more keys than this were asked for. */
    private static final int MAX_COUNTED_KEYS = 4_096;

    /** The gateway's cache: min(8 MiB, max heap / 64). */
    public static final FieldValueCountsCache SHARED = new FieldValueCountsCache(
            Math.min(8L << 20, Runtime.getRuntime().maxMemory() / 64));

    private record Key(IndexReader.CacheKey core, String field) {
    }

    private final SegmentCacheEntries<Key, FieldValueCounts> entries;
    private final Map<Key, Integer> asked = new HashMap<>();
    private long builds;

    public FieldValueCountsCache(long maxBytes) {
        this.entries = new SegmentCacheEntries<>(maxBytes, Key::core, FieldValueCounts::bytes);
    }

    public long maxBytes() {
        return entries.maxBytes();
    }

    /**
     * The exact number of live documents matching {@code query}, a conjunction of ranges on one numeric field with no
     * term ({@code shape} from {@link TermRangePages#rangeOnly}), when some segment answers from its entry; the other
     * segments are counted with the query's own weight ({@link TermRangePages#countLeaf}). Empty when no segment has
     * a usable entry yet.
     */
    public OptionalLong count(IndexSearcher searcher, Query query, TermRangePages.Shape shape) throws IOException {
        return TermRangePages.countFromEntries(searcher, query, shape, reader -> get(reader, shape.field()));
    }

    /**
     * The entry of {@code field} in {@code reader}'s segment: null while the key has been asked for fewer than
     * {@link #USES_BEFORE_BUILD} times, when the segment has no core cache key, or when the entry does not fit the
     * budget; built now on the request that reaches the count.
     */
    public FieldValueCounts get(LeafReader reader, String field) throws IOException {
        IndexReader.CacheHelper helper = reader.getCoreCacheHelper();
        if (helper == null) {
            return null;
        }
        Key key = new Key(helper.getKey(), field);
        synchronized (this) {
            FieldValueCounts held = entries.get(key);
            if (held != null) {
                return held;
            }
            if (asked.size() >= MAX_COUNTED_KEYS && !asked.containsKey(key)) {
                asked.clear();
            }
            int n = asked.merge(key, 1, Integer::sum);
            if (n < USES_BEFORE_BUILD) {
                return null;
            }
        }
        // built outside the lock: two requests may build the same entry at once, the second one is dropped
        FieldValueCounts built = FieldValueCounts.build(reader, field, MAX_DISTINCT);
        boolean listen;
        synchronized (this) {
            builds++;
            asked.remove(key);
            FieldValueCounts held = entries.admit(key, built);
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
        asked.keySet().removeIf(k -> k.core() == core);
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
